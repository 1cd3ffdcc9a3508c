//===- cuda_pipeline.cc - Lower a linalg/tensor program to CUDA kernels ---===//

#include "gevo/eval/cuda/cuda_pipeline.h"

#include <cstdlib>
#include <memory>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace gevo {

namespace {

/// Gives every linalg op whose init is a shared linalg.fill its own copy of
/// the fill (so bufferisation writes the fill in place instead of copying
/// it), and moves the parallel dimensions of each linalg.generic outermost
/// (so a column reduction becomes one parallel loop, not a host loop around
/// a kernel).
class PreparePass
    : public mlir::PassWrapper<PreparePass,
                               mlir::OperationPass<mlir::func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PreparePass)
  llvm::StringRef getArgument() const override { return "gevo-gpu-prepare"; }
  llvm::StringRef getDescription() const override {
    return "Own fills per reduction and parallel dimensions outermost";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    mlir::IRRewriter rewriter(&getContext());
    getOperation().walk([&](mlir::linalg::LinalgOp op) {
      for (mlir::OpOperand &init : op.getDpsInitsMutable()) {
        auto fill = init.get().getDefiningOp<mlir::linalg::FillOp>();
        if (!fill || fill->hasOneUse())
          continue;
        rewriter.setInsertionPoint(op);
        init.set(rewriter.clone(*fill)->getResult(0));
      }
    });
    std::vector<mlir::linalg::GenericOp> generics;
    getOperation().walk(
        [&](mlir::linalg::GenericOp op) { generics.push_back(op); });
    for (mlir::linalg::GenericOp op : generics) {
      llvm::SmallVector<unsigned> order;
      auto iterators = op.getIteratorTypesArray();
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (mlir::linalg::isParallelIterator(iterators[i]))
          order.push_back(i);
      size_t parallelCount = order.size();
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (!mlir::linalg::isParallelIterator(iterators[i]))
          order.push_back(i);
      bool identity = true;
      for (unsigned i = 0; i < order.size(); ++i)
        identity &= order[i] == i;
      if (identity || parallelCount == 0)
        continue;
      rewriter.setInsertionPoint(op);
      // Failure leaves the op as it was: still correct, only slower.
      (void)mlir::linalg::interchangeGenericOp(rewriter, op, order);
    }
  }
};

/// Moves every statically sized memref.alloc to the top of its block.
/// An allocation between two scf.parallel loops ends the run of loops that
/// scf-parallel-loop-fusion considers; the loops it separated were often a
/// fill, the reduction into it and the elementwise epilogue.
class GatherAllocsPass
    : public mlir::PassWrapper<GatherAllocsPass,
                               mlir::OperationPass<mlir::func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GatherAllocsPass)
  llvm::StringRef getArgument() const override {
    return "gevo-gpu-gather-allocs";
  }
  llvm::StringRef getDescription() const override {
    return "Move static allocations to the top of their blocks";
  }

  void runOnOperation() override {
    std::vector<mlir::memref::AllocOp> allocs;
    getOperation().walk([&](mlir::memref::AllocOp alloc) {
      if (alloc->getNumOperands() == 0)
        allocs.push_back(alloc);
    });
    for (mlir::memref::AllocOp alloc : allocs)
      alloc->moveBefore(&alloc->getBlock()->front());
  }
};

const char *formatName(CudaBinaryFormat format) {
  switch (format) {
  case CudaBinaryFormat::kPtx:
    return "isa";
  case CudaBinaryFormat::kCubin:
    return "bin";
  case CudaBinaryFormat::kFatbin:
    return "fatbin";
  }
  return "fatbin";
}

} // namespace

std::string cudaLoopPipeline() {
  return "inline, canonicalize, func.func(gevo-gpu-prepare), "
         "linalg-generalize-named-ops, linalg-fuse-elementwise-ops, "
         "one-shot-bufferize{bufferize-function-boundaries=1 "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops=1}, "
         "canonicalize, convert-linalg-to-parallel-loops, "
         "func.func(gevo-gpu-gather-allocs), scf-parallel-loop-fusion, "
         "canonicalize, buffer-deallocation-pipeline, "
         "convert-bufferization-to-memref, canonicalize, "
         "scf-parallel-loop-tiling{parallel-loop-tile-sizes=16,32 "
         "no-min-max-bounds=1}";
}

std::string cudaKernelPipeline() {
  return cudaLoopPipeline() +
         ", func.func(gpu-map-parallel-loops), convert-parallel-loops-to-gpu, "
         "gpu-kernel-outlining, canonicalize, cse";
}

std::string cudaLoopsOnCpuPipeline() {
  return cudaLoopPipeline() +
         ", convert-scf-to-cf, expand-strided-metadata, lower-affine, "
         "convert-to-llvm, reconcile-unrealized-casts";
}

std::string cudaPipeline(const CudaChip &target) {
  return absl::StrCat(cudaKernelPipeline(),
                      ", gpu-lower-to-nvvm-pipeline{cubin-chip=", target.chip,
                      " cubin-features=", target.features,
                      " cubin-format=", formatName(target.format), "}");
}

std::string cudaToolkitPath() {
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name); value && *value)
      return value;
  return "/usr/local/cuda";
}

absl::Status prepareCudaToolkit(const CudaChip &target) {
  std::string toolkit = cudaToolkitPath();
  // Only the variable MLIR reads first, and only when none is set.
  setenv("CUDA_ROOT", toolkit.c_str(), /*overwrite=*/0);
  if (target.format == CudaBinaryFormat::kPtx)
    return absl::OkStatus();
  std::string ptxas = toolkit + "/bin/ptxas";
  if (access(ptxas.c_str(), X_OK) != 0)
    return absl::FailedPreconditionError(absl::StrCat(
        "a ", formatName(target.format),
        " kernel object needs ptxas from the CUDA toolkit: ", ptxas,
        " not found (set CUDA_ROOT)"));
  return absl::OkStatus();
}

void registerCudaPipelinePasses() {
  static const bool registered = [] {
    mlir::PassRegistration<PreparePass>();
    mlir::PassRegistration<GatherAllocsPass>();
    return true;
  }();
  (void)registered;
}

} // namespace gevo
