//===- search_test.cc - Search runs: determinism, resume, cache -----------===//
//
// Small searches on the digits prediction workload with deterministic
// objectives (static cost, error), so that fronts can be compared exactly,
// one with paired run times, and the training workload's seeds.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/search.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "gevo/search/checkpoint.h"
#include "gevo/search/search_outputs.h"
#include "gevo/support/csv.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/run_directory.h"
#include "gevo/workbench/workbench.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

std::string scratch(const std::string &name) {
  const char *root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root ? root : "/tmp") + "/" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

SearchConfig smallConfig(const std::string &out, int workers, int generations) {
  SearchConfig c;
  c.workloadPath = findRunfile("testdata/digits_mlp_predict");
  c.outDir = out;
  c.objectives = {"static_cost", "error"};
  c.algorithm.population = 6;
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

/// The front as comparable text: each member's edits and objectives.
std::vector<std::string> frontText(const SearchResult &result) {
  std::vector<std::string> out;
  for (const FrontMember &member : result.front) {
    std::string text;
    for (const Edit &edit : member.individual.edits)
      text += printEdit(edit) + "\n";
    for (const std::string &name : result.objectives)
      text +=
          name + "=" +
          std::to_string(objectiveValue(member.individual.measurement, name)) +
          "\n";
    out.push_back(text);
  }
  return out;
}

TEST(SearchTest, SameFrontWithOneOrTwoWorkersAndAfterResume) {
  absl::StatusOr<SearchResult> two =
      runSearch(smallConfig(scratch("two"), 2, 3), false, nullptr);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->generationsDone, 3);
  ASSERT_FALSE(two->front.empty());
  EXPECT_GT(two->counts.evaluations, 6);

  absl::StatusOr<SearchResult> one =
      runSearch(smallConfig(scratch("one"), 1, 3), false, nullptr);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(frontText(*one), frontText(*two));

  // Interrupted after generation 1, then resumed to 3.
  std::string dir = scratch("resumed");
  absl::StatusOr<SearchResult> first =
      runSearch(smallConfig(dir, 2, 1), false, nullptr);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<SearchConfig> config = loadRunConfig(dir);
  ASSERT_TRUE(config.ok()) << config.status();
  config->generations = 3;
  absl::StatusOr<SearchResult> resumed = runSearch(*config, true, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(resumed->generationsDone, 3);
  EXPECT_EQ(frontText(*resumed), frontText(*two));

  // A run directory is not overwritten by a new run.
  absl::StatusOr<SearchResult> again =
      runSearch(smallConfig(dir, 2, 1), false, nullptr);
  EXPECT_FALSE(again.ok());

  // Starting from the first run's cache, nothing is evaluated again.
  SearchConfig cached = smallConfig(scratch("cached"), 2, 3);
  cached.importCache = two->config.outDir + "/cache.jsonl";
  absl::StatusOr<SearchResult> fromCache = runSearch(cached, false, nullptr);
  ASSERT_TRUE(fromCache.ok()) << fromCache.status();
  EXPECT_EQ(fromCache->counts.evaluations, 0);
  EXPECT_GT(fromCache->counts.cacheHits, 0);
  EXPECT_EQ(frontText(*fromCache), frontText(*two));

  // The written front replays: each patch parses and names the model.
  for (const FrontMember &member : two->front) {
    absl::StatusOr<Patch> patch =
        loadPatch(two->config.outDir + "/" + member.patchPath);
    ASSERT_TRUE(patch.ok()) << patch.status();
    EXPECT_EQ(patch->edits(), member.individual.edits);
  }
}

// With the pre-screen on, the surrogate learns from the archive and the
// failures the checkpoint keeps: a resumed run screens as the uninterrupted
// one did, and surrogate.csv has a row per bred generation.
TEST(SearchTest, PreScreenedRunResumesToTheSameFront) {
  SearchConfig whole = smallConfig(scratch("screened"), 2, 3);
  whole.algorithm.screen = 3;
  absl::StatusOr<SearchResult> uninterrupted = runSearch(whole, false, nullptr);
  ASSERT_TRUE(uninterrupted.ok()) << uninterrupted.status();
  std::ifstream csv(whole.outDir + "/surrogate.csv");
  std::string line;
  int rows = -1; // the header
  while (std::getline(csv, line))
    ++rows;
  EXPECT_EQ(rows, 3);

  SearchConfig part = smallConfig(scratch("screened_resumed"), 2, 1);
  part.algorithm.screen = 3;
  ASSERT_TRUE(runSearch(part, false, nullptr).ok());
  absl::StatusOr<SearchConfig> config = loadRunConfig(part.outDir);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->algorithm.screen, 3);
  config->generations = 3;
  absl::StatusOr<SearchResult> resumed = runSearch(*config, true, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(frontText(*resumed), frontText(*uninterrupted));
}

TEST(SearchTest, PairedRunsTimeEachVariantBesideTheUnmodifiedProgram) {
  SearchConfig config = smallConfig(scratch("paired"), 2, 1);
  config.objectives = {"runtime", "error"};
  config.pairedRuns = 3;
  absl::StatusOr<SearchResult> result = runSearch(config, false, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  absl::StatusOr<SearchConfig> reloaded = loadRunConfig(config.outDir);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_EQ(reloaded->pairedRuns, 3);

  // Every variant run in a child carries its ratio to the unmodified program
  // timed beside it, and its runtime objective is that ratio on the scale of
  // the run's own unmodified measurement.
  CsvTable history = RunDirectory(config.outDir).readHistory();
  size_t outcome = history.column("outcome"), cached = history.column("cached"),
         runtime = history.column("runtime"),
         ratio = history.column("runtime_ratio");
  ASSERT_LT(ratio, history.header.size());
  double referenceMs = result->baseline.medianRunMs;
  ASSERT_GT(referenceMs, 0);
  int paired = 0;
  for (const std::vector<std::string> &row : history.rows) {
    if (row[outcome] != "ok" || row[cached] == "1")
      continue;
    double r = std::atof(row[ratio].c_str());
    ASSERT_GT(r, 0) << "an evaluated variant without a ratio";
    EXPECT_NEAR(std::atof(row[runtime].c_str()), r * referenceMs,
                1e-3 * r * referenceMs + 1e-4);
    ++paired;
  }
  EXPECT_GE(paired, 3);
  // The ratio survives the cache file, so a resumed run's cache hits keep it.
  std::ifstream cache(config.outDir + "/cache.jsonl");
  std::string text((std::istreambuf_iterator<char>(cache)),
                   std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"runtime_ratio\""), std::string::npos);
}

TEST(SearchTest, PruneSeedsStartGenerationZeroWithOneShrinkPerLayerAndAll) {
  SearchConfig config = smallConfig(scratch("pruned"), 2, 0);
  config.algorithm.pruneSeeds = true;
  ASSERT_TRUE(runSearch(config, false, nullptr).ok());
  absl::StatusOr<SearchConfig> reloaded = loadRunConfig(config.outDir);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_TRUE(reloaded->algorithm.pruneSeeds);
  // The model's two hidden layers (256 and 128 units) each give a
  // single-shrink list, distinct variants, ahead of the random ones.
  CsvTable history = RunDirectory(config.outDir).readHistory();
  size_t kinds = history.column("kinds"), edits = history.column("edits"),
         key = history.column("key"), outcome = history.column("outcome");
  ASSERT_GE(history.rows.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(history.rows[i][kinds], "shrink");
    EXPECT_EQ(history.rows[i][edits], "1");
    EXPECT_EQ(history.rows[i][outcome], "ok");
  }
  EXPECT_NE(history.rows[0][key], history.rows[1][key]);
  // Then both shrinks in one list.
  EXPECT_EQ(history.rows[2][kinds], "shrink+shrink");
  EXPECT_EQ(history.rows[2][outcome], "ok");
}

TEST(SearchTest, RateSeedsStartATrainingSearchWithTheRateDoubledAndHalved) {
  SearchConfig config = smallConfig(scratch("rates"), 2, 0);
  config.workloadPath = findRunfile("testdata/digits_mlp_train");
  config.algorithm.rateSeeds = true;
  config.algorithm.pruneSeeds = false;
  absl::StatusOr<SearchResult> result = runSearch(config, false, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  absl::StatusOr<SearchConfig> reloaded = loadRunConfig(config.outDir);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_TRUE(reloaded->algorithm.rateSeeds);
  // The SGD loop's one learning rate (0.01), doubled and halved, leads
  // generation 0; the doubled rate trains a better model in the same
  // five epochs.
  RunDirectory run(config.outDir);
  CsvTable history = run.readHistory();
  size_t kinds = history.column("kinds"), error = history.column("error"),
         key = history.column("key");
  ASSERT_GE(history.rows.size(), 3u);
  absl::StatusOr<std::string> text = run.readCheckpoint();
  ASSERT_TRUE(text.ok()) << text.status();
  absl::StatusOr<Checkpoint> checkpoint = parseCheckpoint(*text, "checkpoint");
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  std::vector<std::string> literals;
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(history.rows[i][kinds], "constant");
    for (const Individual &individual : checkpoint->archive)
      if (individual.key == history.rows[i][key] &&
          individual.edits.size() == 1)
        literals.push_back(individual.edits[0].literal);
  }
  EXPECT_EQ(literals, (std::vector<std::string>{"0.02", "0.005"}));
  EXPECT_LT(std::atof(history.rows[0][error].c_str()),
            result->baseline.error());
}

// A workload's name picks the run directory when --out is not given: a name
// that is a path cannot lead the run out of the runs' root.
TEST(RunDirectoryName, StaysInsideTheRoot) {
  std::string root = scratch("runs");
  for (const std::string &name : std::vector<std::string>{
           "../../../x", "/etc/passwd", "..", ".", "", "a/../../b",
           "ok-name_1.2", std::string(300, 'n'), std::string("nul\0in", 6),
           "\n\t"}) {
    std::string dir = timestampedRunDirectory(root, name);
    std::filesystem::path parent = std::filesystem::path(dir).parent_path();
    EXPECT_EQ(parent, std::filesystem::path(root)) << name;
    std::string leaf = std::filesystem::path(dir).filename().string();
    EXPECT_NE(leaf.front(), '.') << name;
    EXPECT_EQ(leaf.find_first_of("/\\\n\t"), std::string::npos) << name;
    EXPECT_EQ(std::filesystem::weakly_canonical(dir).parent_path(),
              std::filesystem::weakly_canonical(root))
        << name;
    EXPECT_LE(leaf.size(), kMaxRunNameChars + 16) << name;
  }
  EXPECT_EQ(runDirectoryName("../../../x"), "_._.._.._x");
  EXPECT_EQ(runDirectoryName("digits_mlp_train"), "digits_mlp_train");
  EXPECT_EQ(runDirectoryName(".."), "_.");
  EXPECT_EQ(runDirectoryName("/"), "workload");
}

} // namespace
} // namespace gevo
