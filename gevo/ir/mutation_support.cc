//===- mutation_support.cc - What every mutation operator needs -----------===//

#include "gevo/ir/mutation_support.h"

#include "absl/strings/str_cat.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/repair.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/DenseMap.h"

namespace gevo {

absl::Status noCandidate(const char *what) {
  return absl::NotFoundError(absl::StrCat("no candidate ", what));
}

std::vector<mlir::Operation *>
candidates(const AddressIndex &index, const MutationOptions &options,
           llvm::function_ref<bool(mlir::Operation *)> keep) {
  std::vector<mlir::Operation *> out;
  for (mlir::Operation *op : index.ops()) {
    if (options.target && op != options.target)
      continue;
    if (passesFilters(*index.refOf(op), options) && keep(op))
      out.push_back(op);
  }
  return out;
}

bool isMovable(mlir::Operation *op) {
  return !op->hasTrait<mlir::OpTrait::IsTerminator>() &&
         op->getNumRegions() == 0;
}

std::string functionOf(mlir::Operation *op) {
  return op->getParentOfType<mlir::func::FuncOp>().getSymName().str();
}

std::vector<mlir::Value>
visibleValues(const AddressIndex &index, mlir::Operation *at,
              llvm::function_ref<bool(mlir::Value)> excluded) {
  std::vector<mlir::Value> out;
  auto add = [&](mlir::Value value) {
    if (!excluded(value) && index.hasRef(value))
      out.push_back(value);
  };
  for (mlir::Operation *op = at; op;) {
    mlir::Block *block = op->getBlock();
    for (mlir::Operation &prev : *block) {
      if (&prev == op)
        break;
      for (mlir::Value result : prev.getResults())
        add(result);
    }
    for (mlir::Value argument : block->getArguments())
      add(argument);
    mlir::Operation *parent = block->getParentOp();
    if (!parent || llvm::isa<mlir::func::FuncOp>(parent))
      break;
    op = parent;
  }
  return out;
}

Repair drawRepair(mlir::Type from, mlir::Type to, Rng &rng) {
  Repair repair = *planRepair(from, to);
  varyCrops(repair, from, [&](size_t count) {
    return std::uniform_int_distribution<size_t>(0, count - 1)(rng);
  });
  return repair;
}

absl::Status chooseValue(const AddressIndex &index,
                         const std::vector<mlir::Value> &visible,
                         mlir::Type type, mlir::Value avoid, Rng &rng,
                         Rewire &rewire) {
  std::vector<mlir::Value> same, repairable;
  // Whether a type repairs into `type`, asked once per type (a module has
  // few types and many values).
  llvm::DenseMap<mlir::Type, bool> repairs;
  for (mlir::Value value : visible) {
    if (value == avoid)
      continue;
    if (value.getType() == type) {
      same.push_back(value);
      continue;
    }
    auto [it, added] = repairs.try_emplace(value.getType(), false);
    if (added)
      it->second = planRepair(value.getType(), type).has_value();
    if (it->second)
      repairable.push_back(value);
  }
  return chooseAmong(
      index, same.size(), [&](size_t i) { return same[i]; }, repairable.size(),
      [&](size_t i) { return repairable[i]; }, type, rng, rewire);
}

absl::Status chooseAmong(const AddressIndex &index, size_t sameCount,
                         llvm::function_ref<mlir::Value(size_t)> sameAt,
                         size_t repairableCount,
                         llvm::function_ref<mlir::Value(size_t)> repairableAt,
                         mlir::Type type, Rng &rng, Rewire &rewire) {
  // As pick(): one uniform draw over the candidates.
  auto draw = [&](size_t count) {
    return std::uniform_int_distribution<size_t>(0, count - 1)(rng);
  };
  if (sameCount > 0 && (repairableCount == 0 || chance(0.75, rng))) {
    rewire.value = *index.refOf(sameAt(draw(sameCount)));
    rewire.repair.clear();
    return absl::OkStatus();
  }
  if (repairableCount > 0 && chance(0.85, rng)) {
    mlir::Value value = repairableAt(draw(repairableCount));
    rewire.value = *index.refOf(value);
    rewire.repair = drawRepair(value.getType(), type, rng);
    return absl::OkStatus();
  }
  if (canHoldConstant(type)) {
    rewire.value.kind = ValueRef::Kind::Constant;
    rewire.value.literal = chance(0.5, rng) ? "0" : "1";
    rewire.repair.clear();
    return absl::OkStatus();
  }
  return noCandidate("value of a usable type");
}

absl::Status fixBrokenOperands(mlir::func::FuncOp function,
                               const AddressIndex &workIndex, Rng &rng,
                               Edit &edit) {
  mlir::DominanceInfo dominance(function);
  std::vector<std::pair<mlir::Operation *, unsigned>> broken;
  function.walk([&](mlir::Operation *op) {
    for (mlir::OpOperand &operand : op->getOpOperands()) {
      mlir::Value value = operand.get();
      bool ok = llvm::isa<mlir::BlockArgument>(value)
                    ? dominance.dominates(
                          llvm::cast<mlir::BlockArgument>(value).getOwner(),
                          op->getBlock())
                    : dominance.properlyDominates(value, op);
      if (!ok)
        broken.push_back({op, operand.getOperandNumber()});
    }
  });
  for (auto [user, operand] : broken) {
    std::optional<OpRef> userRef = workIndex.refOf(user);
    if (!userRef)
      return noCandidate("address for a broken use");
    Rewire rewire;
    rewire.user = *userRef;
    rewire.operand = static_cast<int>(operand);
    auto isBad = [&](mlir::Value value) {
      // Post-change visibility: the value must dominate the user now.
      return llvm::isa<mlir::BlockArgument>(value)
                 ? false
                 : !dominance.properlyDominates(value, user);
    };
    GEVO_RETURN_IF_ERROR(
        chooseValue(workIndex, visibleValues(workIndex, user, isBad),
                    user->getOperand(operand).getType(), nullptr, rng, rewire));
    edit.rewires.push_back(rewire);
  }
  return absl::OkStatus();
}

std::vector<Edit> applicableSeeds(mlir::ModuleOp module,
                                  std::vector<Edit> proposed) {
  std::vector<Edit> seeds;
  for (Edit &edit : proposed) {
    mlir::OwningOpRef<mlir::ModuleOp> check(module.clone());
    if (applyEdit(*check, edit).ok())
      seeds.push_back(std::move(edit));
  }
  return seeds;
}

} // namespace gevo
