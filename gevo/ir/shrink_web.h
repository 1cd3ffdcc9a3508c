//===- shrink_web.h - The tensors a shrink narrows, grown from one value --===//
//
// Internal to shrink.cc: the web of values, linalg loops and uses tied to one
// dimension. Through a tensor.collapse_shape or tensor.expand_shape (a
// flatten) the dimension's indices spread over a wider one: index i of the
// shrunk dimension is positions o*size*inner + i*inner + j of it, for every
// o < outer and j < inner (a Spread).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_SHRINK_WEB_H
#define GEVO_IR_SHRINK_WEB_H

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/shrink_constants.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace gevo {

/// How the shrunk dimension's indices lie in a dimension of
/// outer * size * inner: index i at o*size*inner + i*inner + j.
struct Spread {
  int64_t outer = 1;
  int64_t inner = 1;
  bool trivial() const { return outer == 1 && inner == 1; }
  bool operator==(const Spread &other) const {
    return outer == other.outer && inner == other.inner;
  }
};

/// The spread on a collapsed dimension of the group `group` (dimensions of
/// the expanded side, whose shape is `shape`) when its dimension `dim`
/// carries `spread`.
Spread spreadCollapsed(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> group, int64_t dim,
                       Spread spread);

/// Which dimension of the group `group` (of the expanded side, shape
/// `shape`) carries the indices when the collapsed dimension carries
/// `spread` of a dimension of `size`, and its spread there; an error when
/// no dimension holds them whole.
absl::StatusOr<std::pair<int64_t, Spread>>
spreadExpanded(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> group,
               int64_t size, Spread spread);

/// The positions `keep` selects in a dimension spread by `spread` over a
/// dimension of `size` indices: a range where it stays one, else a list.
Selection spreadSelection(const Selection &keep, int64_t size, Spread spread);

/// The set of tensors tied to one dimension, grown from a seed.
class Web {
public:
  absl::Status grow(mlir::Value seed, int64_t dim);

  /// How the dimension lies in dimension `dim` of `value` (of a use's
  /// value, for `splitUses`).
  Spread spreadOf(mlir::Value value, int64_t dim) const;
  Spread spreadOf(mlir::OpOperand *use, int64_t dim) const;

  int64_t size = 0;
  llvm::MapVector<mlir::Value, DimSet> values;
  llvm::SetVector<mlir::Value> sources;
  llvm::MapVector<mlir::OpOperand *, DimSet> splitUses;
  llvm::MapVector<mlir::Operation *, llvm::SmallSetVector<unsigned, 2>> loops;
  std::vector<mlir::linalg::IndexOp> indexReads;

private:
  absl::Status addValue(mlir::Value value, int64_t dim, Spread spread);
  absl::Status addOperand(mlir::OpOperand &operand, int64_t dim, Spread spread);
  absl::Status tieLoop(mlir::Operation *loop, unsigned i, int64_t dim,
                       Spread spread);
  absl::Status addLoop(mlir::linalg::LinalgOp op, unsigned loop, Spread spread);
  absl::Status tieShaped(mlir::Operation *op, mlir::Value from, int64_t dim,
                         Spread spread);
  absl::Status addUse(mlir::OpOperand &use, int64_t dim, Spread spread);
  absl::Status process(mlir::Value value, int64_t dim);

  llvm::DenseMap<std::pair<void *, int64_t>, Spread> spreads;
  llvm::SmallVector<std::pair<mlir::Value, int64_t>> worklist;
};

} // namespace gevo

#endif // GEVO_IR_SHRINK_WEB_H
