//===- linalg_text.h - Write linalg-on-tensors ops as MLIR text -----------===//
//
// The few op shapes every ONNX op handler is built from: an empty or filled
// tensor, a linalg.generic over an iteration space (elementwise with numpy
// broadcasting, or with reductions), a reshape through collapse/expand, a
// transpose. Each writes into an ImportState and returns the result's name.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_LINALG_TEXT_H
#define GEVO_FRONTEND_LINALG_TEXT_H

#include <functional>
#include <string>
#include <vector>

#include "gevo/frontend/import_state.h"

namespace gevo {

/// "affine_map<(d0, d1) -> (d0, d1)>" from a rank and result expressions.
std::string affineMap(int rank, const std::vector<std::string> &results);
/// The identity map of `rank` dimensions.
std::string identityMap(int rank);
/// The map reading an operand of `operand` shape inside an iteration space
/// of `out` shape under numpy broadcasting (trailing dimensions aligned; a
/// dimension of size 1 reads index 0).
std::string broadcastMap(const Shape &operand, const Shape &out);
/// The numpy broadcast of two shapes; empty optional when they do not fit.
std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b);

/// `tensor.empty() : tensor<...>`.
std::string emitEmpty(ImportState &state, const Shape &shape);
/// A tensor of `shape` filled with `value`.
std::string emitFilled(ImportState &state, const Shape &shape, float value);

struct GenericOperand {
  std::string ssa;
  Shape shape;
  std::string map;
};
/// Writes the body of a linalg.generic: receives the block arguments' names
/// (the inputs', then the output's) and returns the name it yields.
using BodyWriter =
    std::function<std::string(ImportState &, const std::vector<std::string> &)>;
/// A linalg.generic with `iterators` ("parallel"/"reduction") writing into
/// `output` (its ssa is the init tensor).
std::string emitGeneric(ImportState &state,
                        const std::vector<GenericOperand> &inputs,
                        const GenericOperand &output,
                        const std::vector<std::string> &iterators,
                        const BodyWriter &body);
/// Elementwise over `outShape` with every input broadcast into it.
std::string emitElementwise(ImportState &state,
                            const std::vector<GenericOperand> &inputs,
                            const Shape &outShape, const BodyWriter &body);

/// One scalar op in a body: "%n = <op> <operands> : f32", returning %n.
std::string scalar(ImportState &state, const std::string &op,
                   const std::string &operands,
                   const std::string &type = "f32");
/// A scalar f32 constant in a body.
std::string scalarConstant(ImportState &state, float value);

/// `value` of shape `from` viewed as `to` (same element count).
std::string emitReshape(ImportState &state, const std::string &value,
                        const Shape &from, const Shape &to);
/// `value` padded by `low`/`high` elements per dimension with `fill`.
std::string emitPad(ImportState &state, const std::string &value,
                    const Shape &shape, const std::vector<int64_t> &low,
                    const std::vector<int64_t> &high, float fill);
/// linalg.transpose of `value` by `permutation`.
std::string emitTranspose(ImportState &state, const std::string &value,
                          const Shape &shape,
                          const std::vector<int64_t> &permutation);

} // namespace gevo

#endif // GEVO_FRONTEND_LINALG_TEXT_H
