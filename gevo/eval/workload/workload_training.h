//===- workload_training.h - A workload's "training" field, located -------===//
//
// Reads the `training` field of a workload.json (gevo/frontend/training_spec.h)
// and turns the training generator's errors, which name a field
// ("training.batch: ..."), into the spec's file:line:col.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_WORKLOAD_TRAINING_H
#define GEVO_EVAL_WORKLOAD_TRAINING_H

#include "absl/strings/string_view.h"
#include <string>

#include "absl/status/status.h"
#include "llvm/Support/JSON.h"

namespace gevo {

class SpecReader;
struct WorkloadSpec;

/// Parses `value`, the `training` field, into spec.training and sets
/// spec.trainingHash, spec.forwardEntry (the `entry` read so far) and
/// spec.entry (the generated program's).
absl::Status parseWorkloadTraining(const SpecReader &reader,
                                   const llvm::json::Value &value,
                                   WorkloadSpec &spec);

/// `message` names a training field after the spec's path
/// ("<spec>: training.batch: ..."): the same error located in the spec,
/// "<spec>:line:col: error: at $.training.batch: ...". The spec's text is
/// read again to find the line.
absl::Status locateTrainingError(const WorkloadSpec &spec,
                                 absl::string_view message);

/// What a patch made on the generated program records after
/// `source training`: "forward=F spec=H" (F the forward module's file name,
/// H spec.trainingHash), and " entry=E" for a forward entry other than main.
std::string trainingSourceWords(const WorkloadSpec &spec);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_TRAINING_H
