//===- search_budget.cc - The front's re-measurement at the end -----------===//
//
// SearchRun's re-measurement of the front at the end and its estimate, which
// the budget includes: the members it re-measures, how, at the pace of the
// machine as the latest paired children found it, and the second look at
// the variants that members whose readings were lucky had hidden.

#include <algorithm>
#include <cmath>

#include "gevo/eval/race.h"
#include "gevo/search/front_ranking.h"
#include "gevo/search/front_remeasure.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/search_outputs.h"
#include "gevo/search/search_run.h"

namespace gevo {

std::vector<size_t> SearchRun::frontMembers() const {
  std::vector<size_t> front = archiveFront();
  std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    return objectivesOf(state.archive[a]) < objectivesOf(state.archive[b]);
  });
  if (config.frontLimit <= 0)
    return front;
  return spreadAlong(front, static_cast<size_t>(config.frontLimit));
}

RemeasurePlan SearchRun::remeasurePlan() const {
  RemeasurePlan plan;
  plan.pairs = config.frontRepeats;
  plan.warmup = runCounts(config.workbench.evaluation, spec).warmup;
  plan.children = config.frontChildren;
  plan.workers = bench->workers();
  plan.childSeconds = childSeconds;
  if (!recentUnmodifiedMs.empty()) {
    std::vector<double> recent(recentUnmodifiedMs.begin(),
                               recentUnmodifiedMs.end());
    std::nth_element(recent.begin(), recent.begin() + recent.size() / 2,
                     recent.end());
    plan.unmodifiedMs = recent[recent.size() / 2];
  }
  return plan;
}

double SearchRun::remeasureReserve() const {
  std::vector<Individual> members;
  for (size_t index : frontMembers())
    members.push_back(state.archive[index]);
  // The second look may add up to kSecondLookLimit variants, at about a
  // member's cost each.
  double seconds =
      estimateRemeasureSeconds(members, bench->baseline(), remeasurePlan());
  return seconds * (1.0 + static_cast<double>(kSecondLookLimit) /
                              std::max<size_t>(1, members.size()));
}

std::vector<size_t>
SearchRun::exposedByRemeasure(const std::vector<FrontMember> &members,
                              const std::vector<size_t> &picked) const {
  std::vector<Objectives> before, after;
  std::set<std::string> seen;
  for (size_t k = 0; k < picked.size() && k < members.size(); ++k) {
    before.push_back(objectivesOf(state.archive[picked[k]]));
    after.push_back(members[k].remeasured.ok()
                        ? remeasuredObjectives(members[k], objectives)
                        : before.back());
    seen.insert(state.archive[picked[k]].key);
  }
  // Each archive variant once, measured, not stopped as dominated, inside
  // the bounds and not re-measured already.
  std::vector<Objectives> points;
  std::vector<bool> eligible;
  for (const Individual &individual : state.archive) {
    const Measurement &m = individual.measurement;
    points.push_back(objectivesOf(individual));
    eligible.push_back(m.ok() && m.runtimeRatio > 0 &&
                       mayJoinFront(individual, points.back()) &&
                       seen.insert(individual.key).second);
  }
  return gevo::exposedByRemeasure(points, eligible, before, after,
                                  kSecondLookLimit);
}

absl::Status SearchRun::report(SearchResult &result) {
  result.config = config;
  result.workloadName = spec.name;
  result.modulePath = spec.modulePath;
  result.source = bench->evaluation().patchSource();
  result.objectives = objectives;
  result.baseline = bench->baseline();
  result.counts = evaluator->counts;
  result.generationsDone = state.generation;
  result.hypervolume = archiveHypervolume();

  std::vector<size_t> front = frontMembers();
  // Noise control: every member and the unmodified program itself,
  // each interleaved with the unmodified program in one child.
  result.front.resize(front.size());
  std::vector<Individual> lists;
  for (size_t k = 0; k < front.size(); ++k) {
    result.front[k].individual = state.archive[front[k]];
    lists.push_back(result.front[k].individual);
  }
  remeasureEstimate = remeasureReserve();
  auto remeasuring = Clock::now();
  Workbench::AgainstUnmodified again = remeasureFront(
      *bench, lists, remeasurePlan(), quiet ? nullptr : &progress);
  for (size_t k = 0; k < front.size(); ++k)
    result.front[k].remeasured = std::move(again.variants[k]);
  result.baselineRemeasured = std::move(again.unmodified);
  if (result.baselineRemeasured.ok())
    result.runtimeNoise = std::max(
        0.02, 2 * std::fabs(1 - result.baselineRemeasured.runtimeRatio));
  secondLook(result, front);
  remeasureSeconds = secondsSince(remeasuring);
  return writeFrontFiles(result, bench->unmodifiedKey(), state.operators);
}

void SearchRun::secondLook(SearchResult &result,
                           const std::vector<size_t> &picked) {
  // A member whose search reading was lucky (a short program's reads tens of
  // percent apart from one child to another) hid the variants it dominated
  // only on that reading: those are re-measured too, and join the front
  // if their figures hold.
  std::vector<size_t> exposed = exposedByRemeasure(result.front, picked);
  if (exposed.empty())
    return;
  std::vector<Individual> lists;
  for (size_t index : exposed)
    lists.push_back(state.archive[index]);
  Workbench::AgainstUnmodified again = remeasureFront(
      *bench, lists, remeasurePlan(), quiet ? nullptr : &progress);
  for (size_t k = 0; k < exposed.size() && k < again.variants.size(); ++k) {
    FrontMember member;
    member.individual = state.archive[exposed[k]];
    member.remeasured = std::move(again.variants[k]);
    member.secondLook = true;
    result.front.push_back(std::move(member));
  }
  result.secondLook = static_cast<int>(exposed.size());
}

void SearchRun::notePace(const Measurement &m) {
  if (!m.ok() || m.baselineMedianRunMs <= 0)
    return;
  recentUnmodifiedMs.push_back(m.baselineMedianRunMs);
  if (recentUnmodifiedMs.size() > kRecentPaces)
    recentUnmodifiedMs.pop_front();
}

} // namespace gevo
