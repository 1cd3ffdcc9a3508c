//===- race_test.cc - When a variant's timing can stop early --------------===//

#include "gevo/eval/race.h"

#include <cmath>

#include "gtest/gtest.h"

namespace gevo {
namespace {

RacePlan planWith(std::vector<FrontPoint> front) {
  RacePlan plan;
  plan.front = std::move(front);
  return plan;
}

TEST(Race, NoFrontNoRacing) {
  RacePlan plan;
  EXPECT_FALSE(plan.enabled());
  EXPECT_FALSE(beatenAfterFirstRun(plan, 0.9, 100.0));
  EXPECT_FALSE(beatenAfterPairs(plan, 0.9, {50, 60, 70}));
}

TEST(Race, RatioToBeatIsTheFastestMemberAtLeastAsAccurate) {
  std::vector<FrontPoint> front = {{0.10, 1.0}, {0.12, 0.8}, {0.30, 0.2}};
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.12), 0.8);
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.11), 1.0);
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.50), 0.2);
  // More accurate than every member: it enters however slow.
  EXPECT_TRUE(std::isinf(ratioToBeat(front, 0.05)));
}

TEST(Race, FirstReadingStopsOnlyBeyondTheMargin) {
  RacePlan plan = planWith({{0.10, 1.0}, {0.15, 0.8}});
  plan.firstReadingMargin = 0.25;
  // As accurate as the x0.8 member: stopped above 1.0, kept below.
  EXPECT_TRUE(beatenAfterFirstRun(plan, 0.15, 1.01));
  EXPECT_FALSE(beatenAfterFirstRun(plan, 0.15, 0.99));
  // More accurate than every member: never stopped, even 10x slower.
  EXPECT_FALSE(beatenAfterFirstRun(plan, 0.05, 10.0));
  // A reading that is not a number does not stop it.
  EXPECT_FALSE(beatenAfterFirstRun(plan, 0.15, std::nan("")));
}

TEST(Race, PairsStopWhenEvenTheFastestIsSlowerBeyondTheBand) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.minPairs = 3;
  plan.band = 0.02;
  EXPECT_FALSE(beatenAfterPairs(plan, 0.12, {1.2, 1.3})); // too few pairs
  EXPECT_TRUE(beatenAfterPairs(plan, 0.12, {1.2, 1.3, 1.05}));
  EXPECT_FALSE(beatenAfterPairs(plan, 0.12, {1.2, 1.3, 1.01})); // in the band
  EXPECT_FALSE(beatenAfterPairs(plan, 0.08, {3, 3, 3}));        // more accurate
}

TEST(Race, NonDominatedKeepsTheStaircase) {
  std::vector<FrontPoint> kept = nonDominated(
      {{0.3, 0.2}, {0.1, 1.0}, {0.2, 1.1}, {0.1, 1.2}, {0.15, 0.7}});
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_DOUBLE_EQ(kept[0].error, 0.1);
  EXPECT_DOUBLE_EQ(kept[0].ratio, 1.0);
  EXPECT_DOUBLE_EQ(kept[1].error, 0.15);
  EXPECT_DOUBLE_EQ(kept[2].error, 0.3);
}

} // namespace
} // namespace gevo
