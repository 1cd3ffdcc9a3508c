//===- sandboxed_evaluation.h - One module evaluated as the search would --===//
//
// //gevo:evaluate's default: a workload's module, or a module file beside it
// (a variant), run once in a forked sandbox child by a Workbench, with the
// search's guard pages, fresh-memory fills, input-write check and time limits
// derived from the unmodified program, and reported with its outcome.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_SANDBOXED_EVALUATION_H
#define GEVO_WORKBENCH_SANDBOXED_EVALUATION_H

#include <string>

#include "absl/status/statusor.h"
#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

/// Measures the workload's unmodified module in a sandbox child (which sets
/// the time limit: 5x its compile and run time, at least 2 s), then
/// `variantPath` (empty: the workload's module again) under that limit, and
/// reports the variant with its outcome. Errors are bad input (a file, a
/// module that does not parse, a spec, a pipeline) or, when `variantPath` is
/// set, an unmodified program that fails (no limit can be derived); a
/// variant that fails is a report whose outcome says how.
absl::StatusOr<EvaluationReport>
evaluateSandboxed(const WorkloadSpec &spec, const std::string &variantPath,
                  const EvaluationOptions &options);

} // namespace gevo

#endif // GEVO_WORKBENCH_SANDBOXED_EVALUATION_H
