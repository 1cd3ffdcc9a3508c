//===- cpu_target.h - Variants run on the host CPU through the JIT --------===//
//
// The CPU Target (target.h): modules lowered with an MLIR CPU pipeline
// (lowering.h) and compiled by the JIT (jit.h), timed by wall clock. In a
// session the parent makes the kernel directory the children share and warms
// up by lowering and compiling the unmodified program once; the children
// lower in the session's context, guard allocations and inputs (read-only,
// ending at guard pages; guarded_memory.h), and can refill fresh memory to
// catch uninitialised reads.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CPU_TARGET_H
#define GEVO_EVAL_CPU_TARGET_H

#include <memory>
#include <string>

#include "gevo/eval/target.h"

namespace gevo {

std::unique_ptr<Target> makeCpuTarget(const EvaluationOptions &options,
                                      TargetUse use);

/// useOtherPipeline (evaluation_options.h) on the CPU target.
std::string useOtherCpuPipeline(const std::string &pipeline,
                                EvaluationOptions &options);

} // namespace gevo

#endif // GEVO_EVAL_CPU_TARGET_H
