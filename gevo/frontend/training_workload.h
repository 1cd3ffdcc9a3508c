//===- training_workload.h - A workload's "training" field to a program ---===//
//
// Reads a workload.json whose `module` is a forward model and whose
// `training` field says how to train it, and generates the training module
// (training.h) for the workload's data sizes.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_WORKLOAD_H
#define GEVO_FRONTEND_TRAINING_WORKLOAD_H

#include <string>

#include "absl/status/statusor.h"
#include "gevo/frontend/training_spec.h"

namespace gevo {

struct TrainingWorkload {
  TrainingSpec spec;       // with the data's row and class counts
  std::string forwardPath; // the forward module
  std::string specPath;    // the workload.json read
};

/// Reads the spec at `path` (a workload.json or a directory holding one)
/// and loads its data to count rows.
absl::StatusOr<TrainingWorkload> loadTrainingWorkload(const std::string &path);

/// loadTrainingWorkload, then generateTrainingModule on the forward module
/// (a `.onnx` one imported first, its batch set to the eval rows).
absl::StatusOr<std::string> makeTrainingModule(const std::string &path);

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_WORKLOAD_H
