//===- lowering.h - Tensor-level MLIR to the LLVM dialect -----------------===//
//
// Runs a textual MLIR pass pipeline (mlir-opt syntax) over a module and checks
// that what is left is the LLVM dialect only, so that a pipeline that silently
// did nothing is reported instead of reaching the JIT.
//
// Two pipelines have names: "vector" (the default: linalg tiled and
// vectorised for the host CPU, vector_schedule.h) and "plain" (linalg to
// scalar loops). A module the vector pipeline cannot lower is lowered again,
// from a copy taken before, with the plain one, and the run says so
// (LoweringNote): a mutant the optimiser chokes on is measured, not lost.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_LOWERING_H
#define GEVO_EVAL_LOWERING_H

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlir {
class MLIRContext;
class ModuleOp;
class PassInstrumentation;
class PassManager;
} // namespace mlir

namespace gevo {

/// The plain CPU pipeline: bufferize (function boundaries included, loop
/// results allowed), free buffers, lower the runtime-ownership clones that
/// deallocation inserts when a function returns a loop-carried buffer (as
/// mutants often do), linalg to loops, everything to LLVM.
extern const char kPlainCpuPipeline[];
/// The optimising CPU pipeline: as the plain one, with each linalg op moved
/// into a kernel function of its own after bufferisation
/// (gevo-outline-kernels), then tiled and vectorised (gevo-vectorize,
/// gevo-lower-vectors) and the vectors lowered.
extern const char kVectorCpuPipeline[];
/// The plain pipeline under its old name, for callers that extend its text.
inline constexpr const char *kDefaultCpuPipeline = kPlainCpuPipeline;

/// The names `--pipeline` accepts besides pass lists. Empty means "vector".
inline constexpr const char kVectorPipelineName[] = "vector";
inline constexpr const char kPlainPipelineName[] = "plain";

/// What `pipeline` (a name, empty, or pass text) runs: its pass text and,
/// for "vector", the plain pipeline as the fallback.
struct PipelineChoice {
  std::string name; // "vector", "plain" or "custom"
  std::string passes;
  std::string fallbackPasses; // empty: no fallback
};
PipelineChoice resolvePipeline(const std::string &pipeline);

/// How a module was lowered.
struct LoweringNote {
  /// The pipeline whose output the module holds ("vector", "plain", "custom").
  std::string loweredWith;
  /// Why the first choice failed, in one line; empty when it did not.
  std::string fallbackReason;
  bool fellBack() const { return !fallbackReason.empty(); }
};

/// Accepts a pipeline name, `pass, pass{opt=v}`, or the same list wrapped in
/// `builtin.module(...)`. Errors start with `--pipeline:`.
absl::Status checkPipeline(mlir::MLIRContext &context,
                           const std::string &pipeline);

/// Runs `pipeline` on `module` in place and checks that only LLVM dialect ops
/// remain. Errors carry the pass's diagnostics (`file:line:col: error: ...`).
absl::Status lowerToLLVMDialect(mlir::ModuleOp module,
                                const std::string &pipeline,
                                LoweringNote *note = nullptr);

/// A pipeline parsed once and run on many modules of one context (the
/// search lowers every variant with the same one).
class Lowering {
public:
  static absl::StatusOr<std::unique_ptr<Lowering>>
  create(mlir::MLIRContext &context, const std::string &pipeline);
  /// With the passes and fallback given explicitly.
  static absl::StatusOr<std::unique_ptr<Lowering>>
  create(mlir::MLIRContext &context, const PipelineChoice &choice);
  ~Lowering();
  /// Whether an outlined kernel (outline_kernels.h) of this name is
  /// compiled already.
  using CompiledKernels = std::function<bool(const std::string &name)>;
  /// As lowerToLLVMDialect. A pipeline that outlines kernels is run in two
  /// parts; between them every kernel `compiled` names becomes a
  /// declaration, so the rest of the passes skip it.
  absl::Status run(mlir::ModuleOp module, LoweringNote *note = nullptr,
                   const CompiledKernels &compiled = {});
  const PipelineChoice &choice() const { return pipelineChoice; }
  /// Observes every pass of the first choice and of the fallback (e.g. to
  /// time them); `make` is called once per pass manager.
  void addInstrumentation(
      const std::function<std::unique_ptr<mlir::PassInstrumentation>()> &make);

private:
  Lowering() = default;
  absl::Status runFirstChoice(mlir::ModuleOp module, bool verifyAtEnd,
                              const CompiledKernels &compiled);
  PipelineChoice pipelineChoice;
  /// The first choice up to gevo-outline-kernels and the rest (none: the
  /// whole pipeline is passManager's); then the fallback.
  std::unique_ptr<mlir::PassManager> passManager, tailManager, fallbackManager;
  /// A hash of tailManager's passes, part of every kernel's name.
  std::string kernelSalt;
};

} // namespace gevo

#endif // GEVO_EVAL_LOWERING_H
