//===- front_remeasure.cc - The front re-measured, saying how far it is ---===//

#include "gevo/search/front_remeasure.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"

namespace gevo {

double estimateRemeasureSeconds(const std::vector<Individual> &members,
                                const Measurement &baseline, int pairs,
                                int workers) {
  auto compileMs = [](const Measurement &m) {
    return m.parseMs + m.lowerMs + m.codegenMs;
  };
  auto variantMs = [&](const Measurement &m) {
    return compileMs(m) + (pairs + 1) * (m.medianRunMs + baseline.medianRunMs);
  };
  double totalMs = variantMs(baseline);
  for (const Individual &member : members)
    totalMs += variantMs(member.measurement);
  size_t lists = members.size() + 1;
  int parallel = static_cast<int>(
      std::min<size_t>(lists, static_cast<size_t>(std::max(1, workers))));
  return totalMs / 1000.0 / parallel;
}

Workbench::AgainstUnmodified
remeasureFront(Workbench &bench, const std::vector<Individual> &members,
               int pairs, int children, ProgressLine *progress) {
  children = std::max(1, children);
  std::vector<std::vector<Edit>> lists;
  for (const Individual &member : members)
    lists.push_back(member.edits);
  size_t total = (lists.size() + 1) * children, done = 0;
  double estimate =
      children * estimateRemeasureSeconds(members, bench.baseline(), pairs,
                                          bench.workers());
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

} // namespace gevo
