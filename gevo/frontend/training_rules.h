//===- training_rules.h - Each node's forward op and gradient rule
//---------===//
//
// Writes a node of the forward graph at a given batch size, and its
// reverse-mode rule: from the gradient of its result, the gradients of its
// operands, as linalg ops on tensors. Internal to the training generator.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_RULES_H
#define GEVO_FRONTEND_TRAINING_RULES_H

#include <string>
#include <vector>

#include "gevo/frontend/training_graph.h"

namespace gevo::training {

/// SSA names of every node's value and of the gradient flowing into it (""
/// when none yet). Param and Const nodes are named before the pass.
struct Pass {
  std::vector<std::string> value;
  std::vector<std::string> grad;
  int64_t batch = 1;
};

/// Writes node `n` (not Input/Param/Const) and records its value.
void emitForward(Writer &w, const Graph &g, int n, Pass &pass);
/// An activation's (or scaling's) scalar body on `x`, and its gradient's on
/// a = {incoming gradient, the op's input (ReLUs) or result (the others)}
/// (training_rules_activation.cc).
std::string activation(Writer &w, const Node &node, const std::string &x);
std::string activationGrad(Writer &w, const Node &node,
                           const std::vector<std::string> &a);

/// A body writer: given the block arguments' names, writes lines and returns
/// the name it yields.
using Body =
    std::function<std::string(Writer &, const std::vector<std::string> &)>;
/// The gradient of an operand read through `results` (its map; -1 for a
/// constant 0) inside the iteration space `space`: `body(args)` summed over
/// every dimension the operand does not index, then shaped as
/// `operandShape`.
std::string reduceInto(Writer &w, const std::string &base,
                       const std::vector<GenericInput> &ins, const Dims &space,
                       const std::vector<int> &results,
                       const Dims &operandShape, const Body &body);

/// Any other elementwise body, op by op (training_rules_generic.cc).
void emitElementwiseForward(Writer &w, const Graph &g, int n, Pass &pass);
void emitElementwiseBackward(
    Writer &w, const Graph &g, int n, Pass &pass,
    const std::function<void(int, const std::string &)> &accumulate);

/// Pad, Conv and the pools (training_rules_conv.cc).
void emitWindowForward(Writer &w, const Graph &g, int n, Pass &pass);
void emitWindowBackward(
    Writer &w, const Graph &g, int n, Pass &pass,
    const std::function<void(int, const std::string &)> &accumulate);

/// Writes the forward pass over every node; returns the output's name.
std::string emitForwardPass(Writer &w, const Graph &g, Pass &pass);
/// Writes node `n`'s rule, adding to its operands' gradients.
void emitBackward(Writer &w, const Graph &g, int n, Pass &pass);
/// Every rule in reverse order, from pass.grad[g.output].
void emitBackwardPass(Writer &w, const Graph &g, Pass &pass);

} // namespace gevo::training

#endif // GEVO_FRONTEND_TRAINING_RULES_H
