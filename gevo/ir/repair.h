//===- repair.h - Type and shape repair for rewired values ----------------===//
//
// When an edit wires a value of one type into an operand of another, a short
// chain of conversion ops makes it fit: arith casts (element type), a
// rank-reducing tensor.extract_slice (drop leading dims), extract_slice
// (crop), tensor.pad with zeros (grow), linalg.broadcast (add leading dims),
// tensor.splat (scalar to tensor) and tensor.extract (tensor to scalar).
// The plan is a function of the two types alone, written as text
// ("cast(f32),crop(32x10)") and recorded in the edit, so replay checks it.
// This is how evolution expresses pruning (a layer fed a cropped tensor).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_REPAIR_H
#define GEVO_IR_REPAIR_H

#include <optional>
#include <string>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Value.h"

namespace gevo {

/// The repair steps from `from` to `to`: "" when equal, nullopt when no
/// repair exists (dynamic shapes, non-numeric types, ...).
std::optional<std::string> planRepair(mlir::Type from, mlir::Type to);

/// Builds the repair at the builder's insertion point and returns the
/// converted value; `from`'s type must have a plan.
mlir::Value buildRepair(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value from, mlir::Type to);

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

/// Whether buildConstant supports `type`.
bool canHoldConstant(mlir::Type type);

} // namespace gevo

#endif // GEVO_IR_REPAIR_H
