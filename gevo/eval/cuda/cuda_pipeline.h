//===- cuda_pipeline.h - Lower a linalg/tensor program to CUDA kernels ----===//
//
// The GPU target's MLIR pipeline: named linalg ops are generalised and
// elementwise chains fused on tensors, reductions get their own zero fills and
// their parallel dimensions outermost (gevo-gpu-prepare), everything is
// bufferised and turned into scf.parallel loops, allocations are gathered at
// the top of their blocks (gevo-gpu-gather-allocs) so that scf's parallel
// loop fusion can merge fill, reduction and elementwise epilogue into one
// loop, loops are tiled into blocks of threads, mapped to the GPU, outlined
// as kernels and lowered through NVVM; gpu-module-to-binary serialises them.
//
// Buffers are plain memref.alloc calls: the CUDA runtime (cuda_runtime.h)
// serves them from managed memory, so host code and kernels share them.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_PIPELINE_H
#define GEVO_EVAL_CUDA_PIPELINE_H

#include <string>

#include "absl/status/status.h"

namespace gevo {

/// The name `--pipeline` and `--target=cuda` use for this pipeline.
inline constexpr const char kCudaPipelineName[] = "cuda";

/// What gpu-module-to-binary embeds for each kernel module.
enum class CudaBinaryFormat {
  kPtx,    // PTX text ("isa"); needs no CUDA toolkit
  kCubin,  // an sm_XX ELF from ptxas ("bin")
  kFatbin, // cubin and PTX in a fat binary, what the runtime loads
};

/// The GPU the kernels are compiled for (named CudaChip so that CudaTarget,
/// cuda_target.h, is the Target that runs them).
struct CudaChip {
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  CudaBinaryFormat format = CudaBinaryFormat::kFatbin;
};

/// The passes up to the tiled scf.parallel loop nests that become kernels
/// (fusion, interchange and tiling done; nothing GPU-specific yet).
std::string cudaLoopPipeline();

/// cudaLoopPipeline() lowered for the host CPU instead: runs the GPU
/// pipeline's own rewrites (fills and epilogues fused, reductions
/// interchanged, tiles with guards) where no GPU is, so a test can check that
/// they compute what the CPU target computes.
std::string cudaLoopsOnCpuPipeline();

/// The passes up to and including kernel outlining: host code with
/// gpu.launch_func ops and the kernels in gpu.module ops, still in the
/// arith/memref/scf dialects (what the kernel-count checks read).
std::string cudaKernelPipeline();

/// The whole pipeline, mlir-opt syntax: kernels serialised for `target`,
/// host code in the LLVM dialect calling mgpu* functions.
std::string cudaPipeline(const CudaChip &target = CudaChip());

/// Where the CUDA toolkit is: $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH (what
/// MLIR's NVVM serialiser reads), else /usr/local/cuda.
std::string cudaToolkitPath();

/// Points MLIR's serialiser at cudaToolkitPath() (it otherwise looks for
/// ptxas and libdevice on $PATH only) and checks that ptxas is there when
/// `target` needs it. The error names the missing file.
absl::Status prepareCudaToolkit(const CudaChip &target);

/// Registers gevo-gpu-prepare and gevo-gpu-gather-allocs (once; safe to
/// call again).
void registerCudaPipelinePasses();

} // namespace gevo

#endif // GEVO_EVAL_CUDA_PIPELINE_H
