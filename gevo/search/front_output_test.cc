//===- front_output_test.cc - The front ranked and printed after re-measure
//===//
//
// Fake re-measurements (no timed run): a front whose re-measurement reverses
// an order is written and printed without the member it now dominates, and
// the summary prints the useful region first and one line for the rest.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <filesystem>

#include "gevo/search/front_ranking.h"
#include "gevo/search/search_outputs.h"
#include "gevo/search/search_summary.h"
#include "gevo/support/file_io.h"
#include "llvm/Support/JSON.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// A measurement of `correct` of 100 validation rows, run time `ratio`
/// times the unmodified program's.
Measurement measured(int correct, double ratio) {
  Measurement m;
  m.validation.correct = correct;
  m.validation.total = 100;
  m.test.correct = correct;
  m.test.total = 100;
  m.runtimeRatio = ratio;
  m.medianRunMs = 10 * ratio;
  m.baselineMedianRunMs = 10;
  m.runMs = {m.medianRunMs, m.medianRunMs, m.medianRunMs};
  return m;
}

/// A member the search measured at (`searchCorrect`, `searchRatio`) and the
/// re-measurement at (`correct`, `ratio`).
FrontMember member(int searchCorrect, double searchRatio, int correct,
                   double ratio) {
  FrontMember m;
  m.individual.measurement = measured(searchCorrect, searchRatio);
  m.individual.key = "key" + std::to_string(correct);
  m.remeasured = measured(correct, ratio);
  return m;
}

SearchResult fakeResult(const std::string &name) {
  const char *root = std::getenv("TEST_TMPDIR");
  SearchResult r;
  r.config.outDir = std::string(root ? root : "/tmp") + "/" + name;
  std::filesystem::remove_all(r.config.outDir);
  std::filesystem::create_directories(r.config.outDir);
  r.workloadName = "fake";
  r.objectives = {"runtime", "error"};
  r.baseline = measured(90, 1.0);
  r.baselineRemeasured = measured(90, 1.0);
  return r;
}

std::string fileText(const std::string &path) {
  absl::StatusOr<std::string> text = readFile(path, "test file");
  return text.ok() ? *text : "missing: " + path;
}

TEST(FrontOutputTest, AMemberTheReMeasurementDominatesLeavesTheFront) {
  SearchResult r = fakeResult("reversed");
  // In the search's order: the first looked fastest; re-measured, the
  // second is both faster and more accurate than it.
  r.front.push_back(member(40, 0.30, 41, 0.463));
  r.front.push_back(member(64, 0.35, 65, 0.324));
  r.front.push_back(member(88, 0.80, 88, 0.800));
  r.front.push_back(member(91, 1.05, 91, 1.050));
  ASSERT_TRUE(writeFrontFiles(r, "0123456789abcdef", {}).ok());

  ASSERT_EQ(r.front.size(), 3u);
  EXPECT_EQ(r.front[0].remeasured.validation.correct, 65);
  EXPECT_EQ(r.front[0].patchPath, "front/01.gevo");
  ASSERT_EQ(r.dominatedAfterRemeasure.size(), 1u);
  const FrontMember &dropped = r.dominatedAfterRemeasure[0];
  EXPECT_EQ(dropped.remeasured.validation.correct, 41);
  EXPECT_EQ(dropped.dominatedBy, "front/01.gevo");

  std::string dir = r.config.outDir;
  EXPECT_TRUE(std::filesystem::exists(dir + "/front/03.gevo"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/front/04.gevo"));
  EXPECT_THAT(fileText(dir + "/front/01.gevo"),
              HasSubstr("re-measured: run time x0.324"));
  std::string droppedPatch =
      fileText(dir + "/front/dominated-after-remeasure/01.gevo");
  EXPECT_THAT(droppedPatch, HasSubstr("re-measured: run time x0.463"));
  EXPECT_THAT(droppedPatch,
              HasSubstr("dominated after re-measurement by front/01.gevo"));

  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(fileText(dir + "/front.json"));
  ASSERT_TRUE(static_cast<bool>(json)) << llvm::toString(json.takeError());
  const llvm::json::Object *front = json->getAsObject();
  ASSERT_EQ(front->getArray("members")->size(), 3u);
  const llvm::json::Array *off = front->getArray("dominated_after_remeasure");
  ASSERT_EQ(off->size(), 1u);
  EXPECT_EQ((*off)[0].getAsObject()->getString("dominated_by"),
            "front/01.gevo");

  std::string summary = summarize(r);
  EXPECT_THAT(summary, HasSubstr("front: 3 variants"));
  EXPECT_THAT(summary, Not(HasSubstr("run x0.463")));
  EXPECT_THAT(summary, HasSubstr("1 left the front, dominated by another "
                                 "member once re-measured: "
                                 "front/dominated-after-remeasure/01"));
}

TEST(FrontOutputTest, TheUsefulRegionIsPrintedFirstAndTheRestInOneLine) {
  SearchResult r = fakeResult("region");
  // Unmodified: 90% accuracy, so the region is 85% or more.
  r.front.push_back(member(11, 0.12, 11, 0.12));
  r.front.push_back(member(40, 0.20, 40, 0.20));
  r.front.push_back(member(84, 0.50, 84, 0.50));
  r.front.push_back(member(86, 0.70, 86, 0.70));
  r.front.push_back(member(93, 1.20, 93, 1.20));
  ASSERT_TRUE(writeFrontFiles(r, "0123456789abcdef", {}).ok());
  ASSERT_EQ(r.front.size(), 5u);
  for (int k = 1; k <= 5; ++k)
    EXPECT_TRUE(std::filesystem::exists(r.config.outDir + "/front/0" +
                                        std::to_string(k) + ".gevo"));

  std::string summary = summarize(r);
  EXPECT_THAT(summary, HasSubstr("2 within 5 points of the unmodified "
                                 "program's validation accuracy (85.0% or "
                                 "more):\n  front/04.gevo  run x0.700"));
  EXPECT_THAT(summary, HasSubstr("\n  front/05.gevo  run x1.200"));
  EXPECT_THAT(summary, HasSubstr("\n3 more, down to 11.0% validation "
                                 "accuracy: front/01-03\n"));
  EXPECT_THAT(summary, Not(HasSubstr("front/01.gevo  run")));
  EXPECT_LT(summary.find("front/05.gevo  run"), summary.find("3 more"));
  EXPECT_THAT(summary, Not(HasSubstr("left the front")));
  EXPECT_FALSE(std::filesystem::exists(r.config.outDir +
                                       "/front/dominated-after-remeasure"));
}

TEST(FrontOutputTest, AReportAgainLeavesNoPatchOfTheLastOne) {
  SearchResult first = fakeResult("again");
  first.front.push_back(member(40, 0.30, 41, 0.463));
  first.front.push_back(member(64, 0.35, 65, 0.324));
  first.front.push_back(member(88, 0.80, 88, 0.800));
  ASSERT_TRUE(writeFrontFiles(first, "0123456789abcdef", {}).ok());
  std::string dir = first.config.outDir;
  ASSERT_TRUE(std::filesystem::exists(dir + "/front/02.gevo"));
  // A resumed run reports into the same directory: one member, none off.
  SearchResult second = fakeResult("again-unused");
  second.config.outDir = dir;
  second.front.push_back(member(88, 0.80, 88, 0.800));
  ASSERT_TRUE(writeFrontFiles(second, "0123456789abcdef", {}).ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/front/01.gevo"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/front/02.gevo"));
  EXPECT_FALSE(
      std::filesystem::exists(dir + "/front/dominated-after-remeasure"));
}

TEST(FrontOutputTest, IndexRangesAreZeroPaddedRuns) {
  EXPECT_EQ(indexRanges({1, 2, 3, 5, 7, 8}), "01-03,05,07-08");
  EXPECT_EQ(indexRanges({17}), "17");
  EXPECT_EQ(indexRanges({}), "");
}

} // namespace
} // namespace gevo
