//===- cuda_program.h - A module lowered for the GPU, compiled, callable --===//
//
// The GPU target's steps (cuda_target.h uses them): lower a module with the
// CUDA pipeline, JIT-compile its host code against the project's mgpu*
// runtime (cuda_runtime.h), make its constant globals visible to kernels, and
// call its entry on managed copies of the inputs, timed with CUDA events.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_PROGRAM_H
#define GEVO_EVAL_CUDA_PROGRAM_H

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/host_tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace gevo {

/// Lowers `module` in place with the CUDA pipeline for `target` (kernels
/// serialised into it). Requests the entry's C interface first. A failure is
/// InvalidArgument with the pipeline's diagnostics.
absl::Status lowerForCuda(mlir::ModuleOp module, const std::string &entry,
                          const CudaChip &target);

/// Managed copies of input tensors (made once per variant), freed with it.
class SharedArguments {
public:
  SharedArguments() = default;
  SharedArguments(const SharedArguments &) = delete;
  SharedArguments &operator=(const SharedArguments &) = delete;
  ~SharedArguments();
  absl::Status copy(const std::vector<HostTensor> &arguments);
  const std::vector<HostTensor> &tensors() const { return views; }

private:
  std::vector<HostTensor> views;
  std::vector<void *> buffers;
};

struct CudaTimedCall {
  std::vector<HostTensor> results;
  double kernelMs = 0; // CUDA events on the variant stream
  double hostMs = 0;   // wall time of the same call
  int64_t launches = 0;
};

/// A lowered module's host code, JIT-compiled; needs the CUDA runtime
/// initialised (initializeCudaRuntime()).
class CudaProgram {
public:
  /// `lowered` is lowerForCuda's output. Errors: InvalidArgument when the
  /// host code does not compile, the runtime's error when a kernel module
  /// does not load.
  static absl::StatusOr<std::unique_ptr<CudaProgram>>
  compile(mlir::ModuleOp lowered, const EntrySignature &signature);
  ~CudaProgram();

  /// Calls the entry on `arguments` (managed memory: SharedArguments) and
  /// copies its results out; a driver error of the call is its status.
  absl::StatusOr<std::vector<HostTensor>>
  call(const std::vector<const HostTensor *> &arguments) const;
  /// call(), timed with CUDA events and counting launches.
  absl::StatusOr<CudaTimedCall>
  timedCall(const std::vector<const HostTensor *> &arguments) const;

private:
  CudaProgram() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  EntrySignature signature;
  void (*entry)(void **) = nullptr;
};

} // namespace gevo

#endif // GEVO_EVAL_CUDA_PROGRAM_H
