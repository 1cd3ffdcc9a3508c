//===- training_graph.h - The forward model as the training generator sees it //
//
// A forward module (linalg on tensors) read into a list of nodes, one per op
// with a gradient rule, plus the text writer the generator's emitters share.
// Internal to gevo/frontend's training generator; no MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_GRAPH_H
#define GEVO_FRONTEND_TRAINING_GRAPH_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gevo::training {

using Dims = std::vector<int64_t>;

enum class NodeKind {
  Input,  // the entry's argument: [batch, features...]
  Param,  // a trained constant (weight or bias)
  Const,  // a constant kept as it is
  MatMul, // linalg.matmul
  Add,    // elementwise with broadcasting: a + b, a - b, a * b, a / b
  Sub,
  Mul,
  Div,
  Relu,      // max(x, 0)
  LeakyRelu, // x > 0 ? x : alpha * x
  Sigmoid,   // 1 / (1 + exp(-x))
  Tanh,
  Scale,       // x * c or x / c, c a scalar constant (alpha; divide)
  ReduceSum,   // a sum over dimensions (maps[0]: where the result is read)
  Elementwise, // any other elementwise body of supported scalar ops (body)
  Collapse,    // tensor.collapse_shape
  Expand,      // tensor.expand_shape
  Transpose,
  Pad,     // tensor.pad with a constant
  Conv,    // linalg.conv_2d_nchw_fchw (dilation 1)
  MaxPool, // linalg.pooling_nchw_max (windows that do not overlap)
  SumPool, // linalg.pooling_nchw_sum (likewise; an average pool divides it)
};

/// One scalar op of an elementwise body. `args` index the body's values: the
/// block's input arguments first, then each op's result in order.
struct ScalarOp {
  std::string name; // "arith.addf", "math.exp", "arith.constant", ...
  std::vector<int> args;
  std::string predicate; // arith.cmpf
  double value = 0;      // arith.constant
};

struct Node {
  NodeKind kind = NodeKind::Input;
  std::vector<int> operands;
  /// Add/Sub/Mul: each operand's indexing map, "affine_map<...>".
  std::vector<std::string> maps;
  /// ... and its results: a dimension of the iteration space, or -1 for 0.
  std::vector<std::vector<int>> mapResults;
  Dims shape;                 // at the forward module's batch
  bool batched = false;       // dimension 0 scales with the batch
  double alpha = 0;           // LeakyRelu, Scale
  bool divide = false;        // Scale
  std::vector<ScalarOp> body; // Elementwise
  int yield = -1;             // Elementwise: the value the body yields
  std::string reassociation;
  std::vector<int64_t> permutation;
  std::vector<int64_t> low, high; // Pad
  double padValue = 0;            // Pad
  std::vector<int64_t> strides;   // Conv, pools
  std::vector<int64_t> window;    // pools: the window's two sizes
  std::string literal; // Param/Const: the dense attribute as MLIR text
  std::string name;    // Param: W1, b1, ...; others: a readable base name
  std::string where;   // for messages: the op and its location
  int64_t fanIn = 1, fanOut = 1;
  bool needsGrad = false;
};

struct Graph {
  std::string elem = "f32";
  int64_t batch = 1; // the forward module's batch (its input's dimension 0)
  std::vector<Node> nodes;
  int input = -1;
  int output = -1;
  std::vector<int> params; // in the module's order
  /// The shape of node `n` when the batch is `batch`.
  Dims shapeAt(int n, int64_t batch) const;
};

/// Reads the forward module's public function (one tensor argument, one
/// tensor result). An op without a gradient rule is an error naming it.
absl::StatusOr<Graph> readForward(const std::string &text,
                                  const std::string &name);

/// "tensor<2x3xf32>".
std::string tensorType(const Dims &shape, const std::string &elem);
/// A float literal MLIR reads back as the same value ("0.01", "1.0").
std::string floatLiteral(double value);
/// "affine_map<(d0, d1) -> (d0, d1)>".
std::string identityMap(size_t rank);

/// "%t = <op> <operands> : <elem>" inside a body; returns %t.
class Writer;
std::string scalarOp(Writer &w, const std::string &op,
                     const std::string &operands);

/// The text being written: fresh SSA names, indented lines.
class Writer {
public:
  explicit Writer(std::string elem) : elem(std::move(elem)) {}
  /// "%base", or "%base_N" when taken.
  std::string fresh(const std::string &base);
  void line(const std::string &text);
  std::string type(const Dims &shape) const { return tensorType(shape, elem); }
  /// tensor.empty of `shape`.
  std::string empty(const Dims &shape);
  /// A tensor of `shape` filled with the scalar SSA value `value`.
  std::string filled(const Dims &shape, const std::string &value,
                     const std::string &base = "fill");

  std::string elem;
  std::string text;
  int indent = 2;
  /// Scalar constants defined at the function's top, by name (%zero, ...).
  std::map<std::string, std::string> scalars;

private:
  std::map<std::string, int> used;
};

/// One linalg.generic: `ins` with their maps, an output of `outShape` with
/// `outMap` written into `init`, `iterators`, and a body given the block
/// arguments' names that writes lines and returns the yielded name.
struct GenericInput {
  std::string value;
  Dims shape;
  std::string map;
};
std::string emitGeneric(
    Writer &w, const std::string &base, const std::vector<GenericInput> &ins,
    const std::string &init, const Dims &outShape, const std::string &outMap,
    const std::vector<std::string> &iterators,
    const std::function<std::string(Writer &, const std::vector<std::string> &)>
        &body);

} // namespace gevo::training

#endif // GEVO_FRONTEND_TRAINING_GRAPH_H
