//===- mutation_support.h - What the mutation operators share -------------===//
//
// The toolkit the operators (mutation_operator.h) are written with: the
// scope an operator looks at, random draws, which ops the user's filters
// allow, which values are visible (dominate) at an op, how a value is chosen
// for an operand (same type, else a repairable one, else a constant), how
// the operands a structural change broke are rewired, and which proposed
// edits verify. Operators depend on it; it names no operator.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_MUTATION_SUPPORT_H
#define GEVO_IR_MUTATION_SUPPORT_H

#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mutation_options.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace gevo {

/// What an operator looks at: the module (left unchanged), its addresses, and
/// the user's filters.
struct MutationScope {
  mlir::ModuleOp module;
  const AddressIndex &index;
  const MutationOptions &options;
};

template <typename T> const T &pick(const std::vector<T> &items, Rng &rng) {
  return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(rng)];
}

inline bool chance(double p, Rng &rng) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

inline bool excludeNothing(mlir::Value) { return false; }

/// The error an operator returns when its random choices lead nowhere.
absl::Status noCandidate(const char *what);

/// Ops an operator may pick: addressable, allowed by the user's filters, and
/// accepted by `keep`.
std::vector<mlir::Operation *>
candidates(const AddressIndex &index, const MutationOptions &options,
           llvm::function_ref<bool(mlir::Operation *)> keep);

/// Neither a terminator nor an op with regions.
bool isMovable(mlir::Operation *op);

/// The name of the function `op` is in.
std::string functionOf(mlir::Operation *op);

/// Values that dominate `at` and have an address, minus `excluded`.
std::vector<mlir::Value>
visibleValues(const AddressIndex &index, mlir::Operation *at,
              llvm::function_ref<bool(mlir::Value)> excluded);

/// The repair a mutation records from `from` to `to` (which must repair):
/// the plan, with each crop's block drawn (varyCrops in repair.h).
Repair drawRepair(mlir::Type from, mlir::Type to, Rng &rng);

/// Chooses a value for an operand of `type` other than `avoid`: the same type
/// when possible, else one that repairs, else a constant. Fills the rewire's
/// value and repair.
absl::Status chooseValue(const AddressIndex &index,
                         const std::vector<mlir::Value> &visible,
                         mlir::Type type, mlir::Value avoid, Rng &rng,
                         Rewire &rewire);

/// chooseValue's decision, over candidates given by count and element: the
/// values of `type` (same) and those that repair into it (repairable), each
/// in visibleValues() order.
absl::Status chooseAmong(const AddressIndex &index, size_t sameCount,
                         llvm::function_ref<mlir::Value(size_t)> sameAt,
                         size_t repairableCount,
                         llvm::function_ref<mlir::Value(size_t)> repairableAt,
                         mlir::Type type, Rng &rng, Rewire &rewire);

/// Rewires every operand in `function` (of a clone already changed
/// structurally) whose value no longer dominates its user. `workIndex` was
/// built on the clone before the change, so it names ops as the original
/// module does.
absl::Status fixBrokenOperands(mlir::func::FuncOp function,
                               const AddressIndex &workIndex, Rng &rng,
                               Edit &edit);

/// The edits of `proposed` that apply to a clone of `module` and verify, in
/// order: what a search may start from.
std::vector<Edit> applicableSeeds(mlir::ModuleOp module,
                                  std::vector<Edit> proposed);

} // namespace gevo

#endif // GEVO_IR_MUTATION_SUPPORT_H
