//===- training_workload.h - A workload's "training" field to a program ---===//
//
// Reads a workload.json whose `module` is a forward model and whose
// `training` field says how to train it, and generates the training module
// (training.h) for the workload's data sizes: what every tool that loads the
// workload runs (gevo/eval/workload/workload_module.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_WORKLOAD_H
#define GEVO_FRONTEND_TRAINING_WORKLOAD_H

#include <string>

#include "absl/status/statusor.h"

namespace gevo {

/// The training program of the workload at `path` (a workload.json or a
/// directory holding one), loaded as every tool loads it; an error when the
/// workload has no `training` field.
absl::StatusOr<std::string> makeTrainingModule(const std::string &path);

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_WORKLOAD_H
