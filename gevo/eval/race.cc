//===- race.cc - When a variant's timing can stop early -------------------===//

#include "gevo/eval/race.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"

namespace gevo {

double ratioToBeat(const std::vector<FrontPoint> &front, double error) {
  double best = std::numeric_limits<double>::infinity();
  for (const FrontPoint &point : front)
    if (point.error <= error)
      best = std::min(best, point.ratio);
  return best;
}

bool beatenAfterFirstRun(const RacePlan &plan, double error, double ratio) {
  if (!plan.enabled() || !(ratio > 0))
    return false;
  return ratio > (1 + plan.firstReadingMargin) * ratioToBeat(plan.front, error);
}

bool beatenAfterPairs(const RacePlan &plan, double error,
                      const std::vector<double> &ratios) {
  if (!plan.enabled() || static_cast<int>(ratios.size()) < plan.minPairs ||
      ratios.empty())
    return false;
  double fastest = *std::min_element(ratios.begin(), ratios.end());
  return fastest > (1 + plan.band) * ratioToBeat(plan.front, error);
}

std::string racedAfterPairs(int pairs) { return absl::StrCat("pairs:", pairs); }

std::vector<FrontPoint> nonDominated(std::vector<FrontPoint> points) {
  std::sort(points.begin(), points.end(),
            [](const FrontPoint &a, const FrontPoint &b) {
              return a.error != b.error ? a.error < b.error : a.ratio < b.ratio;
            });
  std::vector<FrontPoint> kept;
  for (const FrontPoint &point : points)
    if (kept.empty() || point.ratio < kept.back().ratio)
      kept.push_back(point);
  return kept;
}

} // namespace gevo
