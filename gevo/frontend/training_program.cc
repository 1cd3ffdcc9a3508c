//===- training_program.cc - train_eval: loops, optimiser, evaluation -----===//
//
// The epochs x batches loops carrying the parameters (and momentum buffers),
// the minibatch (in order, or a seeded permutation of the rows per epoch),
// the SGD step per parameter and the final forward pass on the eval rows.
//
//===----------------------------------------------------------------------===//

#include <filesystem>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_loop.h"

namespace gevo::training {
namespace {

int64_t featuresOf(const Graph &g) {
  int64_t features = 1;
  const Dims &shape = g.nodes[g.input].shape;
  for (size_t i = 1; i < shape.size(); ++i)
    features *= shape[i];
  return features;
}

/// Rows of the data ([rows, features]) in the model's input shape, e.g.
/// [rows, 1, 28, 28] for a model that takes images.
std::string asModelInput(LoopState &s, const std::string &x, int64_t rows) {
  const Dims &shape = s.g.nodes[s.g.input].shape;
  if (shape.size() == 2)
    return x;
  Dims to = shape;
  to[0] = rows;
  std::vector<std::string> inner;
  for (size_t i = 1; i < shape.size(); ++i)
    inner.push_back(absl::StrCat(i));
  std::string name = s.w.fresh("x_shaped");
  s.w.line(absl::StrCat(
      name, " = tensor.expand_shape ", x, " [[0], [",
      absl::StrJoin(inner, ", "), "]] output_shape [", absl::StrJoin(to, ", "),
      "] : ", s.w.type({rows, featuresOf(s.g)}), " into ", s.w.type(to)));
  return name;
}

struct Carried {
  std::vector<std::string> names; // SSA names inside the loop
  std::vector<std::string> types;
};

/// Rows row0 .. row0+batch-1 of `data`, or with a shuffle, rows
/// (p * shuffle_mul + epoch * shuffle_step) mod rows for those positions p.
std::string emitMinibatch(LoopState &s, const std::string &data, int64_t cols,
                          const std::string &base) {
  Writer &w = s.w;
  Dims full = {s.spec.trainRows, cols}, part = {s.spec.batch, cols};
  if (!s.spec.shuffleSeed) {
    std::string name = w.fresh(base);
    w.line(absl::StrCat(name, " = tensor.extract_slice ", data, "[%row0, 0] [",
                        s.spec.batch, ", ", cols, "] [1, 1] : ", w.type(full),
                        " to ", w.type(part)));
    return name;
  }
  return emitGeneric(
      w, base, {}, w.empty(part), part, identityMap(2),
      {"parallel", "parallel"},
      [&](Writer &w, const std::vector<std::string> &) {
        std::string i = w.fresh("i"), j = w.fresh("j"), p = w.fresh("p"),
                    q = w.fresh("q"), r = w.fresh("r"), v = w.fresh("v");
        w.line(absl::StrCat(i, " = linalg.index 0 : index"));
        w.line(absl::StrCat(j, " = linalg.index 1 : index"));
        w.line(absl::StrCat(p, " = arith.addi %row0, ", i, " : index"));
        w.line(absl::StrCat(q, " = arith.muli ", p, ", %shuffle_mul : index"));
        std::string shifted = w.fresh("q");
        w.line(absl::StrCat(shifted, " = arith.addi ", q,
                            ", %epoch_offset : index"));
        w.line(absl::StrCat(r, " = arith.remui ", shifted,
                            ", %train_rows : index"));
        w.line(absl::StrCat(v, " = tensor.extract ", data, "[", r, ", ", j,
                            "] : ", w.type(full)));
        return v;
      });
}

void emitShuffleConstants(LoopState &s) {
  int64_t rows = s.spec.trainRows;
  uint64_t seed = static_cast<uint64_t>(*s.spec.shuffleSeed);
  int64_t mul = static_cast<int64_t>((seed * 2654435761ull + 7919) % rows);
  while (rows > 1 && (mul < 2 || std::gcd(mul, rows) != 1))
    mul = (mul + 1) % rows;
  int64_t step = static_cast<int64_t>((seed * 40503ull + 104729) % rows);
  constant(s.w, "train_rows", absl::StrCat(rows), "index", "training rows");
  constant(
      s.w, "shuffle_mul", absl::StrCat(mul), "index",
      "row order: (position * shuffle_mul + epoch * shuffle_step) mod rows");
  constant(s.w, "shuffle_step", absl::StrCat(step), "index", "");
}

/// param -= lr * (grad + weight_decay * param), through a momentum buffer
/// (buffer = momentum * buffer + that gradient) when the spec has momentum.
void emitUpdate(LoopState &s, int k, const std::string &value,
                const std::string &grad, const std::string &velocity,
                std::vector<std::string> &next) {
  Writer &w = s.w;
  const Node &param = s.g.nodes[s.g.params[k]];
  std::vector<std::string> par(param.shape.size(), "parallel");
  std::string id = identityMap(param.shape.size());
  bool decay = s.spec.weightDecay.has_value();
  auto decayed = [&](Writer &w, const std::string &g, const std::string &p) {
    if (!decay)
      return g;
    return scalarOp(w, "arith.addf",
                    g + ", " +
                        scalarOp(w, "arith.mulf", "%weight_decay, " + p));
  };
  std::string step = grad;
  if (!velocity.empty()) {
    step = emitGeneric(
        w, "v" + param.name + "_new",
        {{velocity, param.shape, id},
         {grad, param.shape, id},
         {value, param.shape, id}},
        w.empty(param.shape), param.shape, id, par,
        [&](Writer &w, const std::vector<std::string> &a) {
          std::string m = scalarOp(w, "arith.mulf", "%momentum, " + a[0]);
          return scalarOp(w, "arith.addf", m + ", " + decayed(w, a[1], a[2]));
        });
    next.push_back(step);
  }
  bool plain = velocity.empty();
  next.insert(next.end() - (plain ? 0 : 1),
              emitGeneric(w, param.name + "_new",
                          {{value, param.shape, id}, {step, param.shape, id}},
                          w.empty(param.shape), param.shape, id, par,
                          [&](Writer &w, const std::vector<std::string> &a) {
                            std::string g =
                                plain ? decayed(w, a[1], a[0]) : a[1];
                            std::string d =
                                scalarOp(w, "arith.mulf", s.lr[k] + ", " + g);
                            return scalarOp(w, "arith.subf", a[0] + ", " + d);
                          }));
}

/// The body of the batch loop: minibatch, forward, loss, backward, updates.
std::vector<std::string> emitStep(LoopState &s, std::vector<std::string> values,
                                  const Carried &carried) {
  Writer &w = s.w;
  const Graph &g = s.g;
  int64_t features = featuresOf(g);
  int64_t classes = g.nodes[g.output].shape[1];
  w.line(absl::StrCat(w.fresh("row0"), " = arith.muli %b, %batch : index"));
  Pass pass{values, std::vector<std::string>(g.nodes.size()), s.spec.batch};
  pass.value[g.input] = asModelInput(
      s, emitMinibatch(s, "%train_x", features, "xb"), s.spec.batch);
  std::string labels = emitMinibatch(s, "%train_y", classes, "yb");
  w.line("// ----- forward pass -----");
  std::string logits = emitForwardPass(w, g, pass);
  emitLoss(s, pass, logits, labels);
  w.line("// ----- backward pass -----");
  emitBackwardPass(w, g, pass);
  w.line("// ----- SGD update -----");
  std::vector<std::string> next;
  for (size_t k = 0; k < g.params.size(); ++k) {
    const std::string &grad = pass.grad[g.params[k]];
    std::string velocity =
        s.spec.momentum ? carried.names[2 * k + 1] : std::string();
    if (grad.empty()) { // no path to the loss: left as it is
      next.push_back(carried.names[s.spec.momentum ? 2 * k : k]);
      if (s.spec.momentum)
        next.push_back(velocity);
      continue;
    }
    emitUpdate(s, static_cast<int>(k), pass.value[g.params[k]], grad, velocity,
               next);
  }
  return next;
}

std::string loopHeader(const std::string &results, const std::string &iv,
                       const std::string &count,
                       const std::vector<std::string> &inner,
                       const std::vector<std::string> &outer,
                       const Carried &carried) {
  std::vector<std::string> args;
  for (size_t i = 0; i < inner.size(); ++i)
    args.push_back(absl::StrCat(inner[i], " = ", outer[i]));
  return absl::StrCat(results, " = scf.for ", iv, " = %c0 to ", count,
                      " step %c1 iter_args(", absl::StrJoin(args, ", "),
                      ") -> (", absl::StrJoin(carried.types, ", "), ") {");
}

/// The two loops; returns the trained parameters' names.
std::vector<std::string> emitLoops(LoopState &s,
                                   std::vector<std::string> &values) {
  Writer &w = s.w;
  Carried carried;
  std::vector<std::string> init, epochArgs, finals, epochResults;
  for (int p : s.g.params) {
    const Node &param = s.g.nodes[p];
    std::vector<std::string> names = {param.name};
    if (s.spec.momentum)
      names.push_back("v" + param.name);
    for (const std::string &name : names) {
      init.push_back(name == param.name ? values[p]
                                        : w.filled(param.shape, "%zero"));
      carried.types.push_back(w.type(param.shape));
      carried.names.push_back(w.fresh(name));
      epochArgs.push_back(w.fresh(name + "_e"));
      finals.push_back(w.fresh(name + "_fin"));
      epochResults.push_back(w.fresh(name + "_n"));
    }
  }
  w.line("// ----- training loop: epochs x batches, parameters carried -----");
  w.line(loopHeader(absl::StrJoin(finals, ", "), "%epoch", "%num_epochs",
                    epochArgs, init, carried));
  w.indent += 2;
  if (s.spec.shuffleSeed)
    w.line("%epoch_offset = arith.muli %epoch, %shuffle_step : index");
  w.line(loopHeader(absl::StrJoin(epochResults, ", "), "%b", "%num_batches",
                    carried.names, epochArgs, carried));
  w.indent += 2;
  for (size_t k = 0; k < s.g.params.size(); ++k)
    values[s.g.params[k]] = carried.names[s.spec.momentum ? 2 * k : k];
  std::vector<std::string> next = emitStep(s, values, carried);
  w.line(absl::StrCat("scf.yield ", absl::StrJoin(next, ", "), " : ",
                      absl::StrJoin(carried.types, ", ")));
  w.indent -= 2;
  w.line("}");
  w.line(absl::StrCat("scf.yield ", absl::StrJoin(epochResults, ", "), " : ",
                      absl::StrJoin(carried.types, ", ")));
  w.indent -= 2;
  w.line("}");
  std::vector<std::string> trained;
  for (size_t k = 0; k < s.g.params.size(); ++k)
    trained.push_back(finals[s.spec.momentum ? 2 * k : k]);
  return trained;
}

} // namespace

std::string emitTrainingModule(const Graph &g, const TrainingSpec &spec,
                               const std::string &source) {
  LoopState s(g, spec);
  Writer &w = s.w;
  int64_t features = featuresOf(g);
  int64_t classes = g.nodes[g.output].shape[1];
  std::string trainX = w.type({spec.trainRows, features});
  std::string trainY = w.type({spec.trainRows, classes});
  std::string evalX = w.type({spec.evalRows, features});
  std::string out = w.type({spec.evalRows, classes});
  for (const char *name :
       {"train_x", "train_y", "eval_x", "b", "epoch", "epoch_offset"})
    w.fresh(name);
  emitHyperParameters(s);
  if (spec.shuffleSeed)
    emitShuffleConstants(s);
  std::vector<std::string> values = emitInitialValues(s);
  std::vector<std::string> trained = emitLoops(s, values);
  w.line("// ----- evaluation: the forward pass on eval_x -----");
  Pass eval{values, std::vector<std::string>(g.nodes.size()), spec.evalRows};
  eval.value[g.input] = asModelInput(s, "%eval_x", spec.evalRows);
  for (size_t k = 0; k < g.params.size(); ++k)
    eval.value[g.params[k]] = trained[k];
  std::string logits = emitForwardPass(w, g, eval);
  w.line(absl::StrCat("return ", logits, " : ", out));
  return absl::StrCat(
      "// Generated by gevo-ml's training generator from ",
      std::filesystem::path(source).filename().string(),
      ": the forward model\n// trained by minibatch SGD on softmax "
      "cross-entropy, every step written out in\n// the IR "
      "(gevo/frontend/training.h; docs/frontends.md).\nmodule {\n  func.func @",
      spec.entry, "(%train_x: ", trainX, ", %train_y: ", trainY,
      ",\n      %eval_x: ", evalX, ") -> ", out, " {\n", w.text, "  }\n}\n");
}

} // namespace gevo::training
