//===- static_cost.cc - A deterministic estimate of the work a module does ===//

#include "gevo/eval/static_cost.h"

#include <algorithm>
#include <set>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace gevo {
namespace {

class CostModel {
public:
  explicit CostModel(mlir::ModuleOp module) : module(module) {}

  double ofFunction(mlir::func::FuncOp function) {
    if (!function || function.isExternal() ||
        !active.insert(function.getOperation()).second)
      return 0; // external, or recursion: count the call only
    double cost = ofRegion(function.getBody());
    active.erase(function.getOperation());
    return cost;
  }

private:
  double ofRegion(mlir::Region &region) {
    double cost = 0;
    for (mlir::Block &block : region)
      for (mlir::Operation &op : block)
        cost += ofOp(&op);
    return cost;
  }

  static double tripCount(mlir::scf::ForOp loop) {
    llvm::APInt lower, upper, step;
    if (!mlir::matchPattern(loop.getLowerBound(),
                            mlir::m_ConstantInt(&lower)) ||
        !mlir::matchPattern(loop.getUpperBound(),
                            mlir::m_ConstantInt(&upper)) ||
        !mlir::matchPattern(loop.getStep(), mlir::m_ConstantInt(&step)))
      return 1;
    int64_t lo = lower.getSExtValue(), hi = upper.getSExtValue(),
            st = step.getSExtValue();
    if (st <= 0 || hi <= lo)
      return 0;
    return static_cast<double>((hi - lo + st - 1) / st);
  }

  static double elementsOf(mlir::Type type) {
    auto shaped = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!shaped || !shaped.hasStaticShape())
      return 1;
    return static_cast<double>(std::max<int64_t>(1, shaped.getNumElements()));
  }

  double ofOp(mlir::Operation *op) {
    if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op))
      return 1 + tripCount(loop) * ofRegion(loop.getRegion());
    if (auto branch = llvm::dyn_cast<mlir::scf::IfOp>(op))
      return 1 + std::max(ofRegion(branch.getThenRegion()),
                          ofRegion(branch.getElseRegion()));
    if (auto linalgOp = llvm::dyn_cast<mlir::linalg::LinalgOp>(op)) {
      double iterations = 1;
      for (int64_t range : linalgOp.getStaticLoopRanges())
        iterations *= mlir::ShapedType::isDynamic(range)
                          ? 1
                          : static_cast<double>(std::max<int64_t>(range, 0));
      double body = 0;
      if (op->getNumRegions() == 1 && !op->getRegion(0).empty())
        for (mlir::Operation &inner : op->getRegion(0).front())
          if (!inner.hasTrait<mlir::OpTrait::IsTerminator>())
            body += ofOp(&inner);
      return iterations * std::max(body, 1.0);
    }
    if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op))
      return 1 + ofFunction(
                     module.lookupSymbol<mlir::func::FuncOp>(call.getCallee()));
    if (op->hasTrait<mlir::OpTrait::ConstantLike>())
      return 1;
    double cost = 1;
    for (mlir::Type type : op->getResultTypes())
      cost = std::max(cost, elementsOf(type));
    for (mlir::Region &region : op->getRegions())
      cost += ofRegion(region); // scf.while and others: once
    return cost;
  }

  mlir::ModuleOp module;
  std::set<mlir::Operation *> active;
};

} // namespace

double estimateStaticCost(mlir::ModuleOp module, const std::string &entry) {
  CostModel model(module);
  return model.ofFunction(module.lookupSymbol<mlir::func::FuncOp>(entry));
}

} // namespace gevo
