//===- jit.h - Compile an LLVM-dialect module and call its entry ----------===//
//
// Wraps mlir::ExecutionEngine with our own TargetMachine (so the codegen level
// is honoured), an optional LLVM IR pass pipeline, and a calling convention
// for tensors: every argument and result crosses as a memref descriptor
// through the `_mlir_ciface_<entry>` wrapper. By default each loop nest is a
// kernel compiled once per process at that level (kernel_cache.h), and the
// code around the kernels with the fast instruction selector.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_JIT_H
#define GEVO_EVAL_JIT_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/host_tensor.h"

namespace mlir {
class ExecutionEngine;
class ModuleOp;
} // namespace mlir

namespace gevo {

/// A light LLVM IR pipeline (new pass manager syntax) that pays for itself on
/// the loops that linalg lowers to.
extern const char kDefaultLlvmPipeline[];

struct CodegenOptions {
  /// LLVM IR passes run before codegen; empty runs none.
  std::string llvmPipeline = kDefaultLlvmPipeline;
  /// Machine codegen level, 0..3.
  int optLevel = 2;
  /// Route the compiled code's malloc/calloc/aligned_alloc through a guard
  /// that fills what it returns (setAllocationFill; zeros by default, so
  /// uninitialised reads are reproducible) and ends the process with
  /// kOutOfMemoryExitCode when an allocation fails, instead of letting the
  /// code write through a null pointer. Only for code running in a sandbox
  /// child.
  bool guardAllocations = false;
  /// Compile each loop nest as a kernel of its own, once per process
  /// (gevo/eval/cpu/kernel_cache.h): a variant recompiles only the nests it
  /// changed. Off compiles the module whole.
  bool cacheKernels = true;
  /// Where the processes of one session share compiled kernels (a forked
  /// child's kernels otherwise die with it); empty: not shared.
  std::string kernelDirectory;
};

class JitEntry {
public:
  /// Translates `llvmModule` (LLVM dialect only, entry marked with
  /// llvm.emit_c_interface before lowering) to LLVM IR, optimises and
  /// compiles it, and looks up the entry.
  static absl::StatusOr<std::unique_ptr<JitEntry>>
  compile(mlir::ModuleOp llvmModule, const EntrySignature &signature,
          const CodegenOptions &options);
  ~JitEntry();

  /// Calls the entry. Arguments must match the signature; results come back
  /// as dense row-major copies and their buffers are freed.
  absl::StatusOr<std::vector<HostTensor>>
  run(const std::vector<const HostTensor *> &arguments) const;

  /// CPU milliseconds compile() spent in the LLVM IR pipeline (the rest of
  /// it is translation and machine codegen).
  double optimizeMs() const { return llvmOptimizeMs; }
  /// Loop nests compiled for this module, and those found already compiled.
  int compiledKernels() const { return kernelsCompiled; }
  int reusedKernels() const { return kernelsReused; }
  int loadedKernels() const { return kernelsLoaded; }
  /// Why the module was compiled whole although cacheKernels was on; empty
  /// when it was not.
  const std::string &kernelCacheFailure() const { return kernelFailure; }

private:
  JitEntry() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*packedEntry)(void **) = nullptr;
  EntrySignature signature;
  double llvmOptimizeMs = 0;
  int kernelsCompiled = 0;
  int kernelsReused = 0;
  int kernelsLoaded = 0;
  std::string kernelFailure;
};

/// Whether the kernel the lowering outlined as `name` (outline_kernels.h) is
/// compiled already for `options`, in this process or its session's kernel
/// directory (then it is linked now): a module may leave its body out.
bool outlinedKernelCompiled(const std::string &name,
                            const CodegenOptions &options);

/// The byte guarded allocations are filled with from now on (0 by default).
void setAllocationFill(unsigned char byte);

/// Checks an LLVM IR pipeline string without compiling anything. Errors start
/// with `--llvm-pipeline:`.
absl::Status checkLlvmPipeline(const std::string &pipeline);

} // namespace gevo

#endif // GEVO_EVAL_JIT_H
