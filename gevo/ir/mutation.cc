//===- mutation.cc - Mutation operators that propose resolved edits -------===//

#include "gevo/ir/mutation.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/repair.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"

namespace gevo {
namespace {

using Rng = std::mt19937_64;

template <typename T> const T &pick(const std::vector<T> &items, Rng &rng) {
  return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(rng)];
}

bool chance(double p, Rng &rng) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

absl::Status noCandidate(const char *what) {
  return absl::NotFoundError(absl::StrCat("no candidate ", what));
}

/// Ops an operator may pick, after the user's filters.
std::vector<mlir::Operation *> candidates(const AddressIndex &index,
                                          const MutationOptions &options,
                                          llvm::function_ref<bool(mlir::Operation *)> keep) {
  std::vector<mlir::Operation *> out;
  for (mlir::Operation *op : index.ops()) {
    OpRef ref = *index.refOf(op);
    if (!options.functions.empty() &&
        std::find(options.functions.begin(), options.functions.end(),
                  ref.function) == options.functions.end())
      continue;
    if (!options.opPrefixes.empty() &&
        std::none_of(options.opPrefixes.begin(), options.opPrefixes.end(),
                     [&](const std::string &prefix) {
                       return ref.opName.rfind(prefix, 0) == 0;
                     }))
      continue;
    if (keep(op))
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

/// Values that dominate `at` and have an address, minus `excluded`.
std::vector<mlir::Value>
visibleValues(const AddressIndex &index, mlir::Operation *at,
              llvm::function_ref<bool(mlir::Value)> excluded) {
  std::vector<mlir::Value> out;
  auto add = [&](mlir::Value value) {
    if (!excluded(value) && index.refOf(value))
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

/// Chooses a value for operand `type`: same type when possible, else one that
/// repairs, else a constant. Fills the rewire's value and repair.
absl::Status chooseValue(const AddressIndex &index,
                         const std::vector<mlir::Value> &visible,
                         mlir::Type type, mlir::Value avoid, Rng &rng,
                         Rewire &rewire) {
  std::vector<mlir::Value> same, repairable;
  for (mlir::Value value : visible) {
    if (value == avoid)
      continue;
    if (value.getType() == type)
      same.push_back(value);
    else if (planRepair(value.getType(), type))
      repairable.push_back(value);
  }
  if (!same.empty() && (repairable.empty() || chance(0.75, rng))) {
    rewire.value = *index.refOf(pick(same, rng));
    rewire.repair.clear();
    return absl::OkStatus();
  }
  if (!repairable.empty() && chance(0.85, rng)) {
    mlir::Value value = pick(repairable, rng);
    rewire.value = *index.refOf(value);
    rewire.repair = *planRepair(value.getType(), type);
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

/// Rewires every operand in `function` (of the clone `work`, already changed
/// structurally) whose value no longer dominates its user. `workIndex` was
/// built on `work` before the change, so it names ops as the base module
/// does; `exclude` filters replacement values.
absl::Status fixBrokenOperands(mlir::func::FuncOp function,
                               const AddressIndex &workIndex, Rng &rng,
                               llvm::function_ref<bool(mlir::Value)> exclude,
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
      if (exclude(value))
        return true;
      // Post-change visibility: the value must dominate the user now.
      return llvm::isa<mlir::BlockArgument>(value)
                 ? false
                 : !dominance.properlyDominates(value, user);
    };
    GEVO_RETURN_IF_ERROR(chooseValue(workIndex,
                                     visibleValues(workIndex, user, isBad),
                                     user->getOperand(operand).getType(),
                                     nullptr, rng, rewire));
    edit.rewires.push_back(rewire);
  }
  return absl::OkStatus();
}

/// A new literal for a constant: scaled or replaced from a fixed set.
std::optional<std::string> tweakLiteral(mlir::arith::ConstantOp constant,
                                        Rng &rng) {
  mlir::Attribute value = constant.getValue();
  if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value)) {
    if (!dense.isSplat())
      return std::nullopt;
    value = dense.getSplatValue<mlir::Attribute>();
  }
  double current;
  bool isFloat = false;
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value)) {
    current = f.getValueAsDouble();
    isFloat = true;
  } else if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return std::nullopt;
    current = static_cast<double>(i.getValue().getSExtValue());
  } else {
    return std::nullopt;
  }
  static const double scales[] = {0.1, 0.5, 2.0, 10.0, -1.0};
  static const double values[] = {0.0, 1.0, -1.0, 0.5};
  double next = chance(0.6, rng) ? current * scales[rng() % 5]
                                 : values[rng() % 4];
  if (!isFloat)
    next = std::round(next);
  if (next == current)
    return std::nullopt;
  return isFloat ? absl::StrFormat("%.9g", next)
                 : absl::StrFormat("%d", static_cast<int64_t>(next));
}

absl::StatusOr<Edit> propose(mlir::ModuleOp module, EditKind kind,
                             const MutationOptions &options, Rng &rng) {
  AddressIndex index(module);
  Edit edit;
  edit.kind = kind;
  auto none = [](mlir::Value) { return false; };
  switch (kind) {
  case EditKind::Operand: {
    auto users = candidates(index, options, [](mlir::Operation *op) {
      return op->getNumOperands() > 0;
    });
    if (users.empty())
      return noCandidate("op with operands");
    mlir::Operation *user = pick(users, rng);
    edit.target = *index.refOf(user);
    Rewire rewire;
    rewire.user = edit.target;
    rewire.operand =
        static_cast<int>(rng() % user->getNumOperands());
    mlir::Value current = user->getOperand(rewire.operand);
    GEVO_RETURN_IF_ERROR(chooseValue(index, visibleValues(index, user, none),
                                     current.getType(), current, rng, rewire));
    edit.rewires.push_back(rewire);
    break;
  }
  case EditKind::Delete: {
    auto targets = candidates(index, options, [](mlir::Operation *op) {
      return !op->hasTrait<mlir::OpTrait::IsTerminator>();
    });
    if (targets.empty())
      return noCandidate("op to delete");
    mlir::Operation *target = pick(targets, rng);
    edit.target = *index.refOf(target);
    auto inTarget = [&](mlir::Value value) {
      mlir::Operation *owner =
          llvm::isa<mlir::OpResult>(value)
              ? value.getDefiningOp()
              : llvm::cast<mlir::BlockArgument>(value).getOwner()->getParentOp();
      return owner && target->isAncestor(owner);
    };
    for (mlir::Value result : target->getResults())
      for (mlir::OpOperand &use : result.getUses()) {
        Rewire rewire;
        std::optional<OpRef> user = index.refOf(use.getOwner());
        if (!user)
          return noCandidate("address for a use");
        rewire.user = *user;
        rewire.operand = static_cast<int>(use.getOperandNumber());
        GEVO_RETURN_IF_ERROR(chooseValue(
            index, visibleValues(index, use.getOwner(), inTarget),
            result.getType(), nullptr, rng, rewire));
        edit.rewires.push_back(rewire);
      }
    break;
  }
  case EditKind::Constant: {
    auto constants = candidates(index, options, [](mlir::Operation *op) {
      auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op);
      return constant && canHoldConstant(constant.getType()) &&
             !llvm::isa<mlir::IndexType>(constant.getType());
    });
    if (constants.empty())
      return noCandidate("constant");
    auto constant = llvm::cast<mlir::arith::ConstantOp>(pick(constants, rng));
    std::optional<std::string> literal = tweakLiteral(constant, rng);
    if (!literal)
      return noCandidate("new value for the constant");
    edit.target = *index.refOf(constant.getOperation());
    edit.literal = *literal;
    break;
  }
  case EditKind::Copy:
  case EditKind::Replace: {
    auto sources = candidates(index, options, [](mlir::Operation *op) {
      return isMovable(op) && op->getNumResults() > 0;
    });
    if (sources.size() < (kind == EditKind::Replace ? 2u : 1u))
      return noCandidate("op to copy");
    mlir::Operation *source = pick(sources, rng);
    std::string function = functionOf(source);
    mlir::Operation *position = nullptr;
    if (kind == EditKind::Copy) {
      std::vector<mlir::Operation *> anchors;
      for (mlir::Operation *op : index.ops())
        if (functionOf(op) == function && op != source)
          anchors.push_back(op);
      if (anchors.empty())
        return noCandidate("place to copy to");
      position = pick(anchors, rng);
      edit.target = *index.refOf(source);
      edit.anchor = *index.refOf(position);
    } else {
      std::vector<mlir::Operation *> targets;
      for (mlir::Operation *op : sources)
        if (op != source && functionOf(op) == function)
          targets.push_back(op);
      if (targets.empty())
        return noCandidate("op to replace");
      position = pick(targets, rng);
      edit.target = *index.refOf(position);
      edit.anchor = *index.refOf(source);
    }
    auto excluded = [&](mlir::Value value) {
      return kind == EditKind::Replace && value.getDefiningOp() == position;
    };
    std::vector<mlir::Value> visible =
        visibleValues(index, position, excluded);
    // The clone's operands: keep visible ones half of the time.
    for (mlir::OpOperand &operand : source->getOpOperands()) {
      mlir::Value current = operand.get();
      bool isVisible =
          std::find(visible.begin(), visible.end(), current) != visible.end();
      if (isVisible && chance(0.5, rng))
        continue;
      Rewire rewire;
      rewire.userIsNew = true;
      rewire.operand = static_cast<int>(operand.getOperandNumber());
      GEVO_RETURN_IF_ERROR(chooseValue(index, visible, current.getType(),
                                       nullptr, rng, rewire));
      edit.rewires.push_back(rewire);
    }
    if (kind == EditKind::Copy) {
      // Wire result 0 into one later use that dominance allows.
      mlir::Value result = source->getResult(0);
      std::vector<std::pair<mlir::Operation *, unsigned>> uses;
      for (mlir::Operation *op = position; op; op = op->getNextNode())
        op->walk([&](mlir::Operation *user) {
          if (!index.refOf(user))
            return;
          for (mlir::OpOperand &operand : user->getOpOperands())
            if (planRepair(result.getType(), operand.get().getType()))
              uses.push_back({user, operand.getOperandNumber()});
        });
      if (uses.empty())
        return noCandidate("use for the copy's result");
      auto [user, operand] = pick(uses, rng);
      Rewire rewire;
      rewire.user = *index.refOf(user);
      rewire.operand = static_cast<int>(operand);
      rewire.value.kind = ValueRef::Kind::NewResult;
      rewire.value.index = 0;
      rewire.repair =
          *planRepair(result.getType(), user->getOperand(operand).getType());
      edit.rewires.push_back(rewire);
    } else {
      // The replaced op's uses take the clone's results where types allow.
      for (mlir::OpResult result : position->getResults())
        for (mlir::OpOperand &use : result.getUses()) {
          Rewire rewire;
          rewire.user = *index.refOf(use.getOwner());
          rewire.operand = static_cast<int>(use.getOperandNumber());
          std::vector<int> fitting;
          for (mlir::OpResult own : source->getResults())
            if (planRepair(own.getType(), result.getType()))
              fitting.push_back(static_cast<int>(own.getResultNumber()));
          if (!fitting.empty()) {
            rewire.value.kind = ValueRef::Kind::NewResult;
            rewire.value.index = pick(fitting, rng);
            rewire.repair = *planRepair(
                source->getResult(rewire.value.index).getType(),
                result.getType());
          } else {
            auto notTarget = [&](mlir::Value value) {
              return value.getDefiningOp() == position;
            };
            GEVO_RETURN_IF_ERROR(chooseValue(
                index, visibleValues(index, use.getOwner(), notTarget),
                result.getType(), nullptr, rng, rewire));
          }
          edit.rewires.push_back(rewire);
        }
    }
    break;
  }
  case EditKind::Move:
  case EditKind::Swap: {
    auto movable = candidates(index, options, isMovable);
    if (movable.empty())
      return noCandidate("op to move");
    mlir::Operation *target = pick(movable, rng);
    std::vector<mlir::Operation *> anchors;
    for (mlir::Operation *op : index.ops()) {
      if (op == target || op == target->getNextNode())
        continue;
      if (kind == EditKind::Swap ? (isMovable(op) &&
                                    op->getBlock() == target->getBlock())
                                 : functionOf(op) == functionOf(target))
        anchors.push_back(op);
    }
    if (anchors.empty())
      return noCandidate("place to move to");
    mlir::Operation *anchor = pick(anchors, rng);
    edit.target = *index.refOf(target);
    edit.anchor = *index.refOf(anchor);
    // Simulate on a clone to find the operands the move breaks.
    mlir::OwningOpRef<mlir::ModuleOp> work(module.clone());
    AddressIndex workIndex(*work);
    absl::StatusOr<AddressIndex::Resolved> workTarget =
        workIndex.resolve(edit.target);
    absl::StatusOr<AddressIndex::Resolved> workAnchor =
        workIndex.resolve(edit.anchor);
    if (!workTarget.ok() || !workAnchor.ok())
      return noCandidate("address in the clone");
    // Only the structural part; the operands it breaks are fixed below.
    mlir::Operation *t = workTarget->op, *a = workAnchor->op;
    if (kind == EditKind::Move) {
      t->moveBefore(a);
    } else if (t->getNextNode() == a) {
      a->moveBefore(t);
    } else if (a->getNextNode() == t) {
      t->moveBefore(a);
    } else {
      mlir::Operation *after = t->getNextNode();
      t->moveBefore(a);
      a->moveBefore(after);
    }
    GEVO_RETURN_IF_ERROR(fixBrokenOperands(
        t->getParentOfType<mlir::func::FuncOp>(), workIndex, rng, none, edit));
    break;
  }
  }
  // Every proposal must replay: apply it to a clone and verify.
  mlir::OwningOpRef<mlir::ModuleOp> check(module.clone());
  GEVO_RETURN_IF_ERROR(applyEdit(*check, edit));
  return edit;
}

} // namespace

absl::StatusOr<std::vector<EditKind>> parseEditKinds(const std::string &list) {
  std::vector<EditKind> kinds;
  for (absl::string_view word : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    std::optional<EditKind> kind =
        parseEditKind(std::string_view(word.data(), word.size()));
    if (!kind)
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown operator '", word,
          "' (expected delete, copy, move, swap, replace, operand, constant)"));
    kinds.push_back(*kind);
  }
  if (kinds.empty())
    return absl::InvalidArgumentError("no operator named");
  return kinds;
}

absl::StatusOr<Edit> proposeEdit(mlir::ModuleOp module, EditKind kind,
                                 const MutationOptions &options, Rng &rng) {
  return propose(module, kind, options, rng);
}

absl::StatusOr<Edit> proposeAnyEdit(mlir::ModuleOp module,
                                    const MutationOptions &options, Rng &rng,
                                    int attempts) {
  absl::Status last = absl::NotFoundError("no operator enabled");
  for (int i = 0; i < attempts && !options.kinds.empty(); ++i) {
    absl::StatusOr<Edit> edit =
        propose(module, pick(options.kinds, rng), options, rng);
    if (edit.ok())
      return edit;
    last = edit.status();
  }
  return absl::Status(last.code(),
                      absl::StrCat("no valid edit in ", attempts,
                                   " attempts; last: ", last.message()));
}

} // namespace gevo
