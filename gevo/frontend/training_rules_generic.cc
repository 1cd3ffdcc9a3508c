//===- training_rules_generic.cc - Any elementwise body, op by op ---------===//
//
// An elementwise linalg.generic no specific rule matched (an imported
// BatchNormalization, Clip, Elu...): the forward body is written again, and
// each operand's gradient is its body recomputed followed by the body's
// scalar reverse pass (a partial derivative per arith/math op), summed over
// any dimensions the operand was broadcast along.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/frontend/training_rules.h"

namespace gevo::training {
namespace {

std::string pair(const std::string &a, const std::string &b) {
  return absl::StrCat(a, ", ", b);
}

/// The body's values: the block arguments `args`, then each op's result.
std::vector<std::string> emitBody(Writer &w, const Node &node,
                                  std::vector<std::string> values) {
  for (const ScalarOp &op : node.body) {
    std::vector<std::string> in;
    for (int a : op.args)
      in.push_back(values[a]);
    if (op.name == "arith.constant")
      values.push_back(scalarOp(w, op.name, floatLiteral(op.value)));
    else if (op.name == "arith.cmpf")
      values.push_back(
          scalarOp(w, "arith.cmpf " + op.predicate + ",", pair(in[0], in[1])));
    else if (op.name == "arith.select")
      values.push_back(
          scalarOp(w, op.name, absl::StrCat(in[0], ", ", in[1], ", ", in[2])));
    else if (in.size() == 1)
      values.push_back(scalarOp(w, op.name, in[0]));
    else
      values.push_back(scalarOp(w, op.name, pair(in[0], in[1])));
  }
  return values;
}

/// The adjoints of one op's arguments from `g`, the adjoint of its result.
std::vector<std::string> partials(Writer &w, const ScalarOp &op,
                                  const std::vector<std::string> &in,
                                  const std::string &out,
                                  const std::string &g) {
  auto s = [&](const char *name, const std::string &a, const std::string &b) {
    return scalarOp(w, name, pair(a, b));
  };
  auto pick = [&](const std::string &c, const std::string &a,
                  const std::string &b) {
    return scalarOp(w, "arith.select", absl::StrCat(c, ", ", a, ", ", b));
  };
  const std::string &name = op.name;
  if (name == "arith.addf")
    return {g, g};
  if (name == "arith.subf")
    return {g, scalarOp(w, "arith.negf", g)};
  if (name == "arith.mulf")
    return {s("arith.mulf", g, in[1]), s("arith.mulf", g, in[0])};
  if (name == "arith.divf") {
    std::string q = s("arith.divf", g, in[1]);
    return {q, scalarOp(w, "arith.negf", s("arith.mulf", q, out))};
  }
  if (name == "arith.negf")
    return {scalarOp(w, "arith.negf", g)};
  if (name == "math.exp")
    return {s("arith.mulf", g, out)};
  if (name == "math.log")
    return {s("arith.divf", g, in[0])};
  if (name == "math.tanh")
    return {
        s("arith.mulf", g, s("arith.subf", "%one", s("arith.mulf", out, out)))};
  if (name == "math.sqrt")
    return {s("arith.divf", g, s("arith.addf", out, out))};
  if (name == "math.absf") {
    std::string up = scalarOp(w, "arith.cmpf oge,", pair(in[0], "%zero"));
    return {pick(up, g, scalarOp(w, "arith.negf", g))};
  }
  if (name == "arith.maximumf" || name == "arith.minimumf") {
    std::string first = scalarOp(
        w, name == "arith.maximumf" ? "arith.cmpf oge," : "arith.cmpf ole,",
        pair(in[0], in[1]));
    return {pick(first, g, "%zero"), pick(first, "%zero", g)};
  }
  if (name == "arith.select")
    return {"", pick(in[0], g, "%zero"), pick(in[0], "%zero", g)};
  return {}; // cmpf, constants: nothing flows back
}

/// The body's reverse pass from `dy`; returns the adjoint of argument `k`.
std::string adjointOf(Writer &w, const Node &node,
                      const std::vector<std::string> &values,
                      const std::string &dy, int k) {
  size_t inputs = values.size() - node.body.size();
  std::vector<std::string> adjoint(values.size());
  adjoint[node.yield] = dy;
  for (int i = static_cast<int>(node.body.size()) - 1; i >= 0; --i) {
    const ScalarOp &op = node.body[i];
    const std::string &g = adjoint[inputs + i];
    if (g.empty())
      continue;
    std::vector<std::string> in;
    for (int a : op.args)
      in.push_back(values[a]);
    std::vector<std::string> d = partials(w, op, in, values[inputs + i], g);
    for (size_t j = 0; j < d.size(); ++j) {
      if (d[j].empty())
        continue;
      std::string &slot = adjoint[op.args[j]];
      slot = slot.empty() ? d[j] : scalarOp(w, "arith.addf", pair(slot, d[j]));
    }
  }
  return adjoint[k].empty() ? "%zero" : adjoint[k];
}

} // namespace

void emitElementwiseForward(Writer &w, const Graph &g, int n, Pass &pass) {
  const Node &node = g.nodes[n];
  Dims out = g.shapeAt(n, pass.batch);
  std::vector<GenericInput> ins;
  for (size_t i = 0; i < node.operands.size(); ++i)
    ins.push_back({pass.value[node.operands[i]],
                   g.shapeAt(node.operands[i], pass.batch), node.maps[i]});
  pass.value[n] = emitGeneric(
      w, node.name, ins, w.empty(out), out, identityMap(out.size()),
      std::vector<std::string>(out.size(), "parallel"),
      [&](Writer &w, const std::vector<std::string> &args) {
        std::vector<std::string> values(args.begin(), args.end() - 1);
        return emitBody(w, node, values)[node.yield];
      });
}

void emitElementwiseBackward(
    Writer &w, const Graph &g, int n, Pass &pass,
    const std::function<void(int, const std::string &)> &accumulate) {
  const Node &node = g.nodes[n];
  Dims space = g.shapeAt(n, pass.batch);
  for (size_t k = 0; k < node.operands.size(); ++k) {
    int o = node.operands[k];
    if (!g.nodes[o].needsGrad)
      continue;
    std::vector<GenericInput> ins = {
        {pass.grad[n], space, identityMap(space.size())}};
    for (size_t i = 0; i < node.operands.size(); ++i)
      ins.push_back({pass.value[node.operands[i]],
                     g.shapeAt(node.operands[i], pass.batch), node.maps[i]});
    accumulate(o, reduceInto(w, absl::StrCat("d", g.nodes[o].name), ins, space,
                             node.mapResults[k], g.shapeAt(o, pass.batch),
                             [&](Writer &w, const std::vector<std::string> &a) {
                               std::vector<std::string> values(
                                   a.begin() + 1,
                                   a.begin() + 1 + node.operands.size());
                               values = emitBody(w, node, values);
                               return adjointOf(w, node, values, a[0],
                                                static_cast<int>(k));
                             }));
  }
}

} // namespace gevo::training
