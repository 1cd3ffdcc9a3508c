//===- bindings.h - Data splits turned into the entry's argument tensors --===//
//
// Between a workload's data and its entry function: the argument tensors
// each split binds, the check that they fit the entry's signature, and the
// labels a split's logits are scored against.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_BINDINGS_H
#define GEVO_EVAL_BINDINGS_H

#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/host_tensor.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

/// Builds one tensor per argument binding. Bindings to the `eval` split take
/// `evalSplit` (validation or test).
std::vector<HostTensor> bindArguments(const WorkloadSpec &spec,
                                      const DatasetSplit &data,
                                      SplitRole evalSplit);

/// The labels of the split scored as `evalSplit`.
const Dataset &evalData(const DatasetSplit &data, SplitRole evalSplit);

/// Scores `logits` against the labels of the split scored as `evalSplit`
/// (scoreLogits, harness.h).
absl::StatusOr<ClassificationScore> scoreSplit(const DatasetSplit &data,
                                               SplitRole evalSplit,
                                               const HostTensor &logits);

/// Checks the bound tensors and the spec's results against the entry's
/// signature; errors point at the function (`file:line:col: error: ...`).
absl::Status checkSignature(const WorkloadSpec &spec,
                            const EntrySignature &signature,
                            const std::vector<HostTensor> &arguments,
                            const DatasetSplit &data);

} // namespace gevo

#endif // GEVO_EVAL_BINDINGS_H
