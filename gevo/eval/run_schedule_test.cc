//===- run_schedule_test.cc - The order of a child's timed runs -----------===//

#include "gevo/eval/run_schedule.h"

#include <string>
#include <vector>

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

TEST(RunSchedule, PairsNeverRunOneProgramTwiceInARow) {
  Recorder r;
  EXPECT_FALSE(run(r, {1, 5, 3}).has_value());
  EXPECT_EQ(r.runs, "vbVBVBVB");
  // After a run of the variant (racing's first run), the unmodified program
  // goes first in every pair.
  Recorder after;
  RunSchedule schedule{0, 5, 3};
  schedule.variantRanLast = true;
  EXPECT_FALSE(run(after, schedule).has_value());
  EXPECT_EQ(after.runs, "BVBVBV");
}

TEST(RunSchedule, StopsAtTheFirstFailureAndSaysWhose) {
  Recorder r;
  r.failAt = 3; // the first timed pair's baseline
  std::optional<ScheduleFailure> failure = run(r, {1, 5, 3});
  ASSERT_TRUE(failure.has_value());
  EXPECT_TRUE(failure->baseline);
  EXPECT_EQ(failure->status.message(), "boom");
  EXPECT_EQ(r.runs, "vbVB");
  Recorder v;
  v.failAt = 0;
  failure = run(v, {1, 5, 0});
  ASSERT_TRUE(failure.has_value());
  EXPECT_FALSE(failure->baseline);
  EXPECT_EQ(v.runs, "v");
}

TEST(RunSchedule, RacingStopsAfterTheWarmUpOrAPairWithoutFailing) {
  Recorder r;
  std::vector<int> asked;
  RunSchedule schedule{1, 5, 4};
  schedule.keepGoing = [&](int pairs) {
    asked.push_back(pairs);
    return pairs < 2;
  };
  EXPECT_FALSE(run(r, schedule).has_value());
  EXPECT_EQ(r.runs, "vbVBVB"); // warm-up pair, then two timed pairs
  EXPECT_EQ(asked, (std::vector<int>{0, 1, 2}));
  Recorder first;
  schedule.keepGoing = [](int) { return false; };
  EXPECT_FALSE(run(first, schedule).has_value());
  EXPECT_EQ(first.runs, "vb");
}

TEST(RunSchedule, RacingIsNotAskedAfterTheLastPair) {
  Recorder r;
  int asked = 0;
  RunSchedule schedule{1, 5, 2};
  schedule.keepGoing = [&](int) {
    ++asked;
    return true;
  };
  EXPECT_FALSE(run(r, schedule).has_value());
  EXPECT_EQ(r.runs, "vbVBVB");
  EXPECT_EQ(asked, 2); // after the warm-up and after the first pair
}

TEST(RunSchedule, AStandInTakesTheBaselinesPlaceAfterTheFirstTimedPair) {
  // Racing's short variant after its first run: the unmodified program
  // runs once, timed, and an eviction (e) stands in for it in every later
  // pair, so that no run of the variant follows one of its own.
  Recorder r;
  RunSchedule schedule{0, 5, 4};
  schedule.variantRanLast = true;
  schedule.standInForBaseline = [&] { r.runs += 'e'; };
  EXPECT_FALSE(run(r, schedule).has_value());
  EXPECT_EQ(r.runs, "BVeVeVeV");
  // Warm-up pairs keep the unmodified program; stops still apply.
  Recorder warm;
  RunSchedule warmed{1, 5, 3};
  warmed.standInForBaseline = [&] { warm.runs += 'e'; };
  warmed.keepGoing = [](int pairs) { return pairs < 2; };
  EXPECT_FALSE(run(warm, warmed).has_value());
  EXPECT_EQ(warm.runs, "vbVBVe");
}

} // namespace
} // namespace gevo
