//===- ops_normalize.cc - ONNX softmax, reductions and batch norm ---------===//
//
// Reductions are linalg.generic ops with reduction iterators into a filled
// tensor; Softmax and LogSoftmax subtract the axis's max before exp, as
// frameworks do; BatchNormalization (inference) folds its statistics into a
// per-channel scale and shift at import time.

#include <cmath>

#include "absl/strings/str_cat.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

using Args = const std::vector<std::string> &;

/// The map from a rank-`rank` space to the dimensions not in `axes`.
std::string keptMap(int rank, const std::vector<bool> &reduced) {
  std::vector<std::string> results;
  for (int i = 0; i < rank; ++i)
    if (!reduced[i])
      results.push_back(absl::StrCat("d", i));
  return affineMap(rank, results);
}

Shape keptShape(const Shape &shape, const std::vector<bool> &reduced) {
  Shape out;
  for (size_t i = 0; i < shape.size(); ++i)
    if (!reduced[i])
      out.push_back(shape[i]);
  return out;
}

/// Reduces `x` over the marked dimensions with `op` from `start`.
std::string emitReduction(ImportState &state, const std::string &x,
                          const Shape &shape, const std::vector<bool> &reduced,
                          const char *op, float start) {
  int rank = shape.size();
  Shape out = keptShape(shape, reduced);
  std::vector<std::string> iterators;
  for (bool r : reduced)
    iterators.push_back(r ? "reduction" : "parallel");
  return emitGeneric(
      state, {{x, shape, identityMap(rank)}},
      {emitFilled(state, out, start), out, keptMap(rank, reduced)}, iterators,
      [op](ImportState &s, Args args) {
        return scalar(s, op, absl::StrCat(args[1], ", ", args[0]));
      });
}

/// Softmax (or its log) over dimension `axis` of `x`.
std::string emitSoftmax(ImportState &state, const std::string &x,
                        const Shape &shape, int axis, bool log) {
  int rank = shape.size();
  std::vector<bool> reduced(rank, false);
  reduced[axis] = true;
  Shape kept = keptShape(shape, reduced);
  std::string keptAffine = keptMap(rank, reduced);
  std::string max =
      emitReduction(state, x, shape, reduced, "arith.maximumf", -INFINITY);
  std::string init = emitEmpty(state, shape);
  std::vector<std::string> parallel(rank, "parallel");
  std::string shifted = emitGeneric(
      state, {{x, shape, identityMap(rank)}, {max, kept, keptAffine}},
      {init, shape, identityMap(rank)}, parallel,
      [](ImportState &s, Args args) {
        return scalar(s, "arith.subf", absl::StrCat(args[0], ", ", args[1]));
      });
  std::string exps = emitElementwise(
      state, {{shifted, shape, ""}}, shape,
      [](ImportState &s, Args args) { return scalar(s, "math.exp", args[0]); });
  std::string sum =
      emitReduction(state, exps, shape, reduced, "arith.addf", 0.0f);
  return emitGeneric(
      state,
      {{log ? shifted : exps, shape, identityMap(rank)},
       {sum, kept, keptAffine}},
      {emitEmpty(state, shape), shape, identityMap(rank)}, parallel,
      [log](ImportState &s, Args args) {
        if (!log)
          return scalar(s, "arith.divf", absl::StrCat(args[0], ", ", args[1]));
        return scalar(
            s, "arith.subf",
            absl::StrCat(args[0], ", ", scalar(s, "math.log", args[1])));
      });
}

} // namespace

absl::Status importSoftmax(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  int64_t rank = x->shape.size();
  bool log = state.node().op_type() == "LogSoftmax";
  int64_t axis = state.intAttr("axis", state.opset() < 13 ? 1 : -1);
  if (axis < -rank || axis >= rank || rank == 0)
    return state.error(absl::StrCat("axis ", axis, " is out of range"));
  if (axis < 0)
    axis += rank;
  TensorValue out;
  out.shape = x->shape;
  if (state.opset() < 13) {
    // Older opsets flatten to [outer, inner] at the axis.
    Shape outer(x->shape.begin(), x->shape.begin() + axis);
    Shape inner(x->shape.begin() + axis, x->shape.end());
    Shape flat = {numElements(outer), numElements(inner)};
    std::string flatValue = emitReshape(state, state.use(*x), x->shape, flat);
    std::string y = emitSoftmax(state, flatValue, flat, 1, log);
    out.ssa = emitReshape(state, y, flat, x->shape);
  } else {
    out.ssa = emitSoftmax(state, state.use(*x), x->shape, axis, log);
  }
  state.define(0, std::move(out));
  return absl::OkStatus();
}

absl::Status importReduce(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  int64_t rank = x->shape.size();
  std::vector<int64_t> axes = state.intsAttr("axes");
  if (!state.hasAttr("axes") && state.optionalInput(1)) {
    GEVO_ASSIGN_OR_RETURN(axes, state.knownInts(1));
  }
  bool keepDims = state.intAttr("keepdims", 1) != 0;
  std::vector<bool> reduced(rank, axes.empty());
  if (axes.empty() && state.intAttr("noop_with_empty_axes", 0)) {
    state.define(0, *x);
    return absl::OkStatus();
  }
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank)
      return state.error(absl::StrCat("axis ", axis, " is out of range"));
    reduced[axis < 0 ? axis + rank : axis] = true;
  }
  const std::string &type = state.node().op_type();
  const char *op = type == "ReduceMax"    ? "arith.maximumf"
                   : type == "ReduceMin"  ? "arith.minimumf"
                   : type == "ReduceProd" ? "arith.mulf"
                                          : "arith.addf";
  float start = type == "ReduceMax"    ? -INFINITY
                : type == "ReduceMin"  ? INFINITY
                : type == "ReduceProd" ? 1.0f
                                       : 0.0f;
  Shape kept = keptShape(x->shape, reduced);
  std::string input = state.use(*x);
  if (type == "ReduceL1" || type == "ReduceL2" || type == "ReduceSumSquare" ||
      type == "ReduceLogSumExp")
    input = emitElementwise(
        state, {{input, x->shape, ""}}, x->shape,
        [&type](ImportState &s, Args args) {
          if (type == "ReduceL1")
            return scalar(s, "math.absf", args[0]);
          if (type == "ReduceLogSumExp")
            return scalar(s, "math.exp", args[0]);
          return scalar(s, "arith.mulf", absl::StrCat(args[0], ", ", args[0]));
        });
  std::string y = emitReduction(state, input, x->shape, reduced, op, start);
  float count = static_cast<float>(numElements(x->shape) /
                                   std::max<int64_t>(1, numElements(kept)));
  if (type == "ReduceMean" || type == "ReduceL2" || type == "ReduceLogSum" ||
      type == "ReduceLogSumExp")
    y = emitElementwise(
        state, {{y, kept, ""}}, kept,
        [&type, count](ImportState &s, Args args) {
          if (type == "ReduceL2")
            return scalar(s, "math.sqrt", args[0]);
          if (type != "ReduceMean")
            return scalar(s, "math.log", args[0]);
          return scalar(s, "arith.divf",
                        absl::StrCat(args[0], ", ", scalarConstant(s, count)));
        });
  TensorValue out;
  out.shape = kept;
  if (keepDims) {
    out.shape.clear();
    for (int64_t i = 0; i < rank; ++i)
      out.shape.push_back(reduced[i] ? 1 : x->shape[i]);
  }
  out.ssa = emitReshape(state, y, kept, out.shape);
  state.define(0, std::move(out));
  return absl::OkStatus();
}

absl::Status importBatchNorm(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  if (state.intAttr("training_mode", 0))
    return state.error("training_mode is not supported (inference only)");
  if (x->shape.size() < 2)
    return state.error("the input needs a channel dimension");
  std::vector<float> parameters[4];
  for (int i = 0; i < 4; ++i) {
    GEVO_ASSIGN_OR_RETURN(parameters[i], state.knownFloats(i + 1));
  }
  int64_t channels = x->shape[1];
  for (const std::vector<float> &p : parameters)
    if (static_cast<int64_t>(p.size()) != channels)
      return state.error("a statistic's size is not the channel count");
  double epsilon = state.floatAttr("epsilon", 1e-5f);
  TensorValue scale, shift;
  scale.shape.assign(x->shape.size() - 1, 1);
  scale.shape[0] = channels;
  shift.shape = scale.shape;
  scale.floats.emplace();
  shift.floats.emplace();
  for (int64_t c = 0; c < channels; ++c) {
    double s = parameters[0][c] / std::sqrt(double(parameters[3][c]) + epsilon);
    scale.floats->push_back(static_cast<float>(s));
    shift.floats->push_back(
        static_cast<float>(parameters[1][c] - parameters[2][c] * s));
  }
  TensorValue out;
  out.shape = x->shape;
  out.ssa = emitElementwise(
      state,
      {{state.use(*x), x->shape, ""},
       {state.use(scale), scale.shape, ""},
       {state.use(shift), shift.shape, ""}},
      x->shape, [](ImportState &s, Args args) {
        return scalar(s, "arith.addf",
                      absl::StrCat(scalar(s, "arith.mulf",
                                          absl::StrCat(args[0], ", ", args[1])),
                                   ", ", args[2]));
      });
  state.define(0, std::move(out));
  return absl::OkStatus();
}

namespace {

/// LayerNormalization's optional outputs: the mean and 1/sqrt(var + eps)
/// over the normalised dimensions, kept as size-1 dimensions.
void defineStatistics(ImportState &state, const std::string &sum,
                      const std::string &squares, const Shape &kept,
                      const Shape &shape, const std::vector<bool> &reduced,
                      float count, float epsilon) {
  Shape withOnes;
  for (size_t i = 0; i < shape.size(); ++i)
    withOnes.push_back(reduced[i] ? 1 : shape[i]);
  for (int index = 1; index <= 2; ++index) {
    if (index >= state.node().output_size() ||
        state.node().output(index).empty())
      continue;
    bool mean = index == 1;
    std::string value = emitElementwise(
        state, {{mean ? sum : squares, kept, ""}}, kept,
        [=](ImportState &s, Args args) {
          std::string average =
              scalar(s, "arith.divf",
                     absl::StrCat(args[0], ", ", scalarConstant(s, count)));
          if (mean)
            return average;
          std::string deviation = scalar(
              s, "math.sqrt",
              scalar(s, "arith.addf",
                     absl::StrCat(average, ", ", scalarConstant(s, epsilon))));
          return scalar(s, "arith.divf",
                        absl::StrCat(scalarConstant(s, 1.0f), ", ", deviation));
        });
    TensorValue out;
    out.shape = withOnes;
    out.ssa = emitReshape(state, value, kept, withOnes);
    state.define(index, std::move(out));
  }
}

} // namespace

absl::Status importLayerNorm(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * scale, state.input(1));
  TensorValue *bias = state.optionalInput(2);
  int64_t rank = x->shape.size();
  int64_t axis = state.intAttr("axis", -1);
  if (axis < -rank || axis >= rank)
    return state.error(absl::StrCat("axis ", axis, " is out of range"));
  if (axis < 0)
    axis += rank;
  for (TensorValue *parameter : {scale, bias})
    if (parameter && broadcastShapes(parameter->shape, x->shape) != x->shape)
      return state.error("the scale or bias does not broadcast to the input");
  std::vector<bool> reduced(rank, false);
  for (int64_t i = axis; i < rank; ++i)
    reduced[i] = true;
  Shape kept = keptShape(x->shape, reduced);
  std::string keptAffine = keptMap(rank, reduced);
  float count = static_cast<float>(numElements(x->shape) /
                                   std::max<int64_t>(1, numElements(kept)));
  float epsilon = state.floatAttr("epsilon", 1e-5f);
  std::string input = state.use(*x);
  std::string sum =
      emitReduction(state, input, x->shape, reduced, "arith.addf", 0.0f);
  std::vector<std::string> parallel(rank, "parallel");
  std::string centered = emitGeneric(
      state, {{input, x->shape, identityMap(rank)}, {sum, kept, keptAffine}},
      {emitEmpty(state, x->shape), x->shape, identityMap(rank)}, parallel,
      [count](ImportState &s, Args args) {
        std::string mean =
            scalar(s, "arith.divf",
                   absl::StrCat(args[1], ", ", scalarConstant(s, count)));
        return scalar(s, "arith.subf", absl::StrCat(args[0], ", ", mean));
      });
  std::vector<std::string> iterators;
  for (bool r : reduced)
    iterators.push_back(r ? "reduction" : "parallel");
  std::string squares = emitGeneric(
      state, {{centered, x->shape, identityMap(rank)}},
      {emitFilled(state, kept, 0.0f), kept, keptAffine}, iterators,
      [](ImportState &s, Args args) {
        std::string square =
            scalar(s, "arith.mulf", absl::StrCat(args[0], ", ", args[0]));
        return scalar(s, "arith.addf", absl::StrCat(args[1], ", ", square));
      });
  std::vector<GenericOperand> inputs = {
      {centered, x->shape, identityMap(rank)},
      {squares, kept, keptAffine},
      {state.use(*scale), scale->shape, broadcastMap(scale->shape, x->shape)}};
  if (bias)
    inputs.push_back(
        {state.use(*bias), bias->shape, broadcastMap(bias->shape, x->shape)});
  TensorValue out;
  out.shape = x->shape;
  out.ssa = emitGeneric(
      state, inputs, {emitEmpty(state, x->shape), x->shape, identityMap(rank)},
      parallel, [count, epsilon, bias](ImportState &s, Args args) {
        std::string variance =
            scalar(s, "arith.divf",
                   absl::StrCat(args[1], ", ", scalarConstant(s, count)));
        std::string deviation = scalar(
            s, "math.sqrt",
            scalar(s, "arith.addf",
                   absl::StrCat(variance, ", ", scalarConstant(s, epsilon))));
        std::string y =
            scalar(s, "arith.mulf",
                   absl::StrCat(scalar(s, "arith.divf",
                                       absl::StrCat(args[0], ", ", deviation)),
                                ", ", args[2]));
        if (!bias)
          return y;
        return scalar(s, "arith.addf", absl::StrCat(y, ", ", args[3]));
      });
  state.define(0, std::move(out));
  defineStatistics(state, sum, squares, kept, x->shape, reduced, count,
                   epsilon);
  return absl::OkStatus();
}

} // namespace gevo
