//===- element_bounds.h - Float values and tensor elements, bounded -------===//
//
// For value_ranges.cc and static_safety.cc: the values a float (or every
// element of a float tensor) can take when the IR fixes them (constants,
// fills, slices of those), so an index converted from one (arith.fptosi) is
// bounded; and, for a value nothing bounds, which data read at run time it
// comes from. Included by gevo/ir only.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_ELEMENT_BOUNDS_H
#define GEVO_IR_ELEMENT_BOUNDS_H

#include <optional>
#include <string>

#include "mlir/IR/Value.h"

namespace gevo {

/// [min, max] of a float; both finite.
struct FloatBounds {
  double min = 0, max = 0;
};

/// The finite bounds of float `value` when the IR fixes them: a constant, an
/// element of a constant tensor or of a fill of one, a linalg.generic's
/// input element from such a tensor, and maximumf/minimumf of those. None
/// when anything it depends on is read at run time or may be NaN/infinite.
std::optional<FloatBounds> floatBounds(mlir::Value value);

/// The finite bounds of every element of float tensor `tensor`, as above.
std::optional<FloatBounds> elementBounds(mlir::Value tensor);

/// Which data read at run time integer `value` is computed from, in words
/// ("the caller's argument 0 of @main", "a tensor.empty nothing wrote",
/// "data the program computes"); empty when it depends on none (only on
/// constants, loop counters, shapes and what the IR fixes).
std::string runtimeDataSource(mlir::Value value);

} // namespace gevo

#endif // GEVO_IR_ELEMENT_BOUNDS_H
