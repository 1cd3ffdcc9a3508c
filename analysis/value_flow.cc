//===- value_flow.cc - Where a value ends up, through calls and loops ----===//

#include "analysis/value_flow.h"

#include <cmath>
#include <deque>
#include <set>

#include "analysis/label_rules.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

namespace gevo {
namespace {

constexpr size_t kMaxCallDepth = 12;

/// The loop a terminator of its body belongs to, when the terminator
/// yields the loop's next carried values.
mlir::Operation *loopOfYield(mlir::Operation *yield) {
  mlir::Operation *parent = yield->getParentOp();
  if (llvm::isa<mlir::scf::ForOp>(parent))
    return parent;
  if (auto loop = llvm::dyn_cast<mlir::scf::WhileOp>(parent))
    if (yield->getParentRegion() == &loop.getAfter())
      return parent;
  return nullptr;
}

/// A max-pooling op or a linalg reduction whose body takes a maximum.
bool isMaxReduction(mlir::Operation *op) {
  if (!op)
    return false;
  llvm::StringRef name = op->getName().getStringRef();
  if (name.starts_with("linalg.pooling_") && name.contains("_max"))
    return true;
  return isGenericMaxReduction(op);
}

} // namespace

bool isGenericMaxReduction(mlir::Operation *op) {
  auto generic = llvm::dyn_cast_or_null<mlir::linalg::GenericOp>(op);
  if (!generic || generic.getNumReductionLoops() == 0)
    return false;
  bool max = false;
  generic.getBody()->walk([&](mlir::Operation *inner) {
    max |= llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp>(inner);
  });
  return max;
}

ValueFlow::ValueFlow(mlir::ModuleOp module, const WorkloadSpec &spec) {
  module.walk([&](mlir::func::CallOp call) {
    if (auto callee = module.lookupSymbol<mlir::func::FuncOp>(call.getCallee()))
      callSites[callee.getOperation()].push_back(call);
  });
  findTrainingLoops(module, spec);
}

std::vector<mlir::Value> ValueFlow::successors(mlir::OpOperand &use) const {
  mlir::Operation *owner = use.getOwner();
  unsigned n = use.getOperandNumber();
  std::vector<mlir::Value> next;
  if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(owner)) {
    if (n >= 3)
      next.push_back(loop.getRegionIterArgs()[n - 3]);
  } else if (auto loop = llvm::dyn_cast<mlir::scf::WhileOp>(owner)) {
    next.push_back(loop.getBeforeArguments()[n]);
  } else if (auto condition = llvm::dyn_cast<mlir::scf::ConditionOp>(owner)) {
    auto loop = llvm::cast<mlir::scf::WhileOp>(owner->getParentOp());
    if (n >= 1) {
      next.push_back(loop.getAfterArguments()[n - 1]);
      next.push_back(loop->getResult(n - 1));
    }
  } else if (llvm::isa<mlir::scf::YieldOp, mlir::linalg::YieldOp>(owner)) {
    mlir::Operation *parent = owner->getParentOp();
    if (auto loop = llvm::dyn_cast<mlir::scf::WhileOp>(parent)) {
      // The next iteration's state; what the loop ends with when the
      // condition forwards it unchanged (the usual form).
      mlir::scf::ConditionOp condition = loop.getConditionOp();
      if (n < condition.getArgs().size() &&
          condition.getArgs()[n] == loop.getBeforeArguments()[n])
        next.push_back(loop->getResult(n));
    } else if (n < parent->getNumResults()) {
      next.push_back(parent->getResult(n));
    }
  } else if (auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(owner)) {
    next.push_back(generic.getBody()->getArgument(n));
  } else {
    for (mlir::Value result : owner->getResults())
      next.push_back(result);
  }
  return next;
}

std::optional<FlowSink> ValueFlow::sinkAt(mlir::OpOperand &use) const {
  mlir::Operation *owner = use.getOwner();
  unsigned n = use.getOperandNumber();
  FlowSink sink{FlowSink::Kind::Result};
  sink.op = owner;
  if (llvm::isa<mlir::scf::ForOp>(owner) && n < 3) {
    sink.kind = FlowSink::Kind::LoopControl;
    sink.loop = owner;
    sink.position = n;
    return sink;
  }
  if (llvm::isa<mlir::scf::ConditionOp>(owner) && n == 0) {
    sink.kind = FlowSink::Kind::LoopControl;
    sink.loop = owner->getParentOp();
    return sink;
  }
  auto isParameter = [&](mlir::Operation *loop, unsigned position) {
    auto it = parameters.find(loop);
    return it != parameters.end() && llvm::is_contained(it->second, position);
  };
  mlir::Operation *yieldLoop =
      llvm::isa<mlir::scf::YieldOp>(owner) ? loopOfYield(owner) : nullptr;
  // The next value of a while loop's counter (what its condition compares).
  if (auto loop = llvm::dyn_cast_or_null<mlir::scf::WhileOp>(yieldLoop))
    if (auto compare = loop.getConditionOp()
                           .getCondition()
                           .getDefiningOp<mlir::arith::CmpIOp>())
      if (llvm::is_contained(compare->getOperands(),
                             loop.getBeforeArguments()[n])) {
        sink.kind = FlowSink::Kind::LoopControl;
        sink.loop = yieldLoop;
        sink.position = n;
        return sink;
      }
  if (yieldLoop && isParameter(yieldLoop, n)) {
    sink.kind = FlowSink::Kind::Update;
    sink.loop = yieldLoop;
    sink.position = n;
    return sink;
  }
  unsigned initial = llvm::isa<mlir::scf::ForOp>(owner) ? n - 3 : n;
  if (llvm::isa<mlir::scf::ForOp, mlir::scf::WhileOp>(owner) &&
      isParameter(owner, initial)) {
    sink.kind = FlowSink::Kind::ParameterInit;
    sink.loop = owner;
    sink.position = initial;
    return sink;
  }
  if (auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(owner))
    if (linalg.isDpsInit(&use) && isMaxReduction(owner)) {
      sink.kind = FlowSink::Kind::MaxInit;
      return sink;
    }
  if (llvm::isa<mlir::func::ReturnOp>(owner) && owner->getParentOp() == entry)
    return sink;
  // An offset, size or stride of a slice of the training data, or an index
  // into it: which rows are read.
  if (llvm::isa<mlir::tensor::ExtractSliceOp, mlir::tensor::ExtractOp>(owner) &&
      n >= 1 && trainingInput(owner->getOperand(0))) {
    sink.kind = FlowSink::Kind::DataSelection;
    return sink;
  }
  return std::nullopt;
}

namespace {
/// One value reached, in the context of the calls it was reached through.
struct FlowState {
  mlir::Value value;
  std::vector<mlir::Operation *> stack;
  int parent = -1;
  mlir::Operation *via = nullptr;
};
} // namespace

std::vector<FlowSink>
ValueFlow::trace(mlir::Value value,
                 std::vector<mlir::Operation *> *reached) const {
  std::vector<FlowState> states = {{value, {}, -1, value.getDefiningOp()}};
  std::set<std::pair<void *, std::vector<mlir::Operation *>>> seen = {
      {value.getAsOpaquePointer(), {}}};
  std::vector<FlowSink> sinks;
  auto pathTo = [&](int index) {
    std::vector<mlir::Operation *> path;
    for (; index >= 0; index = states[index].parent)
      if (states[index].via &&
          (path.empty() || path.back() != states[index].via))
        path.push_back(states[index].via);
    std::reverse(path.begin(), path.end());
    return path;
  };
  for (size_t i = 0; i < states.size() && i < 20000; ++i) {
    for (mlir::OpOperand &use : states[i].value.getUses()) {
      mlir::Operation *owner = use.getOwner();
      if (reached)
        reached->push_back(owner);
      if (std::optional<FlowSink> sink = sinkAt(use)) {
        sink->path = pathTo(static_cast<int>(i));
        sink->path.push_back(owner);
        sinks.push_back(*sink);
        continue;
      }
      std::vector<std::pair<mlir::Value, std::vector<mlir::Operation *>>> next;
      const std::vector<mlir::Operation *> &stack = states[i].stack;
      unsigned n = use.getOperandNumber();
      if (auto call = llvm::dyn_cast<mlir::func::CallOp>(owner)) {
        auto callee = llvm::dyn_cast_or_null<mlir::func::FuncOp>(
            mlir::SymbolTable::lookupNearestSymbolFrom(owner,
                                                       call.getCalleeAttr()));
        if (callee && !callee.isExternal() && stack.size() < kMaxCallDepth) {
          std::vector<mlir::Operation *> inner = stack;
          inner.push_back(owner);
          next.push_back({callee.getArgument(n), inner});
        }
      } else if (llvm::isa<mlir::func::ReturnOp>(owner)) {
        if (!stack.empty()) {
          std::vector<mlir::Operation *> outer(stack.begin(), stack.end() - 1);
          next.push_back({stack.back()->getResult(n), outer});
        } else if (auto it = callSites.find(owner->getParentOp());
                   it != callSites.end()) {
          for (mlir::Operation *site : it->second)
            next.push_back({site->getResult(n), {}});
        }
      } else {
        for (mlir::Value v : successors(use))
          next.push_back({v, stack});
      }
      for (auto &[v, s] : next)
        if (seen.insert({v.getAsOpaquePointer(), s}).second)
          states.push_back({v, s, static_cast<int>(i), owner});
    }
  }
  return sinks;
}

} // namespace gevo
