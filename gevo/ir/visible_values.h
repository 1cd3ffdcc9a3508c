//===- visible_values.h - Values visible at many users, indexed once ------===//
//
// Deleting a value used by thousands of ops asks, for every use, which values
// are visible there and which of them fit the operand's type. Scanning the
// block for each use is quadratic; VisibleValueIndex builds, per block, the
// addressable values in visibleValues() order once, and per operand type the
// positions of those that fit, so each use is answered by a binary search.
// Its choices are exactly chooseValue's on visibleValues(), random draws
// included.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_VISIBLE_VALUES_H
#define GEVO_IR_VISIBLE_VALUES_H

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "gevo/ir/mutation_support.h"
#include "llvm/ADT/DenseMap.h"

namespace gevo {

class VisibleValueIndex {
public:
  /// Values for which `excluded` holds are never offered; it must not
  /// depend on the user asked about.
  VisibleValueIndex(const AddressIndex &index,
                    llvm::function_ref<bool(mlir::Value)> excluded);
  ~VisibleValueIndex();

  /// chooseValue(index, visibleValues(index, user, excluded), type, nullptr,
  /// rng, rewire), in time logarithmic in the number of visible values once
  /// the user's block has been indexed for `type`.
  absl::Status choose(mlir::Operation *user, mlir::Type type, Rng &rng,
                      Rewire &rewire);

private:
  struct Fitting;
  struct BlockValues;
  BlockValues &valuesOf(mlir::Block *block);
  Fitting &fittingOf(BlockValues &values, mlir::Type type);

  const AddressIndex &index;
  llvm::function_ref<bool(mlir::Value)> excluded;
  llvm::DenseMap<mlir::Block *, std::unique_ptr<BlockValues>> blocks;
};

} // namespace gevo

#endif // GEVO_IR_VISIBLE_VALUES_H
