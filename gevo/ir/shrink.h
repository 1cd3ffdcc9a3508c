//===- shrink.h - Narrowing one dimension through every op that shares it -===//
//
// A Shrink edit keeps a subset of the indices of one dimension of a value
// (a hidden layer's units, a batch's rows) and narrows every tensor tied to
// that dimension so the smaller type flows through: linalg ops are re-typed
// along the loop that carries the dimension (a contraction over it slices its
// other operand the same way), constants are sliced, tensor.empty and
// scalar fills are re-created per use, scf.for iteration arguments are
// re-typed with their inits and yields, and values from elsewhere (function
// arguments, slices) get a tensor.extract_slice. A use that cannot narrow
// (a return, a call, an op with a non-permutation map) makes the shrink
// impossible: it is refused, never padded back silently.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_SHRINK_H
#define GEVO_IR_SHRINK_H

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "mlir/IR/Value.h"

namespace gevo {

/// What a shrink of one dimension reaches, before anything changes.
struct ShrinkWeb {
  /// The size of the dimension.
  int64_t size = 0;
  /// How many values are narrowed, and how many linalg ops re-typed.
  int values = 0;
  int ops = 0;
  /// Per index of the dimension, the sum over the constants in the web of
  /// that index's share of the constant's squared norm: how much weight the
  /// index carries. Empty when no constant is in the web.
  std::vector<double> weight;
  /// Whether a kept-index list (not a range) can be applied: no
  /// linalg.index reads the dimension and no value needs a slice.
  bool allowsIndexList = true;
  /// How many constants are sliced.
  int constants = 0;
  /// Whether the dimension is a convolution's channels: some convolution or
  /// pooling in the web carries it as an output, input or depthwise channel.
  bool channels = false;
  /// Function arguments cut by the shrink, directly or through a
  /// tensor.extract_slice of them: (argument number, its dimension); the
  /// dimension is the slice's when there is one.
  std::vector<std::pair<int, int64_t>> arguments;
};

/// Follows dimension `dim` of `value` through the ops that share it; errors
/// name the op that cannot narrow.
absl::StatusOr<ShrinkWeb> analyzeShrink(mlir::Value value, int dim);

/// Narrows dimension `dim` of `value` to the indices `keep` selects, in
/// place. The caller verifies the module afterwards.
absl::Status applyShrink(mlir::Value value, int dim, const Selection &keep);

} // namespace gevo

#endif // GEVO_IR_SHRINK_H
