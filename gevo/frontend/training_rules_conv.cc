//===- training_rules_conv.cc - Padding, 2-D convolution and pooling rules
//-===//
//
// Forward ops and reverse-mode rules for tensor.pad (the gradient is the
// unpadded slice), linalg.conv_2d_nchw_fchw (the filter's gradient a
// reduction over batch and positions; the input's a full convolution of the
// stride-dilated gradient with the flipped filter) and the max and sum pools
// (windows that tile the input in one op; overlapping ones per window offset).
//
//===----------------------------------------------------------------------===//

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_rules.h"

namespace gevo::training {
namespace {

std::string pairAttr(const std::vector<int64_t> &v) {
  return absl::StrCat("dense<[", absl::StrJoin(v, ", "), "]> : tensor<2xi64>");
}

std::string scalarValue(Writer &w, double value) {
  if (std::isinf(value))
    return value < 0 ? "%neg_inf" : "%pos_inf";
  return value == 0 ? "%zero"
                    : scalarOp(w, "arith.constant", floatLiteral(value));
}

std::string pad(Writer &w, const std::string &base, const std::string &x,
                const Dims &from, const std::vector<int64_t> &low,
                const std::vector<int64_t> &high, const std::string &value) {
  Dims to = from;
  for (size_t i = 0; i < to.size(); ++i)
    to[i] += low[i] + high[i];
  std::vector<std::string> args;
  for (size_t i = 0; i < to.size(); ++i)
    args.push_back(absl::StrCat(w.fresh("i"), ": index"));
  std::string name = w.fresh(base);
  w.line(absl::StrCat(name, " = tensor.pad ", x, " low[",
                      absl::StrJoin(low, ", "), "] high[",
                      absl::StrJoin(high, ", "), "] {"));
  w.line(absl::StrCat("^bb0(", absl::StrJoin(args, ", "), "):"));
  w.line(absl::StrCat("  tensor.yield ", value, " : ", w.elem));
  w.line(absl::StrCat("} : ", w.type(from), " to ", w.type(to)));
  return name;
}

std::string slice(Writer &w, const std::string &base, const std::string &x,
                  const Dims &from, const std::vector<int64_t> &offsets,
                  const Dims &sizes) {
  std::string name = w.fresh(base);
  w.line(absl::StrCat(name, " = tensor.extract_slice ", x, "[",
                      absl::StrJoin(offsets, ", "), "] [",
                      absl::StrJoin(sizes, ", "), "] [",
                      absl::StrJoin(std::vector<int>(sizes.size(), 1), ", "),
                      "] : ", w.type(from), " to ", w.type(sizes)));
  return name;
}

std::string conv(Writer &w, const std::string &base, const std::string &x,
                 const Dims &xs, const std::string &filter, const Dims &fs,
                 const Dims &out, const std::vector<int64_t> &strides) {
  std::string init = w.filled(out, "%zero");
  std::string name = w.fresh(base);
  w.line(absl::StrCat(
      name, " = linalg.conv_2d_nchw_fchw {dilations = ", pairAttr({1, 1}),
      ", strides = ", pairAttr(strides), "} ins(", x, ", ", filter, " : ",
      w.type(xs), ", ", w.type(fs), ") outs(", init, " : ", w.type(out),
      ") -> ", w.type(out)));
  return name;
}

const char *k7 = "affine_map<(d0, d1, d2, d3, d4, d5, d6) -> ";

/// dW[f, c, kh, kw] = sum over n, oh, ow of dy[n, f, oh, ow] *
/// x[n, c, oh * s0 + kh, ow * s1 + kw].
std::string filterGrad(Writer &w, const std::string &base,
                       const std::string &dy, const Dims &dyShape,
                       const std::string &x, const Dims &xShape,
                       const Dims &filter, const std::vector<int64_t> &s) {
  std::vector<GenericInput> ins = {
      {dy, dyShape, absl::StrCat(k7, "(d4, d0, d5, d6)>")},
      {x, xShape,
       absl::StrCat(k7, "(d4, d1, d5 * ", s[0], " + d2, d6 * ", s[1],
                    " + d3)>")}};
  std::vector<std::string> iterators(4, "parallel");
  iterators.insert(iterators.end(), 3, "reduction");
  return emitGeneric(w, base, ins, w.filled(filter, "%zero"), filter,
                     absl::StrCat(k7, "(d0, d1, d2, d3)>"), iterators,
                     [](Writer &w, const std::vector<std::string> &a) {
                       std::string p =
                           scalarOp(w, "arith.mulf", a[0] + ", " + a[1]);
                       return scalarOp(w, "arith.addf", p + ", " + a[2]);
                     });
}

/// dx = the stride-dilated dy, padded by the window less one (and whatever
/// rows and columns the strides never reached), convolved with the filter
/// flipped and its channels swapped.
std::string inputGrad(Writer &w, const std::string &base, std::string dy,
                      const Dims &dyShape, const std::string &filter,
                      const Dims &fs, const Dims &xShape,
                      const std::vector<int64_t> &s) {
  Dims dilated = dyShape;
  if (s[0] > 1 || s[1] > 1) {
    dilated[2] = (dyShape[2] - 1) * s[0] + 1;
    dilated[3] = (dyShape[3] - 1) * s[1] + 1;
    std::string zeros = w.filled(dilated, "%zero");
    std::string name = w.fresh("dilated");
    w.line(absl::StrCat(name, " = tensor.insert_slice ", dy, " into ", zeros,
                        "[0, 0, 0, 0] [", absl::StrJoin(dyShape, ", "),
                        "] [1, 1, ", s[0], ", ", s[1], "] : ", w.type(dyShape),
                        " into ", w.type(dilated)));
    dy = name;
  }
  std::vector<int64_t> low = {0, 0, fs[2] - 1, fs[3] - 1};
  std::vector<int64_t> high = {0, 0, xShape[2] - dilated[2],
                               xShape[3] - dilated[3]};
  std::string padded = pad(w, "dpadded", dy, dilated, low, high, "%zero");
  Dims flippedShape = {fs[1], fs[0], fs[2], fs[3]};
  std::string flipped = emitGeneric(
      w, "flipped",
      {{filter, fs,
        absl::StrCat("affine_map<(d0, d1, d2, d3) -> (d1, d0, ", fs[2] - 1,
                     " - d2, ", fs[3] - 1, " - d3)>")}},
      w.empty(flippedShape), flippedShape, identityMap(4),
      std::vector<std::string>(4, "parallel"),
      [](Writer &, const std::vector<std::string> &a) { return a[0]; });
  Dims paddedShape = dilated;
  for (int i = 2; i < 4; ++i)
    paddedShape[i] += low[i] + high[i];
  return conv(w, base, padded, paddedShape, flipped, flippedShape, xShape,
              {1, 1});
}

/// The index (row-major in the window) of each window's first maximum, as
/// a float: where PyTorch's max pool sends the window's gradient.
std::string firstMaxima(Writer &w, const Node &node, const std::string &x,
                        const Dims &xShape, const std::string &y,
                        const Dims &yShape) {
  const char *k6 = "affine_map<(d0, d1, d2, d3, d4, d5) -> ";
  std::vector<GenericInput> ins = {
      {x, xShape,
       absl::StrCat(k6, "(d0, d1, d2 * ", node.strides[0], " + d4, d3 * ",
                    node.strides[1], " + d5)>")},
      {y, yShape, absl::StrCat(k6, "(d0, d1, d2, d3)>")},
      // The window's extent, as the pooling op reads it.
      {w.empty(node.window), node.window, absl::StrCat(k6, "(d4, d5)>")}};
  std::vector<std::string> iterators(4, "parallel");
  iterators.insert(iterators.end(), 2, "reduction");
  std::string none = scalarOp(w, "arith.constant",
                              floatLiteral(node.window[0] * node.window[1]));
  return emitGeneric(
      w, "first_max", ins, w.filled(yShape, none), yShape,
      absl::StrCat(k6, "(d0, d1, d2, d3)>"), iterators,
      [&](Writer &w, const std::vector<std::string> &a) {
        std::string i = w.fresh("i"), j = w.fresh("j"), k = w.fresh("k");
        w.line(absl::StrCat(i, " = linalg.index 4 : index"));
        w.line(absl::StrCat(j, " = linalg.index 5 : index"));
        std::string width = w.fresh("n");
        w.line(absl::StrCat(width, " = arith.constant ", node.window[1],
                            " : index"));
        std::string row = w.fresh("m");
        w.line(absl::StrCat(row, " = arith.muli ", i, ", ", width, " : index"));
        w.line(absl::StrCat(k, " = arith.addi ", row, ", ", j, " : index"));
        std::string wide = w.fresh("w"), index = w.fresh("fk");
        w.line(
            absl::StrCat(wide, " = arith.index_cast ", k, " : index to i64"));
        w.line(absl::StrCat(index, " = arith.sitofp ", wide, " : i64 to ",
                            w.elem));
        std::string hit = scalarOp(w, "arith.cmpf oeq,", a[0] + ", " + a[1]);
        std::string candidate = scalarOp(
            w, "arith.select", absl::StrCat(hit, ", ", index, ", ", none));
        return scalarOp(w, "arith.minimumf", candidate + ", " + a[3]);
      });
}

/// The position's index in its window, as a float (inside a body over the
/// covered input).
std::string indexInWindow(Writer &w, const Node &node) {
  std::string h = w.fresh("h"), c = w.fresh("c"), s0 = w.fresh("s"),
              s1 = w.fresh("s"), width = w.fresh("n");
  w.line(absl::StrCat(h, " = linalg.index 2 : index"));
  w.line(absl::StrCat(c, " = linalg.index 3 : index"));
  w.line(absl::StrCat(s0, " = arith.constant ", node.strides[0], " : index"));
  w.line(absl::StrCat(s1, " = arith.constant ", node.strides[1], " : index"));
  w.line(absl::StrCat(width, " = arith.constant ", node.window[1], " : index"));
  std::string i = w.fresh("i"), j = w.fresh("j"), m = w.fresh("m"),
              k = w.fresh("k"), wide = w.fresh("w"), f = w.fresh("fk");
  w.line(absl::StrCat(i, " = arith.remui ", h, ", ", s0, " : index"));
  w.line(absl::StrCat(j, " = arith.remui ", c, ", ", s1, " : index"));
  w.line(absl::StrCat(m, " = arith.muli ", i, ", ", width, " : index"));
  w.line(absl::StrCat(k, " = arith.addi ", m, ", ", j, " : index"));
  w.line(absl::StrCat(wide, " = arith.index_cast ", k, " : index to i64"));
  w.line(absl::StrCat(f, " = arith.sitofp ", wide, " : i64 to ", w.elem));
  return f;
}

/// The pool's gradient for any strides: for each offset in the window,
/// the windows' gradients (a max pool's: where that offset is the window's
/// first maximum) placed at their input positions and summed.
std::string generalPoolGrad(Writer &w, const Graph &g, int n, Pass &pass,
                            const std::string &base) {
  const Node &node = g.nodes[n];
  int a = node.operands[0];
  Dims xShape = g.shapeAt(a, pass.batch), yShape = g.shapeAt(n, pass.batch);
  bool max = node.kind == NodeKind::MaxPool;
  std::string first =
      max ? firstMaxima(w, node, pass.value[a], xShape, pass.value[n], yShape)
          : std::string();
  std::string sum;
  for (int64_t kh = 0; kh < node.window[0]; ++kh)
    for (int64_t kw = 0; kw < node.window[1]; ++kw) {
      std::string part = pass.grad[n];
      if (max) {
        std::string offset = scalarOp(w, "arith.constant",
                                      floatLiteral(kh * node.window[1] + kw));
        part = emitGeneric(
            w, "routed",
            {{pass.grad[n], yShape, identityMap(4)},
             {first, yShape, identityMap(4)}},
            w.empty(yShape), yShape, identityMap(4),
            std::vector<std::string>(4, "parallel"),
            [&](Writer &w, const std::vector<std::string> &args) {
              std::string hit =
                  scalarOp(w, "arith.cmpf oeq,", args[1] + ", " + offset);
              return scalarOp(w, "arith.select",
                              absl::StrCat(hit, ", ", args[0], ", %zero"));
            });
      }
      std::string zeros = w.filled(xShape, "%zero");
      std::string placed = w.fresh("placed");
      w.line(absl::StrCat(placed, " = tensor.insert_slice ", part, " into ",
                          zeros, "[0, 0, ", kh, ", ", kw, "] [",
                          absl::StrJoin(yShape, ", "), "] [1, 1, ",
                          node.strides[0], ", ", node.strides[1],
                          "] : ", w.type(yShape), " into ", w.type(xShape)));
      if (sum.empty()) {
        sum = placed;
        continue;
      }
      sum = emitGeneric(
          w, base,
          {{sum, xShape, identityMap(4)}, {placed, xShape, identityMap(4)}},
          w.empty(xShape), xShape, identityMap(4),
          std::vector<std::string>(4, "parallel"),
          [](Writer &w, const std::vector<std::string> &args) {
            return scalarOp(w, "arith.addf", args[0] + ", " + args[1]);
          });
    }
  return sum;
}

/// The pool's gradient: each input position in a window gets the window's
/// gradient (a max pool: only its first maximum, as PyTorch does).
std::string poolGrad(Writer &w, const Graph &g, int n, Pass &pass,
                     const std::string &base) {
  const Node &node = g.nodes[n];
  int a = node.operands[0];
  Dims xShape = g.shapeAt(a, pass.batch), yShape = g.shapeAt(n, pass.batch);
  Dims covered = {xShape[0], xShape[1], yShape[2] * node.strides[0],
                  yShape[3] * node.strides[1]};
  std::string window =
      absl::StrCat("affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv ",
                   node.strides[0], ", d3 floordiv ", node.strides[1], ")>");
  std::vector<GenericInput> ins = {{pass.grad[n], yShape, window}};
  bool max = node.kind == NodeKind::MaxPool;
  if (max)
    ins.push_back(
        {firstMaxima(w, node, pass.value[a], xShape, pass.value[n], yShape),
         yShape, window});
  std::string grad = emitGeneric(
      w, base, ins, w.empty(covered), covered, identityMap(4),
      std::vector<std::string>(4, "parallel"),
      [&](Writer &w, const std::vector<std::string> &args) {
        if (!max)
          return args[0];
        std::string here = indexInWindow(w, node);
        std::string hit = scalarOp(w, "arith.cmpf oeq,", here + ", " + args[1]);
        return scalarOp(w, "arith.select",
                        absl::StrCat(hit, ", ", args[0], ", %zero"));
      });
  if (covered == xShape)
    return grad;
  return pad(w, base, grad, covered, {0, 0, 0, 0},
             {0, 0, xShape[2] - covered[2], xShape[3] - covered[3]}, "%zero");
}

} // namespace

void emitWindowForward(Writer &w, const Graph &g, int n, Pass &pass) {
  const Node &node = g.nodes[n];
  int a = node.operands[0];
  Dims in = g.shapeAt(a, pass.batch), out = g.shapeAt(n, pass.batch);
  std::string &v = pass.value[n];
  if (node.kind == NodeKind::Pad) {
    v = pad(w, node.name, pass.value[a], in, node.low, node.high,
            scalarValue(w, node.padValue));
  } else if (node.kind == NodeKind::Conv) {
    int f = node.operands[1];
    v = conv(w, node.name, pass.value[a], in, pass.value[f],
             g.shapeAt(f, pass.batch), out, node.strides);
  } else {
    bool max = node.kind == NodeKind::MaxPool;
    std::string init = w.filled(out, max ? "%neg_inf" : "%zero");
    std::string window = w.empty(node.window);
    v = w.fresh(node.name);
    w.line(absl::StrCat(v, " = linalg.pooling_nchw_", max ? "max" : "sum",
                        " {dilations = ", pairAttr({1, 1}),
                        ", strides = ", pairAttr(node.strides), "} ins(",
                        pass.value[a], ", ", window, " : ", w.type(in), ", ",
                        w.type(node.window), ") outs(", init, " : ",
                        w.type(out), ") -> ", w.type(out)));
  }
}

void emitWindowBackward(
    Writer &w, const Graph &g, int n, Pass &pass,
    const std::function<void(int, const std::string &)> &accumulate) {
  const Node &node = g.nodes[n];
  int a = node.operands[0];
  Dims in = g.shapeAt(a, pass.batch), out = g.shapeAt(n, pass.batch);
  std::string base = absl::StrCat("d", g.nodes[a].name);
  if (node.kind == NodeKind::Pad) {
    if (g.nodes[a].needsGrad)
      accumulate(a, slice(w, base, pass.grad[n], out, node.low, in));
    return;
  }
  if (node.kind != NodeKind::Conv) {
    if (g.nodes[a].needsGrad)
      accumulate(a, node.window == node.strides
                        ? poolGrad(w, g, n, pass, base)
                        : generalPoolGrad(w, g, n, pass, base));
    return;
  }
  int f = node.operands[1];
  Dims fs = g.shapeAt(f, pass.batch);
  if (g.nodes[f].needsGrad)
    accumulate(f,
               filterGrad(w, absl::StrCat("d", g.nodes[f].name), pass.grad[n],
                          out, pass.value[a], in, fs, node.strides));
  if (g.nodes[a].needsGrad)
    accumulate(a, inputGrad(w, base, pass.grad[n], out, pass.value[f], fs, in,
                            node.strides));
}

} // namespace gevo::training
