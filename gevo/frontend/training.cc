//===- training.cc - Check a forward model and spec, write the program ----===//
//
// Reads the forward module, refuses what the loss or the data cannot take,
// and writes the training module (training_program.cc) or the modules the
// gradient checks run.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_loop.h"

namespace gevo {
namespace {

using namespace training;

absl::Status checkSpec(const Graph &g, const TrainingSpec &spec) {
  const Node &out = g.nodes[g.output];
  if (out.shape.size() != 2 || !out.batched ||
      (spec.classes > 0 && out.shape[1] != spec.classes))
    return absl::InvalidArgumentError(absl::StrCat(
        "training.loss: cross_entropy needs [batch, ",
        spec.classes > 0 ? absl::StrCat(spec.classes) : "classes",
        "] logits; the model returns ", tensorType(out.shape, g.elem)));
  if (g.nodes[g.input].shape.size() < 2)
    return absl::InvalidArgumentError(absl::StrCat(
        "the model's input must be [batch, features...] (the data's rows); "
        "it is ",
        tensorType(g.nodes[g.input].shape, g.elem)));
  if (spec.trainRows < 1 || spec.evalRows < 1)
    return absl::InvalidArgumentError(
        "the workload has no training or eval rows");
  if (spec.batch > spec.trainRows)
    return absl::InvalidArgumentError(
        absl::StrCat("training.batch: ", spec.batch, " is larger than the ",
                     spec.trainRows, " training rows"));
  int layers = 0;
  for (int p : g.params)
    layers = std::max(layers, layerOf(g.nodes[p]));
  if (spec.learningRates.size() != 1 &&
      static_cast<int>(spec.learningRates.size()) != layers)
    return absl::InvalidArgumentError(absl::StrCat(
        "training.optimizer.learning_rate: ", spec.learningRates.size(),
        " rates for a model of ", layers, " layers"));
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<std::string>
generateTrainingModule(const std::string &forwardText, const TrainingSpec &spec,
                       const std::string &name) {
  absl::StatusOr<Graph> graph = readForward(forwardText, name);
  if (!graph.ok())
    return graph.status();
  if (absl::Status status = checkSpec(*graph, spec); !status.ok())
    return status;
  return emitTrainingModule(*graph, spec, name);
}

absl::StatusOr<GradientCheckModules>
generateGradientCheck(const std::string &forwardText) {
  absl::StatusOr<Graph> graph = readForward(forwardText, "forward");
  if (!graph.ok())
    return graph.status();
  const Graph &g = *graph;
  GradientCheckModules out;
  out.inputShape = g.nodes[g.input].shape;
  out.outputShape = g.nodes[g.output].shape;
  Writer w(g.elem);
  w.indent = 4;
  for (const char *name : {"x", "dy", "zero", "one", "neg_inf"})
    w.fresh(name);
  Pass pass{std::vector<std::string>(g.nodes.size()),
            std::vector<std::string>(g.nodes.size()), g.batch};
  pass.value[g.input] = "%x";
  std::vector<std::string> args = {"%x: " + w.type(out.inputShape)};
  for (int p : g.params) {
    pass.value[p] = w.fresh(g.nodes[p].name);
    args.push_back(pass.value[p] + ": " + w.type(g.nodes[p].shape));
    out.paramShapes.push_back(g.nodes[p].shape);
    out.paramNames.push_back(g.nodes[p].name);
  }
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (g.nodes[n].kind == NodeKind::Const) {
      pass.value[n] = w.fresh("k");
      w.line(absl::StrCat(pass.value[n], " = arith.constant ",
                          g.nodes[n].literal));
    }
  w.line("%zero = arith.constant 0.0 : " + g.elem);
  w.line("%one = arith.constant 1.0 : " + g.elem);
  w.line(absl::StrCat("%neg_inf = arith.constant ",
                      g.elem == "f32" ? "0xFF800000" : "0xFFF0000000000000",
                      " : ", g.elem));
  std::string y = emitForwardPass(w, g, pass);
  std::string forwardBody = w.text;
  auto module = [&](const std::string &name, const std::vector<std::string> &a,
                    const std::vector<std::string> &types,
                    const std::string &body,
                    const std::vector<std::string> &r) {
    return absl::StrCat("module {\n  func.func @", name, "(",
                        absl::StrJoin(a, ", "), ") -> (",
                        absl::StrJoin(types, ", "), ") {\n", body,
                        "    return ", absl::StrJoin(r, ", "), " : ",
                        absl::StrJoin(types, ", "), "\n  }\n}\n");
  };
  out.forward =
      module("forward", args, {w.type(out.outputShape)}, forwardBody, {y});
  pass.grad[g.output] = "%dy";
  args.push_back("%dy: " + w.type(out.outputShape));
  emitBackwardPass(w, g, pass);
  std::vector<std::string> grads, types;
  for (int p : g.params) {
    if (pass.grad[p].empty())
      return absl::InvalidArgumentError(absl::StrCat(
          "parameter ", g.nodes[p].name, " does not reach the output"));
    grads.push_back(pass.grad[p]);
    types.push_back(w.type(g.nodes[p].shape));
  }
  out.gradient = module("gradient", args, types, w.text, grads);
  return out;
}

} // namespace gevo
