//===- cuda_target.h - Variants run on a GPU through the CUDA driver ------===//
//
// The CUDA Target (target.h): modules lowered with the CUDA pipeline
// (cuda_pipeline.h, fatbin for sm_90), their host code JIT-compiled against
// the mgpu* runtime (cuda_runtime.h; cuda_program.h), inputs copied into
// managed memory, and each run timed with CUDA events on the variant's
// stream, counting kernel launches. The driver is dlopened and initialised
// only in the process that runs variants (start()), never before a fork; a
// driver error is the "device" stage. Without a driver it fails at once with
// "no CUDA driver (libcuda.so.1 not found)".
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_TARGET_H
#define GEVO_EVAL_CUDA_TARGET_H

#include <memory>

#include "gevo/eval/target.h"

namespace gevo {

/// `options.pipeline` and `options.codegen` do not apply: the CUDA
/// pipeline is fixed and the host code is optimised at -O2.
std::unique_ptr<Target> makeCudaTarget(const EvaluationOptions &options,
                                       TargetUse use);

} // namespace gevo

#endif // GEVO_EVAL_CUDA_TARGET_H
