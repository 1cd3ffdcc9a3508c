//===- evaluation_options.h - How a workload's variants are evaluated -----===//
//
// The settings every evaluation takes (one by hand, or a search's sandboxed
// ones): where variants run, how they are lowered and compiled, how many runs
// are timed. Plain data; the Target a run uses is made from them
// (target.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_EVALUATION_OPTIONS_H
#define GEVO_EVAL_EVALUATION_OPTIONS_H

#include <string>

#include "absl/status/status.h"
#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

/// The name of the default target, the host CPU.
inline constexpr char kCpuTargetName[] = "cpu";

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
  /// makeTarget (target.h) is the only reader.
  std::string target = kCpuTargetName;
  /// Start each sandboxed child from a fork server forked when the session
  /// is made (fork_server.h), not from the caller, whose size every fork
  /// and every child's exit pays for as it grows. CPU target only.
  bool forkServer = true;
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

/// OK for the targets makeTarget knows ("cpu", "cuda"); otherwise
/// InvalidArgument naming the flag.
absl::Status checkTarget(const std::string &target);

/// Sets `options` to the pipeline other than `pipeline` (a value of
/// EvaluationOptions::pipeline) on its target and says which in words: the
/// vectorising CPU pipeline's other is the plain one after canonicalize and
/// cse, with LLVM -O3 (GEVO's -O2 check); the plain one's, or a user's own,
/// is the vectorising one. On the GPU target the other is the CPU target.
/// For "does the gain survive the other pipeline".
std::string useOtherPipeline(const std::string &pipeline,
                             EvaluationOptions &options);

} // namespace gevo

#endif // GEVO_EVAL_EVALUATION_OPTIONS_H
