//===- element_bounds.cc - Float values and tensor elements, bounded ------===//

#include "gevo/ir/element_bounds.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace gevo {
namespace {

constexpr int kMaxDepth = 16;

std::optional<FloatBounds> join(std::optional<FloatBounds> a,
                                std::optional<FloatBounds> b, bool maximum) {
  if (!a || !b)
    return std::nullopt;
  if (maximum)
    return FloatBounds{std::max(a->min, b->min), std::max(a->max, b->max)};
  return FloatBounds{std::min(a->min, b->min), std::min(a->max, b->max)};
}

std::optional<FloatBounds> ofFloat(const llvm::APFloat &value) {
  if (!value.isFinite())
    return std::nullopt;
  double exact = value.convertToDouble();
  if (&value.getSemantics() != &llvm::APFloat::IEEEdouble()) {
    bool lost = false;
    llvm::APFloat wide = value;
    wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmTowardZero,
                 &lost);
    exact = wide.convertToDouble();
  }
  return FloatBounds{exact, exact};
}

/// The least and greatest element of a dense float constant.
std::optional<FloatBounds> ofConstant(mlir::Attribute attr) {
  auto dense = llvm::dyn_cast_if_present<mlir::DenseFPElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  if (dense.isSplat())
    return ofFloat(dense.getSplatValue<llvm::APFloat>());
  std::optional<FloatBounds> all;
  for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>()) {
    std::optional<FloatBounds> one = ofFloat(element);
    if (!one)
      return std::nullopt;
    all = all ? FloatBounds{std::min(all->min, one->min),
                            std::max(all->max, one->max)}
              : one;
  }
  return all;
}

std::optional<FloatBounds> elementsOf(mlir::Value tensor, int depth);

std::optional<FloatBounds> floatOf(mlir::Value value, int depth) {
  if (!value || depth > kMaxDepth ||
      !llvm::isa<mlir::FloatType>(value.getType()))
    return std::nullopt;
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    // A linalg op's input element: some element of that input.
    auto linalgOp = llvm::dyn_cast_if_present<mlir::linalg::LinalgOp>(
        arg.getOwner()->getParentOp());
    if (!linalgOp || arg.getArgNumber() >= linalgOp.getNumDpsInputs())
      return std::nullopt;
    mlir::Value input = linalgOp.getDpsInputOperand(arg.getArgNumber())->get();
    return llvm::isa<mlir::ShapedType>(input.getType())
               ? elementsOf(input, depth + 1)
               : floatOf(input, depth + 1);
  }
  mlir::Operation *def = value.getDefiningOp();
  if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(def)) {
    auto attr = llvm::dyn_cast<mlir::FloatAttr>(constant.getValue());
    return attr ? ofFloat(attr.getValue()) : std::nullopt;
  }
  if (auto extract = llvm::dyn_cast<mlir::tensor::ExtractOp>(def))
    return elementsOf(extract.getTensor(), depth + 1);
  if (llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp,
                mlir::arith::MinimumFOp, mlir::arith::MinNumFOp>(def))
    return join(
        floatOf(def->getOperand(0), depth + 1),
        floatOf(def->getOperand(1), depth + 1),
        llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp>(def));
  return std::nullopt;
}

std::optional<FloatBounds> elementsOf(mlir::Value tensor, int depth) {
  if (!tensor || depth > kMaxDepth || llvm::isa<mlir::BlockArgument>(tensor))
    return std::nullopt;
  mlir::Operation *def = tensor.getDefiningOp();
  if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(def))
    return ofConstant(constant.getValue());
  if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(def))
    return floatOf(fill.value(), depth + 1);
  if (auto splat = llvm::dyn_cast<mlir::tensor::SplatOp>(def))
    return floatOf(splat.getInput(), depth + 1);
  // A view holds some of its source's elements.
  if (llvm::isa<mlir::tensor::ExtractSliceOp, mlir::tensor::CastOp,
                mlir::tensor::CollapseShapeOp, mlir::tensor::ExpandShapeOp,
                mlir::tensor::ReshapeOp>(def))
    return elementsOf(def->getOperand(0), depth + 1);
  return std::nullopt;
}

/// The run-time data behind tensor `tensor` (through views), in words;
/// empty when the IR fixes its elements or they come from `next`'s values.
std::string tensorSource(mlir::Value tensor, std::vector<mlir::Value> &next) {
  for (int step = 0; step < kMaxDepth && tensor; ++step) {
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(tensor)) {
      auto function = llvm::dyn_cast_if_present<mlir::FunctionOpInterface>(
          arg.getOwner()->getParentOp());
      if (!function)
        return "data the program computes (a loop-carried tensor)";
      return absl::StrCat("the caller's argument ", arg.getArgNumber(), " of @",
                          function.getName().str());
    }
    mlir::Operation *def = tensor.getDefiningOp();
    if (llvm::isa<mlir::tensor::ExtractSliceOp, mlir::tensor::CastOp,
                  mlir::tensor::CollapseShapeOp, mlir::tensor::ExpandShapeOp,
                  mlir::tensor::ReshapeOp, mlir::memref::SubViewOp,
                  mlir::memref::CastOp>(def)) {
      tensor = def->getOperand(0);
      continue;
    }
    if (llvm::isa<mlir::tensor::EmptyOp, mlir::memref::AllocOp>(def))
      return absl::StrCat("a ", def->getName().getStringRef().str(),
                          " nothing wrote (uninitialized)");
    if (llvm::isa<mlir::arith::ConstantOp>(def))
      return "";
    if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(def)) {
      next.push_back(fill.value());
      return "";
    }
    if (auto splat = llvm::dyn_cast<mlir::tensor::SplatOp>(def)) {
      next.push_back(splat.getInput());
      return "";
    }
    return absl::StrCat("data the program computes (",
                        def->getName().getStringRef().str(), ")");
  }
  return "data the program computes";
}

} // namespace

std::optional<FloatBounds> floatBounds(mlir::Value value) {
  return floatOf(value, 0);
}

std::optional<FloatBounds> elementBounds(mlir::Value tensor) {
  return elementsOf(tensor, 0);
}

std::string runtimeDataSource(mlir::Value start) {
  std::vector<mlir::Value> work = {start};
  llvm::SmallPtrSet<void *, 32> seen;
  while (!work.empty() && seen.size() < 1024) {
    mlir::Value value = work.back();
    work.pop_back();
    if (!value || !seen.insert(value.getAsOpaquePointer()).second)
      continue;
    if (llvm::isa<mlir::ShapedType>(value.getType())) {
      if (std::string source = tensorSource(value, work); !source.empty())
        return source;
      continue;
    }
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
      mlir::Operation *owner = arg.getOwner()->getParentOp();
      if (auto function =
              llvm::dyn_cast_if_present<mlir::FunctionOpInterface>(owner))
        return absl::StrCat("the caller's scalar argument ", arg.getArgNumber(),
                            " of @", function.getName().str());
      if (auto linalgOp =
              llvm::dyn_cast_if_present<mlir::linalg::LinalgOp>(owner)) {
        if (arg.getArgNumber() < linalgOp->getNumOperands())
          work.push_back(linalgOp->getOperand(arg.getArgNumber()));
      } else if (auto loop =
                     llvm::dyn_cast_if_present<mlir::scf::ForOp>(owner)) {
        if (arg == loop.getInductionVar()) {
          work.insert(work.end(), {loop.getLowerBound(), loop.getUpperBound(),
                                   loop.getStep()});
        } else {
          work.push_back(loop.getTiedLoopInit(arg)->get());
          work.push_back(loop.getTiedLoopYieldedValue(arg)->get());
        }
      } else if (owner) {
        work.insert(work.end(), owner->operand_begin(), owner->operand_end());
      }
      continue;
    }
    mlir::Operation *def = value.getDefiningOp();
    if (llvm::isa<mlir::linalg::IndexOp, mlir::tensor::DimOp,
                  mlir::memref::DimOp>(def))
      continue; // bounded by shapes
    work.insert(work.end(), def->operand_begin(), def->operand_end());
  }
  return "";
}

} // namespace gevo
