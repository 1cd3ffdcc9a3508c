//===- vector_schedule.h - Tile and vectorise linalg ops for the host CPU -===//
//
// The optimising half of the default lowering: a transform-dialect schedule,
// built here as text from a few tile sizes, that tiles each linalg.matmul for
// cache and registers (a 6x16 accumulator block stepping k by 4, which AVX2
// turns into 12 FMA registers) and every other rank-1/2 linalg op for SIMD
// width, vectorises them (masked where tiles are partial), and after
// bufferisation hoists the accumulators out of the k loops and lowers the
// vector ops to what convert-vector-to-llvm takes.
//
// It runs as two passes, so that a pipeline stays plain mlir-opt text:
//   gevo-vectorize       on tensors, before one-shot-bufferize;
//   gevo-lower-vectors   on memrefs, after bufferisation.
// Each step of the schedule is applied on its own with failures suppressed:
// an op that cannot be tiled or vectorised (what a mutant may produce) is
// left for convert-linalg-to-loops. Anything worse fails the pass, and the
// caller falls back to the plain pipeline (see lowering.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_VECTOR_SCHEDULE_H
#define GEVO_EVAL_VECTOR_SCHEDULE_H

#include <cstdint>
#include <string>

namespace gevo {

struct VectorScheduleOptions {
  /// Matmul cache tile (m, n, k); the k tile loop is outermost.
  int64_t cacheTile[3] = {120, 256, 64};
  /// Matmul register tile (m, n) and the k step of one vector.contract.
  int64_t registerTile[2] = {6, 16};
  int64_t kStep = 4;
  /// Elements per vector along the innermost loop of other linalg ops.
  int64_t elementwiseWidth = 32;
};

/// The schedule as transform-dialect text: a module with the named
/// sequences @gevo_tensor_stage and @gevo_vector_stage.
std::string vectorScheduleText(const VectorScheduleOptions &options = {});

/// Registers gevo-vectorize and gevo-lower-vectors with MLIR's pass
/// registry (once; safe to call again).
void registerVectorSchedulePasses();

} // namespace gevo

#endif // GEVO_EVAL_VECTOR_SCHEDULE_H
