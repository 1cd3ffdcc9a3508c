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
// keeps the control skeleton and calls the kernels by name.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_KERNEL_CACHE_H
#define GEVO_EVAL_KERNEL_CACHE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace gevo {

struct KernelSettings {
  /// Runs the LLVM IR passes on a kernel's module before its codegen.
  std::function<llvm::Error(llvm::Module &)> optimize;
  /// Part of every kernel's key: the codegen settings that change its code
  /// (IR pipeline, codegen level).
  std::string codegenKey;
  /// Kernels call the allocation guards (gevo/eval/jit.h) for malloc, calloc
  /// and aligned_alloc; `guards` maps those names to addresses.
  bool guarded = false;
  std::function<std::vector<std::pair<std::string, void *>>()> guards;
  /// A shared library kernels may call into (MLIR's C runner utilities).
  std::string runtimeLibrary;
  /// A directory processes of one session share kernels through: a kernel
  /// compiled here is left there as `<symbol>.o`, and one found there is
  /// linked instead of compiled. Empty: this process's kernels only.
  std::string objectDirectory;
  /// Objects the directory takes at most (about 6 KiB each); later kernels
  /// stay with the process that compiled them.
  int64_t maxSharedObjects = 20000;
  /// Loop nests with fewer instructions than this stay in the module.
  int minInstructions = 4;
};

struct KernelLinks {
  /// Kernel symbol -> address of its machine code, for the module's JIT.
  std::vector<std::pair<std::string, void *>> symbols;
  int compiled = 0;
  /// Found compiled in this process.
  int reused = 0;
  /// Found as objects in the shared directory, and linked.
  int loaded = 0;
};

/// Moves the loop nests of `module` (its triple and data layout set for
/// `machine`) into kernels, compiles those not seen before with `machine`,
/// and returns where each kernel's code is. `module` is left calling them
/// through declarations. On an error `module` may be half rewritten: the
/// caller starts again from its source.
llvm::Expected<KernelLinks> linkKernels(llvm::Module &module,
                                        llvm::TargetMachine &machine,
                                        const KernelSettings &settings);

/// Kernels compiled by this process so far (forked children count their
/// parent's).
int64_t cachedKernelCount();

} // namespace gevo

#endif // GEVO_EVAL_KERNEL_CACHE_H
