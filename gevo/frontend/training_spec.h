//===- training_spec.h - The "training" field of a workload ---------------===//
//
// How to train a forward model: loss, optimiser, batch, epochs, initial
// weights, batch order (docs/workload.md), and the data sizes the workload
// gives. Parsed from JSON text; a wrong field is one line naming it.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_SPEC_H
#define GEVO_FRONTEND_TRAINING_SPEC_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gevo {

struct TrainingSpec {
  std::string loss = "cross_entropy";
  /// One rate for every layer, or one per layer (in the model's order).
  std::vector<double> learningRates = {0.01};
  std::optional<double> momentum;
  std::optional<double> weightDecay;
  int64_t batch = 32;
  int64_t epochs = 1;
  /// Initial weights: the model's own, or a seeded re-initialisation.
  bool initFromModel = true;
  double seed = 1;
  std::string scale = "fan_in"; // fan_in | he | glorot
  /// A seeded shuffle of the training rows per epoch; none: in order.
  std::optional<int64_t> shuffleSeed;

  // From the workload, not the "training" field.
  int64_t trainRows = 0;
  int64_t evalRows = 0;
  int64_t classes = 0;
  std::string entry = "train_eval";
};

/// Parses the "training" object (its JSON text). `where` prefixes errors,
/// which name the field: "<where>: training.batch: must be at least 1".
absl::StatusOr<TrainingSpec> parseTrainingSpec(const std::string &json,
                                               const std::string &where);

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_SPEC_H
