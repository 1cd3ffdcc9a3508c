//===- ops_conv.cc - ONNX Conv and pooling as linalg convolution ops ------===//
//
// 2-D NCHW only. Padding is a tensor.pad (zeros for Conv and average pools,
// -inf for max pools); Conv with one group is linalg.conv_2d_nchw_fchw and a
// grouped one a linalg.generic; pools are linalg.pooling_nchw_max/sum, an
// average divided by how many elements each window really held.

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// Where a 2-D window goes: pads (top, left, bottom, right), strides,
/// dilations, and the output's height and width.
struct Window {
  int64_t kernel[2] = {1, 1};
  int64_t pads[4] = {0, 0, 0, 0};
  int64_t strides[2] = {1, 1};
  int64_t dilations[2] = {1, 1};
  int64_t out[2] = {1, 1};
};

absl::StatusOr<Window> readWindow(ImportState &state, const Shape &input,
                                  const Shape &kernel) {
  Window w;
  for (int i = 0; i < 2; ++i)
    w.kernel[i] = kernel[i];
  std::vector<int64_t> pads = state.intsAttr("pads");
  std::vector<int64_t> strides = state.intsAttr("strides");
  std::vector<int64_t> dilations = state.intsAttr("dilations");
  if ((!pads.empty() && pads.size() != 4) ||
      (!strides.empty() && strides.size() != 2) ||
      (!dilations.empty() && dilations.size() != 2))
    return state.error("only 2-D windows are supported");
  for (int i = 0; i < 4 && !pads.empty(); ++i)
    w.pads[i] = pads[i];
  for (int i = 0; i < 2; ++i) {
    if (!strides.empty())
      w.strides[i] = strides[i];
    if (!dilations.empty())
      w.dilations[i] = dilations[i];
    if (w.strides[i] < 1 || w.dilations[i] < 1)
      return state.error("strides and dilations must be positive");
  }
  // Window sizes a model could have; beyond them the arithmetic below could
  // overflow on a hostile file's attributes.
  const int64_t kMaxWindow = int64_t(1) << 20;
  for (int i = 0; i < 4; ++i)
    if (w.pads[i] < 0 || w.pads[i] > kMaxWindow ||
        (i < 2 && (w.kernel[i] < 1 || w.kernel[i] > kMaxWindow ||
                   w.strides[i] > kMaxWindow || w.dilations[i] > kMaxWindow)))
      return state.error("a kernel size, pad, stride or dilation is out of "
                         "range");
  const onnx::AttributeProto *autoPad = state.attr("auto_pad");
  std::string mode = autoPad ? autoPad->s() : "NOTSET";
  bool ceil = state.intAttr("ceil_mode", 0) != 0;
  for (int i = 0; i < 2; ++i) {
    int64_t size = input[2 + i];
    int64_t extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      int64_t out = (size + w.strides[i] - 1) / w.strides[i];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * w.strides[i] + extent - size);
      int64_t small = total / 2, large = total - small;
      w.pads[i] = mode == "SAME_UPPER" ? small : large;
      w.pads[i + 2] = mode == "SAME_UPPER" ? large : small;
    } else if (mode == "VALID") {
      w.pads[i] = w.pads[i + 2] = 0;
    } else if (mode != "NOTSET") {
      return state.error(absl::StrCat("auto_pad ", mode, " is not supported"));
    }
    int64_t span = size + w.pads[i] + w.pads[i + 2] - extent;
    if (span < 0)
      return state.error("the window is larger than the padded input");
    w.out[i] = (ceil ? (span + w.strides[i] - 1) / w.strides[i]
                     : span / w.strides[i]) +
               1;
    // ceil_mode: a last window may start in the padding; pad up to it.
    int64_t needed = (w.out[i] - 1) * w.strides[i] + extent;
    int64_t have = size + w.pads[i] + w.pads[i + 2];
    if (needed > have)
      w.pads[i + 2] += needed - have;
  }
  return w;
}

std::string pairAttr(const int64_t values[2]) {
  return absl::StrCat("dense<[", values[0], ", ", values[1],
                      "]> : tensor<2xi64>");
}

/// `x` padded by the window's pads with `value`; its shape in `shape`.
std::string padWindow(ImportState &state, const std::string &x, Shape &shape,
                      const Window &w, float value) {
  std::string padded = emitPad(state, x, shape, {0, 0, w.pads[0], w.pads[1]},
                               {0, 0, w.pads[2], w.pads[3]}, value);
  shape[2] += w.pads[0] + w.pads[2];
  shape[3] += w.pads[1] + w.pads[3];
  return padded;
}

/// A grouped convolution as a generic over (n, f, oh, ow, c, kh, kw).
std::string groupedConv(ImportState &state, const std::string &x,
                        const Shape &xShape, const std::string &weights,
                        const Shape &wShape, const Window &w, int64_t groups,
                        const std::string &init, const Shape &out) {
  int64_t perGroupOut = wShape[0] / groups, perGroupIn = wShape[1];
  std::string channel =
      absl::StrCat("(d1 floordiv ", perGroupOut, ") * ", perGroupIn, " + d4");
  std::string row =
      absl::StrCat("d2 * ", w.strides[0], " + d5 * ", w.dilations[0]);
  std::string column =
      absl::StrCat("d3 * ", w.strides[1], " + d6 * ", w.dilations[1]);
  std::vector<std::string> iterators = {"parallel", "parallel",  "parallel",
                                        "parallel", "reduction", "reduction",
                                        "reduction"};
  return emitGeneric(
      state,
      {{x, xShape, affineMap(7, {"d0", channel, row, column})},
       {weights, wShape, affineMap(7, {"d1", "d4", "d5", "d6"})}},
      {init, out, affineMap(7, {"d0", "d1", "d2", "d3"})}, iterators,
      [](ImportState &s, const std::vector<std::string> &args) {
        std::string product =
            scalar(s, "arith.mulf", absl::StrCat(args[0], ", ", args[1]));
        return scalar(s, "arith.addf", absl::StrCat(args[2], ", ", product));
      });
}

std::string addChannelBias(ImportState &state, const std::string &y,
                           const Shape &out, TensorValue &bias) {
  TensorValue shaped = bias;
  shaped.shape = {bias.shape[0], 1, 1};
  std::string biasValue =
      bias.known() && bias.ssa.empty()
          ? state.use(shaped)
          : emitReshape(state, state.use(bias), bias.shape, shaped.shape);
  return emitElementwise(
      state, {{y, out, ""}, {biasValue, shaped.shape, ""}}, out,
      [](ImportState &s, const std::vector<std::string> &args) {
        return scalar(s, "arith.addf", absl::StrCat(args[0], ", ", args[1]));
      });
}

} // namespace

absl::Status importConv(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * weights, state.input(1));
  if (x->shape.size() != 4 || weights->shape.size() != 4)
    return state.error("only 2-D convolutions (NCHW) are supported");
  int64_t groups = state.intAttr("group", 1);
  if (groups < 1 || x->shape[1] != weights->shape[1] * groups ||
      weights->shape[0] % groups != 0)
    return state.error("the channels do not fit the weights and groups");
  GEVO_ASSIGN_OR_RETURN(
      Window w,
      readWindow(state, x->shape, {weights->shape[2], weights->shape[3]}));
  Shape xShape = x->shape;
  std::string padded = padWindow(state, state.use(*x), xShape, w, 0.0f);
  Shape out = {x->shape[0], weights->shape[0], w.out[0], w.out[1]};
  std::string init = emitFilled(state, out, 0.0f);
  std::string y;
  if (groups == 1) {
    y = state.fresh();
    state.emit(absl::StrCat(
        y, " = linalg.conv_2d_nchw_fchw {dilations = ", pairAttr(w.dilations),
        ", strides = ", pairAttr(w.strides), "} ins(", padded, ", ",
        state.use(*weights), " : ", tensorType(xShape), ", ",
        tensorType(weights->shape), ") outs(", init, " : ", tensorType(out),
        ") -> ", tensorType(out)));
  } else {
    y = groupedConv(state, padded, xShape, state.use(*weights), weights->shape,
                    w, groups, init, out);
  }
  if (TensorValue *bias = state.optionalInput(2)) {
    if (bias->shape != Shape{weights->shape[0]})
      return state.error("the bias does not hold one value per filter");
    y = addChannelBias(state, y, out, *bias);
  }
  return state.defineResult(out, y);
}

absl::Status importPool(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  if (x->shape.size() != 4)
    return state.error("only 2-D pooling (NCHW) is supported");
  if (state.node().output_size() > 1 && !state.node().output(1).empty())
    return state.error("the Indices output is not supported");
  std::vector<int64_t> kernel = state.intsAttr("kernel_shape");
  if (kernel.size() != 2)
    return state.error("kernel_shape must have two sizes");
  bool isMax = state.node().op_type() == "MaxPool";
  if (!isMax && state.intAttr("ceil_mode", 0))
    return state.error("AveragePool with ceil_mode is not supported");
  GEVO_ASSIGN_OR_RETURN(Window w, readWindow(state, x->shape, kernel));
  float padValue = isMax ? -INFINITY : 0.0f;
  Shape xShape = x->shape;
  std::string padded = padWindow(state, state.use(*x), xShape, w, padValue);
  Shape out = {x->shape[0], x->shape[1], w.out[0], w.out[1]};
  if (!withinImportLimit(out))
    return state.error("the pooled tensor would be too large");
  std::string init = emitFilled(state, out, padValue);
  std::string window = emitEmpty(state, {kernel[0], kernel[1]});
  std::string y = state.fresh();
  state.emit(absl::StrCat(y, " = linalg.pooling_nchw_", isMax ? "max" : "sum",
                          " {dilations = ", pairAttr(w.dilations),
                          ", strides = ", pairAttr(w.strides), "} ins(", padded,
                          ", ", window, " : ", tensorType(xShape), ", ",
                          tensorType({kernel[0], kernel[1]}), ") outs(", init,
                          " : ", tensorType(out), ") -> ", tensorType(out)));
  if (!isMax) {
    // Each output's divisor: the window's size, or (count_include_pad 0)
    // how many of its elements lie inside the unpadded input.
    bool includePad = state.intAttr("count_include_pad", 0) != 0;
    TensorValue counts;
    counts.shape = {w.out[0], w.out[1]};
    counts.floats.emplace();
    for (int64_t i = 0; i < w.out[0]; ++i)
      for (int64_t j = 0; j < w.out[1]; ++j) {
        int64_t inside = 0;
        for (int64_t a = 0; a < kernel[0]; ++a)
          for (int64_t b = 0; b < kernel[1]; ++b) {
            int64_t r = i * w.strides[0] + a * w.dilations[0] - w.pads[0];
            int64_t c = j * w.strides[1] + b * w.dilations[1] - w.pads[1];
            inside += includePad ||
                      (r >= 0 && r < x->shape[2] && c >= 0 && c < x->shape[3]);
          }
        counts.floats->push_back(static_cast<float>(inside));
      }
    y = emitElementwise(
        state, {{y, out, ""}, {state.use(counts), counts.shape, ""}}, out,
        [](ImportState &s, const std::vector<std::string> &args) {
          return scalar(s, "arith.divf", absl::StrCat(args[0], ", ", args[1]));
        });
  }
  return state.defineResult(out, y);
}

absl::Status importGlobalPool(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  if (x->shape.size() != 4)
    return state.error("only 2-D pooling (NCHW) is supported");
  bool isMax = state.node().op_type() == "GlobalMaxPool";
  Shape out = {x->shape[0], x->shape[1], 1, 1}, reduced = {out[0], out[1]};
  std::string init = emitFilled(state, reduced, isMax ? -INFINITY : 0.0f);
  std::string y = emitGeneric(
      state, {{state.use(*x), x->shape, identityMap(4)}},
      {init, reduced, affineMap(4, {"d0", "d1"})},
      {"parallel", "parallel", "reduction", "reduction"},
      [isMax](ImportState &s, const std::vector<std::string> &args) {
        return scalar(s, isMax ? "arith.maximumf" : "arith.addf",
                      absl::StrCat(args[1], ", ", args[0]));
      });
  if (!isMax) {
    float count = static_cast<float>(x->shape[2] * x->shape[3]);
    y = emitElementwise(
        state, {{y, reduced, ""}}, reduced,
        [count](ImportState &s, const std::vector<std::string> &args) {
          return scalar(s, "arith.divf",
                        absl::StrCat(args[0], ", ", scalarConstant(s, count)));
        });
  }
  return state.defineResult(out, emitReshape(state, y, reduced, out));
}

} // namespace gevo
