//===- fair_comparison_test.cc - The search comparison's measure ----------===//

#include "gevo/bench/fair_comparison.h"
#include "gevo/eval/harness.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(RegionHypervolumeTest, CountsOnlyTheAreaInsideTheRegion) {
  Region region{1.1, 0.10};
  // One point at ratio 0.6, error 0.05: the box up to (1.1, 0.10).
  EXPECT_NEAR(regionHypervolume({{0.6, 0.05}}, region), 0.5 * 0.05, 1e-12);
  // A fast but useless variant and a slow one add nothing.
  EXPECT_NEAR(regionHypervolume({{0.6, 0.05}, {0.2, 0.9}, {1.5, 0.0}}, region),
              0.5 * 0.05, 1e-12);
  EXPECT_EQ(regionHypervolume({{0.2, 0.9}}, region), 0);
  // Two points: the union of their boxes.
  double two = regionHypervolume({{0.6, 0.08}, {1.0, 0.02}}, region);
  EXPECT_NEAR(two, 0.5 * 0.02 + 0.1 * 0.06, 1e-12);
}

TEST(RegionHypervolumeTest, PointsInRegionAreStrictlyInside) {
  Region region{1.1, 0.10};
  EXPECT_EQ(pointsInRegion({{0.6, 0.05}, {0.2, 0.9}, {1.5, 0.0}}, region), 1);
  EXPECT_EQ(pointsInRegion({{1.1, 0.05}, {0.6, 0.10}}, region), 0);
}

TEST(BeatsUnmodifiedTest, NeedsMoreThanTheNoiseBand) {
  NoiseBand band{0.1, 0};
  EXPECT_TRUE(beatsUnmodified(8.5, 0.05, 10, 0.05, band));
  EXPECT_FALSE(beatsUnmodified(9.5, 0.05, 10, 0.05, band)); // inside the band
  EXPECT_FALSE(beatsUnmodified(5, 0.06, 10, 0.05, band));   // but less right
  EXPECT_TRUE(beatsUnmodified(10.5, 0.04, 10, 0.05, band)); // more right
  EXPECT_FALSE(beatsUnmodified(12, 0.04, 10, 0.05, band));  // too slow
  // With an error band a drop inside it is noise; one beyond it counts.
  NoiseBand errorBand{0.1, 0.012};
  EXPECT_FALSE(beatsUnmodified(10, 0.04, 10, 0.05, errorBand));
  EXPECT_TRUE(beatsUnmodified(10, 0.035, 10, 0.05, errorBand));
  EXPECT_TRUE(beatsUnmodified(8.5, 0.05, 10, 0.05, errorBand));
}

TEST(ErrorStandardErrorTest, BinomialSamplingNoise) {
  // 25 of 360 validation rows wrong: sqrt(p (1 - p) / n).
  EXPECT_NEAR(errorStandardError(25.0 / 360, 360), 0.01340, 1e-5);
  EXPECT_EQ(errorStandardError(0, 360), 0);
  EXPECT_EQ(errorStandardError(0.1, 0), 0);
}

TEST(EvaluationsToTargetTest, CountsRunVariantsUpToTheFirstThatBeatsIt) {
  std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/run";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/history.csv")
      << "generation,key,outcome,edits,kinds,runtime,error,"
         "validation_accuracy,median_run_ms,lower_ms,codegen_ms,cached,"
         "detail\n"
         "0,a,crash,1,delete,,,0,0,0,0,0,SIGSEGV\n"
         "0,b,ok,1,move,9.9,0.05,0.95,9.9,1,1,0,\n"
         "0,c,ok,1,shrink,5.0,0.05,0.95,5.0,1,1,1,\n" // cached: not run
         "1,d,ok,2,shrink,5.0,0.05,0.95,5.0,1,1,0,\n"
         "1,e,ok,2,shrink,4.0,0.05,0.95,4.0,1,1,0,\n";
  EXPECT_EQ(evaluationsToTarget(dir, 10, 0.05, {0.1, 0}), 3);
  EXPECT_EQ(evaluationsToTarget(dir, 10, 0.01, {0.1, 0}), 0); // never reached
  std::vector<TargetCandidate> all =
      targetCandidates(dir, 10, 0.05, {0.1, 0}, 10);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].evaluation, 3);
  EXPECT_EQ(all[0].key, "d");
  EXPECT_EQ(all[1].evaluation, 4);
  EXPECT_EQ(all[1].key, "e");
  EXPECT_EQ(targetCandidates(dir, 10, 0.05, {0.1, 0}, 1).size(), 1u);
}

TEST(EvaluationsToTargetTest, PairedRunsAreJudgedByTheirRatio) {
  std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/paired";
  std::system(("mkdir -p " + dir).c_str());
  // Paired runs: median_run_ms is on the start-of-run scale, which a later
  // unmodified time (here 10 ms) must not be compared with; the ratio to the
  // unmodified program beside it decides. A row without a ratio (0, e.g. the
  // unmodified program from the cache) falls back to its run time.
  std::ofstream(dir + "/history.csv")
      << "generation,key,outcome,edits,kinds,runtime,error,"
         "validation_accuracy,median_run_ms,lower_ms,codegen_ms,"
         "runtime_ratio,cached,detail\n"
         "0,a,ok,1,move,5.0,0.05,0.95,5.0,1,1,0.95,0,\n" // fast ms, ratio not
         "0,b,ok,1,shrink,20,0.05,0.95,20,1,1,0.85,0,\n" // slow ms, ratio beats
         "0,c,ok,1,shrink,8.0,0.05,0.95,8.0,1,1,0.0000,0,\n"; // no ratio: 0.8
  std::vector<TargetCandidate> all =
      targetCandidates(dir, 10, 0.05, {0.1, 0}, 10);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].key, "b");
  EXPECT_EQ(all[0].evaluation, 2);
  EXPECT_EQ(all[1].key, "c");
}

TEST(FirstConfirmedTest, AsksInOrderUntilOneHolds) {
  std::vector<TargetCandidate> candidates = {
      {3, "d"}, {4, "e"}, {9, "f"}, {12, "g"}, {20, "h"}};
  std::vector<std::string> asked;
  // Only "g" (the fourth) still beats the unmodified program re-measured.
  ConfirmTargets confirm = [&](const std::vector<TargetCandidate> &batch) {
    std::vector<bool> out;
    for (const TargetCandidate &c : batch) {
      asked.push_back(c.key);
      out.push_back(c.key == "g");
    }
    return out;
  };
  ConfirmedTarget found = firstConfirmed(candidates, 2, confirm);
  EXPECT_EQ(found.evaluation, 12);
  EXPECT_EQ(found.checked, 4); // two batches of two; "h" never re-measured
  EXPECT_EQ(asked, (std::vector<std::string>{"d", "e", "f", "g"}));
  asked.clear();
  ConfirmTargets none = [&](const std::vector<TargetCandidate> &batch) {
    for (const TargetCandidate &c : batch)
      asked.push_back(c.key);
    return std::vector<bool>(batch.size(), false);
  };
  found = firstConfirmed(candidates, 3, none);
  EXPECT_EQ(found.evaluation, 0);
  EXPECT_EQ(found.checked, 5);
  EXPECT_EQ(firstConfirmed({}, 3, none).checked, 0);
}

TEST(SummarizeScreenTest, MediansAndPooledFailureShares) {
  std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/screen";
  std::system(("mkdir -p " + dir).c_str());
  EXPECT_EQ(summarizeScreen(dir).generations, 0); // no surrogate.csv
  std::ofstream(dir + "/surrogate.csv")
      << "generation,candidates,screened,predicted_failure,measured_failure,"
         "immigrants,immigrant_failure,ranked,spearman_runtime,"
         "spearman_error\n"
         "1,30,10,0.2,0.1,4,0.5,9,0.9,0.1\n"
         "2,30,10,0.2,0.3,4,0.25,7,0.7,0.5\n"
         "3,36,12,0.1,0.0,2,1.0,12,0.8,0.3\n";
  ScreenSummary summary = summarizeScreen(dir);
  EXPECT_EQ(summary.generations, 3);
  ASSERT_EQ(summary.objectives, (std::vector<std::string>{"runtime", "error"}));
  EXPECT_DOUBLE_EQ(summary.medianSpearman[0], 0.8);
  EXPECT_DOUBLE_EQ(summary.medianSpearman[1], 0.3);
  EXPECT_DOUBLE_EQ(summary.screenedFailure, (1.0 + 3.0 + 0.0) / 32);
  EXPECT_DOUBLE_EQ(summary.immigrantFailure, (2.0 + 1.0 + 2.0) / 10);
}

// search_vs_random takes the median of hypervolume ratios, which are +inf
// where random search found nothing in the region: gevo::median must order
// them last and keep them.
TEST(MedianOfTest, InfinityIsTheLargest) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(median({1, inf, 3}), 3);
  EXPECT_EQ(median({1, 2, 3, 4}), 2.5);
  EXPECT_TRUE(std::isinf(median({1, inf, inf, 3})));
}

} // namespace
} // namespace gevo
