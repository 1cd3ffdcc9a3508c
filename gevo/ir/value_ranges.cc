//===- value_ranges.cc - Signed ranges of a module's integer values -------===//

#include "gevo/ir/value_ranges.h"

#include <cmath>

#include <optional>
#include <vector>

#include "gevo/ir/element_bounds.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace gevo {
namespace {

using mlir::dataflow::IntegerValueRangeLattice;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t saturate(__int128 value) {
  return value > kMax ? kMax : value < kMin ? kMin : int64_t(value);
}

mlir::IntegerValueRange signedRange(int64_t min, int64_t max, unsigned width) {
  return mlir::IntegerValueRange(mlir::ConstantIntRanges::fromSigned(
      llvm::APInt(width, min, /*isSigned=*/true),
      llvm::APInt(width, max, /*isSigned=*/true)));
}

IntRange rangeOf(const IntegerValueRangeLattice *lattice) {
  if (!lattice || lattice->getValue().isUninitialized())
    return {};
  const mlir::ConstantIntRanges &range = lattice->getValue().getValue();
  if (range.smin().getBitWidth() > 64)
    return {};
  return {range.smin().getSExtValue(), range.smax().getSExtValue()};
}

/// The range of arith.fptosi `op` when its float operand is bounded by the
/// IR (element_bounds.h) and every value it may take converts (fptosi of a
/// value out of the integer's range is poison: then none).
std::optional<mlir::IntegerValueRange> convertedRange(mlir::Operation *op) {
  auto convert = llvm::dyn_cast<mlir::arith::FPToSIOp>(op);
  if (!convert)
    return std::nullopt;
  unsigned width = convert.getType().getIntOrFloatBitWidth();
  std::optional<FloatBounds> bounds = floatBounds(convert.getIn());
  if (!bounds || width > 64)
    return std::nullopt;
  double lowest = std::trunc(bounds->min), highest = std::trunc(bounds->max);
  double limit = std::ldexp(1.0, int(width) - 1);
  if (lowest < -limit || highest >= limit)
    return std::nullopt;
  return signedRange(int64_t(lowest), int64_t(highest), width);
}

/// MLIR's integer range analysis, told three more facts: a linalg.index lies
/// within its loop's static range, an scf.for's induction variable within
/// [lower, upper - 1] whatever its step (the step is checked apart; MLIR's
/// own rule divides by it), and arith.fptosi of a float the IR fixes (an
/// element of a constant or a fill) within that float's range.
class BoundedRangeAnalysis : public mlir::dataflow::IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;

  mlir::LogicalResult
  visitOperation(mlir::Operation *op,
                 llvm::ArrayRef<const IntegerValueRangeLattice *> operands,
                 llvm::ArrayRef<IntegerValueRangeLattice *> results) override {
    if (auto index = llvm::dyn_cast<mlir::linalg::IndexOp>(op)) {
      auto linalgOp = llvm::dyn_cast<mlir::linalg::LinalgOp>(op->getParentOp());
      if (linalgOp) {
        llvm::SmallVector<int64_t> loops = linalgOp.getStaticLoopRanges();
        if (index.getDim() < loops.size() &&
            !mlir::ShapedType::isDynamic(loops[index.getDim()]) &&
            loops[index.getDim()] > 0) {
          propagateIfChanged(
              results[0],
              results[0]->join(signedRange(0, loops[index.getDim()] - 1, 64)));
          return mlir::success();
        }
      }
    }
    if (std::optional<mlir::IntegerValueRange> range = convertedRange(op)) {
      propagateIfChanged(results[0], results[0]->join(*range));
      return mlir::success();
    }
    if (!llvm::isa<mlir::InferIntRangeInterface>(op))
      return visitFolded(op, results);
    return IntegerRangeAnalysis::visitOperation(op, operands, results);
  }

  /// An op range inference knows nothing of (arith.fptosi of a constant)
  /// may still fold to a constant: constant propagation says which. Results
  /// that are not integers are left alone (MLIR's own rule would mark their
  /// constants unknown, and every constant computed from them with them).
  mlir::LogicalResult
  visitFolded(mlir::Operation *op,
              llvm::ArrayRef<IntegerValueRangeLattice *> results) {
    using Constant = mlir::dataflow::Lattice<mlir::dataflow::ConstantValue>;
    for (auto [result, lattice] : llvm::zip(op->getResults(), results)) {
      if (!result.getType().isIntOrIndex())
        continue;
      const Constant *folded =
          getOrCreateFor<Constant>(getProgramPointAfter(op), result);
      if (folded->getValue().isUninitialized())
        continue; // visited again once it is known
      auto value = llvm::dyn_cast_if_present<mlir::IntegerAttr>(
          folded->getValue().getConstantValue());
      if (value)
        propagateIfChanged(
            lattice, lattice->join(mlir::IntegerValueRange(
                         mlir::ConstantIntRanges::constant(value.getValue()))));
      else
        setToEntryState(lattice);
    }
    return mlir::success();
  }

  void visitNonControlFlowArguments(
      mlir::Operation *op, const mlir::RegionSuccessor &successor,
      llvm::ArrayRef<IntegerValueRangeLattice *> argLattices,
      unsigned firstIndex) override {
    auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op);
    if (!loop || successor.getSuccessor() != &loop.getRegion()) {
      IntegerRangeAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
      return;
    }
    // The body's entry is visited again when a bound changes.
    mlir::ProgramPoint *point =
        getProgramPointBefore(&loop.getRegion().front());
    const IntegerValueRangeLattice *lower =
        getLatticeElementFor(point, loop.getLowerBound());
    const IntegerValueRangeLattice *upper =
        getLatticeElementFor(point, loop.getUpperBound());
    if (lower->getValue().isUninitialized() ||
        upper->getValue().isUninitialized())
      return; // visited again once they are known
    unsigned width = mlir::ConstantIntRanges::getStorageBitwidth(
        loop.getInductionVar().getType());
    IntRange lo = rangeOf(lower), up = rangeOf(upper);
    mlir::IntegerValueRange range =
        mlir::IntegerValueRange::getMaxRange(loop.getInductionVar());
    if (!loop.getUnsignedCmp() && lo.min < up.max && width == 64)
      range = signedRange(lo.min, up.max - 1, width);
    propagateIfChanged(argLattices[0], argLattices[0]->join(range));
  }
};

} // namespace

ValueRanges::ValueRanges(mlir::ModuleOp module)
    : solver(std::make_unique<mlir::DataFlowSolver>()) {
  solver->load<mlir::dataflow::DeadCodeAnalysis>();
  solver->load<mlir::dataflow::SparseConstantPropagation>();
  solver->load<BoundedRangeAnalysis>();
  solved = mlir::succeeded(solver->initializeAndRun(module));
}

ValueRanges::~ValueRanges() = default;

IntRange ValueRanges::of(mlir::Value value) const {
  if (!solved)
    return {};
  return rangeOf(solver->lookupState<IntegerValueRangeLattice>(value));
}

IntRange ValueRanges::of(mlir::OpFoldResult value) const {
  if (auto attr = llvm::dyn_cast_if_present<mlir::Attribute>(value)) {
    if (auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attr))
      if (integer.getValue().getBitWidth() <= 64)
        return IntRange::exactly(integer.getValue().getSExtValue());
    return {};
  }
  return of(llvm::cast<mlir::Value>(value));
}

int64_t maxTripCount(const IntRange &lower, const IntRange &upper,
                     const IntRange &step) {
  if (upper.max <= lower.min)
    return 0;
  __int128 span = __int128(upper.max) - lower.min;
  if (step.min < 1)
    return kMax;
  return saturate((span + step.min - 1) / step.min);
}

bool ValueRanges::mayRun(mlir::Operation *op) const {
  if (!solved)
    return true;
  for (mlir::Block *block = op->getBlock(); block;) {
    const auto *live = solver->lookupState<mlir::dataflow::Executable>(
        solver->getProgramPointBefore(block));
    if (!live || !live->isLive())
      return false;
    mlir::Operation *parent = block->getParentOp();
    if (!parent || llvm::isa<mlir::ModuleOp>(parent))
      break;
    if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(parent))
      if (!loop.getUnsignedCmp() &&
          maxTripCount(of(loop.getLowerBound()), of(loop.getUpperBound()),
                       IntRange::exactly(1)) == 0)
        return false;
    block = parent->getBlock();
  }
  return true;
}

bool ValueRanges::dependsOnDynamic(mlir::Value start, bool dataToo) const {
  std::vector<mlir::Value> work = {start};
  llvm::SmallPtrSet<void *, 32> seen;
  auto pushScalars = [&](mlir::Operation *op) {
    for (mlir::Value operand : op->getOperands())
      if (operand.getType().isIntOrIndex())
        work.push_back(operand);
  };
  while (!work.empty() && seen.size() < 1024) {
    mlir::Value value = work.back();
    work.pop_back();
    if (!seen.insert(value.getAsOpaquePointer()).second)
      continue;
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
      mlir::Operation *owner = arg.getOwner()->getParentOp();
      if (llvm::isa_and_present<mlir::FunctionOpInterface>(owner)) {
        if (arg.getType().isIntOrIndex())
          return true;
        continue;
      }
      if (llvm::isa_and_present<mlir::LoopLikeOpInterface>(owner))
        pushScalars(owner);
      continue;
    }
    mlir::Operation *def = value.getDefiningOp();
    if (llvm::isa<mlir::tensor::DimOp, mlir::memref::DimOp>(def)) {
      auto shaped =
          llvm::dyn_cast<mlir::ShapedType>(def->getOperand(0).getType());
      if (!shaped || !shaped.hasStaticShape())
        return true;
    } else if (dataToo &&
               (llvm::isa<mlir::tensor::ExtractOp, mlir::memref::LoadOp>(def) ||
                llvm::any_of(def->getOperandTypes(), [](mlir::Type type) {
                  return !type.isIntOrIndex();
                }))) {
      return true;
    }
    pushScalars(def);
  }
  return false;
}

} // namespace gevo
