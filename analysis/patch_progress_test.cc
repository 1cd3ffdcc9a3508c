//===- patch_progress_test.cc - Per-patch progress and its estimate -------===//

#include "analysis/patch_progress.h"

#include <cstdio>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

std::string contentsOf(std::FILE *file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    text.append(buffer, n);
  return text;
}

TEST(PatchProgressTest, EstimatesFromTheEvaluationTimeThenFromThePace) {
  // 2 s per evaluation: a 3-edit patch is about 14 evaluations.
  PatchProgress progress(nullptr, "analyze", {3, 1, 7}, 2.0);
  EXPECT_DOUBLE_EQ(estimatePatchSeconds(3, 2.0), 28);
  progress.begin(0, "front/01.gevo");
  EXPECT_NEAR(progress.secondsLeft(), 28 + 12 + 60, 0.5);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  progress.finished(0);
  // The first patch took about 0.2 s for 3 edits + 1: the other two
  // (1 + 1 and 7 + 1 units) are estimated at its pace, 10 x 0.05 s.
  double left = progress.secondsLeft();
  EXPECT_GT(left, 0.3);
  EXPECT_LT(left, 2.0);
}

TEST(PatchProgressTest, SaysWhichPatchAndStepAtLeastEveryPeriod) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    PatchProgress progress(file, "analyze", {4, 2}, 1.0,
                           std::chrono::milliseconds(100));
    progress.begin(0, "front/01.gevo");
    std::this_thread::sleep_for(std::chrono::milliseconds(450));
    progress.step("ablating");
    progress.finished(0);
    progress.begin(1, "front/02.gevo");
  }
  std::string text = contentsOf(file);
  EXPECT_THAT(text, HasSubstr("analyze: patch 1 of 2 (front/01.gevo, 4 edits): "
                              "minimising  [0s, about 28s left]"));
  EXPECT_THAT(text,
              HasSubstr("patch 1 of 2 (front/01.gevo, 4 edits): ablating"));
  EXPECT_THAT(text,
              HasSubstr("analyze: patch 2 of 2 (front/02.gevo, 2 edits)"));
  // The heartbeat repeated the first line while the patch was silent.
  size_t repeats = 0;
  for (size_t at = text.find("minimising"); at != std::string::npos;
       at = text.find("minimising", at + 1))
    ++repeats;
  EXPECT_GE(repeats, 3u);
  std::fclose(file);
}

} // namespace
} // namespace gevo
