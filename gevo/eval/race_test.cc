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
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.9, 100.0), "");
  EXPECT_EQ(judgePairs(plan, 0.9, {50, 60, 70}), PairVerdict::Undecided);
}

TEST(Race, RatioToBeatIsTheFastestMemberAtLeastAsAccurate) {
  std::vector<FrontPoint> front = {{0.10, 1.0}, {0.12, 0.8}, {0.30, 0.2}};
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.12), 0.8);
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.11), 1.0);
  EXPECT_DOUBLE_EQ(ratioToBeat(front, 0.50), 0.2);
  // More accurate than every member: it enters however slow.
  EXPECT_TRUE(std::isinf(ratioToBeat(front, 0.05)));
}

TEST(Race, MemberToBeatIsTheFastestAtLeastAsAccurate) {
  std::vector<FrontPoint> front = {
      {0.10, 1.0, 0, ""}, {0.12, 0.8, 5, "b"}, {0.30, 0.2, 5, "c"}};
  ASSERT_NE(memberToBeat(front, 0.12), nullptr);
  EXPECT_EQ(memberToBeat(front, 0.12)->key, "b");
  EXPECT_EQ(memberToBeat(front, 0.5)->key, "c");
  EXPECT_EQ(memberToBeat(front, 0.11)->key, ""); // the unmodified program
  EXPECT_EQ(memberToBeat(front, 0.05), nullptr);
}

TEST(Race, HeadToHeadDecidesOnTheVariantsPairsAlone) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.pairNoise = 0.01;
  // As fast as the member (ratios around 1): dominated once two pairs
  // agree; one pair never decides.
  EXPECT_EQ(judgeHeadToHead(plan, {1.0}), PairVerdict::Undecided);
  EXPECT_EQ(judgeHeadToHead(plan, {1.0, 0.99}), PairVerdict::Dominated);
  // 20% faster than the member, steadily: it beats it, once three pairs
  // say so (it then enters the front on them).
  EXPECT_EQ(judgeHeadToHead(plan, {0.8, 0.81}), PairVerdict::Undecided);
  EXPECT_EQ(judgeHeadToHead(plan, {0.8, 0.81, 0.8}), PairVerdict::Enters);
  // 2.5% faster, within the interval of two pairs: not decided...
  EXPECT_EQ(judgeHeadToHead(plan, {0.975, 0.975}), PairVerdict::Undecided);
  // ...and pairs that scatter widen it: 10% faster is not enough then.
  EXPECT_EQ(judgeHeadToHead(plan, {0.7, 1.1, 0.9}), PairVerdict::Undecided);
  // Slower than the member: dominated.
  EXPECT_EQ(judgeHeadToHead(plan, {1.3, 1.25}), PairVerdict::Dominated);
  // No front: no racing.
  EXPECT_EQ(judgeHeadToHead(RacePlan(), {2.0, 2.0}), PairVerdict::Undecided);
}

// Against a member the variant cannot derive its ratio from, pairs head to
// head pay off only as a stop as dominated: a tie may still get there, a
// variant steadily 3% faster cannot, however many pairs follow.
TEST(Race, HeadToHeadStopsOnceDominatedIsOutOfReach) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.pairNoise = 0.01;
  EXPECT_TRUE(headToHeadCouldDominate(plan, {1.0, 1.01}, 40, 5));
  ASSERT_EQ(judgeHeadToHead(plan, {0.97, 0.97}, 40), PairVerdict::Undecided);
  EXPECT_FALSE(headToHeadCouldDominate(plan, {0.97, 0.97}, 40, 5));
  // Pairs that scatter widen the interval: a tie read so is out of reach
  // too (five such pairs would read Undecided).
  EXPECT_FALSE(headToHeadCouldDominate(plan, {0.97, 1.03}, 40, 5));
  // No pairs yet, or no front: nothing to judge.
  EXPECT_FALSE(headToHeadCouldDominate(plan, {}, 40, 5));
  EXPECT_FALSE(headToHeadCouldDominate(RacePlan(), {1.0, 1.0}, 40, 5));
}

TEST(Race, ProcessNoiseIsAShortProgramsOnly) {
  EXPECT_EQ(processNoise(0), 0);  // unknown
  EXPECT_EQ(processNoise(-1), 0); // unknown
  EXPECT_EQ(processNoise(kProcessNoiseUntilMs), 0);
  EXPECT_EQ(processNoise(110), 0); // the band covers a long program's
  EXPECT_GT(processNoise(0.7), 0.08);
  EXPECT_LT(processNoise(0.7), 0.1);
  EXPECT_GT(processNoise(0.7), processNoise(7));
  EXPECT_GT(processNoise(7), processNoise(19));
  EXPECT_LE(processNoise(1e-6), 0.15);
}

// §11, seed 2: a 0.56-ms variant as fast as a sub-ms member head to head
// read 35% faster than the front in each of 3 fresh processes. Two short
// programs' tie is within the process noise, not a stop; the same pairs of
// two long programs still stop it.
TEST(Race, ShortTiesHeadToHeadAreWithinTheProcessNoise) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.pairNoise = 0.01;
  std::vector<double> tie = {1.0, 0.99, 1.0};
  EXPECT_EQ(judgeHeadToHead(plan, tie, 100), PairVerdict::Dominated);
  EXPECT_EQ(judgeHeadToHead(plan, tie, 0), PairVerdict::Dominated);
  EXPECT_EQ(judgeHeadToHead(plan, {1.0, 0.99}, 0.6), PairVerdict::Undecided);
  EXPECT_EQ(judgeHeadToHead(plan, tie, 0.6), PairVerdict::WithinNoise);
  // 40% slower than a 0.6-ms member is beyond any process's noise.
  EXPECT_EQ(judgeHeadToHead(plan, {1.4, 1.4}, 0.6), PairVerdict::Dominated);
  // Faster beyond the pairs' interval still enters.
  EXPECT_EQ(judgeHeadToHead(plan, {0.8, 0.81, 0.8}, 0.6), PairVerdict::Enters);
}

TEST(Race, ShortVariantsStopOnlyBeyondTheProcessNoise) {
  RacePlan plan = planWith({{0.10, 0.006, 5}}); // 0.66 ms
  plan.referenceMs = 110; // the Fashion workload's unmodified program
  // 5% slower than the member, steadily: dominated in this process, not
  // beyond another's; after minPairs the pairs' median is its ratio.
  EXPECT_EQ(judgePairs(plan, 0.12, {0.0063, 0.0063}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {0.0063, 0.0063, 0.0063}),
            PairVerdict::WithinNoise);
  EXPECT_EQ(judgePairs(plan, 0.12, {0.009, 0.009}), PairVerdict::Dominated);
  // The same ratios a hundred times longer (66 ms): dominated.
  plan.front[0].ratio = 0.6;
  EXPECT_EQ(judgePairs(plan, 0.12, {0.63, 0.63}), PairVerdict::Dominated);
  EXPECT_EQ(withinNoiseAfterPairs(3), "within_noise:3");
  EXPECT_TRUE(stoppedWithinNoise(withinNoiseAfterPairs(3)));
  EXPECT_FALSE(stoppedDominated(withinNoiseAfterPairs(3)));
  EXPECT_FALSE(enteredEarly(withinNoiseAfterPairs(3)));
}

// A neutral edit's twin of a long member (same error, same time) reads
// Undecided at every pair while the interval (default noise, member timed
// with 5 pairs) is wider than the band: pairs 4 and 5 could not decide it
// either, so timing stops after minPairs with its reading kept. One 4%
// faster could still enter by pair 5, and one whose pairs scatter may
// still be stopped as dominated, where a stop as dominated counts.
TEST(Race, PairsThatCouldNotDecideStopWithTheirReadingKept) {
  RacePlan plan = planWith({{0.10, 0.5, 5}});
  plan.referenceMs = 110;
  std::vector<double> twin = {0.5, 0.5, 0.5};
  ASSERT_EQ(judgePairs(plan, 0.10, twin), PairVerdict::Undecided);
  EXPECT_FALSE(morePairsCouldDecide(plan, 0.10, twin, 5, true));
  std::vector<double> faster = {0.48, 0.48, 0.48};
  ASSERT_EQ(judgePairs(plan, 0.10, faster), PairVerdict::Undecided);
  EXPECT_TRUE(morePairsCouldDecide(plan, 0.10, faster, 5, true));
  // A steadier search (noise 1.5%) can put the twin within the noise by
  // pair 5.
  plan.pairNoise = 0.015;
  EXPECT_TRUE(morePairsCouldDecide(plan, 0.10, twin, 5, true));
  // Where a stop as dominated would not count (a tie head to head), only
  // entering could decide.
  EXPECT_FALSE(morePairsCouldDecide(plan, 0.10, twin, 5, false));
  // No pairs left, or no front: nothing to decide.
  EXPECT_FALSE(morePairsCouldDecide(plan, 0.10, faster, 3, true));
  EXPECT_FALSE(morePairsCouldDecide(RacePlan(), 0.10, faster, 5, true));
  EXPECT_EQ(undecidedAfterPairs(3), "undecided:3");
  EXPECT_FALSE(stoppedWithinNoise(undecidedAfterPairs(3)));
  EXPECT_FALSE(stoppedDominated(undecidedAfterPairs(3)));
  EXPECT_FALSE(enteredEarly(undecidedAfterPairs(3)));
}

TEST(Race, RatiosAreDerivedOnlyFromLongMembersMeasuredDirectly) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.referenceMs = 133; // the Fashion workload's unmodified program
  // 0.5 x 133 = 66.5 ms: long enough to derive from.
  EXPECT_TRUE(derivesFrom(plan, {0.10, 0.5, 5, "a"}));
  // 0.0105 x 133 = 1.4 ms: its pairs with another short program misread it.
  EXPECT_FALSE(derivesFrom(plan, {0.10, 0.0105, 5, "b"}));
  // A derived ratio is never derived from again, however long.
  EXPECT_FALSE(derivesFrom(plan, {0.10, 0.5, 5, "c", /*derived=*/true}));
  plan.minDerivingMs = 0;
  EXPECT_TRUE(derivesFrom(plan, {0.10, 0.0105, 5, "b"}));
}

TEST(Race, FirstReadingStopsOnlyBeyondTheMargin) {
  RacePlan plan = planWith({{0.10, 1.0}, {0.15, 0.8}});
  plan.firstReadingMargin = 0.25;
  // As accurate as the x0.8 member: stopped above 1.0, kept below.
  EXPECT_NE(beatenAfterFirstRun(plan, 0.15, 1.01), "");
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.15, 0.99), "");
  // More accurate than every member: never stopped, even 10x slower.
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.05, 10.0), "");
  // A reading that is not a number does not stop it.
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.15, std::nan("")), "");
}

TEST(Race, AnErrorBeyondTheFeasibleBandStopsWhateverItsTime) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.maxError = 0.35;
  EXPECT_NE(beatenAfterFirstRun(plan, 0.40, 0.01), "");
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.30, 0.01), "");
  plan.maxError = 0; // none
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.40, 0.01), "");
}

TEST(Race, TheSameStaticCostAsAMemberDoesNotStopAVariant) {
  // The member: x1.0, static cost 1000. A variant with the same cost that
  // reads about as fast is timed: the same work ran 3-13% faster in §11's
  // check (a first reading decides only beyond the margin).
  RacePlan plan = planWith({{0.10, 1.0, 1000}});
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.12, 1.0), "");
  EXPECT_EQ(beatenAfterFirstRun(plan, 0.12, 1.4), "");
  EXPECT_NE(beatenAfterFirstRun(plan, 0.12, 1.6), "");
}

TEST(Race, PairsDecideOnceTheIntervalClearsTheBand) {
  RacePlan plan = planWith({{0.10, 1.0}});
  plan.pairNoise = 0.02;
  plan.confidenceZ = 1.64;
  plan.band = 0.02;
  plan.minPairs = 2;
  // Less accurate and clearly slower: dominated after two pairs (one has
  // no spread of its own).
  EXPECT_EQ(judgePairs(plan, 0.12, {1.2}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {1.2, 1.2}), PairVerdict::Dominated);
  // As fast as the member: one or two pairs' interval (+-3.3%, +-2.3%)
  // still reaches below the band, three pairs' (+-1.9%) do not.
  EXPECT_EQ(judgePairs(plan, 0.12, {1.0}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {1.0, 1.0}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {1.0, 1.0, 1.0}), PairVerdict::Dominated);
  // Clearly faster than the member: on the front once minPairs are made.
  EXPECT_EQ(judgePairs(plan, 0.12, {0.8}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {0.8, 0.81}), PairVerdict::Enters);
  // More accurate than every member: on the front however slow.
  EXPECT_EQ(judgePairs(plan, 0.08, {3, 3}), PairVerdict::Enters);
  // The median decides, so one slow pair does not.
  EXPECT_EQ(judgePairs(plan, 0.12, {0.8, 2.0, 0.8}), PairVerdict::Enters);
  // Pairs that scatter more than the pooled noise say (a short program's):
  // their own spread widens the interval, and x1.15 is not yet dominated.
  EXPECT_EQ(judgePairs(plan, 0.12, {1.15, 1.15}), PairVerdict::Dominated);
  EXPECT_EQ(judgePairs(plan, 0.12, {1.05, 1.25}), PairVerdict::Undecided);
  // A member whose ratio is itself two pairs' median: x1.005 after three
  // pairs is dominated by an exact x1.0 (interval +-1.9%), not yet by a
  // two-pair x1.0 (the difference's interval +-3.0%).
  EXPECT_EQ(judgePairs(plan, 0.12, {1.005, 1.005, 1.005}),
            PairVerdict::Dominated);
  plan.front[0].pairs = 2;
  EXPECT_EQ(judgePairs(plan, 0.12, {1.005, 1.005, 1.005}),
            PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {1.07, 1.07, 1.07}), PairVerdict::Dominated);
}

TEST(Race, OneRunOfTheUnmodifiedProgramCanStandForEveryPair) {
  // A short variant timed against one run of the unmodified program
  // (RacePlan::evictShort): every pair's ratio is read against it.
  EXPECT_EQ(pairRatios({2, 4, 6}, {2}), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(pairRatios({2, 4}, {2, 4}), (std::vector<double>{1, 1}));
  EXPECT_EQ(pairRatios({2, 4, 6}, {2, 4}), (std::vector<double>{1, 1}));
  EXPECT_TRUE(pairRatios({2, 4}, {0}).empty());
  // That run's noise is in every ratio: more pairs do not narrow it, so
  // x0.96 after three pairs enters against an exact x1.0 with a run per
  // pair (interval +-1.9%) but not with one run for all (+-3.0%).
  RacePlan plan = planWith({{0.10, 1.0}});
  EXPECT_EQ(judgePairs(plan, 0.12, {0.96, 0.96, 0.96}), PairVerdict::Enters);
  plan.sharedBaselineNoise = plan.pairNoise / std::sqrt(2.0);
  EXPECT_EQ(judgePairs(plan, 0.12, {0.96, 0.96, 0.96}), PairVerdict::Undecided);
  EXPECT_EQ(judgePairs(plan, 0.12, {0.9, 0.9, 0.9}), PairVerdict::Enters);
}

TEST(Race, RunLimitFollowsTheReferenceWithAFloor) {
  RacePlan plan = planWith({{0.10, 1.0}});
  EXPECT_EQ(plan.runLimitMs(), 0); // no limit asked
  plan.runLimitRatio = 2;
  EXPECT_EQ(plan.runLimitMs(), 0); // nothing to read against
  plan.referenceMs = 73;
  EXPECT_DOUBLE_EQ(plan.runLimitMs(), 146);
  plan.referenceMs = 1; // a first run reads several times a short steady run
  EXPECT_DOUBLE_EQ(plan.runLimitMs(), kMinRunLimitMs);
  EXPECT_TRUE(stoppedDominated(kRacedAtRunLimit));
}

TEST(Race, RacedSaysWhetherItStoppedDominated) {
  EXPECT_TRUE(stoppedDominated(kRacedAfterFirstRun));
  EXPECT_TRUE(stoppedDominated(racedAfterPairs(2)));
  EXPECT_TRUE(stoppedDominated(racedAgainstMember(2)));
  EXPECT_FALSE(enteredEarly(racedAgainstMember(2)));
  EXPECT_FALSE(stoppedDominated(enteredAfterPairs(2)));
  EXPECT_FALSE(stoppedDominated(""));
  EXPECT_FALSE(stoppedDominated(kRacedFailedFirstRun));
  EXPECT_TRUE(enteredEarly(enteredAfterPairs(3)));
  EXPECT_FALSE(enteredEarly(racedAfterPairs(3)));
  EXPECT_FALSE(enteredEarly(kRacedFailedFirstRun));
  // Entered head to head: on the front, its ratio derived from a member's.
  EXPECT_TRUE(enteredEarly(enteredAgainstMember(2)));
  EXPECT_FALSE(stoppedDominated(enteredAgainstMember(2)));
  EXPECT_TRUE(enteredHeadToHead(enteredAgainstMember(2)));
  EXPECT_FALSE(enteredHeadToHead(enteredAfterPairs(3)));
  EXPECT_FALSE(enteredHeadToHead(racedAgainstMember(2)));
  // A tie head to head: its ratio derived, neither stopped nor entered.
  EXPECT_EQ(tiedAgainstMember(5), "tied_member:5");
  EXPECT_TRUE(derivedHeadToHead(tiedAgainstMember(5)));
  EXPECT_TRUE(tiedHeadToHead(tiedAgainstMember(5)));
  EXPECT_FALSE(tiedHeadToHead(enteredAgainstMember(2)));
  EXPECT_TRUE(derivedHeadToHead(enteredAgainstMember(2)));
  EXPECT_FALSE(derivedHeadToHead(racedAgainstMember(2)));
  EXPECT_FALSE(enteredHeadToHead(tiedAgainstMember(5)));
  EXPECT_FALSE(stoppedDominated(tiedAgainstMember(5)));
  EXPECT_FALSE(enteredEarly(tiedAgainstMember(5)));
}

TEST(Race, EntriesAndStopsWithinTheProcessNoiseAreReadAgain) {
  // §11 seed 2: 68da4bffeb942989 (error 0.187, x0.138) on the front.
  std::vector<FrontPoint> front = {{0.187, 0.138, 3, ""}, {0.316, 1, 0, ""}};
  // d7246da0f5e750dc read x0.149 in its child, kept within the noise: four
  // pairs of about 17 and 115 ms against a 45-ms compile.
  EXPECT_TRUE(
      readAgainOnRace(front, 0.193, 0.149, withinNoiseAfterPairs(4), 528, 45));
  // The same stop of a sub-millisecond program (the digits training: three
  // pairs of 0.5 and 1.4 ms against a 141-ms compile) is not read again.
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0.149, withinNoiseAfterPairs(3), 5.7, 141));
  // Stopped as dominated: never (its reading never counts as a member's).
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0.149, racedAfterPairs(2), 528, 45));
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0.2, kRacedAfterFirstRun, 528, 45));
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0.149, racedAgainstMember(4), 528, 45));
  // Measured otherwise: when its reading would join the front.
  EXPECT_TRUE(readAgainOnRace(front, 0.193, 0.13, "", 528, 45));
  EXPECT_TRUE(
      readAgainOnRace(front, 0.193, 0.13, enteredAfterPairs(3), 528, 45));
  EXPECT_FALSE(readAgainOnRace(front, 0.193, 0.149, "", 528, 45));
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0.149, tiedAgainstMember(5), 528, 45));
  // Racing off (no front) or no reading: never.
  EXPECT_FALSE(
      readAgainOnRace({}, 0.193, 0.13, withinNoiseAfterPairs(4), 528, 45));
  EXPECT_FALSE(
      readAgainOnRace(front, 0.193, 0, withinNoiseAfterPairs(4), 528, 45));
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
