//===- repair.cc - Type and shape repair for rewired values ---------------===//

#include "gevo/ir/repair.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

namespace gevo {
namespace {

bool isScalar(mlir::Type type) { return type.isIntOrIndexOrFloat(); }

bool isStaticTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && isScalar(tensor.getElementType());
}

std::string printType(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  return shape.empty() ? "scalar" : absl::StrJoin(shape, "x");
}

/// Converts a scalar or tensor between element types with arith casts.
mlir::Value castElements(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, mlir::Type toElement) {
  mlir::Type fromElement = mlir::getElementTypeOrSelf(value.getType());
  if (fromElement == toElement)
    return value;
  auto withElement = [&](mlir::Type element) -> mlir::Type {
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType()))
      return tensor.clone(element);
    return element;
  };
  // Index goes through i64 first.
  if (fromElement.isIndex()) {
    value = mlir::arith::IndexCastOp::create(
        b, loc, withElement(b.getI64Type()), value);
    fromElement = b.getI64Type();
    if (fromElement == toElement)
      return value;
  }
  mlir::Type target = toElement.isIndex() ? b.getI64Type() : toElement;
  mlir::Type type = withElement(target);
  if (llvm::isa<mlir::FloatType>(fromElement) &&
      llvm::isa<mlir::FloatType>(target)) {
    if (fromElement.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
      value = mlir::arith::ExtFOp::create(b, loc, type, value);
    else
      value = mlir::arith::TruncFOp::create(b, loc, type, value);
  } else if (llvm::isa<mlir::FloatType>(fromElement)) {
    value = mlir::arith::FPToSIOp::create(b, loc, type, value);
  } else if (llvm::isa<mlir::FloatType>(target)) {
    value = mlir::arith::SIToFPOp::create(b, loc, type, value);
  } else if (fromElement.getIntOrFloatBitWidth() <
             target.getIntOrFloatBitWidth()) {
    value = mlir::arith::ExtSIOp::create(b, loc, type, value);
  } else if (fromElement.getIntOrFloatBitWidth() >
             target.getIntOrFloatBitWidth()) {
    value = mlir::arith::TruncIOp::create(b, loc, type, value);
  }
  if (toElement.isIndex())
    value =
        mlir::arith::IndexCastOp::create(b, loc, withElement(toElement), value);
  return value;
}

/// Walks the plan for tensor -> tensor; with a builder it also builds it.
std::string tensorPlan(mlir::RankedTensorType from, mlir::RankedTensorType to,
                       mlir::OpBuilder *b, mlir::Location loc,
                       mlir::Value *value) {
  std::vector<std::string> steps;
  if (from.getElementType() != to.getElementType()) {
    steps.push_back(absl::StrCat("cast(", printType(to.getElementType()), ")"));
    if (b)
      *value = castElements(*b, loc, *value, to.getElementType());
  }
  llvm::SmallVector<int64_t> shape(from.getShape());
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t toRank = to.getRank();
  mlir::Type element = to.getElementType();
  if (rank > toRank) {
    // Keep the trailing dims; take index 0 of the leading ones.
    int64_t drop = rank - toRank;
    llvm::SmallVector<int64_t> kept(shape.begin() + drop, shape.end());
    steps.push_back(absl::StrCat("drop(", drop, ")"));
    if (b) {
      llvm::SmallVector<int64_t> sizes(drop, 1);
      sizes.append(kept.begin(), kept.end());
      llvm::SmallVector<mlir::OpFoldResult> offsets(rank, b->getIndexAttr(0)),
          strides(rank, b->getIndexAttr(1)), sizeAttrs;
      for (int64_t size : sizes)
        sizeAttrs.push_back(b->getIndexAttr(size));
      auto type = mlir::RankedTensorType::get(kept, element);
      *value = mlir::tensor::ExtractSliceOp::create(
          *b, loc, type, *value, offsets, sizeAttrs, strides);
    }
    shape = kept;
    rank = toRank;
  }
  // Match the trailing dims: crop what is too large, then pad what is small.
  llvm::ArrayRef<int64_t> trailing = to.getShape().take_back(rank);
  llvm::SmallVector<int64_t> cropped(shape);
  bool crop = false, pad = false;
  for (int64_t i = 0; i < rank; ++i) {
    if (shape[i] > trailing[i]) {
      cropped[i] = trailing[i];
      crop = true;
    }
    if (shape[i] < trailing[i])
      pad = true;
  }
  if (crop) {
    steps.push_back(absl::StrCat("crop(", shapeText(cropped), ")"));
    if (b) {
      llvm::SmallVector<mlir::OpFoldResult> offsets(rank, b->getIndexAttr(0)),
          strides(rank, b->getIndexAttr(1)), sizes;
      for (int64_t size : cropped)
        sizes.push_back(b->getIndexAttr(size));
      *value = mlir::tensor::ExtractSliceOp::create(
          *b, loc, mlir::RankedTensorType::get(cropped, element), *value,
          offsets, sizes, strides);
    }
  }
  if (pad) {
    steps.push_back(absl::StrCat("pad(", shapeText(trailing), ")"));
    if (b) {
      llvm::SmallVector<mlir::OpFoldResult> low(rank, b->getIndexAttr(0)), high;
      for (int64_t i = 0; i < rank; ++i)
        high.push_back(b->getIndexAttr(trailing[i] - cropped[i]));
      mlir::Value zero = buildConstant(*b, loc, element, "0");
      *value = mlir::tensor::PadOp::create(
          *b, loc, mlir::RankedTensorType::get(trailing, element), *value, low,
          high, zero);
    }
  }
  if (rank < toRank) {
    steps.push_back(absl::StrCat("bcast(", shapeText(to.getShape()), ")"));
    if (b) {
      mlir::Value init =
          mlir::tensor::EmptyOp::create(*b, loc, to.getShape(), element);
      llvm::SmallVector<int64_t> dims;
      for (int64_t i = 0; i < toRank - rank; ++i)
        dims.push_back(i);
      *value = mlir::linalg::BroadcastOp::create(*b, loc, *value, init, dims)
                   ->getResult(0);
    }
  }
  return absl::StrJoin(steps, ",");
}

} // namespace

bool canHoldConstant(mlir::Type type) {
  return isScalar(type) || isStaticTensor(type);
}

std::optional<std::string> planRepair(mlir::Type from, mlir::Type to) {
  if (from == to)
    return std::string();
  if (isScalar(from) && isScalar(to))
    return absl::StrCat("cast(", printType(to), ")");
  if (isStaticTensor(from) && isStaticTensor(to))
    return tensorPlan(llvm::cast<mlir::RankedTensorType>(from),
                      llvm::cast<mlir::RankedTensorType>(to), nullptr,
                      mlir::UnknownLoc::get(from.getContext()), nullptr);
  if (isScalar(from) && isStaticTensor(to)) {
    mlir::Type element = mlir::getElementTypeOrSelf(to);
    return absl::StrCat(
        from == element ? "" : absl::StrCat("cast(", printType(element), "),"),
        "splat");
  }
  if (isStaticTensor(from) && isScalar(to)) {
    auto tensor = llvm::cast<mlir::RankedTensorType>(from);
    if (tensor.getNumElements() == 0)
      return std::nullopt;
    return absl::StrCat("extract",
                        tensor.getElementType() == to
                            ? ""
                            : absl::StrCat(",cast(", printType(to), ")"));
  }
  return std::nullopt;
}

mlir::Value buildRepair(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value from, mlir::Type to) {
  mlir::Type type = from.getType();
  if (type == to)
    return from;
  if (isScalar(type) && isScalar(to))
    return castElements(builder, loc, from, to);
  if (isStaticTensor(type) && isStaticTensor(to)) {
    mlir::Value value = from;
    tensorPlan(llvm::cast<mlir::RankedTensorType>(type),
               llvm::cast<mlir::RankedTensorType>(to), &builder, loc, &value);
    return value;
  }
  if (isScalar(type) && isStaticTensor(to)) {
    mlir::Value scalar =
        castElements(builder, loc, from, mlir::getElementTypeOrSelf(to));
    return mlir::tensor::SplatOp::create(builder, loc, to, scalar);
  }
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  mlir::Value zero = mlir::arith::ConstantIndexOp::create(builder, loc, 0);
  llvm::SmallVector<mlir::Value> indices(tensor.getRank(), zero);
  mlir::Value element =
      mlir::tensor::ExtractOp::create(builder, loc, from, indices);
  return castElements(builder, loc, element, to);
}

std::optional<std::string> literalProblem(mlir::Type element,
                                          const std::string &literal) {
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element)) {
    double number;
    if (!absl::SimpleAtod(literal, &number))
      return absl::StrCat("'", literal, "' is not a number");
    if (std::isnan(number) || std::isinf(number))
      return absl::StrCat("'", literal, "' is not a finite number");
    llvm::APFloat value(number);
    bool lost = false;
    value.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
    if (value.isInfinity())
      return absl::StrCat("'", literal, "' does not fit in ",
                          printType(element));
    return std::nullopt;
  }
  if (!element.isIntOrIndex())
    return absl::StrCat(printType(element), " cannot hold a constant");
  int64_t number;
  bool digitsOnly =
      !literal.empty() &&
      literal.find_first_not_of("0123456789", literal[0] == '-' ? 1 : 0) ==
          std::string::npos &&
      literal != "-";
  if (!digitsOnly || !absl::SimpleAtoi(literal, &number))
    return absl::StrCat("'", literal, "' is not an integer that fits in ",
                        printType(element));
  unsigned width = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  if (width < 64) {
    // Signless integers: accept the signed or the unsigned range.
    int64_t low = width == 1 ? 0 : -(int64_t(1) << (width - 1));
    int64_t high = (int64_t(1) << width) - 1;
    if (number < low || number > high)
      return absl::StrCat("'", literal, "' does not fit in ",
                          printType(element));
  }
  return std::nullopt;
}

mlir::TypedAttr constantAttr(mlir::Type to, const std::string &literal) {
  mlir::Builder builder(to.getContext());
  mlir::Type element = mlir::getElementTypeOrSelf(to);
  if (literalProblem(element, literal))
    return nullptr;
  mlir::TypedAttr scalar;
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element)) {
    double number = 0;
    (void)absl::SimpleAtod(literal, &number); // checked above
    scalar = builder.getFloatAttr(floatType, number);
  } else {
    int64_t number = 0;
    (void)absl::SimpleAtoi(literal, &number); // checked above
    scalar = builder.getIntegerAttr(element, number);
  }
  if (isScalar(to))
    return scalar;
  if (!isStaticTensor(to))
    return nullptr;
  return mlir::DenseElementsAttr::get(llvm::cast<mlir::ShapedType>(to),
                                      mlir::Attribute(scalar));
}

mlir::Value buildConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Type to, const std::string &literal) {
  mlir::TypedAttr attr = constantAttr(to, literal);
  if (!attr)
    return nullptr;
  return mlir::arith::ConstantOp::create(builder, loc, attr);
}

} // namespace gevo
