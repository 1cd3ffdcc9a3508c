//===- visible_values.cc - Values visible at many users, indexed once -----===//

#include "gevo/ir/visible_values.h"

#include <algorithm>

#include "gevo/ir/repair.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace gevo {

/// Of a block's values, those that fit one operand type.
struct VisibleValueIndex::Fitting {
  /// Positions in BlockValues::results, ascending.
  std::vector<unsigned> same, repairable;
  /// From BlockValues::outer, in its order.
  std::vector<mlir::Value> outerSame, outerRepairable;
};

/// What visibleValues() gives for the ops of one block: `results` up to the
/// op (`before` counts them), then `outer`.
struct VisibleValueIndex::BlockValues {
  std::vector<mlir::Value> results;
  llvm::DenseMap<mlir::Operation *, unsigned> before;
  std::vector<mlir::Value> outer;
  llvm::DenseMap<mlir::Type, std::unique_ptr<Fitting>> fitting;
};

VisibleValueIndex::VisibleValueIndex(
    const AddressIndex &index, llvm::function_ref<bool(mlir::Value)> excluded)
    : index(index), excluded(excluded) {}

VisibleValueIndex::~VisibleValueIndex() = default;

VisibleValueIndex::BlockValues &
VisibleValueIndex::valuesOf(mlir::Block *block) {
  auto found = blocks.find(block);
  if (found != blocks.end())
    return *found->second;
  auto values = std::make_unique<BlockValues>();
  auto offered = [&](mlir::Value value) {
    return !excluded(value) && index.hasRef(value);
  };
  for (mlir::Operation &op : *block) {
    values->before[&op] = static_cast<unsigned>(values->results.size());
    for (mlir::Value result : op.getResults())
      if (offered(result))
        values->results.push_back(result);
  }
  for (mlir::Value argument : block->getArguments())
    if (offered(argument))
      values->outer.push_back(argument);
  mlir::Operation *parent = block->getParentOp();
  if (parent && !llvm::isa<mlir::func::FuncOp>(parent)) {
    // Blocks nest far less deep than they are long: recursion is fine here.
    BlockValues &enclosing = valuesOf(parent->getBlock());
    unsigned count = enclosing.before.lookup(parent);
    values->outer.insert(values->outer.end(), enclosing.results.begin(),
                         enclosing.results.begin() + count);
    values->outer.insert(values->outer.end(), enclosing.outer.begin(),
                         enclosing.outer.end());
  }
  BlockValues &result = *values;
  blocks[block] = std::move(values);
  return result;
}

VisibleValueIndex::Fitting &VisibleValueIndex::fittingOf(BlockValues &values,
                                                         mlir::Type type) {
  std::unique_ptr<Fitting> &slot = values.fitting[type];
  if (slot)
    return *slot;
  slot = std::make_unique<Fitting>();
  llvm::DenseMap<mlir::Type, bool> repairs;
  auto repairsInto = [&](mlir::Type from) {
    auto [it, added] = repairs.try_emplace(from, false);
    if (added)
      it->second = planRepair(from, type).has_value();
    return it->second;
  };
  for (unsigned i = 0; i < values.results.size(); ++i) {
    mlir::Type from = values.results[i].getType();
    if (from == type)
      slot->same.push_back(i);
    else if (repairsInto(from))
      slot->repairable.push_back(i);
  }
  for (mlir::Value value : values.outer) {
    if (value.getType() == type)
      slot->outerSame.push_back(value);
    else if (repairsInto(value.getType()))
      slot->outerRepairable.push_back(value);
  }
  return *slot;
}

absl::Status VisibleValueIndex::choose(mlir::Operation *user, mlir::Type type,
                                       Rng &rng, Rewire &rewire) {
  BlockValues &values = valuesOf(user->getBlock());
  unsigned visibleInBlock = values.before.lookup(user);
  Fitting &fitting = fittingOf(values, type);
  auto countBelow = [&](const std::vector<unsigned> &positions) {
    return static_cast<size_t>(
        std::lower_bound(positions.begin(), positions.end(), visibleInBlock) -
        positions.begin());
  };
  size_t sameInBlock = countBelow(fitting.same);
  size_t repairableInBlock = countBelow(fitting.repairable);
  return chooseAmong(
      index, sameInBlock + fitting.outerSame.size(),
      [&](size_t i) {
        return i < sameInBlock ? values.results[fitting.same[i]]
                               : fitting.outerSame[i - sameInBlock];
      },
      repairableInBlock + fitting.outerRepairable.size(),
      [&](size_t i) {
        return i < repairableInBlock
                   ? values.results[fitting.repairable[i]]
                   : fitting.outerRepairable[i - repairableInBlock];
      },
      type, rng, rewire);
}

} // namespace gevo
