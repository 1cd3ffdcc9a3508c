//===- constant_literal.h - Scalar literals as exact MLIR constants -------===//
//
// A patch writes constants as scalar literals ("0.5", "-3"); these turn one
// into a constant of an operand's type (a scalar, or a splat tensor), and
// refuse a literal the type cannot hold exactly: nothing is rounded or
// wrapped silently.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_CONSTANT_LITERAL_H
#define GEVO_IR_CONSTANT_LITERAL_H

#include <optional>
#include <string>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Value.h"

namespace gevo {

/// A constant of type `to` (scalar, or a splat tensor) holding `literal`;
/// nullptr when the type cannot hold a constant.
mlir::Value buildConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Type to, const std::string &literal);

/// Why `literal` cannot be a constant of element type `element` exactly (not
/// a number, not finite, not an integer, out of range); nullopt when it can.
/// Nothing is rounded or wrapped silently.
std::optional<std::string> literalProblem(mlir::Type element,
                                          const std::string &literal);

/// The attribute buildConstant would use; null when the type cannot hold one
/// or the literal has a problem (literalProblem).
mlir::TypedAttr constantAttr(mlir::Type to, const std::string &literal);

/// Whether buildConstant supports `type`: an integer, index or float scalar,
/// or a static tensor of one.
bool canHoldConstant(mlir::Type type);

} // namespace gevo

#endif // GEVO_IR_CONSTANT_LITERAL_H
