//===- outline_kernels.h - Each linalg op on buffers as a function --------===//
//
// The pass gevo-outline-kernels (after bufferisation) moves each linalg op
// on buffers into a private function of its own that takes everything the op
// reads (its operands and the values its body uses from outside, constants
// included), named gevo_op_<hash of the function's text>, and calls it in
// the op's place; equal ops share one function. The rest of the pipeline
// lowers these kernels like any function, but a kernel that this process
// already compiled need not be lowered again: Lowering (lowering.h) lets its
// caller replace such kernels by declarations between this pass and the
// rest (gevo/eval/cpu/jit.h links them to the code compiled before).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_OUTLINE_KERNELS_H
#define GEVO_EVAL_OUTLINE_KERNELS_H

#include <functional>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

/// The prefix of an outlined kernel's name.
inline constexpr char kOutlinedKernelPrefix[] = "gevo_op_";
/// The pass's name in a pipeline.
inline constexpr char kOutlineKernelsPass[] = "gevo-outline-kernels";
/// A module attribute the pass folds into every kernel's name and removes
/// (Lowering sets it to a hash of the passes after it, so that kernels
/// lowered differently are named differently).
inline constexpr char kKernelSaltAttr[] = "gevo.kernel_salt";

void registerOutlineKernelsPass();

/// Makes every outlined kernel of `module` for which `compiled(name)` holds
/// a declaration (its body is not lowered again); returns how many.
int dropCompiledKernels(
    mlir::ModuleOp module,
    const std::function<bool(const std::string &)> &compiled);

} // namespace gevo

#endif // GEVO_EVAL_OUTLINE_KERNELS_H
