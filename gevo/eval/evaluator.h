//===- evaluator.h - Evaluate a workload: parse, lower, JIT, run, score ---===//
//
// The evaluation a user runs by hand (`//gevo:evaluate`) and the search runs
// per variant: parse the module, check its entry against the workload, lower
// it with an MLIR pipeline, JIT it, time it on the validation split, and let
// the harness score its logits on validation and test.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_EVALUATOR_H
#define GEVO_EVAL_EVALUATOR_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/jit.h"
#include "gevo/eval/workload.h"

namespace gevo {

struct EvaluationOptions {
  /// MLIR pass pipeline, mlir-opt syntax, or a name ("vector", "plain");
  /// empty: "vector", falling back to "plain" (lowering.h).
  std::string pipeline;
  CodegenOptions codegen;
  /// Negative: take the workload's timing settings.
  int warmup = -1;
  int repeats = -1;
  /// Also score the test split (never used for selection).
  bool scoreTest = true;
  /// Where variants run: "cpu", or "cuda" (the GPU target: the CUDA
  /// pipeline, cuda_program.h; `pipeline` and `codegen` then do not apply).
  std::string target = "cpu";
};

/// Untimed and timed runs per evaluation: the options' where they set them,
/// else the workload's.
struct RunCounts {
  int warmup = 0;
  int repeats = 0;
};
inline RunCounts runCounts(const EvaluationOptions &options,
                           const WorkloadSpec &spec) {
  return {options.warmup >= 0 ? options.warmup : spec.warmup,
          options.repeats > 0 ? options.repeats : spec.repeats};
}

/// OK for "cpu" and "cuda"; otherwise InvalidArgument naming the flag.
absl::Status checkTarget(const std::string &target);

struct EvaluationReport {
  std::string workload;
  std::string modulePath;
  ClassificationScore validation;
  ClassificationScore test; // total == 0 when not scored.
  double parseMs = 0;
  double lowerMs = 0;   // MLIR pass pipeline.
  double codegenMs = 0; // Translation, LLVM IR passes, machine code.
  std::vector<double> runMs;
  double medianRunMs = 0;
  std::string pipeline;
  /// The pipeline whose code ran, and why the first choice failed (empty
  /// when it did not).
  std::string loweredWith;
  std::string fallbackReason;
  /// The form the module was written in: "linalg", or "tosa" when it was
  /// legalised to linalg first (gevo/ir/frontend.h).
  std::string source = "linalg";
};

/// Sets `options` to the CPU pipeline other than `pipeline` (a value of
/// EvaluationOptions::pipeline) and says which in words: the vectorising
/// pipeline's other is the plain one after canonicalize and cse, with LLVM
/// -O3 (GEVO's -O2 check); the plain one's, or a user's own, is the
/// vectorising one. On the GPU target (options.target "cuda") the other is
/// the CPU target. For "does the gain survive the other pipeline".
std::string useOtherPipeline(const std::string &pipeline,
                             EvaluationOptions &options);

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

/// The report as one JSON object.
std::string toJson(const EvaluationReport &report);
/// The report as a few aligned human-readable lines.
std::string toText(const EvaluationReport &report);

} // namespace gevo

#endif // GEVO_EVAL_EVALUATOR_H
