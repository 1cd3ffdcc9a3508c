//===- training_rules_activation.cc - Elementwise activations and rules ---===//
//
// The scalar bodies of ReLU, LeakyReLU, sigmoid, tanh and scaling by a
// constant, and of their gradients (from the op's input for the ReLUs, from
// its result for sigmoid and tanh).
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/frontend/training_rules.h"

namespace gevo::training {
namespace {

std::string pair(const std::string &a, const std::string &b) {
  return absl::StrCat(a, ", ", b);
}

} // namespace

std::string activationGrad(Writer &w, const Node &node,
                           const std::vector<std::string> &a) {
  // a = {incoming gradient, the op's input (ReLUs) or result (others)}
  switch (node.kind) {
  case NodeKind::Relu: {
    std::string on = scalarOp(w, "arith.cmpf ogt,", pair(a[1], "%zero"));
    return scalarOp(w, "arith.select", absl::StrCat(on, ", ", a[0], ", %zero"));
  }
  case NodeKind::LeakyRelu: {
    std::string on = scalarOp(w, "arith.cmpf ogt,", pair(a[1], "%zero"));
    std::string slope = scalarOp(w, "arith.constant", floatLiteral(node.alpha));
    std::string off = scalarOp(w, "arith.mulf", pair(a[0], slope));
    return scalarOp(w, "arith.select", absl::StrCat(on, ", ", a[0], ", ", off));
  }
  case NodeKind::Sigmoid: {
    std::string rest = scalarOp(w, "arith.subf", pair("%one", a[1]));
    std::string d = scalarOp(w, "arith.mulf", pair(a[1], rest));
    return scalarOp(w, "arith.mulf", pair(a[0], d));
  }
  case NodeKind::Scale:
    return scalarOp(
        w, node.divide ? "arith.divf" : "arith.mulf",
        pair(a[0], scalarOp(w, "arith.constant", floatLiteral(node.alpha))));
  default: { // Tanh
    std::string sq = scalarOp(w, "arith.mulf", pair(a[1], a[1]));
    std::string d = scalarOp(w, "arith.subf", pair("%one", sq));
    return scalarOp(w, "arith.mulf", pair(a[0], d));
  }
  }
}

std::string activation(Writer &w, const Node &node, const std::string &x) {
  switch (node.kind) {
  case NodeKind::Relu:
    return scalarOp(w, "arith.maximumf", pair(x, "%zero"));
  case NodeKind::LeakyRelu: {
    std::string on = scalarOp(w, "arith.cmpf ogt,", pair(x, "%zero"));
    std::string slope = scalarOp(w, "arith.constant", floatLiteral(node.alpha));
    std::string off = scalarOp(w, "arith.mulf", pair(x, slope));
    return scalarOp(w, "arith.select", absl::StrCat(on, ", ", x, ", ", off));
  }
  case NodeKind::Sigmoid: {
    std::string e = scalarOp(w, "math.exp", scalarOp(w, "arith.negf", x));
    std::string d = scalarOp(w, "arith.addf", pair("%one", e));
    return scalarOp(w, "arith.divf", pair("%one", d));
  }
  case NodeKind::Scale:
    return scalarOp(
        w, node.divide ? "arith.divf" : "arith.mulf",
        pair(x, scalarOp(w, "arith.constant", floatLiteral(node.alpha))));
  default:
    return scalarOp(w, "math.tanh", x);
  }
}

} // namespace gevo::training
