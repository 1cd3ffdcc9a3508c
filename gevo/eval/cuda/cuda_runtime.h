//===- cuda_runtime.h - The mgpu* functions lowered GPU host code calls ---===//
//
// MLIR's GPU lowering turns each gpu.launch_func into calls of mgpuModuleLoad,
// mgpuModuleGetFunction, mgpuStreamCreate, mgpuLaunchKernel,
// mgpuStreamSynchronize, ... (MLIR's CudaRuntimeWrappers, which Debian does
// not ship). This is gevo-ml's own implementation over cuda_driver.h, handed
// to the JIT as symbols, with what the evaluator needs around it:
//   - one stream per variant: mgpuStreamCreate returns it, so kernels are
//     timed with CUDA events on the stream they ran on;
//   - a launch counter;
//   - the compiled code's malloc/free served from managed memory, so host
//     code (subviews, loop-carried buffers) and kernels share buffers;
//   - the first driver error kept as a status instead of a crash (a kernel
//     that faults poisons the context: the variant is classified, not run on).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_RUNTIME_H
#define GEVO_EVAL_CUDA_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace gevo {

/// Opens the driver (cuda_driver.h) and creates the variant stream. Without
/// a driver: FailedPrecondition "no CUDA driver (libcuda.so.1 not found)".
absl::Status initializeCudaRuntime();

/// What the JIT must define for lowered GPU host code: every mgpu* function
/// and malloc/free/aligned_alloc (managed memory). Names are unmangled C
/// names. Valid whether or not the driver is present (the functions report
/// "no CUDA driver" through takeCudaRuntimeError()).
std::vector<std::pair<const char *, void *>> cudaRuntimeSymbols();

/// Managed memory, visible to host code and kernels alike; nullptr when the
/// allocation fails (the error is kept).
void *allocateShared(size_t bytes);
void freeShared(void *pointer);

/// Makes host memory that kernels read (the compiled code's constant
/// globals: weights baked into the module) visible to the GPU at the same
/// address: registers the pages of [pointer, pointer + bytes) that are not
/// registered yet.
absl::Status registerHostMemory(const void *pointer, size_t bytes);

/// The first error any runtime call met since the last take (OK if none),
/// e.g. "cuLaunchKernel failed: an illegal memory access was encountered
/// (error 700)"; resets it.
absl::Status takeCudaRuntimeError();

/// One timed run: events recorded on the variant stream around the run.
struct CudaRunTiming {
  double kernelMs = 0; // between the start and stop events, on the GPU
  int64_t launches = 0;
};

/// Records the start event and zeroes the launch count.
absl::Status beginCudaTiming();
/// Records the stop event, waits for it, and returns the time and launches
/// since beginCudaTiming(), or the first error of the run.
absl::StatusOr<CudaRunTiming> endCudaTiming();

} // namespace gevo

#endif // GEVO_EVAL_CUDA_RUNTIME_H
