//===- outline_kernels_test.cc - Kernels lowered once, same answers -------===//

#include "gevo/eval/cpu/outline_kernels.h"

#include <set>

#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/training_subject.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Lowers a copy of `module` with `lowering` (kernels `options` compiled
/// before left out), compiles and runs it; how many were left out.
absl::StatusOr<std::vector<HostTensor>>
lowerAndRun(TrainingSubject &s, Lowering &lowering, mlir::ModuleOp module,
            const CodegenOptions &options, int *dropped,
            const Lowering::CompiledKernels &compiled = {}) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  requestCInterface(*copy, s.spec.entry);
  *dropped = 0;
  Lowering::CompiledKernels counting = [&](const std::string &name) {
    bool yes =
        compiled ? compiled(name) : outlinedKernelCompiled(name, options);
    *dropped += yes;
    return yes;
  };
  LoweringNote note;
  absl::Status lowered = lowering.run(*copy, &note, counting);
  if (!lowered.ok())
    return lowered;
  EXPECT_FALSE(note.fellBack()) << note.fallbackReason;
  auto entry = JitEntry::compile(*copy, s.signature, options);
  if (!entry.ok())
    return entry.status();
  return (*entry)->run(pointersTo(s.arguments));
}

TEST(OutlineKernelsTest, EveryLinalgOpOfTheTrainingLoopBecomesACall) {
  TrainingSubject s;
  loadTrainingSubject(s);
  registerOutlineKernelsPass();
  mlir::PassManager pm(s.context.get(), mlir::ModuleOp::getOperationName());
  ASSERT_TRUE(mlir::succeeded(mlir::parsePassPipeline(
      "inline, canonicalize, "
      "one-shot-bufferize{bufferize-function-boundaries=1 "
      "function-boundary-type-conversion=identity-layout-map "
      "allow-return-allocs-from-loops=1}, convert-bufferization-to-memref, "
      "gevo-outline-kernels",
      pm)));
  ASSERT_TRUE(mlir::succeeded(pm.run(*s.module)));
  std::set<std::string> kernels, called;
  int linalgInMain = 0, calls = 0;
  for (auto function : s.module->getOps<mlir::func::FuncOp>()) {
    std::string name = function.getSymName().str();
    if (name.rfind(kOutlinedKernelPrefix, 0) == 0) {
      kernels.insert(name);
      EXPECT_TRUE(function.isPrivate());
      continue;
    }
    function.walk([&](mlir::Operation *op) {
      linalgInMain += llvm::isa<mlir::linalg::LinalgOp>(op);
      if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
        ++calls;
        called.insert(call.getCallee().str());
      }
    });
  }
  EXPECT_EQ(linalgInMain, 0);
  // The initialisation, the forward and backward passes and the update:
  // dozens of ops, the equal ones (e.g. zero fills of one shape) sharing a
  // kernel.
  EXPECT_GE(kernels.size(), 10u);
  EXPECT_GT(calls, static_cast<int>(kernels.size()));
  EXPECT_EQ(called, kernels);
  EXPECT_FALSE(s.module->getOperation()->hasAttr(kKernelSaltAttr));
}

TEST(OutlineKernelsTest,
     CompiledKernelsAreNotLoweredAgainAndGiveTheSameLogits) {
  TrainingSubject s;
  loadTrainingSubject(s);
  auto lowering = Lowering::create(*s.context, "");
  ASSERT_TRUE(lowering.ok()) << lowering.status();
  CodegenOptions whole;
  whole.cacheKernels = false;
  int dropped = 0;
  auto reference = lowerAndRun(s, **lowering, *s.module, whole, &dropped);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(dropped, 0); // nothing is cached with the cache off

  CodegenOptions cached;
  auto first = lowerAndRun(s, **lowering, *s.module, cached, &dropped);
  ASSERT_TRUE(first.ok()) << first.status();
  expectSameResults(*first, *reference);
  int kernels = dropped;
  auto again = lowerAndRun(s, **lowering, *s.module, cached, &dropped);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_GE(dropped, 10); // every kernel, compiled by the first run
  EXPECT_GT(dropped, kernels);
  expectSameResults(*again, *reference);

  // A variant: one float constant (a learning rate or an initial scale)
  // doubled. Kernels take constants as arguments, so all are reused.
  mlir::OwningOpRef<mlir::ModuleOp> variant = s.module->clone();
  bool changed = false;
  variant->walk([&](mlir::arith::ConstantOp op) {
    auto value = llvm::dyn_cast<mlir::FloatAttr>(op.getValue());
    if (changed || !value || value.getValueAsDouble() == 0)
      return;
    op.setValueAttr(
        mlir::FloatAttr::get(value.getType(), 2 * value.getValueAsDouble()));
    changed = true;
  });
  ASSERT_TRUE(changed);
  auto variantWhole = lowerAndRun(s, **lowering, *variant, whole, &dropped);
  ASSERT_TRUE(variantWhole.ok()) << variantWhole.status();
  auto variantCached = lowerAndRun(s, **lowering, *variant, cached, &dropped);
  ASSERT_TRUE(variantCached.ok()) << variantCached.status();
  EXPECT_GE(dropped, 10);
  expectSameResults(*variantCached, *variantWhole);
}

TEST(OutlineKernelsTest, AKernelLeftOutButNeverCompiledIsAnErrorNotACrash) {
  TrainingSubject s;
  loadTrainingSubject(s);
  auto lowering = Lowering::create(*s.context, "");
  ASSERT_TRUE(lowering.ok()) << lowering.status();
  // Settings no other test compiles with: no kernel of them exists.
  CodegenOptions options;
  options.optLevel = 1;
  options.llvmPipeline = "function(sroa)";
  int dropped = 0;
  auto run =
      lowerAndRun(s, **lowering, *s.module, options, &dropped,
                  [](const std::string &) { return true; }); // a wrong claim
  EXPECT_GE(dropped, 10);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(std::string(run.status().message()).find("not compiled"),
            std::string::npos)
      << run.status();
}

} // namespace
} // namespace gevo
