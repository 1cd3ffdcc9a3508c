//===- run_schedule_test.cc - The order of a child's timed runs -----------===//

#include "gevo/eval/run_schedule.h"

#include <string>

#include "gtest/gtest.h"

namespace gevo {
namespace {

/// The runs made, as "v"/"b" (variant, baseline), capitalised when timed.
struct Recorder {
  std::string runs;
  int failAt = -1; // the index of the run that fails
  absl::Status run(char which, bool timed) {
    runs += timed ? static_cast<char>(which - 'a' + 'A') : which;
    if (static_cast<int>(runs.size()) - 1 == failAt)
      return absl::InternalError("boom");
    return absl::OkStatus();
  }
};

std::optional<ScheduleFailure> run(Recorder &r, RunSchedule schedule) {
  return runSchedule(
      schedule, [&](bool timed) { return r.run('v', timed); },
      [&](bool timed) { return r.run('b', timed); });
}

TEST(RunSchedule, WarmUpThenTimedRunsOfTheVariantAlone) {
  Recorder r;
  EXPECT_FALSE(run(r, {2, 3, 0}).has_value());
  EXPECT_EQ(r.runs, "vvVVV");
}

TEST(RunSchedule, PairsAlternateWhichGoesFirst) {
  Recorder r;
  EXPECT_FALSE(run(r, {1, 5, 3}).has_value());
  EXPECT_EQ(r.runs, "vbVBBVVB");
}

TEST(RunSchedule, StopsAtTheFirstFailureAndSaysWhose) {
  Recorder r;
  r.failAt = 4; // the second pair's baseline, which goes first
  std::optional<ScheduleFailure> failure = run(r, {1, 5, 3});
  ASSERT_TRUE(failure.has_value());
  EXPECT_TRUE(failure->baseline);
  EXPECT_EQ(failure->status.message(), "boom");
  EXPECT_EQ(r.runs, "vbVBB");
  Recorder v;
  v.failAt = 0;
  failure = run(v, {1, 5, 0});
  ASSERT_TRUE(failure.has_value());
  EXPECT_FALSE(failure->baseline);
  EXPECT_EQ(v.runs, "v");
}

} // namespace
} // namespace gevo
