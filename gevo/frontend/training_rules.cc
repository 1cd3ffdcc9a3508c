//===- training_rules.cc - Forward ops and their reverse-mode rules
//--------===//
//
// One forward writer and one gradient rule per node kind: matmul, the
// broadcasting add/sub/mul, ReLU/LeakyReLU/sigmoid/tanh, reshapes and
// transposes. A broadcast operand's gradient is summed over the dimensions
// it was broadcast along.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_rules.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace gevo::training {
namespace {

const char *binaryOp(NodeKind kind) {
  return kind == NodeKind::Add   ? "arith.addf"
         : kind == NodeKind::Sub ? "arith.subf"
         : kind == NodeKind::Mul ? "arith.mulf"
                                 : "arith.divf";
}

std::string pair(const std::string &a, const std::string &b) {
  return absl::StrCat(a, ", ", b);
}

std::string emitMatmul(Writer &w, const std::string &base, const std::string &a,
                       const Dims &as, const std::string &b, const Dims &bs) {
  Dims out = {as[0], bs[1]};
  std::string init = w.filled(out, "%zero");
  std::string name = w.fresh(base);
  w.line(absl::StrCat(name, " = linalg.matmul ins(", a, ", ", b, " : ",
                      w.type(as), ", ", w.type(bs), ") outs(", init, " : ",
                      w.type(out), ") -> ", w.type(out)));
  return name;
}

std::string emitTranspose(Writer &w, const std::string &base,
                          const std::string &x, const Dims &shape,
                          const std::vector<int64_t> &perm) {
  Dims out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  std::string init = w.empty(out);
  std::string name = w.fresh(base);
  w.line(absl::StrCat(name, " = linalg.transpose ins(", x, " : ", w.type(shape),
                      ") outs(", init, " : ", w.type(out), ") permutation = [",
                      absl::StrJoin(perm, ", "), "]"));
  return name;
}

std::string emitReshape(Writer &w, bool collapse, const std::string &base,
                        const std::string &x, const Dims &from, const Dims &to,
                        const std::string &reassociation) {
  std::string name = w.fresh(base);
  if (collapse)
    w.line(absl::StrCat(name, " = tensor.collapse_shape ", x, " ",
                        reassociation, " : ", w.type(from), " into ",
                        w.type(to)));
  else
    w.line(absl::StrCat(name, " = tensor.expand_shape ", x, " ", reassociation,
                        " output_shape [", absl::StrJoin(to, ", "),
                        "] : ", w.type(from), " into ", w.type(to)));
  return name;
}

/// The dimensions a ReduceSum keeps, from its result's map.
std::vector<int> reducedDims(const Node &node) {
  std::vector<int> dims;
  const std::string &map = node.maps[0];
  size_t arrow = map.find("->");
  for (size_t i = map.find('d', arrow); i != std::string::npos;
       i = map.find('d', i + 1))
    dims.push_back(std::atoi(map.c_str() + i + 1));
  return dims;
}

/// Elementwise over `shape` (every input read with the identity map).
std::string elementwise(Writer &w, const std::string &base,
                        const std::vector<std::string> &ins, const Dims &shape,
                        const Body &body) {
  std::vector<GenericInput> inputs;
  for (const std::string &in : ins)
    inputs.push_back({in, shape, identityMap(shape.size())});
  std::vector<std::string> iterators(shape.size(), "parallel");
  return emitGeneric(w, base, inputs, w.empty(shape), shape,
                     identityMap(shape.size()), iterators, body);
}

void accumulate(Writer &w, const Graph &g, int n, const std::string &grad,
                Pass &pass) {
  std::string &slot = pass.grad[n];
  if (slot.empty()) {
    slot = grad;
    return;
  }
  slot = elementwise(w, "dsum", {slot, grad}, g.shapeAt(n, pass.batch),
                     [](Writer &w, const std::vector<std::string> &a) {
                       return scalarOp(w, "arith.addf", pair(a[0], a[1]));
                     });
}

std::string gradName(const Graph &g, int n) {
  return absl::StrCat("d", g.nodes[n].name);
}

void backwardBinary(Writer &w, const Graph &g, int n, Pass &pass) {
  const Node &node = g.nodes[n];
  Dims space = g.shapeAt(n, pass.batch);
  for (int i = 0; i < 2; ++i) {
    int o = node.operands[i];
    if (!g.nodes[o].needsGrad)
      continue;
    Dims shape = g.shapeAt(o, pass.batch);
    std::vector<GenericInput> ins = {
        {pass.grad[n], space, identityMap(space.size())}};
    bool div = node.kind == NodeKind::Div;
    if (node.kind == NodeKind::Mul || (div && i == 0)) {
      int other = node.operands[1 - i];
      ins.push_back(
          {pass.value[other], g.shapeAt(other, pass.batch), node.maps[1 - i]});
    } else if (div) { // d(a / b)/db = -a / b^2
      for (int k = 0; k < 2; ++k)
        ins.push_back({pass.value[node.operands[k]],
                       g.shapeAt(node.operands[k], pass.batch), node.maps[k]});
    }
    bool negate = node.kind == NodeKind::Sub && i == 1;
    bool identity =
        node.mapResults[i].size() == space.size() &&
        std::is_sorted(node.mapResults[i].begin(), node.mapResults[i].end()) &&
        node.mapResults[i].front() == 0 && shape == space;
    if (node.kind == NodeKind::Add && identity) {
      accumulate(w, g, o, pass.grad[n], pass);
      continue;
    }
    std::string grad = reduceInto(
        w, gradName(g, o), ins, space, node.mapResults[i], shape,
        [&](Writer &w, const std::vector<std::string> &a) {
          if (node.kind == NodeKind::Mul)
            return scalarOp(w, "arith.mulf", pair(a[0], a[1]));
          if (div && i == 0)
            return scalarOp(w, "arith.divf", pair(a[0], a[1]));
          if (div) {
            std::string q = scalarOp(w, "arith.divf", pair(a[1], a[2]));
            std::string r = scalarOp(w, "arith.divf", pair(q, a[2]));
            return scalarOp(w, "arith.negf",
                            scalarOp(w, "arith.mulf", pair(a[0], r)));
          }
          return negate ? scalarOp(w, "arith.negf", a[0]) : a[0];
        });
    accumulate(w, g, o, grad, pass);
  }
}

} // namespace

std::string reduceInto(Writer &w, const std::string &base,
                       const std::vector<GenericInput> &ins, const Dims &space,
                       const std::vector<int> &results,
                       const Dims &operandShape, const Body &body) {
  std::vector<std::string> iterators(space.size(), "reduction");
  std::vector<std::string> dims;
  Dims reduced;
  for (int r : results)
    if (r >= 0) {
      iterators[r] = "parallel";
      dims.push_back(absl::StrCat("d", r));
      reduced.push_back(space[r]);
    }
  std::vector<std::string> all;
  for (size_t i = 0; i < space.size(); ++i)
    all.push_back(absl::StrCat("d", i));
  std::string map = absl::StrCat("affine_map<(", absl::StrJoin(all, ", "),
                                 ") -> (", absl::StrJoin(dims, ", "), ")>");
  bool reduces = reduced.size() < space.size();
  std::string init = reduces ? w.filled(reduced, "%zero") : w.empty(reduced);
  std::string sum = emitGeneric(
      w, base, ins, init, reduced, map, iterators,
      [&](Writer &w, const std::vector<std::string> &args) {
        std::string v = body(w, args);
        return reduces ? scalarOp(w, "arith.addf", pair(v, args.back())) : v;
      });
  if (reduced.size() == operandShape.size())
    return sum;
  // Constant-0 results are unit dimensions: group each with a neighbour.
  std::vector<std::string> groups;
  std::vector<std::string> current;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i] >= 0 && !current.empty() &&
        std::any_of(results.begin(), results.begin() + i,
                    [](int r) { return r >= 0; })) {
      groups.push_back(absl::StrCat("[", absl::StrJoin(current, ", "), "]"));
      current.clear();
    }
    current.push_back(absl::StrCat(i));
  }
  groups.push_back(absl::StrCat("[", absl::StrJoin(current, ", "), "]"));
  return emitReshape(w, false, base, sum, reduced, operandShape,
                     absl::StrCat("[", absl::StrJoin(groups, ", "), "]"));
}

void emitForward(Writer &w, const Graph &g, int n, Pass &pass) {
  const Node &node = g.nodes[n];
  Dims out = g.shapeAt(n, pass.batch);
  auto in = [&](int i) { return pass.value[node.operands[i]]; };
  auto inShape = [&](int i) { return g.shapeAt(node.operands[i], pass.batch); };
  std::string &v = pass.value[n];
  switch (node.kind) {
  case NodeKind::MatMul:
    v = emitMatmul(w, node.name, in(0), inShape(0), in(1), inShape(1));
    return;
  case NodeKind::Add:
  case NodeKind::Sub:
  case NodeKind::Mul:
  case NodeKind::Div: {
    std::vector<GenericInput> ins = {{in(0), inShape(0), node.maps[0]},
                                     {in(1), inShape(1), node.maps[1]}};
    v = emitGeneric(w, node.name, ins, w.empty(out), out,
                    identityMap(out.size()),
                    std::vector<std::string>(out.size(), "parallel"),
                    [&](Writer &w, const std::vector<std::string> &a) {
                      return scalarOp(w, binaryOp(node.kind), pair(a[0], a[1]));
                    });
    return;
  }
  case NodeKind::Collapse:
  case NodeKind::Expand:
    v = emitReshape(w, node.kind == NodeKind::Collapse, node.name, in(0),
                    inShape(0), out, node.reassociation);
    return;
  case NodeKind::Transpose:
    v = emitTranspose(w, node.name, in(0), inShape(0), node.permutation);
    return;
  case NodeKind::Pad:
  case NodeKind::Conv:
  case NodeKind::MaxPool:
  case NodeKind::SumPool:
    emitWindowForward(w, g, n, pass);
    return;
  case NodeKind::Elementwise:
    emitElementwiseForward(w, g, n, pass);
    return;
  case NodeKind::ReduceSum: {
    Dims shape = inShape(0);
    std::vector<int> results = reducedDims(node);
    std::vector<std::string> iterators(shape.size(), "reduction");
    for (int r : results)
      iterators[r] = "parallel";
    v = emitGeneric(w, node.name, {{in(0), shape, identityMap(shape.size())}},
                    w.filled(out, "%zero"), out, node.maps[0], iterators,
                    [](Writer &w, const std::vector<std::string> &a) {
                      return scalarOp(w, "arith.addf", pair(a[0], a[1]));
                    });
    return;
  }
  default:
    v = elementwise(w, node.name, {in(0)}, out,
                    [&](Writer &w, const std::vector<std::string> &a) {
                      return activation(w, node, a[0]);
                    });
  }
}

std::string emitForwardPass(Writer &w, const Graph &g, Pass &pass) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    NodeKind kind = g.nodes[n].kind;
    if (kind != NodeKind::Input && kind != NodeKind::Param &&
        kind != NodeKind::Const)
      emitForward(w, g, static_cast<int>(n), pass);
  }
  return pass.value[g.output];
}

void emitBackward(Writer &w, const Graph &g, int n, Pass &pass) {
  const Node &node = g.nodes[n];
  const std::string &dy = pass.grad[n];
  if (dy.empty() || node.operands.empty())
    return;
  int a = node.operands[0];
  Dims inShape = g.shapeAt(a, pass.batch);
  switch (node.kind) {
  case NodeKind::MatMul: {
    int b = node.operands[1];
    Dims bShape = g.shapeAt(b, pass.batch), out = g.shapeAt(n, pass.batch);
    if (g.nodes[b].needsGrad) {
      std::string aT = emitTranspose(w, "tr", pass.value[a], inShape, {1, 0});
      accumulate(
          w, g, b,
          emitMatmul(w, gradName(g, b), aT, {inShape[1], inShape[0]}, dy, out),
          pass);
    }
    if (g.nodes[a].needsGrad) {
      std::string bT = emitTranspose(w, "tr", pass.value[b], bShape, {1, 0});
      accumulate(
          w, g, a,
          emitMatmul(w, gradName(g, a), dy, out, bT, {bShape[1], bShape[0]}),
          pass);
    }
    return;
  }
  case NodeKind::Add:
  case NodeKind::Sub:
  case NodeKind::Mul:
  case NodeKind::Div:
    backwardBinary(w, g, n, pass);
    return;
  case NodeKind::Pad:
  case NodeKind::Conv:
  case NodeKind::MaxPool:
  case NodeKind::SumPool:
    emitWindowBackward(w, g, n, pass, [&](int o, const std::string &grad) {
      accumulate(w, g, o, grad, pass);
    });
    return;
  case NodeKind::Elementwise:
    emitElementwiseBackward(w, g, n, pass, [&](int o, const std::string &grad) {
      accumulate(w, g, o, grad, pass);
    });
    return;
  default:
    break;
  }
  if (!g.nodes[a].needsGrad)
    return;
  std::string grad;
  if (node.kind == NodeKind::ReduceSum) { // the sum's gradient, broadcast
    grad = emitGeneric(
        w, gradName(g, a), {{dy, g.shapeAt(n, pass.batch), node.maps[0]}},
        w.empty(inShape), inShape, identityMap(inShape.size()),
        std::vector<std::string>(inShape.size(), "parallel"),
        [](Writer &, const std::vector<std::string> &args) { return args[0]; });
  } else if (node.kind == NodeKind::Collapse || node.kind == NodeKind::Expand) {
    grad = emitReshape(w, node.kind == NodeKind::Expand, gradName(g, a), dy,
                       g.shapeAt(n, pass.batch), inShape, node.reassociation);
  } else if (node.kind == NodeKind::Transpose) {
    std::vector<int64_t> inverse(node.permutation.size());
    for (size_t i = 0; i < inverse.size(); ++i)
      inverse[node.permutation[i]] = static_cast<int64_t>(i);
    grad =
        emitTranspose(w, gradName(g, a), dy, g.shapeAt(n, pass.batch), inverse);
  } else {
    bool fromInput =
        node.kind == NodeKind::Relu || node.kind == NodeKind::LeakyRelu;
    grad = elementwise(w, gradName(g, a),
                       {dy, fromInput ? pass.value[a] : pass.value[n]}, inShape,
                       [&](Writer &w, const std::vector<std::string> &args) {
                         return activationGrad(w, node, args);
                       });
  }
  accumulate(w, g, a, grad, pass);
}

void emitBackwardPass(Writer &w, const Graph &g, Pass &pass) {
  for (int n = static_cast<int>(g.nodes.size()) - 1; n >= 0; --n)
    emitBackward(w, g, n, pass);
}

} // namespace gevo::training
