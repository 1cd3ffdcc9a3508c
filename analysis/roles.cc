//===- roles.cc - What each op of a workload does for the model -----------===//

#include "analysis/roles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace gevo {
namespace {

enum Taint : unsigned {
  kTrainInput = 1,
  kLabels = 2,
  kEvalInput = 4,
};

class Classifier {
public:
  Classifier(mlir::func::FuncOp function, const WorkloadSpec &spec)
      : function(function) {
    for (size_t i = 0;
         i < spec.arguments.size() && i < function.getNumArguments(); ++i) {
      const ArgumentBinding &binding = spec.arguments[i];
      unsigned taint =
          binding.field == DataField::Features
              ? (binding.split == SplitRole::Train ? kTrainInput : kEvalInput)
              : kLabels;
      taints[function.getArgument(i)] = taint;
    }
  }

  void propagate() {
    // Nested regions need a few passes; the lattice is three bits deep.
    for (int round = 0; round < 8 && changedOnce(); ++round) {
    }
  }

  unsigned taintOf(mlir::Value value) const {
    auto it = taints.find(value);
    return it == taints.end() ? 0 : it->second;
  }

  unsigned opTaint(mlir::Operation *op) const {
    unsigned taint = 0;
    for (mlir::Value result : op->getResults())
      taint |= taintOf(result);
    if (op->getNumResults() == 0)
      for (mlir::Value operand : op->getOperands())
        taint |= taintOf(operand);
    return taint;
  }

private:
  bool merge(mlir::Value value, unsigned taint) {
    unsigned &slot = taints[value];
    unsigned before = slot;
    slot |= taint;
    return slot != before;
  }

  bool changedOnce() {
    bool changed = false;
    function.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
      unsigned in = 0;
      for (mlir::Value operand : op->getOperands())
        in |= taintOf(operand);
      if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op)) {
        auto yield = loop.getBody()->getTerminator();
        // One iteration's view: an iter_arg carries what its initial value
        // does (not what the previous iteration made of it), so that the
        // forward pass of iteration n is not "derived from the labels" of
        // iteration n-1. The loop's results carry both.
        for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k) {
          unsigned initial = taintOf(loop.getInitArgs()[k]);
          changed |= merge(loop.getRegionIterArgs()[k], initial);
          changed |=
              merge(loop.getResult(k), initial | taintOf(yield->getOperand(k)));
        }
        return;
      }
      if (auto generic = llvm::dyn_cast<mlir::linalg::LinalgOp>(op)) {
        if (op->getNumRegions() == 1 && !op->getRegion(0).empty())
          for (auto [operand, argument] : llvm::zip(
                   op->getOperands(), op->getRegion(0).front().getArguments()))
            changed |= merge(argument, taintOf(operand));
      } else {
        for (mlir::Region &region : op->getRegions())
          for (mlir::Block &block : region)
            for (mlir::BlockArgument argument : block.getArguments())
              changed |= merge(argument, in);
      }
      // Results: operands plus whatever the regions yield.
      unsigned out = in;
      for (mlir::Region &region : op->getRegions())
        for (mlir::Block &block : region)
          if (!block.empty())
            if (mlir::Operation *terminator = &block.back();
                terminator->hasTrait<mlir::OpTrait::IsTerminator>())
              for (mlir::Value value : terminator->getOperands())
                out |= taintOf(value);
      for (mlir::Value result : op->getResults())
        changed |= merge(result, out);
    });
    return changed;
  }

  mlir::func::FuncOp function;
  llvm::DenseMap<mlir::Value, unsigned> taints;
};

/// The op that owns `op` directly inside `function`'s loops and generics:
/// `op` itself unless it sits in a linalg op's body.
mlir::Operation *roleCarrier(mlir::Operation *op) {
  for (mlir::Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (llvm::isa<mlir::linalg::LinalgOp>(parent))
      op = parent;
  return op;
}

bool insideTraining(mlir::Operation *op,
                    const llvm::DenseMap<mlir::Operation *, bool> &loops) {
  for (mlir::Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (loops.count(parent))
      return true;
  return false;
}

/// The steps of RoleMap's classification, in the order they run: each
/// refines the roles the earlier ones gave.
struct RoleAssignment {
  mlir::func::FuncOp function;
  const Classifier &taints;
  llvm::DenseMap<mlir::Operation *, Role> &roles;
  llvm::DenseMap<mlir::Operation *, bool> &trainingLoops;

  /// Training loops: the body computes something from the labels.
  void findTrainingLoops() {
    function.walk([&](mlir::scf::ForOp loop) {
      bool usesLabels = false;
      loop.getBody()->walk([&](mlir::Operation *inner) {
        usesLabels |= (taints.opTaint(inner) & kLabels) != 0;
      });
      if (usesLabels)
        trainingLoops[loop] = true;
    });
  }

  /// Defaults: by taint and place.
  void assignByTaint() {
    function.walk([&](mlir::Operation *op) {
      if (op == function.getOperation())
        return;
      mlir::Operation *carrier = roleCarrier(op);
      if (carrier != op)
        return; // bodies follow their generic below
      unsigned taint = taints.opTaint(op);
      bool training = insideTraining(op, trainingLoops);
      Role role = Role::Plumbing;
      if (llvm::isa<mlir::scf::ForOp>(op))
        role = Role::Schedule;
      else if (training && (taint & kLabels))
        role = Role::Gradient;
      else if (training && (taint & kTrainInput))
        role = Role::Forward;
      else if (!training && (taint & kEvalInput))
        role = Role::Prediction;
      roles[op] = role;
    });
  }

  /// Update: what a training loop yields as a parameter's next value; and
  /// the parameters' initial values.
  void assignUpdatesAndParameters() {
    for (auto &entry : trainingLoops) {
      auto loop = llvm::cast<mlir::scf::ForOp>(entry.first);
      mlir::Operation *yield = loop.getBody()->getTerminator();
      for (mlir::Value next : yield->getOperands())
        if (mlir::Operation *producer = next.getDefiningOp())
          if (!llvm::isa<mlir::scf::ForOp>(producer) &&
              producer->getBlock() == loop.getBody())
            roles[producer] = Role::Update;
      for (mlir::Value init : loop.getInitArgs())
        if (mlir::Operation *producer = init.getDefiningOp())
          if (!insideTraining(producer, trainingLoops) &&
              !llvm::isa<mlir::scf::ForOp>(producer))
            roles[producer] = Role::Parameter;
    }
  }

  /// Loss: where the labels themselves (values derived from nothing but the
  /// labels) meet a label-free value computed from the inputs. Returns the
  /// loss ops.
  std::vector<mlir::Operation *> assignLoss() {
    std::vector<mlir::Operation *> lossOps;
    function.walk([&](mlir::Operation *op) {
      if (roles.lookup(op) != Role::Gradient)
        return;
      bool labels = false, outputs = false;
      for (mlir::Value operand : op->getOperands()) {
        unsigned taint = taints.taintOf(operand);
        labels |= taint == kLabels;
        outputs |= (taint & kTrainInput) && !(taint & kLabels);
      }
      if (labels && outputs) {
        roles[op] = Role::Loss;
        lossOps.push_back(op);
      }
    });
    return lossOps;
  }

  /// The forward pass is what the loss is computed from; input-derived ops
  /// outside that slice (the transposes of the backward pass) are gradient.
  void narrowForwardTo(const std::vector<mlir::Operation *> &lossOps) {
    llvm::DenseMap<mlir::Operation *, bool> forwardSlice;
    std::vector<mlir::Operation *> work = lossOps;
    while (!work.empty()) {
      mlir::Operation *op = work.back();
      work.pop_back();
      for (mlir::Value operand : op->getOperands())
        if (mlir::Operation *producer = operand.getDefiningOp()) {
          producer = roleCarrier(producer);
          if (roles.lookup(producer) == Role::Forward &&
              forwardSlice.try_emplace(producer, true).second)
            work.push_back(producer);
        }
    }
    function.walk([&](mlir::Operation *op) {
      if (roles.lookup(op) == Role::Forward && !forwardSlice.count(op) &&
          !lossOps.empty())
        roles[op] = Role::Gradient;
    });
  }

  /// Whether `op` is a label-free linalg op of a training loop whose every
  /// user is gradient, loss or update code.
  bool onlyFeedsGradient(mlir::Operation *op) const {
    if (roles.lookup(op) != Role::Plumbing ||
        !insideTraining(op, trainingLoops) ||
        !llvm::isa<mlir::linalg::LinalgOp>(op) ||
        llvm::isa<mlir::linalg::FillOp>(op) || op->use_empty())
      return false;
    for (mlir::Operation *user : op->getUsers()) {
      Role userRole = roles.lookup(roleCarrier(user));
      if (userRole != Role::Gradient && userRole != Role::Loss &&
          userRole != Role::Update)
        return false;
    }
    return true;
  }

  /// Label-free linalg ops of a training loop that only feed the gradient
  /// (a transposed weight) are gradient too.
  void assignGradientFeeders() {
    bool changed = true;
    while (changed) {
      changed = false;
      function.walk([&](mlir::Operation *op) {
        if (!onlyFeedsGradient(op))
          return;
        roles[op] = Role::Gradient;
        changed = true;
      });
    }
  }

  /// Constants: by what uses them.
  void assignConstants() {
    function.walk([&](mlir::arith::ConstantOp constant) {
      if (roleCarrier(constant) != constant.getOperation())
        return;
      llvm::SmallSetVector<Role, 4> userRoles;
      bool bound = false;
      for (mlir::OpOperand &use : constant->getUses()) {
        mlir::Operation *user = use.getOwner();
        if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(user))
          bound |= use.getOperandNumber() < 3;
        userRoles.insert(roles.lookup(roleCarrier(user)));
      }
      if (bound)
        roles[constant] = Role::Schedule;
      else if (userRoles.size() == 1 && (userRoles[0] == Role::Update ||
                                         userRoles[0] == Role::Parameter))
        roles[constant] = userRoles[0];
      else if (isWeight(constant) && !userRoles.empty() &&
               (userRoles[0] == Role::Prediction ||
                userRoles[0] == Role::Forward))
        roles[constant] = Role::Parameter;
    });
  }

  /// A constant tensor of rank 1 or more.
  static bool isWeight(mlir::arith::ConstantOp constant) {
    return llvm::isa<mlir::ShapedType>(constant.getType()) &&
           llvm::cast<mlir::ShapedType>(constant.getType()).getRank() >= 1;
  }

  /// Bodies take their generic's role.
  void assignBodies() {
    function.walk([&](mlir::Operation *op) {
      mlir::Operation *carrier = roleCarrier(op);
      if (carrier != op)
        roles[op] = roles.lookup(carrier);
    });
  }

  /// Functions the entry calls, directly or not: every op in one takes the
  /// role of the call that reaches it (an initialiser the entry calls for
  /// the weights is parameter code).
  void assignCallees(mlir::ModuleOp module) {
    llvm::DenseSet<mlir::Operation *> visited = {function.getOperation()};
    std::vector<std::pair<mlir::func::FuncOp, Role>> callees;
    auto addCallees = [&](mlir::func::FuncOp caller,
                          std::optional<Role> inherited) {
      caller.walk([&](mlir::func::CallOp call) {
        auto callee = module.lookupSymbol<mlir::func::FuncOp>(call.getCallee());
        if (callee && !callee.isExternal() &&
            visited.insert(callee.getOperation()).second)
          callees.push_back({callee, inherited.value_or(roles.lookup(call))});
      });
    };
    addCallees(function, std::nullopt);
    while (!callees.empty()) {
      auto [callee, role] = callees.back();
      callees.pop_back();
      callee.walk([&](mlir::Operation *op) {
        if (op != callee.getOperation())
          roles[op] = role;
      });
      addCallees(callee, role);
    }
  }
};

} // namespace

const char *toString(Role role) {
  switch (role) {
  case Role::Plumbing:
    return "plumbing";
  case Role::Schedule:
    return "schedule";
  case Role::Parameter:
    return "parameter";
  case Role::Forward:
    return "forward";
  case Role::Loss:
    return "loss";
  case Role::Gradient:
    return "gradient";
  case Role::Update:
    return "update";
  case Role::Prediction:
    return "prediction";
  }
  return "?";
}

RoleMap::RoleMap(mlir::ModuleOp module, const WorkloadSpec &spec) {
  auto function = module.lookupSymbol<mlir::func::FuncOp>(spec.entry);
  if (!function)
    return;
  Classifier taints(function, spec);
  taints.propagate();
  RoleAssignment assignment{function, taints, roles, trainingLoops};
  assignment.findTrainingLoops();
  assignment.assignByTaint();
  assignment.assignUpdatesAndParameters();
  std::vector<mlir::Operation *> lossOps = assignment.assignLoss();
  assignment.narrowForwardTo(lossOps);
  assignment.assignGradientFeeders();
  assignment.assignConstants();
  assignment.assignBodies();
  assignment.assignCallees(module);
}

Role RoleMap::roleOf(mlir::Operation *op) const {
  auto it = roles.find(op);
  return it == roles.end() ? Role::Plumbing : it->second;
}

std::map<Role, int> RoleMap::histogram() const {
  std::map<Role, int> counts;
  for (const auto &entry : roles)
    ++counts[entry.second];
  return counts;
}

} // namespace gevo
