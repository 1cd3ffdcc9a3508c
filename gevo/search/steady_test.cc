//===- steady_test.cc - The steady-state schedule: determinism, resume ----===//
//
// Small steady-state searches on the digits prediction workload with
// deterministic objectives (static cost, error): with one worker the
// history is a function of the seed and a resumed run continues it exactly;
// with two, every child bred arrives and each generation is `population`
// arrivals. And the CPU a run reports is its own, with two in one process.
//
//===----------------------------------------------------------------------===//

#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_split.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/search.h"
#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

std::string scratch(const std::string &name) {
  const char *root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root ? root : "/tmp") + "/" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

SearchConfig steadyConfig(const std::string &out, int workers,
                          int generations) {
  SearchConfig c;
  c.workloadPath = findRunfile("testdata/digits_mlp_predict");
  c.outDir = out;
  c.objectives = {"static_cost", "error"};
  c.algorithm.population = 6;
  c.algorithm.schedule = Schedule::Steady;
  c.generations = generations;
  c.budgetSeconds = 0;
  c.seed = 11;
  c.workbench.workers = workers;
  c.workbench.timeoutSeconds = 20;
  c.workbench.evaluation.warmup = 0;
  c.workbench.evaluation.repeats = 1;
  c.frontRepeats = 1;
  c.frontChildren = 1;
  c.frontLimit = 50;
  return c;
}

/// history.csv's rows without the timings: generation, key, outcome, edit
/// count, kinds, static cost, error, accuracy.
std::vector<std::string> historyRows(const std::string &dir) {
  std::ifstream in(dir + "/history.csv");
  std::vector<std::string> rows;
  std::string line;
  std::getline(in, line); // the header
  while (std::getline(in, line)) {
    std::vector<std::string> fields = absl::StrSplit(line, ',');
    fields.resize(8);
    std::string row;
    for (const std::string &field : fields)
      row += field + ",";
    rows.push_back(row);
  }
  return rows;
}

/// Rows per generation label.
std::map<int, int> rowsPerGeneration(const std::vector<std::string> &rows) {
  std::map<int, int> counts;
  for (const std::string &row : rows)
    ++counts[std::atoi(row.c_str())];
  return counts;
}

TEST(SteadyTest, OneWorkerIsAFunctionOfTheSeedAndResumesExactly) {
  absl::StatusOr<SearchResult> first =
      runSearch(steadyConfig(scratch("first"), 1, 3), false, nullptr);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->generationsDone, 3);
  ASSERT_FALSE(first->front.empty());
  absl::StatusOr<SearchResult> second =
      runSearch(steadyConfig(scratch("second"), 1, 3), false, nullptr);
  ASSERT_TRUE(second.ok()) << second.status();
  std::vector<std::string> rows = historyRows(first->config.outDir);
  EXPECT_EQ(historyRows(second->config.outDir), rows);
  // After generation 0, each generation is `population` arrivals.
  std::map<int, int> perGeneration = rowsPerGeneration(rows);
  for (int g = 1; g <= 3; ++g)
    EXPECT_EQ(perGeneration[g], 6) << "generation " << g;

  // Another seed breeds other children.
  SearchConfig other = steadyConfig(scratch("other"), 1, 3);
  other.seed = 12;
  absl::StatusOr<SearchResult> third = runSearch(other, false, nullptr);
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_NE(historyRows(other.outDir), rows);

  // Stopped after generation 1, then resumed to 3: the same children, in
  // the same order, as the uninterrupted run.
  std::string dir = scratch("resumed");
  ASSERT_TRUE(runSearch(steadyConfig(dir, 1, 1), false, nullptr).ok());
  absl::StatusOr<SearchConfig> config = loadRunConfig(dir);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->algorithm.schedule, Schedule::Steady);
  config->generations = 3;
  absl::StatusOr<SearchResult> resumed = runSearch(*config, true, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(resumed->generationsDone, 3);
  EXPECT_EQ(historyRows(dir), rows);
  EXPECT_EQ(resumed->front.size(), first->front.size());
}

TEST(SteadyTest, TwoWorkersMeasureEveryChildBred) {
  std::string dir = scratch("two");
  absl::StatusOr<SearchResult> result =
      runSearch(steadyConfig(dir, 2, 4), false, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->generationsDone, 4);
  std::map<int, int> perGeneration = rowsPerGeneration(historyRows(dir));
  for (int g = 1; g <= 4; ++g)
    EXPECT_EQ(perGeneration[g], 6) << "generation " << g;
  EXPECT_EQ(perGeneration.size(), 5u);
  // Nothing is left in flight at the end.
  std::ifstream in(dir + "/checkpoint.json");
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<Checkpoint> checkpoint = parseCheckpoint(text.str(), "c");
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  EXPECT_TRUE(checkpoint->pending.empty());
  EXPECT_EQ(checkpoint->generation, 4);
  EXPECT_EQ(checkpoint->population.size(), 6u);
}

TEST(SteadyTest, RandomSearchDrawsAListPerFreeWorker) {
  SearchConfig config = steadyConfig(scratch("random"), 2, 2);
  config.algorithm.kind = Algorithm::Random;
  absl::StatusOr<SearchResult> result = runSearch(config, false, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  std::map<int, int> perGeneration =
      rowsPerGeneration(historyRows(config.outDir));
  EXPECT_EQ(perGeneration[0], 6);
  EXPECT_EQ(perGeneration[1], 6);
  EXPECT_EQ(perGeneration[2], 6);
}

double processCpu() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// run.json's process_cpu_s (-1 when it has none).
double reportedCpu(const std::string &dir) {
  std::ifstream in(dir + "/run.json");
  std::stringstream text;
  text << in.rdbuf();
  std::string json = text.str();
  size_t at = json.find("\"process_cpu_s\":");
  if (at == std::string::npos)
    return -1;
  return std::strtod(json.c_str() + json.find(':', at) + 1, nullptr);
}

// The steady-state benchmark runs both schedules in one process, one after
// the other: the second must not count the first's CPU as its own.
TEST(SteadyTest, EachRunOfAProcessReportsItsOwnCpu) {
  SearchConfig first = steadyConfig(scratch("cpu_generational"), 2, 3);
  first.algorithm.schedule = Schedule::Generational;
  SearchConfig second = steadyConfig(scratch("cpu_steady"), 2, 3);
  double start = processCpu();
  ASSERT_TRUE(runSearch(first, false, nullptr).ok());
  double between = processCpu();
  ASSERT_TRUE(runSearch(second, false, nullptr).ok());
  double end = processCpu();
  ASSERT_GT(between - start, 0.1); // the first run's share is not noise
  double firstCpu = reportedCpu(first.outDir);
  double secondCpu = reportedCpu(second.outDir);
  EXPECT_GT(firstCpu, 0);
  EXPECT_LE(firstCpu, between - start + 0.01);
  EXPECT_GT(secondCpu, 0);
  EXPECT_LE(secondCpu, end - between + 0.01);
}

} // namespace
} // namespace gevo
