//===- numeric_types.h - Which types repairs and constants handle ---------===//
//
// Repairs (repair.h) and constants from patch literals (constant_literal.h)
// handle numeric scalars and static tensors of them; these say which types
// those are, and how a type reads in a message or a patch.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_NUMERIC_TYPES_H
#define GEVO_IR_NUMERIC_TYPES_H

#include <string>

#include "mlir/IR/Types.h"

namespace gevo {

/// An integer, index or float type.
bool isNumericScalar(mlir::Type type);

/// A ranked tensor of static shape whose elements are numeric scalars.
bool isStaticNumericTensor(mlir::Type type);

/// `type` as MLIR prints it ("f32", "tensor<4x6xf32>").
std::string typeText(mlir::Type type);

} // namespace gevo

#endif // GEVO_IR_NUMERIC_TYPES_H
