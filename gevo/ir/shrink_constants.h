//===- shrink_constants.h - Slicing and weighing a shrink's constants -----===//
//
// Internal to shrink.cc: a constant that a shrink narrows keeps the elements
// at the kept indices, and a constant's elements tell how much weight each
// index of the shrunk dimension carries (for keeping the heaviest).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_SHRINK_CONSTANTS_H
#define GEVO_IR_SHRINK_CONSTANTS_H

#include <cstdint>
#include <vector>

#include "gevo/ir/edit.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

namespace gevo {

/// The dimensions of one value a shrink narrows.
using DimSet = llvm::SmallSetVector<int64_t, 2>;

/// The elements of `attr` at the kept indices of `dims`, as type `to`.
mlir::DenseElementsAttr gather(mlir::DenseElementsAttr attr,
                               mlir::RankedTensorType to, const DimSet &dims,
                               const Selection &keep);

/// Adds to `weight[i]`, per index i of `dims`, the share of the constant's
/// squared norm held at that index (nothing for splats and integers).
void addWeights(mlir::DenseElementsAttr attr, const DimSet &dims,
                std::vector<double> &weight);

} // namespace gevo

#endif // GEVO_IR_SHRINK_CONSTANTS_H
