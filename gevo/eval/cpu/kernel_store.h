//===- kernel_store.h - The process's compiled kernels, and their sharing -===//
//
// Where kernels (kernel_cache.h) live once compiled: one ORC LLJIT per
// process that only links kernel objects (one library of symbols per
// allocation mode), each kernel's address by symbol, and the session's
// directory through which processes share the objects they compiled. A
// forked child inherits all of it, code pages included.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_KERNEL_STORE_H
#define GEVO_EVAL_KERNEL_STORE_H

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
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
  /// Kernels call the allocation guards (gevo/eval/cpu/jit.h) for malloc,
  /// calloc and aligned_alloc; `guards` maps those names to addresses.
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

/// The host's CPU and features, as the JIT's target machines get them (part
/// of every kernel's name).
const std::string &hostKey();

/// Where kernel `symbol` is in this process; null when it is not here.
void *kernelAddress(const std::string &symbol);

/// Finds or makes the code of kernel `symbol` (the only function of `own`,
/// already named so): reused from this process, linked from the shared
/// directory, or compiled now with `machine` (and left there); counted in
/// `links`, and where it is added to `links.symbols`.
llvm::Error provideKernel(const std::string &symbol, llvm::Module &own,
                          llvm::TargetMachine &machine,
                          const KernelSettings &settings, KernelLinks &links);

/// Whether `symbol` is compiled in this process, or left in the shared
/// directory (then it is linked now).
bool kernelAvailable(const std::string &symbol, const KernelSettings &settings);

/// Kernels compiled by this process so far (forked children count their
/// parent's).
int64_t cachedKernelCount();

} // namespace gevo

#endif // GEVO_EVAL_KERNEL_STORE_H
