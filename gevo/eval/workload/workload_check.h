//===- workload_check.h - Validate a workload without running it ----------===//
//
// What `//gevo:evaluate --check` does: read the spec, load and split its data,
// parse the module and check its entry against the bindings of both held-out
// splits; nothing is lowered, compiled or run.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_WORKLOAD_CHECK_H
#define GEVO_EVAL_WORKLOAD_CHECK_H

#include <string>

#include "absl/status/statusor.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

/// Checks `spec` with its module and returns a one-line summary of the data
/// it would use.
/// Errors are the evaluator's (`file:line:col: error: ...`).
absl::StatusOr<std::string> checkWorkload(const WorkloadSpec &spec);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_CHECK_H
