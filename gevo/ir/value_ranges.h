//===- value_ranges.h - Signed ranges of a module's integer values --------===//
//
// MLIR's integer range analysis (with dead code and constant propagation)
// run once over a module, for static_safety.cc: the range of any index or
// integer value, whether an op can run at all, and whether a value depends
// on a dynamic shape or a caller's scalar. Included by gevo/ir only.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_VALUE_RANGES_H
#define GEVO_IR_VALUE_RANGES_H

#include <cstdint>
#include <limits>
#include <memory>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir {
class DataFlowSolver;
} // namespace mlir

namespace gevo {

/// A signed range; [INT64_MIN, INT64_MAX] when nothing is known.
struct IntRange {
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
  static IntRange exactly(int64_t value) { return {value, value}; }
};

class ValueRanges {
public:
  explicit ValueRanges(mlir::ModuleOp module);
  ~ValueRanges();

  /// Whether the analysis ran; when not, nothing is known.
  bool ran() const { return solved; }
  IntRange of(mlir::Value value) const;
  IntRange of(mlir::OpFoldResult value) const;
  /// Whether `op` may run: its blocks are live and no scf.for around it is
  /// proven to run no iteration.
  bool mayRun(mlir::Operation *op) const;
  /// Whether `value` is computed from a dynamic dimension (tensor.dim or
  /// memref.dim of one) or an integer argument of a function, which nothing
  /// static can bound; with `dataToo`, or from data the program reads (an
  /// element of a tensor, a float converted).
  bool dependsOnDynamic(mlir::Value value, bool dataToo = false) const;

private:
  std::unique_ptr<mlir::DataFlowSolver> solver;
  bool solved = false;
};

/// At most how many iterations an scf.for with these bounds runs (saturated
/// at INT64_MAX); 0 when the upper bound never exceeds the lower one.
int64_t maxTripCount(const IntRange &lower, const IntRange &upper,
                     const IntRange &step);

} // namespace gevo

#endif // GEVO_IR_VALUE_RANGES_H
