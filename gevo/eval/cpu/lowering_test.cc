//===- lowering_test.cc - Named pipelines, vectorised code, the fallback --===//

#include "gevo/eval/cpu/lowering.h"

#include <cmath>

#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/measurement.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

// A matmul whose shapes the register tile divides.
constexpr char kMatmul[] = R"mlir(
func.func @main(%a: tensor<12x8xf32>, %b: tensor<8x32xf32>)
    -> tensor<12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<12x32xf32>)
      -> tensor<12x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<12x8xf32>, tensor<8x32xf32>)
      outs(%z : tensor<12x32xf32>) -> tensor<12x32xf32>
  return %c : tensor<12x32xf32>
}
)mlir";

// What a mutant may leave: prime sizes (partial, masked tiles), a reduction
// into a row vector, a transpose, a rank-1 op, an op on dynamic shapes, and
// the work inside an scf.for.
constexpr char kOddShapes[] = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<7x13xf32>, %b: tensor<13x37xf32>)
    -> (tensor<7x37xf32>, tensor<7xf32>, tensor<37x7xf32>, tensor<7xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<7x37xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x37xf32>)
      -> tensor<7x37xf32>
  %mm = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %z)
      -> tensor<7x37xf32> {
    %next = linalg.matmul ins(%a, %b : tensor<7x13xf32>, tensor<13x37xf32>)
        outs(%acc : tensor<7x37xf32>) -> tensor<7x37xf32>
    scf.yield %next : tensor<7x37xf32>
  }
  %dyn = tensor.cast %mm : tensor<7x37xf32> to tensor<?x?xf32>
  %d0 = tensor.dim %dyn, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %dyn, %c1 : tensor<?x?xf32>
  %de = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%dyn : tensor<?x?xf32>) outs(%de : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %r = tensor.cast %relu : tensor<?x?xf32> to tensor<7x37xf32>
  %se = tensor.empty() : tensor<7xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<7xf32>)
      -> tensor<7xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<7x37xf32>) outs(%sz : tensor<7xf32>) {
  ^bb0(%x: f32, %s: f32):
    %t = arith.addf %x, %s : f32
    linalg.yield %t : f32
  } -> tensor<7xf32>
  %te = tensor.empty() : tensor<37x7xf32>
  %t = linalg.transpose ins(%r : tensor<7x37xf32>)
      outs(%te : tensor<37x7xf32>) permutation = [1, 0]
  %he = tensor.empty() : tensor<7xf32>
  %half = linalg.generic {indexing_maps = [#id1, #id1],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<7xf32>) outs(%he : tensor<7xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = math.sqrt %x : f32
    linalg.yield %h : f32
  } -> tensor<7xf32>
  return %r, %sum, %t, %half
      : tensor<7x37xf32>, tensor<7xf32>, tensor<37x7xf32>, tensor<7xf32>
}
)mlir";

HostTensor filled(std::vector<int64_t> shape, int seed) {
  HostTensor tensor(ElementType::F32, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.as<float>()[i] = static_cast<float>((i * 7 + seed) % 11) - 5.0f;
  return tensor;
}

struct Lowered {
  LoweringNote note;
  int vectorFmas = 0; // llvm.intr.fmuladd on vectors
  std::vector<HostTensor> results;
};

/// Lowers `text` with `pipeline`, counts vector FMAs, and runs it once.
Lowered lowerAndRun(const char *text, const std::string &pipeline,
                    const std::vector<const HostTensor *> &arguments) {
  Lowered out;
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(*context, text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok())
    return out;
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(**module, "main");
  EXPECT_TRUE(signature.ok()) << signature.status();
  requestCInterface(**module, "main");
  absl::Status lowered = lowerToLLVMDialect(**module, pipeline, &out.note);
  EXPECT_TRUE(lowered.ok()) << lowered;
  if (!lowered.ok() || !signature.ok())
    return out;
  (*module)->walk([&](mlir::LLVM::FMulAddOp op) {
    if (llvm::isa<mlir::VectorType>(op.getType()))
      ++out.vectorFmas;
  });
  absl::StatusOr<std::unique_ptr<JitEntry>> entry =
      JitEntry::compile(**module, *signature, CodegenOptions());
  EXPECT_TRUE(entry.ok()) << entry.status();
  if (!entry.ok())
    return out;
  absl::StatusOr<std::vector<HostTensor>> results = (*entry)->run(arguments);
  EXPECT_TRUE(results.ok()) << results.status();
  if (results.ok())
    out.results = std::move(*results);
  return out;
}

void expectClose(const std::vector<HostTensor> &got,
                 const std::vector<HostTensor> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].shape, want[r].shape) << "result #" << r;
    for (int64_t i = 0; i < got[r].numElements(); ++i)
      ASSERT_NEAR(got[r].at(i), want[r].at(i),
                  1e-4 * (1 + std::fabs(want[r].at(i))))
          << "result #" << r << " element " << i;
  }
}

TEST(LoweringTest, NamesResolveToPassesAndFallback) {
  PipelineChoice byDefault = resolvePipeline("");
  EXPECT_EQ(byDefault.name, "vector");
  EXPECT_EQ(byDefault.passes, kVectorCpuPipeline);
  EXPECT_EQ(byDefault.fallbackPasses, kPlainCpuPipeline);
  EXPECT_EQ(resolvePipeline(" plain ").passes, kPlainCpuPipeline);
  EXPECT_TRUE(resolvePipeline("plain").fallbackPasses.empty());
  PipelineChoice custom = resolvePipeline("inline, canonicalize");
  EXPECT_EQ(custom.name, "custom");
  EXPECT_TRUE(custom.fallbackPasses.empty());
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  EXPECT_TRUE(checkPipeline(*context, "vector").ok());
  EXPECT_TRUE(checkPipeline(*context, kVectorCpuPipeline).ok());
}

TEST(LoweringTest, DefaultPipelineVectorisesAMatmul) {
  HostTensor a = filled({12, 8}, 1), b = filled({8, 32}, 2);
  Lowered fast = lowerAndRun(kMatmul, "", {&a, &b});
  EXPECT_EQ(fast.note.loweredWith, "vector");
  EXPECT_FALSE(fast.note.fellBack()) << fast.note.fallbackReason;
  // A 6x16 register tile, k stepped by 4: FMAs on vector<16xf32> rows.
  EXPECT_GE(fast.vectorFmas, 6);
  Lowered plain = lowerAndRun(kMatmul, "plain", {&a, &b});
  EXPECT_EQ(plain.note.loweredWith, "plain");
  EXPECT_EQ(plain.vectorFmas, 0);
  expectClose(fast.results, plain.results);
}

TEST(LoweringTest, OddShapesDynamicShapesAndLoopsLowerAndAgree) {
  HostTensor a = filled({7, 13}, 3), b = filled({13, 37}, 4);
  Lowered fast = lowerAndRun(kOddShapes, "vector", {&a, &b});
  EXPECT_FALSE(fast.note.fellBack()) << fast.note.fallbackReason;
  EXPECT_GT(fast.vectorFmas, 0);
  Lowered plain = lowerAndRun(kOddShapes, "plain", {&a, &b});
  expectClose(fast.results, plain.results);
}

TEST(LoweringTest, AFailedFirstChoiceFallsBackAndSaysWhy) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(*context, kMatmul, "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  // A first choice that leaves linalg behind, as a broken optimiser would.
  absl::StatusOr<std::unique_ptr<Lowering>> lowering = Lowering::create(
      *context, PipelineChoice{"vector", "canonicalize", kPlainCpuPipeline});
  ASSERT_TRUE(lowering.ok()) << lowering.status();
  LoweringNote note;
  absl::Status status = (*lowering)->run(**module, &note);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(note.fellBack());
  EXPECT_EQ(note.loweredWith, "plain");
  EXPECT_THAT(note.fallbackReason, HasSubstr("unlowered"));
  bool onlyLLVM = true;
  (*module)->walk([&](mlir::Operation *op) {
    if (op != module->get().getOperation() &&
        !llvm::isa<mlir::LLVM::LLVMDialect>(op->getDialect()))
      onlyLLVM = false;
  });
  EXPECT_TRUE(onlyLLVM);
}

TEST(LoweringTest, WithoutAFallbackAFailureIsTheUsers) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(*context, kMatmul, "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  LoweringNote note;
  absl::Status status = lowerToLLVMDialect(**module, "canonicalize", &note);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("unlowered"));
  EXPECT_FALSE(note.fellBack());
}

TEST(LoweringTest, AMeasurementKeepsItsFallbackThroughTheCache) {
  Measurement fellBack;
  fellBack.loweringFallback = "test.mlir:3:5: error: failed to vectorize";
  absl::StatusOr<Measurement> back = parseMeasurementJson(toJsonLine(fellBack));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->loweringFallback, fellBack.loweringFallback);
  back = parseMeasurementJson(toJsonLine(Measurement()));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->loweringFallback, "");
}

} // namespace
} // namespace gevo
