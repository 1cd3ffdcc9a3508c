//===- ops_slice.cc - ONNX ops that take or pad parts of a tensor ---------===//
//
// Pad (constant mode) as tensor.pad, Slice with positive steps as
// tensor.extract_slice, and Gather of known indices: folded on known 1-D
// integer tensors (shape arithmetic), one slice of a float tensor otherwise.
// Bounds must be known at import time.

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {

absl::Status importPad(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  const onnx::AttributeProto *modeAttr = state.attr("mode");
  if (modeAttr && modeAttr->s() != "constant")
    return state.error(
        absl::StrCat("pad mode ", modeAttr->s(), " is not supported"));
  int64_t rank = x->shape.size();
  std::vector<int64_t> pads;
  float fill = 0.0f;
  if (state.opset() < 11) {
    pads = state.intsAttr("pads");
    fill = state.floatAttr("value", 0.0f);
  } else {
    GEVO_ASSIGN_OR_RETURN(pads, state.knownInts(1));
    if (state.optionalInput(2)) {
      GEVO_ASSIGN_OR_RETURN(std::vector<float> value, state.knownFloats(2));
      if (value.size() != 1)
        return state.error("constant_value must be a scalar");
      fill = value[0];
    }
  }
  std::vector<int64_t> axes;
  if (state.optionalInput(3)) {
    GEVO_ASSIGN_OR_RETURN(axes, state.knownInts(3));
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  if (pads.size() != 2 * axes.size())
    return state.error("pads must hold two sizes per padded axis");
  std::vector<int64_t> low(rank, 0), high(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    GEVO_ASSIGN_OR_RETURN(int64_t axis, state.axis(axes[i], rank));
    low[axis] = pads[i];
    high[axis] = pads[i + axes.size()];
    if (low[axis] < 0 || high[axis] < 0)
      return state.error("negative pads are not supported");
    if (low[axis] > kMaxImportElements || high[axis] > kMaxImportElements)
      return state.error("a pad is too large");
  }
  TensorValue out;
  out.shape = x->shape;
  for (int64_t i = 0; i < rank; ++i)
    out.shape[i] += low[i] + high[i];
  out.ssa = emitPad(state, state.use(*x), x->shape, low, high, fill);
  state.define(0, std::move(out));
  return absl::OkStatus();
}

namespace {

/// Slice's starts, ends, axes and steps: attributes before opset 10, known
/// inputs after.
struct SliceSpec {
  std::vector<int64_t> starts, ends, axes, steps;
};

absl::StatusOr<SliceSpec> readSlice(ImportState &state, int64_t rank) {
  SliceSpec spec;
  if (state.opset() < 10) {
    spec.starts = state.intsAttr("starts");
    spec.ends = state.intsAttr("ends");
    spec.axes = state.intsAttr("axes");
  } else {
    GEVO_ASSIGN_OR_RETURN(spec.starts, state.knownInts(1));
    GEVO_ASSIGN_OR_RETURN(spec.ends, state.knownInts(2));
    if (state.optionalInput(3)) {
      GEVO_ASSIGN_OR_RETURN(spec.axes, state.knownInts(3));
    }
    if (state.optionalInput(4)) {
      GEVO_ASSIGN_OR_RETURN(spec.steps, state.knownInts(4));
    }
  }
  if (spec.axes.empty())
    for (size_t i = 0; i < spec.starts.size(); ++i)
      spec.axes.push_back(i);
  if (spec.steps.empty())
    spec.steps.assign(spec.starts.size(), 1);
  if (spec.ends.size() != spec.starts.size() ||
      spec.axes.size() != spec.starts.size() ||
      spec.steps.size() != spec.starts.size())
    return state.error("starts, ends, axes and steps differ in length");
  for (int64_t &axis : spec.axes) {
    GEVO_ASSIGN_OR_RETURN(axis, state.axis(axis, rank));
  }
  return spec;
}

} // namespace

absl::Status importSlice(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  int64_t rank = x->shape.size();
  GEVO_ASSIGN_OR_RETURN(SliceSpec spec, readSlice(state, rank));
  std::vector<int64_t> offsets(rank, 0), sizes = x->shape, strides(rank, 1);
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    int64_t axis = spec.axes[i], size = x->shape[axis];
    int64_t step = spec.steps[i];
    if (step <= 0)
      return state.error("only positive steps are supported");
    if (step > kMaxImportElements)
      return state.error("a step is out of range");
    // Clamped first, so no bound a file gives can overflow.
    int64_t start = std::clamp<int64_t>(spec.starts[i], -size, size);
    int64_t end = std::clamp<int64_t>(spec.ends[i], -size, size);
    start += start < 0 ? size : 0;
    end += end < 0 ? size : 0;
    offsets[axis] = start;
    sizes[axis] = end > start ? (end - start + step - 1) / step : 0;
    strides[axis] = step;
  }
  if (numElements(sizes) == 0)
    return state.error("an empty slice is not supported");
  TensorValue out;
  out.shape = sizes;
  out.ssa = state.fresh();
  state.emit(absl::StrCat(
      out.ssa, " = tensor.extract_slice ", state.use(*x), "[",
      absl::StrJoin(offsets, ", "), "] [", absl::StrJoin(sizes, ", "), "] [",
      absl::StrJoin(strides, ", "), "] : ", tensorType(x->shape), " to ",
      tensorType(sizes)));
  state.define(0, std::move(out));
  return absl::OkStatus();
}

absl::Status importGather(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * data, state.input(0));
  GEVO_ASSIGN_OR_RETURN(std::vector<int64_t> indices, state.knownInts(1));
  GEVO_ASSIGN_OR_RETURN(TensorValue * indexValue, state.input(1));
  int64_t rank = data->shape.size();
  GEVO_ASSIGN_OR_RETURN(int64_t axis,
                        state.axis(state.intAttr("axis", 0), rank));
  int64_t size = data->shape[axis];
  for (int64_t &index : indices) {
    if (index < -size || index >= size)
      return state.error(absl::StrCat("index ", index, " is out of range"));
    if (index < 0)
      index += size;
  }
  // The output: data's shape with the axis replaced by the indices' shape.
  Shape out(data->shape.begin(), data->shape.begin() + axis);
  out.insert(out.end(), indexValue->shape.begin(), indexValue->shape.end());
  out.insert(out.end(), data->shape.begin() + axis + 1, data->shape.end());
  if (data->ints && rank == 1) {
    TensorValue folded;
    folded.isInteger = true;
    folded.shape = out;
    folded.ints.emplace();
    for (int64_t index : indices)
      folded.ints->push_back((*data->ints)[index]);
    state.define(0, std::move(folded));
    return absl::OkStatus();
  }
  if (data->isInteger || indices.size() != 1)
    return state.error("only one index into a float tensor, or indices into "
                       "a known 1-D integer tensor, are supported");
  std::vector<int64_t> offsets(rank, 0), sizes = data->shape, strides(rank, 1);
  offsets[axis] = indices[0];
  sizes[axis] = 1;
  std::string slice = state.fresh();
  state.emit(absl::StrCat(
      slice, " = tensor.extract_slice ", state.use(*data), "[",
      absl::StrJoin(offsets, ", "), "] [", absl::StrJoin(sizes, ", "), "] [",
      absl::StrJoin(strides, ", "), "] : ", tensorType(data->shape), " to ",
      tensorType(sizes)));
  return state.defineResult(out, emitReshape(state, slice, sizes, out));
}

} // namespace gevo
