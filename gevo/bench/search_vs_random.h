//===- search_vs_random.h - Re-measuring two searches' fronts fairly ------===//
//
// The measuring half of //gevo/bench:search_vs_random (its main runs the
// searches and prints): both runs' fronts re-measured in one batch against
// the unmodified program, their hypervolumes in the reference region, the
// evaluations each run needed to a confirmed target, and a seed's figures
// row.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_SEARCH_VS_RANDOM_H
#define GEVO_BENCH_SEARCH_VS_RANDOM_H

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gevo/bench/fair_comparison.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/JSON.h"

namespace svr {

/// How the fronts and the targets are re-measured (the benchmark's flags).
struct Remeasure {
  /// Interleaved pairs per child, and children per variant.
  int pairs = 5;
  int children = 3;
  /// Children measuring the unmodified program alone.
  int unmodifiedChildren = 6;
  /// Most target candidates per run re-measured.
  int confirmLimit = 40;
};

/// One search's run on one seed: its front and what was measured of it.
struct Run {
  std::vector<std::vector<gevo::Edit>> front;
  std::string directory;
  double baselineMs = 0;
  int64_t evaluations = 0, remeasured = 0;
  /// Evaluations racing cut short (EvaluationCounts::raced).
  int64_t raced = 0;
  std::vector<gevo::RatioPoint> points;
  double hypervolume = 0;
  int64_t toTarget = 0;
  /// The first variant that beat the target as measured during the search,
  /// before re-measuring; candidates re-measured.
  int64_t toTargetSearch = 0;
  int64_t checked = 0;
};

/// What one workload's seeds share: its workbench (for re-measuring), the
/// reference region and the noise band.
struct Workload {
  std::string path, name;
  Remeasure remeasure;
  std::unique_ptr<gevo::Workbench> bench;
  double unmodifiedError = 0;
  gevo::NoiseBand noise;
  gevo::Region region;
};

/// Both fronts re-measured in one batch (so the same moment's noise hits
/// both), their hypervolumes, and each run's evaluations to the target.
/// Returns the re-measured unmodified program's ratio to itself and its
/// run time (ms) measured alone.
std::pair<double, double> compareFronts(Workload &w, Run runs[2]);

/// One seed's row of the figures.
llvm::json::Object seedRow(const Workload &w, int seed, const Run runs[2],
                           double ratio, std::pair<double, double> unmodified,
                           const gevo::ScreenSummary &screen);

/// x as JSON, null when not finite.
llvm::json::Value number(double x);

} // namespace svr

#endif // GEVO_BENCH_SEARCH_VS_RANDOM_H
