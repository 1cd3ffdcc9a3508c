//===- front_bounds_test.cc - The front leaves out broken variants --------===//
//
// A variant whose error exceeds the unmodified program's by more than
// --max-error-increase is ranked behind every other by NSGA-II and is never
// a member of the front the search reports, however fast it is.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <filesystem>

#include "gevo/search/search.h"
#include "gevo/support/csv.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/run_directory.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(FrontBounds, NoMemberHasAnErrorBeyondTheBound) {
  const char *root = std::getenv("TEST_TMPDIR");
  SearchConfig c;
  c.workloadPath = findRunfile("testdata/digits_mlp_predict");
  c.outDir = std::string(root ? root : "/tmp") + "/front_bounds";
  std::filesystem::remove_all(c.outDir);
  c.objectives = {"static_cost", "error"};
  c.maxErrorIncrease = 0.02;
  c.algorithm.population = 8;
  c.generations = 2;
  c.budgetSeconds = 0;
  c.seed = 3;
  c.workbench.workers = 2;
  c.workbench.timeoutSeconds = 20;
  c.frontRepeats = 1;
  c.frontChildren = 1;
  absl::StatusOr<SearchResult> result = runSearch(c, false, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  double bound = result->baseline.error() + c.maxErrorIncrease;
  // Broken variants were measured (pruning seeds and random edits break
  // the digits MLP often), and none of them is on the front.
  CsvTable history = RunDirectory(c.outDir).readHistory();
  size_t outcome = history.column("outcome"), error = history.column("error");
  int beyond = 0;
  for (const std::vector<std::string> &row : history.rows)
    beyond += row[outcome] == "ok" && std::atof(row[error].c_str()) > bound;
  EXPECT_GT(beyond, 0) << "no variant beyond the bound was measured";
  ASSERT_FALSE(result->front.empty());
  for (const FrontMember &member : result->front)
    EXPECT_LE(member.individual.measurement.error(), bound + 1e-12);
  for (const FrontMember &member : result->dominatedAfterRemeasure)
    EXPECT_LE(member.individual.measurement.error(), bound + 1e-12);
}

} // namespace
} // namespace gevo
