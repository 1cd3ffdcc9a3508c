//===- cuda_evaluator.h - Evaluate a workload on the GPU target -----------===//
//
// The GPU counterpart of evaluateWorkload (evaluator.h): lowers the module
// with the CUDA pipeline (cuda_pipeline.h, fatbin for sm_90), JIT-compiles
// the host code with the mgpu* runtime (cuda_runtime.h) as its symbols,
// copies the inputs into managed memory once, and times each run with CUDA
// events on the variant's stream. Scores come from the same harness as on the
// CPU. Needs a CUDA driver: without one it fails at once with
// "no CUDA driver (libcuda.so.1 not found)".
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_EVALUATOR_H
#define GEVO_EVAL_CUDA_EVALUATOR_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/evaluator.h"

namespace gevo {

struct CudaEvaluationReport {
  /// runMs holds the GPU time of each timed run (events), not host time.
  EvaluationReport report;
  std::vector<double> hostRunMs; // wall time of the same runs
  int64_t launchesPerRun = 0;
};

/// `options.pipeline` and `options.codegen.llvmPipeline` are ignored: the
/// CUDA pipeline is fixed and the host code is optimised at -O2.
absl::StatusOr<CudaEvaluationReport>
evaluateWorkloadOnCuda(const WorkloadSpec &spec,
                       const EvaluationOptions &options);

/// toJson of the report plus "target":"cuda", "kernel_ms" (median),
/// "host_run_ms" (median) and "launches_per_run".
std::string toJson(const CudaEvaluationReport &report);
std::string toText(const CudaEvaluationReport &report);

} // namespace gevo

#endif // GEVO_EVAL_CUDA_EVALUATOR_H
