//===- feature_scaling.h - Scaling and normalising a split's features -----===//
//
// Raw data (MNIST's 0..255 bytes) rarely matches what a model was written for;
// a workload scales its features by a constant and/or normalises them with
// statistics taken from the training split only, the same for every split.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_FEATURE_SCALING_H
#define GEVO_EVAL_FEATURE_SCALING_H

#include "gevo/eval/workload/dataset.h"

namespace gevo {

enum class Normalization {
  None,       // Features as read (after `scale`).
  PerFeature, // Each feature minus its training mean, over its training std.
  Global,     // Every value minus the training mean, over the training std.
};

struct FeatureScaling {
  /// Every feature is divided by this first (e.g. 255 for bytes to [0, 1]).
  double divideBy = 1;
  Normalization normalize = Normalization::None;
};

/// Applies `scaling` to all three splits, taking means and standard deviations
/// from `split.train`. A constant feature (std 0) is only centred.
void scaleFeatures(DatasetSplit &split, const FeatureScaling &scaling);

const char *toString(Normalization normalization);

} // namespace gevo

#endif // GEVO_EVAL_FEATURE_SCALING_H
