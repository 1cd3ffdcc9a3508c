//===- constant_literal.cc - Scalar literals as exact MLIR constants ------===//

#include "gevo/ir/constant_literal.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/numeric_types.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

namespace gevo {

bool canHoldConstant(mlir::Type type) {
  return isNumericScalar(type) || isStaticNumericTensor(type);
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
                          typeText(element));
    // A non-zero literal that reads as zero (in double, or once rounded to
    // the type) would silently become another constant.
    bool nonZeroDigit = false;
    for (char c : literal) {
      if (c == 'e' || c == 'E')
        break;
      nonZeroDigit = nonZeroDigit || (c >= '1' && c <= '9');
    }
    if (nonZeroDigit && value.isZero())
      return absl::StrCat("'", literal, "' underflows to zero in ",
                          typeText(element));
    return std::nullopt;
  }
  if (!element.isIntOrIndex())
    return absl::StrCat(typeText(element), " cannot hold a constant");
  int64_t number;
  bool digitsOnly =
      !literal.empty() &&
      literal.find_first_not_of("0123456789", literal[0] == '-' ? 1 : 0) ==
          std::string::npos &&
      literal != "-";
  if (!digitsOnly || !absl::SimpleAtoi(literal, &number))
    return absl::StrCat("'", literal, "' is not an integer that fits in ",
                        typeText(element));
  unsigned width = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  if (width < 64) {
    // The range the type prints back: signed for signless and signed
    // integers (i32 2147483648 would read back as -2147483648), unsigned for
    // i1 and unsigned ones.
    bool isUnsigned = width == 1 || element.isUnsignedInteger();
    int64_t low = isUnsigned ? 0 : -(int64_t(1) << (width - 1));
    int64_t high = isUnsigned ? (int64_t(1) << width) - 1
                              : (int64_t(1) << (width - 1)) - 1;
    if (number < low || number > high)
      return absl::StrCat("'", literal, "' does not fit in ",
                          typeText(element));
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
  if (isNumericScalar(to))
    return scalar;
  if (!isStaticNumericTensor(to))
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
