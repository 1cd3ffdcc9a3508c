//===- normalized_objectives.cc - Objectives on the hypervolume's scale ---===//
//
// normalizedObjectives (search.h): error as it is, every other objective
// divided by twice the unmodified program's value (kHypervolumeRatio, the
// hypervolume's reference point, which racing's run limit also reads).
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/race.h"
#include "gevo/search/search.h"

namespace gevo {

std::vector<double>
normalizedObjectives(const Measurement &m, const Measurement &baseline,
                     const std::vector<std::string> &names) {
  std::vector<double> values;
  for (const std::string &name : names) {
    double value = objectiveValue(m, name);
    if (name == "error") {
      values.push_back(value);
      continue;
    }
    double reference = kHypervolumeRatio * objectiveValue(baseline, name);
    values.push_back(reference > 0 ? value / reference : value);
  }
  return values;
}

} // namespace gevo
