//===- lowering.h - Tensor-level MLIR to the LLVM dialect -----------------===//
//
// Runs a textual MLIR pass pipeline (mlir-opt syntax) over a module and checks
// that what is left is the LLVM dialect only, so that a pipeline that silently
// did nothing is reported instead of reaching the JIT.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_LOWERING_H
#define GEVO_EVAL_LOWERING_H

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlir {
class MLIRContext;
class ModuleOp;
class PassManager;
} // namespace mlir

namespace gevo {

/// The default CPU pipeline: bufferize (function boundaries included, loop
/// results allowed), free buffers, lower the runtime-ownership clones that
/// deallocation inserts when a function returns a loop-carried buffer (as
/// mutants often do), linalg to loops, everything to LLVM.
extern const char kDefaultCpuPipeline[];

/// Accepts `pass, pass{opt=v}` as well as the same list wrapped in
/// `builtin.module(...)`. Errors start with `--pipeline:`.
absl::Status checkPipeline(mlir::MLIRContext &context,
                           const std::string &pipeline);

/// Runs `pipeline` on `module` in place and checks that only LLVM dialect ops
/// remain. Errors carry the pass's diagnostics (`file:line:col: error: ...`).
absl::Status lowerToLLVMDialect(mlir::ModuleOp module,
                                const std::string &pipeline);

/// A pipeline parsed once and run on many modules of one context (the
/// search lowers every variant with the same one).
class Lowering {
public:
  static absl::StatusOr<std::unique_ptr<Lowering>>
  create(mlir::MLIRContext &context, const std::string &pipeline);
  ~Lowering();
  /// As lowerToLLVMDialect.
  absl::Status run(mlir::ModuleOp module);

private:
  Lowering() = default;
  std::unique_ptr<mlir::PassManager> passManager;
};

} // namespace gevo

#endif // GEVO_EVAL_LOWERING_H
