//===- training_loop.cc - The training program around the gradient rules --===//
//
// Writes train_eval: hyper-parameters as named constants, initial weights
// (the model's or a hash computed in the IR), epochs x batches as scf.for
// loops carrying the parameters, softmax cross-entropy, the SGD step (with
// momentum and weight decay when asked) and the evaluation forward pass, in
// the conventions of testdata/digits_mlp_train.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_loop.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_rules.h"

namespace gevo::training {
namespace {

double initScale(const TrainingSpec &spec, const Node &param) {
  double bound = spec.scale == "he" ? std::sqrt(6.0 / param.fanIn)
                 : spec.scale == "glorot"
                     ? std::sqrt(6.0 / (param.fanIn + param.fanOut))
                     : std::sqrt(1.0 / param.fanIn);
  return 2 * bound; // the hash is uniform in [-0.5, 0.5)
}

} // namespace

int layerOf(const Node &param) {
  return std::max(1, std::atoi(param.name.c_str() + 1));
}

std::string constant(Writer &w, const std::string &name,
                     const std::string &value, const std::string &type,
                     const std::string &comment) {
  std::string ssa = w.fresh(name);
  w.line(absl::StrCat(ssa, " = arith.constant ", value, " : ", type,
                      comment.empty() ? "" : absl::StrCat("  // ", comment)));
  return ssa;
}

void emitHyperParameters(LoopState &s) {
  Writer &w = s.w;
  const TrainingSpec &spec = s.spec;
  const std::string &f = w.elem;
  w.line("// ----- hyper-parameters -----------------------------------------");
  int layers = 0;
  for (int p : s.g.params)
    layers = std::max(layers, layerOf(s.g.nodes[p]));
  std::vector<std::string> rates;
  for (int l = 1; l <= layers; ++l) {
    double rate = spec.learningRates[std::min<size_t>(
        l - 1, spec.learningRates.size() - 1)];
    rates.push_back(constant(w, absl::StrCat("lr", l), floatLiteral(rate), f,
                             absl::StrCat("SGD learning rate, layer ", l)));
  }
  for (int p : s.g.params)
    s.lr.push_back(rates[layerOf(s.g.nodes[p]) - 1]);
  if (spec.momentum)
    constant(w, "momentum", floatLiteral(*spec.momentum), f, "SGD momentum");
  if (spec.weightDecay)
    constant(w, "weight_decay", floatLiteral(*spec.weightDecay), f,
             "L2 weight decay");
  constant(w, "batch_f", floatLiteral(spec.batch), f,
           "batch size as a float (loss mean)");
  constant(w, "c0", "0", "index", "");
  constant(w, "c1", "1", "index", "");
  constant(w, "batch", absl::StrCat(spec.batch), "index", "batch size");
  constant(w, "num_epochs", absl::StrCat(spec.epochs), "index", "epochs");
  constant(w, "num_batches", absl::StrCat(spec.trainRows / spec.batch), "index",
           absl::StrCat("floor(", spec.trainRows, " / ", spec.batch, ")"));
  constant(w, "zero", "0.0", f, "");
  constant(w, "one", "1.0", f, "");
  constant(w, "neg_inf", f == "f32" ? "0xFF800000" : "0xFFF0000000000000", f,
           "-inf, identity of max");
}

/// W[i, j] = (fract(sin(i*12.9898 + j*78.233 + seed) * 43758.5453) - 0.5)
///           * scale, j the row-major index over the dimensions after 0.
static std::string emitHashInit(LoopState &s, const Node &param, int ordinal) {
  Writer &w = s.w;
  const std::string &f = w.elem;
  std::string seed = constant(w, absl::StrCat("seed", ordinal),
                              floatLiteral(s.spec.seed + ordinal - 1), f, "");
  std::string scale = constant(
      w, absl::StrCat("scale", ordinal), floatLiteral(initScale(s.spec, param)),
      f, absl::StrCat(s.spec.scale, " scale, fan-in ", param.fanIn));
  std::vector<std::string> parallel(param.shape.size(), "parallel");
  return emitGeneric(
      w, absl::StrCat(param.name, "_init"), {}, w.empty(param.shape),
      param.shape, identityMap(param.shape.size()), parallel,
      [&](Writer &w, const std::vector<std::string> &) {
        std::string i = w.fresh("i"), j = w.fresh("j");
        w.line(absl::StrCat(i, " = linalg.index 0 : index"));
        w.line(absl::StrCat(j, " = linalg.index 1 : index"));
        for (size_t d = 2; d < param.shape.size(); ++d) {
          std::string k = w.fresh("k"), size = w.fresh("n"), m = w.fresh("m");
          w.line(absl::StrCat(k, " = linalg.index ", d, " : index"));
          w.line(absl::StrCat(size, " = arith.constant ", param.shape[d],
                              " : index"));
          w.line(absl::StrCat(m, " = arith.muli ", j, ", ", size, " : index"));
          j = w.fresh("j");
          w.line(absl::StrCat(j, " = arith.addi ", m, ", ", k, " : index"));
        }
        auto toFloat = [&](const std::string &index) {
          std::string wide = w.fresh("w");
          w.line(absl::StrCat(wide, " = arith.index_cast ", index,
                              " : index to i64"));
          std::string fl = w.fresh("fi");
          w.line(absl::StrCat(fl, " = arith.sitofp ", wide, " : i64 to ", f));
          return fl;
        };
        std::string fi = toFloat(i), fj = toFloat(j);
        std::string ti = scalarOp(w, "arith.mulf", fi + ", %hash_ci");
        std::string tj = scalarOp(w, "arith.mulf", fj + ", %hash_cj");
        std::string arg =
            scalarOp(w, "arith.addf",
                     scalarOp(w, "arith.addf", ti + ", " + tj) + ", " + seed);
        std::string v = scalarOp(w, "arith.mulf",
                                 scalarOp(w, "math.sin", arg) + ", %hash_mul");
        std::string fract =
            scalarOp(w, "arith.subf", v + ", " + scalarOp(w, "math.floor", v));
        std::string h = scalarOp(w, "arith.subf", fract + ", %half");
        return scalarOp(w, "arith.mulf", h + ", " + scale);
      });
}

/// Names every Param's initial value and every Const's value.
std::vector<std::string> emitInitialValues(LoopState &s) {
  Writer &w = s.w;
  w.line("// ----- initial parameters ---------------------------------------");
  if (!s.spec.initFromModel) {
    constant(w, "hash_ci", "12.9898", w.elem, "");
    constant(w, "hash_cj", "78.233", w.elem, "");
    constant(w, "hash_mul", "43758.5453", w.elem, "");
    constant(w, "half", "0.5", w.elem, "");
  }
  std::vector<std::string> values(s.g.nodes.size());
  int weights = 0;
  for (size_t n = 0; n < s.g.nodes.size(); ++n) {
    const Node &node = s.g.nodes[n];
    if (node.kind == NodeKind::Const) {
      values[n] = w.fresh("k");
      w.line(absl::StrCat(values[n], " = arith.constant ", node.literal));
    } else if (node.kind == NodeKind::Param && s.spec.initFromModel) {
      values[n] = w.fresh(node.name + "_init");
      w.line(absl::StrCat(values[n], " = arith.constant ", node.literal));
    } else if (node.kind == NodeKind::Param && node.name[0] == 'W') {
      values[n] = emitHashInit(s, node, ++weights);
    } else if (node.kind == NodeKind::Param) {
      values[n] = w.filled(node.shape, "%zero", node.name + "_init");
    }
  }
  return values;
}

void emitLoss(LoopState &s, Pass &pass, const std::string &logits,
              const std::string &labels) {
  Writer &w = s.w;
  Dims shape = s.g.shapeAt(s.g.output, s.spec.batch);
  Dims rows = {shape[0]};
  std::string id = identityMap(2), row = "affine_map<(d0, d1) -> (d0)>";
  std::vector<std::string> reduce = {"parallel", "reduction"},
                           par = {"parallel", "parallel"};
  auto two = [](const char *op) {
    return [op](Writer &w, const std::vector<std::string> &a) {
      return scalarOp(w, op, a[0] + ", " + a[1]);
    };
  };
  w.line("// softmax cross-entropy: p = softmax(logits), dl = (p - y) / batch");
  std::string max = emitGeneric(w, "row_max", {{logits, shape, id}},
                                w.filled(rows, "%neg_inf"), rows, row, reduce,
                                two("arith.maximumf"));
  std::string exps = emitGeneric(
      w, "exps", {{logits, shape, id}, {max, rows, row}}, w.empty(shape), shape,
      id, par, [](Writer &w, const std::vector<std::string> &a) {
        return scalarOp(w, "math.exp",
                        scalarOp(w, "arith.subf", a[0] + ", " + a[1]));
      });
  std::string sum =
      emitGeneric(w, "row_sum", {{exps, shape, id}}, w.filled(rows, "%zero"),
                  rows, row, reduce, two("arith.addf"));
  std::string p =
      emitGeneric(w, "p", {{exps, shape, id}, {sum, rows, row}}, w.empty(shape),
                  shape, id, par, two("arith.divf"));
  pass.grad[s.g.output] = emitGeneric(
      w, "dl", {{p, shape, id}, {labels, shape, id}}, w.empty(shape), shape, id,
      par, [](Writer &w, const std::vector<std::string> &a) {
        std::string d = scalarOp(w, "arith.subf", a[0] + ", " + a[1]);
        return scalarOp(w, "arith.divf", d + ", %batch_f");
      });
}

} // namespace gevo::training
