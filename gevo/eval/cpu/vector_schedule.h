//===- vector_schedule.h - Tile and vectorise linalg ops for the host CPU -===//
//
// The optimising half of the default lowering: a transform-dialect schedule,
// built in C++ per module from its ops' shapes (tile_plan.h), that tiles each
// linalg.matmul for cache and registers (up to a 6x16 accumulator block
// stepping k by 4, which AVX2 turns into 12 FMA registers) and every other
// rank-1/2 linalg op for SIMD width, vectorises them (masked where tiles are
// partial), hoists the accumulators out of the k loops and lowers the vector
// ops to what convert-vector-to-llvm takes.
//
// It runs as two passes, so that a pipeline stays plain mlir-opt text:
//   gevo-vectorize       tiles and vectorises (on tensors or, as the default
//                        pipeline runs it, on buffers after bufferisation and
//                        gevo-outline-kernels, one kernel function per op);
//   gevo-lower-vectors   on memrefs, after bufferisation.
// Each step of the schedule is applied on its own with failures suppressed:
// an op that cannot be tiled or vectorised (what a mutant may produce) is
// left for convert-linalg-to-loops. Anything worse fails the pass, and the
// caller falls back to the plain pipeline (see lowering.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_VECTOR_SCHEDULE_H
#define GEVO_EVAL_VECTOR_SCHEDULE_H

#include <string>

#include "mlir/IR/BuiltinOps.h"

namespace gevo {

/// For stock mlir-opt (benchmarks, a user reproducing a lowering by hand):
/// tags `module`'s linalg ops as gevo-vectorize would and returns a
/// transform library with both stages for it. Print the module afterwards.
std::string standaloneSchedule(mlir::ModuleOp module);

/// `passes` with gevo-vectorize and gevo-lower-vectors replaced by
/// transform-interpreter runs of the library at `schedulePath`, and
/// gevo-outline-kernels left out.
std::string standalonePipeline(const std::string &passes,
                               const std::string &schedulePath);

/// Registers gevo-vectorize and gevo-lower-vectors with MLIR's pass
/// registry (once; safe to call again).
void registerVectorSchedulePasses();

} // namespace gevo

#endif // GEVO_EVAL_VECTOR_SCHEDULE_H
