//===- kernel_cache.h - Loop nests compiled once per process --------------===//
//
// A variant differs from the unmodified program in a few ops, yet machine
// code generation of its whole module is most of what evaluating it costs.
// This unit moves each loop nest of a lowered LLVM module (a chain of nested
// loops, which is what one tiled linalg op becomes) into a function of its
// own, named by a hash of its IR, and compiles each such kernel once per
// process: a kernel this process (or the parent it was forked from) has
// already compiled is reused as machine code, and one another process of the
// session left in a shared directory is linked from its object. The module
// keeps the control skeleton and calls the kernels by name. Functions the
// lowering outlined (outline_kernels.h) are kernels as they are: compiled
// whole, or, where the lowering left only their declaration because they
// were compiled before, linked to that code.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_KERNEL_CACHE_H
#define GEVO_EVAL_KERNEL_CACHE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gevo/eval/cpu/kernel_store.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace gevo {

/// Moves the loop nests of `module` (its triple and data layout set for
/// `machine`) into kernels, compiles those not seen before with `machine`,
/// and returns where each kernel's code is. `module` is left calling them
/// through declarations. On an error `module` may be half rewritten: the
/// caller starts again from its source.
llvm::Expected<KernelLinks> linkKernels(llvm::Module &module,
                                        llvm::TargetMachine &machine,
                                        const KernelSettings &settings);

/// The symbol the kernel the lowering outlined as `name` (outline_kernels.h)
/// is compiled under with `settings` on this host.
std::string outlinedKernelSymbol(const std::string &name,
                                 const KernelSettings &settings);

/// Each outlined kernel `module` only declares (the lowering dropped its
/// body), by the name it has there, with where its code is; an error when
/// one is not compiled.
llvm::Expected<std::vector<std::pair<std::string, void *>>>
declaredKernels(const llvm::Module &module, const KernelSettings &settings);

} // namespace gevo

#endif // GEVO_EVAL_KERNEL_CACHE_H
