//===- front_remeasure.cc - The front re-measured, saying how far it is ---===//

#include "gevo/search/front_remeasure.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>

#include "absl/strings/str_cat.h"

namespace gevo {

namespace {

/// The variant's own median run in `m`'s child, before a paired reading's
/// run time was put on the reference scale (onReferenceScale): what its runs
/// will take again on this machine as loaded as it was then.
double ownRunMs(const Measurement &m) {
  if (m.runMs.empty())
    return m.medianRunMs;
  std::vector<double> runs = m.runMs;
  std::nth_element(runs.begin(), runs.begin() + runs.size() / 2, runs.end());
  return runs[runs.size() / 2];
}

/// The unmodified program's run beside `m` in its child, else `baseline`'s.
double besideMs(const Measurement &m, const Measurement &baseline) {
  return m.baselineMedianRunMs > 0 ? m.baselineMedianRunMs
                                   : baseline.medianRunMs;
}

} // namespace

double remeasureChildSeconds(const Measurement &m, const Measurement &baseline,
                             const RemeasurePlan &plan) {
  auto compileMs = [](const Measurement &x) {
    return x.parseMs + x.lowerMs + x.codegenMs;
  };
  double v = ownRunMs(m), b = besideMs(m, baseline);
  if (plan.unmodifiedMs > 0 && b > 0) {
    v *= plan.unmodifiedMs / b;
    b = plan.unmodifiedMs;
  }
  int runs = std::max(0, plan.warmup) + std::max(1, plan.pairs);
  double ms = compileMs(m) + compileMs(baseline) + b + runs * (v + b) + v;
  return plan.childSeconds + ms / 1000.0;
}

double estimateRemeasureSeconds(const std::vector<Individual> &members,
                                const Measurement &baseline,
                                const RemeasurePlan &plan) {
  std::vector<double> child;
  for (const Individual &member : members)
    child.push_back(remeasureChildSeconds(member.measurement, baseline, plan));
  // The unmodified program against itself, at the median of the members'
  // unmodified sides (the machine's load then), else at its own reading.
  std::vector<double> beside;
  for (const Individual &member : members)
    if (member.measurement.baselineMedianRunMs > 0)
      beside.push_back(member.measurement.baselineMedianRunMs);
  Measurement unmodified = baseline;
  if (!beside.empty()) {
    std::nth_element(beside.begin(), beside.begin() + beside.size() / 2,
                     beside.end());
    unmodified.runMs.clear();
    unmodified.medianRunMs = unmodified.baselineMedianRunMs =
        beside[beside.size() / 2];
  }
  child.push_back(remeasureChildSeconds(unmodified, unmodified, plan));
  // The workers' finishing times, as a min-heap: each child starts on the
  // worker that frees first.
  std::priority_queue<double, std::vector<double>, std::greater<double>> free;
  for (int w = 0; w < std::max(1, plan.workers); ++w)
    free.push(0);
  double end = 0;
  for (int copy = 0; copy < std::max(1, plan.children); ++copy)
    for (double seconds : child) {
      double finish = free.top() + seconds;
      free.pop();
      free.push(finish);
      end = std::max(end, finish);
    }
  return end;
}

Workbench::AgainstUnmodified
remeasureFront(Workbench &bench, const std::vector<Individual> &members,
               const RemeasurePlan &plan, ProgressLine *progress) {
  int pairs = plan.pairs, children = std::max(1, plan.children);
  std::vector<std::vector<Edit>> lists;
  for (const Individual &member : members)
    lists.push_back(member.edits);
  size_t total = (lists.size() + 1) * children, done = 0;
  double estimate = estimateRemeasureSeconds(members, bench.baseline(), plan);
  auto start = std::chrono::steady_clock::now();
  auto say = [&] {
    if (!progress)
      return;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    // Once a variant is done its pace is the better guide.
    double left = done == 0       ? estimate
                  : done == total ? -1 // Finished: no estimate to show.
                                  : elapsed / static_cast<double>(done) *
                                        static_cast<double>(total - done);
    progress->phase(absl::StrCat("re-measuring the front: ", done, " of ",
                                 total, " runs done (", pairs,
                                 " interleaved pairs each, ", children,
                                 " per variant)"),
                    left);
  };
  say();
  Workbench::AgainstUnmodified result =
      bench.measureAgainstUnmodified(lists, pairs, /*scoreTest=*/true, children,
                                     [&](size_t, const MeasuredVariant &) {
                                       ++done;
                                       say();
                                     });
  if (progress)
    progress->finish();
  return result;
}

std::vector<size_t> exposedByRemeasure(const std::vector<Objectives> &points,
                                       const std::vector<bool> &eligible,
                                       const std::vector<Objectives> &before,
                                       const std::vector<Objectives> &after,
                                       size_t limit) {
  auto beatenBy = [](const std::vector<Objectives> &by,
                     const Objectives &values) {
    return std::any_of(by.begin(), by.end(), [&](const Objectives &member) {
      return dominates(member, values);
    });
  };
  std::vector<size_t> exposed;
  std::vector<Objectives> values;
  for (size_t i = 0; i < points.size(); ++i)
    if (i < eligible.size() && eligible[i] && beatenBy(before, points[i]) &&
        !beatenBy(after, points[i])) {
      exposed.push_back(i);
      values.push_back(points[i]);
    }
  std::vector<size_t> layer =
      nonDominated(values, std::vector<bool>(values.size(), true));
  std::sort(layer.begin(), layer.end(),
            [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<size_t> kept;
  for (size_t at : spreadAlong(layer, limit))
    kept.push_back(exposed[at]);
  return kept;
}

std::vector<size_t> spreadAlong(const std::vector<size_t> &sorted,
                                size_t limit) {
  if (sorted.size() <= limit)
    return sorted;
  std::vector<size_t> picked;
  for (size_t i = 0; i < limit; ++i)
    picked.push_back(
        sorted[i * (sorted.size() - 1) / std::max<size_t>(1, limit - 1)]);
  return picked;
}

} // namespace gevo
