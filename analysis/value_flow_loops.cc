//===- value_flow_loops.cc - Training loops, parameters, trip counts -----===//
//
// The parts of ValueFlow (value_flow.h) about loops: which loops train and
// which carried values are parameters or optimiser state, their names in the
// user's terms, and trip counts.

#include <cmath>
#include <deque>

#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace gevo {

llvm::DenseSet<mlir::Value>
ValueFlow::reachAll(llvm::ArrayRef<mlir::Value> from) const {
  llvm::DenseSet<mlir::Value> reached;
  std::deque<mlir::Value> work(from.begin(), from.end());
  while (!work.empty()) {
    mlir::Value value = work.front();
    work.pop_front();
    if (!reached.insert(value).second)
      continue;
    for (mlir::OpOperand &use : value.getUses()) {
      mlir::Operation *owner = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto call = llvm::dyn_cast<mlir::func::CallOp>(owner)) {
        if (auto callee = llvm::dyn_cast_or_null<mlir::func::FuncOp>(
                mlir::SymbolTable::lookupNearestSymbolFrom(
                    owner, call.getCalleeAttr()));
            callee && !callee.isExternal())
          work.push_back(callee.getArgument(n));
      } else if (llvm::isa<mlir::func::ReturnOp>(owner)) {
        if (auto it = callSites.find(owner->getParentOp());
            it != callSites.end())
          for (mlir::Operation *site : it->second)
            work.push_back(site->getResult(n));
      } else {
        for (mlir::Value v : successors(use))
          work.push_back(v);
      }
    }
  }
  return reached;
}

namespace {
/// The value a loop's body sees for carried position `k` in one iteration.
mlir::Value carriedArgument(mlir::Operation *loop, unsigned k) {
  if (auto f = llvm::dyn_cast<mlir::scf::ForOp>(loop))
    return f.getRegionIterArgs()[k];
  return llvm::cast<mlir::scf::WhileOp>(loop).getBeforeArguments()[k];
}
} // namespace

void ValueFlow::findTrainingLoops(mlir::ModuleOp module,
                                  const WorkloadSpec &spec) {
  auto function = module.lookupSymbol<mlir::func::FuncOp>(spec.entry);
  if (!function)
    return;
  entry = function.getOperation();
  std::vector<mlir::Value> labels, features;
  for (size_t i = 0;
       i < spec.arguments.size() && i < function.getNumArguments(); ++i) {
    bool train = spec.arguments[i].split == SplitRole::Train;
    if (spec.arguments[i].field == DataField::Features)
      inputArguments.insert(function.getArgument(i));
    if (train)
      trainingArguments.insert(function.getArgument(i));
    if (spec.arguments[i].field != DataField::Features)
      labels.push_back(function.getArgument(i));
    else if (spec.arguments[i].split == SplitRole::Train)
      features.push_back(function.getArgument(i));
  }
  labelDerived = reachAll(labels);
  llvm::DenseSet<mlir::Value> featureDerived = reachAll(features);
  // A value the forward pass computes from the inputs alone.
  auto forwardValue = [&](mlir::Value v) {
    return featureDerived.contains(v) && !labelDerived.contains(v);
  };
  module.walk([&](mlir::Operation *op) {
    mlir::Operation *yield = nullptr;
    if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op))
      yield = loop.getBody()->getTerminator();
    else if (auto loop = llvm::dyn_cast<mlir::scf::WhileOp>(op))
      yield = loop.getYieldOp();
    if (!yield)
      return;
    for (mlir::OpOperand &operand : yield->getOpOperands()) {
      if (!labelDerived.contains(operand.get()))
        continue;
      // A parameter meets the inputs in the forward pass; optimiser state
      // (a velocity) only meets gradients and parameters.
      unsigned k = operand.getOperandNumber();
      bool meetsInputs = false;
      for (mlir::Value v : reachAll({carriedArgument(op, k)}))
        for (mlir::Operation *user : v.getUsers())
          meetsInputs |= llvm::any_of(user->getOperands(), forwardValue);
      (meetsInputs ? parameters : optimizerState)[op].push_back(k);
    }
  });
}

bool ValueFlow::inputOf(mlir::Value value, bool trainingOnly) const {
  for (int steps = 0; steps < 32 && value; ++steps) {
    if ((trainingOnly ? trainingArguments : inputArguments).contains(value))
      return true;
    if (auto argument = llvm::dyn_cast<mlir::BlockArgument>(value)) {
      mlir::Operation *owner = argument.getOwner()->getParentOp();
      unsigned n = argument.getArgNumber();
      if (llvm::isa<mlir::linalg::GenericOp>(owner)) {
        value = owner->getOperand(n);
      } else if (llvm::isa<mlir::func::FuncOp>(owner)) {
        auto it = callSites.find(owner);
        if (it == callSites.end() || it->second.empty())
          return false;
        value = it->second.front()->getOperand(n);
      } else {
        return false;
      }
      continue;
    }
    mlir::Operation *producer = value.getDefiningOp();
    // Elementwise preprocessing: a generic over one tensor (scalars aside).
    if (auto generic =
            llvm::dyn_cast_or_null<mlir::linalg::GenericOp>(producer)) {
      llvm::SmallVector<mlir::Value> tensors;
      for (mlir::Value in : generic.getDpsInputs())
        if (llvm::isa<mlir::ShapedType>(in.getType()))
          tensors.push_back(in);
      if (tensors.size() != 1 || generic.getNumReductionLoops() != 0)
        return false;
      value = tensors.front();
      continue;
    }
    if (!producer ||
        !llvm::isa<mlir::tensor::ExtractSliceOp, mlir::tensor::ExpandShapeOp,
                   mlir::tensor::CollapseShapeOp, mlir::tensor::PadOp,
                   mlir::tensor::CastOp>(producer))
      return false;
    value = producer->getOperand(0);
  }
  return false;
}

bool ValueFlow::isCarried(mlir::Operation *loop, unsigned position) const {
  for (const auto *map : {&parameters, &optimizerState})
    if (auto it = map->find(loop);
        it != map->end() && llvm::is_contained(it->second, position))
      return true;
  return false;
}

bool ValueFlow::isOptimizerState(mlir::Operation *loop,
                                 unsigned position) const {
  auto it = optimizerState.find(loop);
  return it != optimizerState.end() && llvm::is_contained(it->second, position);
}

std::optional<std::pair<mlir::Operation *, unsigned>>
ValueFlow::carriedOrigin(mlir::Value value) const {
  for (int steps = 0; steps < 32; ++steps) {
    auto argument = llvm::dyn_cast<mlir::BlockArgument>(value);
    if (!argument)
      return std::nullopt;
    mlir::Operation *owner = argument.getOwner()->getParentOp();
    unsigned n = argument.getArgNumber();
    if (llvm::isa<mlir::linalg::GenericOp>(owner)) {
      value = owner->getOperand(n);
    } else if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(owner)) {
      if (n == 0)
        return std::nullopt;
      if (isCarried(owner, n - 1))
        return std::make_pair(owner, n - 1);
      value = loop.getInitArgs()[n - 1];
    } else if (llvm::isa<mlir::scf::WhileOp>(owner)) {
      return isCarried(owner, n) ? std::optional(std::make_pair(owner, n))
                                 : std::nullopt;
    } else if (llvm::isa<mlir::func::FuncOp>(owner)) {
      auto it = callSites.find(owner);
      if (it == callSites.end() || it->second.empty())
        return std::nullopt;
      value = it->second.front()->getOperand(n);
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

const std::vector<unsigned> &
ValueFlow::parametersOf(mlir::Operation *loop) const {
  static const std::vector<unsigned> kNone;
  auto it = parameters.find(loop);
  return it == parameters.end() ? kNone : it->second;
}

std::string ValueFlow::loopName(mlir::Operation *loop) const {
  int enclosing = 0;
  mlir::Operation *op = loop;
  for (int steps = 0; op && steps < 1000; ++steps) {
    mlir::Operation *parent = op->getParentOp();
    if (auto function = llvm::dyn_cast_or_null<mlir::func::FuncOp>(parent)) {
      auto it = callSites.find(parent);
      parent = it == callSites.end() || it->second.empty() ? nullptr
                                                           : it->second.front();
      if (parent && isTrainingLoop(parent))
        ++enclosing;
      op = parent;
      continue;
    }
    if (parent && isTrainingLoop(parent))
      ++enclosing;
    op = parent;
  }
  if (!isTrainingLoop(loop))
    return "loop iterations";
  static const char *const kNames[] = {"epochs", "batches per epoch",
                                       "steps per batch"};
  return enclosing < 3 ? kNames[enclosing] : "inner training iterations";
}

namespace {
/// Weights have two or more dimensions over 1; a bias (even an 8x1x1 one
/// broadcast over a convolution's output) has at most one.
bool isWeights(mlir::Type type) {
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  return shaped && shaped.hasRank() &&
         llvm::count_if(shaped.getShape(), [](int64_t d) { return d != 1; }) >=
             2;
}
} // namespace

int ValueFlow::layerOf(mlir::Operation *loop, unsigned position) const {
  int layer = 0;
  for (unsigned p : parametersOf(loop))
    if (p <= position && isWeights(loop->getResult(p).getType()))
      ++layer;
  return std::max(layer, 1);
}

std::string ValueFlow::parameterName(mlir::Operation *loop,
                                     unsigned position) const {
  mlir::Type type = loop->getResult(position).getType();
  return "layer " + std::to_string(layerOf(loop, position)) +
         (isOptimizerState(loop, position)    ? " optimiser state"
          : isWeights(type)                   ? " weights"
          : llvm::isa<mlir::ShapedType>(type) ? " bias"
                                              : " state");
}

namespace {
/// A while loop's trip count: `counter < bound` (or <=, !=) before each
/// iteration, the counter stepped by a constant at its end.
std::optional<int64_t> whileTripCount(mlir::scf::WhileOp loop) {
  mlir::scf::ConditionOp condition = loop.getConditionOp();
  auto compare = condition.getCondition().getDefiningOp<mlir::arith::CmpIOp>();
  if (!compare)
    return std::nullopt;
  auto counter = llvm::dyn_cast<mlir::BlockArgument>(compare.getLhs());
  if (!counter || counter.getOwner() != &loop.getBefore().front())
    return std::nullopt;
  unsigned k = counter.getArgNumber();
  std::optional<double> start = foldScalar(loop.getInits()[k]),
                        bound = foldScalar(compare.getRhs());
  // The counter as the body sees it, and what the body yields for it.
  std::optional<double> step;
  for (auto [j, forwarded] : llvm::enumerate(condition.getArgs()))
    if (forwarded == counter)
      if (auto add = loop.getYieldOp()
                         ->getOperand(k)
                         .getDefiningOp<mlir::arith::AddIOp>())
        for (int side = 0; side < 2; ++side)
          if (add->getOperand(side) == loop.getAfterArguments()[j])
            step = foldScalar(add->getOperand(1 - side));
  if (!start || !bound || !step || *step <= 0)
    return std::nullopt;
  double span = *bound - *start;
  switch (compare.getPredicate()) {
  case mlir::arith::CmpIPredicate::slt:
  case mlir::arith::CmpIPredicate::ult:
  case mlir::arith::CmpIPredicate::ne:
    return span <= 0 ? 0 : static_cast<int64_t>(std::ceil(span / *step));
  case mlir::arith::CmpIPredicate::sle:
  case mlir::arith::CmpIPredicate::ule:
    return span < 0 ? 0 : static_cast<int64_t>(std::floor(span / *step)) + 1;
  default:
    return std::nullopt;
  }
}
} // namespace

std::optional<int64_t> tripCountOf(mlir::Operation *loop) {
  if (auto w = llvm::dyn_cast_or_null<mlir::scf::WhileOp>(loop))
    return whileTripCount(w);
  return foldTripCount(loop);
}

std::string describePath(const std::vector<mlir::Operation *> &path) {
  std::string text;
  for (mlir::Operation *op : path) {
    if (!text.empty())
      text += " -> ";
    text += op->getName().getStringRef().str();
    if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op))
      text += " @" + call.getCallee().str();
  }
  return text;
}

} // namespace gevo
