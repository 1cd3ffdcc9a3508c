//===- training_graph_ops.h - Reading forward ops with MLIR ---------------===//
//
// Helpers of the forward module's reader (training_graph.cc) and the reading
// of its windowed ops (pad, convolution, pools). Internal; includes MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_GRAPH_OPS_H
#define GEVO_FRONTEND_TRAINING_GRAPH_OPS_H

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gevo/frontend/training_graph.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo::training {

/// "linalg.matmul (/body/Gemm)" or "linalg.matmul at file:line:col".
std::string describe(mlir::Operation *op);
/// The value of a scalar float arith.constant.
std::optional<double> scalarConstant(mlir::Value value);
/// "op without a gradient rule: <op> (why)".
absl::Status unsupportedOp(mlir::Operation *op, const std::string &why = "");
/// Fills `node` for tensor.pad, linalg.conv_2d_nchw_fchw and the NCHW max and
/// sum pools; leaves it an Input for any other op.
absl::Status readWindowOp(mlir::Operation *op, Node &node);

/// Reads an elementwise linalg.generic's body into node.body and node.yield
/// (scalar ops with a rule in training_rules_generic.cc).
absl::Status readBody(mlir::Operation *generic, Node &node);

template <typename T> std::string printed(T thing) {
  std::string text;
  llvm::raw_string_ostream os(text);
  thing.print(os);
  return text;
}

} // namespace gevo::training

#endif // GEVO_FRONTEND_TRAINING_GRAPH_OPS_H
