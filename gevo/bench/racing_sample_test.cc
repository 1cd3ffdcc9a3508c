//===- racing_sample_test.cc - Verdicts on stopped variants ---------------===//

#include "gevo/bench/racing_sample.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>

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

// The traced case measured again: the stopped variant (error 0.30, 1.4 ms)
// against the members' full readings.
TEST(JudgeAgainst, TheFastestMemberAtLeastAsAccurateDecides) {
  std::vector<FullReading> members = {
      {0.29, 500, 0.0184}, // more accurate, slow once measured again
      {0.30, 400, 0.0156}, // the member it tied with head to head
      {0.40, 300, 0.0100}, // faster, less accurate: never to beat
  };
  double toBeat = 0;
  // Its twin by the figures (same error and static cost): counted apart.
  EXPECT_EQ(judgeAgainst({0.30, 400, 0.0150}, members, 0.17, &toBeat),
            StopVerdict::Twin);
  EXPECT_DOUBLE_EQ(toBeat, 0.0156);
  // Another computation as fast: inside the band.
  EXPECT_EQ(judgeAgainst({0.30, 410, 0.0155}, members, 0.17),
            StopVerdict::WithinBand);
  // Without that member, the 0.0184 one is to beat: a false stop.
  members.erase(members.begin() + 1);
  EXPECT_EQ(judgeAgainst({0.30, 410, 0.0155}, members, 0.17, &toBeat),
            StopVerdict::FalseStop);
  EXPECT_DOUBLE_EQ(toBeat, 0.0184);
  // More accurate than every member and the unmodified program: nothing is
  // to beat; as accurate as the unmodified program, its ratio 1 is.
  EXPECT_EQ(judgeAgainst({0.10, 900, 1.5}, members, 0.17, &toBeat),
            StopVerdict::FalseStop);
  EXPECT_TRUE(std::isinf(toBeat));
  EXPECT_EQ(judgeAgainst({0.17, 900, 1.5}, members, 0.17, &toBeat),
            StopVerdict::Dominated);
  EXPECT_DOUBLE_EQ(toBeat, 1.0);
}

// §11's traced false stop: a 1.4-ms member (error 0.30, x0.0139) hidden by
// a more accurate 2.4-ms one whose ratio read the same; the check measures
// both again, and drops what lies far behind the front.
TEST(NearFront, KeepsMembersAReadingMayHaveHidden) {
  std::vector<FrontPoint> points = {
      {0.30, 0.0139}, // 0: dominated by 1 on these figures, by 0%
      {0.29, 0.0139}, // 1: non-dominated
      {0.40, 0.0100}, // 2: non-dominated (faster, less accurate)
      {0.31, 0.0300}, // 3: twice member 1's ratio: far behind
      {0.10, 0.9000}, // 4: non-dominated (the most accurate)
      {0.35, 0.0190}, // 5: 37% behind member 1: near
  };
  EXPECT_EQ(nearFront(points), (std::vector<size_t>{4, 1, 0, 5, 2}));
  // Tolerance 0: the non-dominated set alone (a tie on ratio is dominated).
  EXPECT_EQ(nearFront(points, 0), (std::vector<size_t>{4, 1, 2}));
  // A limit keeps the nearest: the non-dominated first.
  EXPECT_EQ(nearFront(points, 0.4, 4), (std::vector<size_t>{4, 1, 0, 2}));
  EXPECT_TRUE(nearFront({}).empty());
}

// The 30-minute seed 1's dry-run false stop, a 3-ms variant: faster by the
// median over three processes, slower than the member in the third process;
// a variant faster in each process is confirmed by both counts.
TEST(JudgeProcesses, TheGoalCountsVariantsFasterInEveryProcess) {
  std::map<std::string, ProcessReadings> readings;
  readings["member"] = {
      true, {0.310, 300, 0}, {{0, 0.0234}, {1, 0.0232}, {2, 0.0236}}};
  readings["spread"] = {
      false, {0.315, 310, 0}, {{0, 0.0219}, {1, 0.0224}, {2, 0.0243}}};
  Confirmed one = judgeProcesses(readings, 0.17);
  EXPECT_EQ(one.byMedian, 1);
  EXPECT_EQ(one.everyProcess, 0);
  readings["faster"] = {
      false, {0.315, 320, 0}, {{0, 0.0200}, {1, 0.0201}, {2, 0.0210}}};
  Confirmed two = judgeProcesses(readings, 0.17);
  EXPECT_EQ(two.byMedian, 2);
  EXPECT_EQ(two.everyProcess, 1);
  // A twin of the member (its error and static cost) is no false stop.
  readings["faster"].figures = {0.310, 300, 0};
  EXPECT_EQ(judgeProcesses(readings, 0.17).everyProcess, 0);
}

} // namespace
} // namespace gevo
