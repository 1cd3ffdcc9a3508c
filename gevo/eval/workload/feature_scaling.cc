//===- feature_scaling.cc - Scaling and normalising a split's features ----===//

#include "gevo/eval/workload/feature_scaling.h"

#include <cmath>
#include <vector>

namespace gevo {
namespace {

/// Mean and standard deviation per feature (`perFeature`) or of all values
/// (one entry), accumulated in double precision.
void trainStatistics(const Dataset &train, bool perFeature,
                     std::vector<double> &mean, std::vector<double> &stddev) {
  size_t groups = perFeature ? static_cast<size_t>(train.numFeatures) : 1;
  std::vector<double> sum(groups, 0), sumSquares(groups, 0);
  for (size_t i = 0; i < train.features.size(); ++i) {
    size_t group = perFeature ? i % train.numFeatures : 0;
    double value = train.features[i];
    sum[group] += value;
    sumSquares[group] += value * value;
  }
  double count = perFeature ? static_cast<double>(train.size())
                            : static_cast<double>(train.features.size());
  mean.assign(groups, 0);
  stddev.assign(groups, 1);
  if (count == 0)
    return;
  for (size_t g = 0; g < groups; ++g) {
    mean[g] = sum[g] / count;
    double variance = sumSquares[g] / count - mean[g] * mean[g];
    double deviation = variance > 0 ? std::sqrt(variance) : 0;
    stddev[g] = deviation > 1e-12 ? deviation : 1;
  }
}

} // namespace

void scaleFeatures(DatasetSplit &split, const FeatureScaling &scaling) {
  Dataset *splits[] = {&split.train, &split.validation, &split.test};
  if (scaling.divideBy != 1)
    for (Dataset *data : splits)
      for (float &value : data->features)
        value = static_cast<float>(value / scaling.divideBy);
  if (scaling.normalize == Normalization::None)
    return;
  bool perFeature = scaling.normalize == Normalization::PerFeature;
  std::vector<double> mean, stddev;
  trainStatistics(split.train, perFeature, mean, stddev);
  for (Dataset *data : splits)
    for (size_t i = 0; i < data->features.size(); ++i) {
      size_t group = perFeature ? i % data->numFeatures : 0;
      data->features[i] =
          static_cast<float>((data->features[i] - mean[group]) / stddev[group]);
    }
}

const char *toString(Normalization normalization) {
  switch (normalization) {
  case Normalization::None:
    return "none";
  case Normalization::PerFeature:
    return "per_feature";
  case Normalization::Global:
    return "global";
  }
  return "?";
}

} // namespace gevo
