//===- search_vs_random.cc - Re-measuring two searches' fronts fairly -----===//

#include "gevo/bench/search_vs_random.h"

#include <cmath>
#include <map>

#include "gevo/eval/harness.h"
#include "gevo/search/batch_evaluator.h"

namespace svr {
namespace {

/// The median run time of the unmodified program over `count` children of
/// its own: one search-time measurement at a run's start can be half as
/// slow again as the program is (seen: 2.84 ms against 1.89), which makes
/// every neutral variant look 30% faster.
double unmodifiedRunMs(gevo::Workbench &bench, int count) {
  gevo::BatchRequest request;
  request.distinctRuns = true;
  std::vector<double> times;
  for (const gevo::MeasuredVariant &m : bench.measure(
           std::vector<std::vector<gevo::Edit>>(std::max(1, count)), request))
    if (m.measurement && m.measurement->ok())
      times.push_back(m.measurement->medianRunMs);
  return times.empty() ? bench.baseline().medianRunMs : gevo::median(times);
}

/// The evaluations `run` needed until a variant first beat the unmodified
/// program beyond noise: a candidate counts only when it still beats the
/// unmodified program interleaved with it, as the fronts are measured.
void countToTarget(Workload &w, double unmodifiedMs, Run &run) {
  std::vector<gevo::TargetCandidate> candidates =
      gevo::targetCandidates(run.directory, unmodifiedMs, w.unmodifiedError,
                             w.noise, w.remeasure.confirmLimit);
  run.toTargetSearch = candidates.empty() ? 0 : candidates.front().evaluation;
  std::map<std::string, std::vector<gevo::Edit>> edits =
      gevo::archiveEdits(run.directory);
  gevo::ConfirmedTarget confirmed = gevo::firstConfirmed(
      candidates, 4, [&](const std::vector<gevo::TargetCandidate> &batch) {
        std::vector<std::vector<gevo::Edit>> lists;
        std::vector<bool> known;
        for (const gevo::TargetCandidate &c : batch) {
          auto it = edits.find(c.key);
          known.push_back(it != edits.end());
          lists.push_back(known.back() ? it->second
                                       : std::vector<gevo::Edit>());
        }
        gevo::Workbench::AgainstUnmodified measured =
            w.bench->measureAgainstUnmodified(lists, w.remeasure.pairs, false,
                                              w.remeasure.children);
        std::vector<bool> out;
        for (size_t i = 0; i < batch.size(); ++i) {
          const gevo::Measurement &m = measured.variants[i];
          out.push_back(known[i] && m.ok() &&
                        gevo::beatsUnmodified(m.runtimeRatio, m.error(), 1.0,
                                              w.unmodifiedError, w.noise));
        }
        return out;
      });
  run.toTarget = confirmed.evaluation;
  run.checked = confirmed.checked;
}

} // namespace

/// Both fronts re-measured in one batch (so the same moment's noise hits
/// both), their hypervolumes, and each run's evaluations to the target;
/// the re-measured unmodified program's ratio and run time.
std::pair<double, double> compareFronts(Workload &w, Run runs[2]) {
  std::vector<std::vector<gevo::Edit>> lists = runs[0].front;
  lists.insert(lists.end(), runs[1].front.begin(), runs[1].front.end());
  gevo::Workbench::AgainstUnmodified again = w.bench->measureAgainstUnmodified(
      lists, w.remeasure.pairs, false, w.remeasure.children);
  // One unmodified run time for both runs' targets, measured now in
  // children of its own: neither run is favoured by a slow measurement
  // at its start.
  double unmodifiedMs =
      unmodifiedRunMs(*w.bench, w.remeasure.unmodifiedChildren);
  for (int a = 0; a < 2; ++a) {
    size_t first = a == 0 ? 0 : runs[0].front.size();
    for (size_t i = 0; i < runs[a].front.size(); ++i) {
      const gevo::Measurement &m = again.variants[first + i];
      if (m.ok())
        runs[a].points.push_back({m.runtimeRatio, m.error()});
    }
    runs[a].hypervolume = gevo::regionHypervolume(runs[a].points, w.region);
    countToTarget(w, unmodifiedMs, runs[a]);
  }
  return {again.unmodified.runtimeRatio, unmodifiedMs};
}

/// One seed's row of the figures.
llvm::json::Object seedRow(const Workload &w, int seed, const Run runs[2],
                           double ratio, std::pair<double, double> unmodified,
                           const gevo::ScreenSummary &screen) {
  auto inRegion = [&](const Run &run) {
    return gevo::pointsInRegion(run.points, w.region);
  };
  return llvm::json::Object{
      {"workload", w.name},
      {"seed", seed},
      {"hv_nsga2", runs[0].hypervolume},
      {"hv_random", runs[1].hypervolume},
      {"ratio", number(ratio)},
      {"region_points_nsga2", inRegion(runs[0])},
      {"region_points_random", inRegion(runs[1])},
      {"front_nsga2", int64_t(runs[0].front.size())},
      {"front_random", int64_t(runs[1].front.size())},
      {"evaluations_nsga2", runs[0].evaluations},
      {"evaluations_random", runs[1].evaluations},
      {"remeasured_nsga2", runs[0].remeasured},
      {"remeasured_random", runs[1].remeasured},
      {"raced_nsga2", runs[0].raced},
      {"raced_random", runs[1].raced},
      {"to_target_nsga2", runs[0].toTarget},
      {"to_target_random", runs[1].toTarget},
      {"to_target_search_nsga2", runs[0].toTargetSearch},
      {"to_target_search_random", runs[1].toTargetSearch},
      {"confirmations_nsga2", runs[0].checked},
      {"confirmations_random", runs[1].checked},
      {"unmodified_ms", unmodified.second},
      {"start_ms_nsga2", runs[0].baselineMs},
      {"start_ms_random", runs[1].baselineMs},
      {"unmodified_remeasured_ratio", unmodified.first},
      {"screen_generations", screen.generations},
      {"screen_objectives", llvm::json::Array(screen.objectives)},
      {"screen_spearman", llvm::json::Array(screen.medianSpearman)},
      {"screened_failure", screen.screenedFailure},
      {"immigrant_failure", screen.immigrantFailure}};
}

llvm::json::Value number(double x) {
  return std::isfinite(x) ? llvm::json::Value(x) : llvm::json::Value(nullptr);
}

} // namespace svr
