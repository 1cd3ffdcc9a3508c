//===- median.h - The median of a list of numbers -------------------------===//
//
// One definition for the harness's run times, racing's pair ratios and the
// benchmarks' figures.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_MEDIAN_H
#define GEVO_SUPPORT_MEDIAN_H

#include <algorithm>
#include <vector>

namespace gevo {

/// The median of `values` (mean of the two middle ones for an even count);
/// 0 when there are none.
inline double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

} // namespace gevo

#endif // GEVO_SUPPORT_MEDIAN_H
