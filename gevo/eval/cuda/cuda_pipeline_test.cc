//===- cuda_pipeline_test.cc - The GPU pipeline's rewrites, checked on a CPU
//
// The CUDA pipeline's own loop rewrites (per-reduction fills, interchange,
// allocation gathering, parallel-loop fusion, tiling with guards) run up to
// the loops that become kernels, are lowered for the host instead, and must
// score both digits workloads as the CPU target does.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/cuda/cuda_pipeline.h"

#include <cstdlib>
#include <string>

#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

EvaluationReport evaluate(const std::string &workload,
                          const std::string &pipeline) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/" + workload));
  EXPECT_TRUE(spec.ok()) << spec.status();
  EvaluationOptions options;
  options.pipeline = pipeline;
  options.warmup = 0;
  options.repeats = 1;
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(*spec, options);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : EvaluationReport();
}

void expectSameScores(const std::string &workload) {
  EvaluationReport cpu = evaluate(workload, "plain");
  EvaluationReport loops = evaluate(workload, cudaLoopsOnCpuPipeline());
  ASSERT_GT(cpu.validation.total, 0);
  EXPECT_EQ(loops.loweredWith, "custom");
  EXPECT_EQ(loops.validation.total, cpu.validation.total);
  // Same sums in the same order: at most a row on a float tie may differ.
  EXPECT_LE(std::abs(loops.validation.correct - cpu.validation.correct), 1);
  EXPECT_LE(std::abs(loops.test.correct - cpu.test.correct), 1);
  EXPECT_EQ(loops.validation.nonFiniteRows, 0);
}

TEST(CudaPipelineTest, PredictionLoopsScoreAsTheCpuTarget) {
  expectSameScores("digits_mlp_predict");
}

TEST(CudaPipelineTest, TrainingLoopsScoreAsTheCpuTarget) {
  expectSameScores("digits_mlp_train");
}

TEST(CudaPipelineTest, PipelinesNameTheTarget) {
  CudaChip target;
  EXPECT_NE(
      cudaPipeline(target).find("gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 "
                                "cubin-features=+ptx80 cubin-format=fatbin}"),
      std::string::npos);
  target.format = CudaBinaryFormat::kPtx;
  EXPECT_NE(cudaPipeline(target).find("cubin-format=isa"), std::string::npos);
  EXPECT_EQ(cudaKernelPipeline().rfind(cudaLoopPipeline(), 0), 0u);
}

} // namespace
} // namespace gevo
