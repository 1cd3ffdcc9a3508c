//===- evaluator.h - Evaluate a workload's module once, in this process ---===//
//
// The evaluation a user runs by hand (`//gevo:evaluate`), and tests and
// model-making tools: parse the module, check its entry against the
// workload, lower and compile it with the options' Target (target.h), time it
// on the validation split, and let the harness score its logits on
// validation and test. (A search measures its variants isolated, through
// EvaluationSession: variant_session.h.)
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_EVALUATOR_H
#define GEVO_EVAL_EVALUATOR_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/evaluation_options.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

struct EvaluationReport {
  std::string workload;
  std::string modulePath;
  /// How the run ended: "ok", or, for a run in a sandbox child
  /// (//gevo:evaluate's default), the outcome the search would give it
  /// (measurement.h: "out_of_bounds", "timeout", ...) and why, in `detail`.
  /// The scores and times are only meaningful when it is "ok".
  std::string outcome = "ok";
  std::string detail;
  ClassificationScore validation;
  ClassificationScore test; // total == 0 when not scored.
  double parseMs = 0;
  double lowerMs = 0;   // MLIR pass pipeline.
  double codegenMs = 0; // Translation, LLVM IR passes, machine code.
  /// Each timed run: wall time, or device time on a target that has it
  /// (TargetCapabilities::deviceTime; hostRunMs then holds wall time).
  std::vector<double> runMs;
  double medianRunMs = 0;
  std::string target;
  bool deviceTime = false;
  std::vector<double> hostRunMs;
  int64_t launchesPerRun = 0;
  std::string pipeline;
  /// The pipeline whose code ran, and why the first choice failed (empty
  /// when it did not).
  std::string loweredWith;
  std::string fallbackReason;
  /// The form the module was written in: "linalg", or "tosa" when it was
  /// legalised to linalg first (gevo/ir/frontend.h).
  std::string source = "linalg";
};

/// Evaluates the workload's module as it is on disk.
absl::StatusOr<EvaluationReport>
evaluateWorkload(const WorkloadSpec &spec, const EvaluationOptions &options);

/// Evaluates a module given as text (e.g. a variant), with the workload's
/// data already loaded. `bufferName` names the text in error messages.
absl::StatusOr<EvaluationReport>
evaluateModuleText(const WorkloadSpec &spec, const DatasetSplit &data,
                   const std::string &moduleText, const std::string &bufferName,
                   const EvaluationOptions &options);

/// Runs the workload's module and returns every result computed on the given
/// eval split, e.g. trained weights (no timing, no scoring).
absl::StatusOr<std::vector<HostTensor>>
runWorkloadResults(const WorkloadSpec &spec, const DatasetSplit &data,
                   SplitRole evalSplit, const EvaluationOptions &options);

/// The report as one JSON object ("outcome" always, "detail" when there is
/// one); with device time it adds "target",
/// "kernel_ms" (median), "host_run_ms" (median) and "launches_per_run".
std::string toJson(const EvaluationReport &report);
/// The report as a few aligned human-readable lines.
std::string toText(const EvaluationReport &report);

} // namespace gevo

#endif // GEVO_EVAL_EVALUATOR_H
