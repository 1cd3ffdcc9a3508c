//===- racing_sample_test.cc - Verdicts on stopped variants ---------------===//

#include "gevo/bench/racing_sample.h"

#include <limits>

#include "gevo/eval/race.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

constexpr double kNothingToBeat = std::numeric_limits<double>::infinity();

TEST(JudgeStop, AVariantNoFasterThanTheMemberWasRightlyStopped) {
  EXPECT_EQ(judgeStop(0.50, 0.50, false), StopVerdict::Dominated);
  EXPECT_EQ(judgeStop(0.60, 0.50, true), StopVerdict::Dominated);
}

TEST(JudgeStop, FasterBeyondTheBandIsAFalseStopInsideItIsNot) {
  double band = RacePlan().band;
  EXPECT_EQ(judgeStop(0.50, 0.50 * (1 + band / 2), false),
            StopVerdict::WithinBand);
  EXPECT_EQ(judgeStop(0.50, 0.50 * (1 + 2 * band), false),
            StopVerdict::FalseStop);
  // More accurate than every member: it would have entered however slow,
  // up to the hypervolume's reference point.
  EXPECT_EQ(judgeStop(1.9, kNothingToBeat, false), StopVerdict::FalseStop);
}

TEST(JudgeStop, ATwinOfAMemberIsCountedApart) {
  EXPECT_EQ(judgeStop(0.40, 0.50, true), StopVerdict::Twin);
}

TEST(JudgeStop, PastTheReferencePointTheRunLimitMayStopIt) {
  EXPECT_EQ(judgeStop(kHypervolumeRatio * 1.01, kNothingToBeat, false),
            StopVerdict::BeyondReference);
  EXPECT_EQ(judgeStop(10.4, kNothingToBeat, false),
            StopVerdict::BeyondReference);
  // Dominated stays dominated there.
  EXPECT_EQ(judgeStop(10.4, 5.0, false), StopVerdict::Dominated);
}

TEST(StopCounts, CountsEachVerdictButDominated) {
  StopCounts counts;
  for (StopVerdict verdict : {StopVerdict::Dominated, StopVerdict::FalseStop,
                              StopVerdict::FalseStop, StopVerdict::WithinBand,
                              StopVerdict::Twin, StopVerdict::BeyondReference})
    counts.add(verdict);
  EXPECT_EQ(counts.falseStops, 2);
  EXPECT_EQ(counts.withinBand, 1);
  EXPECT_EQ(counts.twins, 1);
  EXPECT_EQ(counts.beyondReference, 1);
}

TEST(SameComputation, NeedsTheSameErrorAndStaticCost) {
  Measurement a, b;
  a.staticCost = b.staticCost = 1000;
  EXPECT_TRUE(sameComputation(a, b));
  b.staticCost = 1001;
  EXPECT_FALSE(sameComputation(a, b));
}

} // namespace
} // namespace gevo
