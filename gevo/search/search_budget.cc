//===- search_budget.cc - What the budget keeps for the end ---------------===//
//
// SearchRun's estimate of the front's re-measurement at the end, which the
// budget includes: the members it will re-measure, how, and at the pace of
// the machine as the latest paired children found it.

#include <algorithm>

#include "gevo/search/front_remeasure.h"
#include "gevo/search/search_run.h"

namespace gevo {

std::vector<size_t> SearchRun::frontMembers() const {
  std::vector<size_t> front = archiveFront();
  std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    return objectivesOf(state.archive[a]) < objectivesOf(state.archive[b]);
  });
  if (static_cast<int>(front.size()) <= config.frontLimit ||
      config.frontLimit <= 0)
    return front;
  std::vector<size_t> picked;
  for (int i = 0; i < config.frontLimit; ++i)
    picked.push_back(
        front[i * (front.size() - 1) / std::max(1, config.frontLimit - 1)]);
  return picked;
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
  return estimateRemeasureSeconds(members, bench->baseline(), remeasurePlan());
}

void SearchRun::notePace(const Measurement &m) {
  if (!m.ok() || m.baselineMedianRunMs <= 0)
    return;
  recentUnmodifiedMs.push_back(m.baselineMedianRunMs);
  if (recentUnmodifiedMs.size() > kRecentPaces)
    recentUnmodifiedMs.pop_front();
}

} // namespace gevo
