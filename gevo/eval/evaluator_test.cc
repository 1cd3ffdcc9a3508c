//===- evaluator_test.cc - Lowering, JIT calls and whole evaluations ------===//

#include "gevo/eval/evaluator.h"

#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

WorkloadSpec loadSpec(const char *path) {
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(findRunfile(path));
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : WorkloadSpec();
}

EvaluationOptions quick() {
  EvaluationOptions options;
  options.warmup = 0;
  options.repeats = 1;
  return options;
}

TEST(EvaluatorTest, TrainingWorkloadLearns) {
  absl::StatusOr<EvaluationReport> report =
      evaluateWorkload(loadSpec("testdata/digits_mlp_train"), quick());
  ASSERT_TRUE(report.ok()) << report.status();
  // Chance is 0.1; the untuned SGD defaults reach about 0.93.
  EXPECT_GE(report->validation.accuracy(), 0.85);
  EXPECT_GE(report->test.accuracy(), 0.85);
  EXPECT_EQ(report->validation.total, 360);
  EXPECT_EQ(report->validation.nonFiniteRows, 0);
  EXPECT_EQ(report->runMs.size(), 1u);
  EXPECT_GT(report->lowerMs, 0);
  EXPECT_GT(report->codegenMs, 0);
  // The training loop (scf.for over epochs and batches) vectorises whole.
  EXPECT_EQ(report->loweredWith, "vector");
  EXPECT_EQ(report->fallbackReason, "");
}

TEST(EvaluatorTest, PredictionWorkloadIsAccurate) {
  absl::StatusOr<EvaluationReport> report =
      evaluateWorkload(loadSpec("testdata/digits_mlp_predict"), quick());
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GE(report->validation.accuracy(), 0.95);
  EXPECT_GE(report->test.accuracy(), 0.93);
  EXPECT_EQ(report->loweredWith, "vector");
}

TEST(EvaluatorTest, VectorAndPlainPipelinesScoreTheSame) {
  for (const char *workload :
       {"testdata/digits_mlp_train", "testdata/digits_mlp_predict"}) {
    WorkloadSpec spec = loadSpec(workload);
    EvaluationOptions plain = quick();
    plain.pipeline = "plain";
    absl::StatusOr<EvaluationReport> slow = evaluateWorkload(spec, plain);
    absl::StatusOr<EvaluationReport> fast = evaluateWorkload(spec, quick());
    ASSERT_TRUE(slow.ok()) << slow.status();
    ASSERT_TRUE(fast.ok()) << fast.status();
    EXPECT_EQ(slow->loweredWith, "plain");
    EXPECT_EQ(fast->loweredWith, "vector");
    // Summation order differs (vector lanes); predictions must not.
    EXPECT_EQ(fast->validation.correct, slow->validation.correct) << workload;
    EXPECT_EQ(fast->test.correct, slow->test.correct) << workload;
  }
}

TEST(EvaluatorTest, OptimisationLevelsAgreeOnTheModel) {
  // The same program built at O0 without IR passes and at O2 with them must
  // make the same predictions (up to float reassociation, none here).
  WorkloadSpec spec = loadSpec("testdata/digits_mlp_predict");
  EvaluationOptions o0 = quick();
  o0.codegen.optLevel = 0;
  o0.codegen.llvmPipeline = "";
  absl::StatusOr<EvaluationReport> slow = evaluateWorkload(spec, o0);
  absl::StatusOr<EvaluationReport> fast = evaluateWorkload(spec, quick());
  ASSERT_TRUE(slow.ok() && fast.ok());
  EXPECT_EQ(slow->validation.correct, fast->validation.correct);
  EXPECT_EQ(slow->test.correct, fast->test.correct);
}

TEST(EvaluatorTest, ModuleWrappedPipelineRunsItsPasses) {
  // A builtin.module(...) wrapper on a module-anchored pass manager would nest
  // and silently run nothing; it must lower exactly like the bare list.
  EvaluationOptions options = quick();
  options.pipeline = std::string("builtin.module(") + kDefaultCpuPipeline + ")";
  absl::StatusOr<EvaluationReport> report =
      evaluateWorkload(loadSpec("testdata/digits_mlp_predict"), options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GE(report->validation.accuracy(), 0.95);
}

TEST(EvaluatorTest, IncompletePipelineIsReportedWithTheOpLocation) {
  EvaluationOptions options = quick();
  options.pipeline = "canonicalize";
  absl::StatusOr<EvaluationReport> report =
      evaluateWorkload(loadSpec("testdata/digits_mlp_train"), options);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              testing::MatchesRegex(
                  ".*digits_mlp_train/model.mlir:[0-9]+:[0-9]+: error: the "
                  "pipeline left '[a-z.]+' unlowered.*"));
}

TEST(EvaluatorTest, UnknownPassIsReported) {
  EvaluationOptions options = quick();
  options.pipeline = "inline, no-such-pass";
  absl::StatusOr<EvaluationReport> report =
      evaluateWorkload(loadSpec("testdata/digits_mlp_train"), options);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("--pipeline:1:9: error: 'no-such-pass' does not refer "
                        "to a registered pass"));
}

constexpr const char kViews[] = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4xi32>)
    -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2xf32>, tensor<4x3xf32>) {
  // Rows 1 and 3: a strided view of the argument.
  %rows = tensor.extract_slice %a[1, 0] [2, 3] [2, 1]
      : tensor<4x3xf32> to tensor<2x3xf32>
  %c = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %init = tensor.empty() : tensor<4x3xf32>
  %twice = linalg.generic {indexing_maps = [#id, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x3xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x3xf32>
  return %rows, %b, %c, %twice
      : tensor<2x3xf32>, tensor<4xi32>, tensor<2xf32>, tensor<4x3xf32>
}
)mlir";

TEST(JitTest, ResultsComeBackDenseWhateverTheirLayout) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(*context, kViews, "views.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(**module, "main");
  ASSERT_TRUE(signature.ok()) << signature.status();
  ASSERT_EQ(signature->results.size(), 4u);
  requestCInterface(**module, "main");
  ASSERT_TRUE(lowerToLLVMDialect(**module, kDefaultCpuPipeline).ok());
  absl::StatusOr<std::unique_ptr<JitEntry>> entry =
      JitEntry::compile(**module, *signature, CodegenOptions());
  ASSERT_TRUE(entry.ok()) << entry.status();

  HostTensor a(ElementType::F32, {4, 3});
  for (int i = 0; i < 12; ++i)
    a.as<float>()[i] = static_cast<float>(i);
  HostTensor b(ElementType::I32, {4});
  for (int i = 0; i < 4; ++i)
    b.as<int32_t>()[i] = 10 * i;
  // Twice, so that freeing the first call's results is exercised.
  for (int call = 0; call < 2; ++call) {
    absl::StatusOr<std::vector<HostTensor>> results = (*entry)->run({&a, &b});
    ASSERT_TRUE(results.ok()) << results.status();
    const std::vector<HostTensor> &r = *results;
    EXPECT_EQ(r[0].shape, (std::vector<int64_t>{2, 3}));
    std::vector<float> rows(r[0].as<float>(), r[0].as<float>() + 6);
    EXPECT_EQ(rows, (std::vector<float>{3, 4, 5, 9, 10, 11}));
    std::vector<int32_t> labels(r[1].as<int32_t>(), r[1].as<int32_t>() + 4);
    EXPECT_EQ(labels, (std::vector<int32_t>{0, 10, 20, 30}));
    EXPECT_EQ(r[2].at(0), 1.5);
    EXPECT_EQ(r[2].at(1), -2.0);
    for (int i = 0; i < 12; ++i)
      EXPECT_EQ(r[3].at(i), 2.0 * i);
  }
  HostTensor wrong(ElementType::F32, {4});
  absl::StatusOr<std::vector<HostTensor>> rejected =
      (*entry)->run({&a, &wrong});
  ASSERT_FALSE(rejected.ok());
  EXPECT_THAT(std::string(rejected.status().message()),
              HasSubstr("argument #1 of @main is tensor<4xi32>, got "
                        "tensor<4xf32>"));
}

TEST(JitTest, EntrySignatureRejectsNonTensorArguments) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(
      *context, "func.func @main(%x: f32) -> f32 { return %x : f32 }",
      "scalar.mlir");
  ASSERT_TRUE(module.ok());
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(**module, "main");
  ASSERT_FALSE(signature.ok());
  EXPECT_THAT(std::string(signature.status().message()),
              HasSubstr("scalar.mlir:1:1: error: argument #0 of @main (f32) "
                        "is not a ranked tensor"));
  signature = readEntrySignature(**module, "predict");
  ASSERT_FALSE(signature.ok());
  EXPECT_THAT(std::string(signature.status().message()),
              HasSubstr("the module has no func.func @predict"));
}

} // namespace
} // namespace gevo
