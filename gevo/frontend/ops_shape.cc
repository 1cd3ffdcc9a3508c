//===- ops_shape.cc - ONNX ops that move data without computing -----------===//
//
// Identity-like ops (Identity, Dropout at inference, float-to-float Cast),
// Constant, Flatten/Reshape/Squeeze/Unsqueeze as one collapse + expand,
// Transpose, Concat as insert_slice ops, and Shape. Integer tensors known at
// import time (shapes, axes) are folded here and never reach the module.

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// `value` given `shape`: known data is only relabelled, a module value
/// reshaped.
TensorValue reshaped(ImportState &state, TensorValue &value,
                     const Shape &shape) {
  TensorValue out = value;
  out.shape = shape;
  if (value.known() && value.ssa.empty())
    return out;
  out.ssa = emitReshape(state, state.use(value), value.shape, shape);
  return out;
}

/// Axes from the attribute (older opsets) or input 1 (newer ones).
absl::StatusOr<std::vector<int64_t>> axesOf(ImportState &state) {
  if (state.hasAttr("axes"))
    return state.intsAttr("axes");
  if (state.optionalInput(1))
    return state.knownInts(1);
  return std::vector<int64_t>{};
}

} // namespace

absl::Status importIdentity(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  if (state.node().op_type() == "Dropout" && state.node().output_size() > 1 &&
      !state.node().output(1).empty())
    return state.error("Dropout's mask output is not supported");
  TensorValue out = *x;
  if (state.node().op_type() == "Cast") {
    int64_t to = state.intAttr("to", 0);
    bool toFloat =
        to == onnx::TensorProto::FLOAT || to == onnx::TensorProto::DOUBLE;
    bool toInt =
        to == onnx::TensorProto::INT64 || to == onnx::TensorProto::INT32;
    if (toFloat && x->ints && x->ssa.empty()) {
      out.floats.emplace(x->ints->begin(), x->ints->end());
      out.ints.reset();
      out.isInteger = false;
    } else if (toInt && x->ints) {
      // Integers stay integers.
    } else if (!toFloat || x->isInteger) {
      return state.error(
          absl::StrCat("a cast to element type ", to, " is not supported"));
    }
  }
  state.define(0, std::move(out));
  return absl::OkStatus();
}

absl::Status importConstant(ImportState &state) {
  TensorValue value;
  if (const onnx::AttributeProto *tensor = state.attr("value")) {
    absl::StatusOr<TensorValue> decoded = decodeTensor(tensor->t(), "");
    if (!decoded.ok())
      return state.error(std::string(decoded.status().message()));
    value = std::move(*decoded);
  } else if (const onnx::AttributeProto *f = state.attr("value_float")) {
    value.floats = std::vector<float>{f->f()};
  } else if (const onnx::AttributeProto *fs = state.attr("value_floats")) {
    value.floats.emplace(fs->floats().begin(), fs->floats().end());
    value.shape = {fs->floats_size()};
  } else if (const onnx::AttributeProto *i = state.attr("value_int")) {
    value.ints = std::vector<int64_t>{i->i()};
    value.isInteger = true;
  } else if (const onnx::AttributeProto *is = state.attr("value_ints")) {
    value.ints.emplace(is->ints().begin(), is->ints().end());
    value.shape = {is->ints_size()};
    value.isInteger = true;
  } else {
    return state.error("a Constant without a supported value attribute");
  }
  state.define(0, std::move(value));
  return absl::OkStatus();
}

absl::Status importFlatten(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  int64_t rank = x->shape.size();
  int64_t axis = state.intAttr("axis", 1);
  if (axis < -rank || axis > rank)
    return state.error(absl::StrCat("axis ", axis, " is out of range"));
  if (axis < 0)
    axis += rank;
  Shape outer(x->shape.begin(), x->shape.begin() + axis);
  Shape inner(x->shape.begin() + axis, x->shape.end());
  state.define(0,
               reshaped(state, *x, {numElements(outer), numElements(inner)}));
  return absl::OkStatus();
}

absl::Status importReshape(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  GEVO_ASSIGN_OR_RETURN(std::vector<int64_t> target, state.knownInts(1));
  bool allowZero = state.intAttr("allowzero", 0) != 0;
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowZero) {
      if (i >= x->shape.size())
        return state.error("a 0 in the shape has no input dimension to copy");
      target[i] = x->shape[i];
    }
    if (target[i] > kMaxImportElements)
      return state.error("the shape is too large");
    if (target[i] == -1) {
      if (inferred >= 0)
        return state.error("the shape has more than one -1");
      inferred = i;
    } else if (target[i] < 0) {
      return state.error("the shape has a negative size");
    } else {
      known *= target[i];
    }
  }
  int64_t count = numElements(x->shape);
  if (inferred >= 0)
    target[inferred] = known ? count / known : 0;
  if (numElements(target) != count)
    return state.error("the new shape holds another number of elements");
  state.define(0, reshaped(state, *x, target));
  return absl::OkStatus();
}

absl::Status importSqueeze(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  GEVO_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesOf(state));
  if (axes.size() > 64)
    return state.error("too many axes");
  bool unsqueeze = state.node().op_type() == "Unsqueeze";
  int64_t rank = x->shape.size() + (unsqueeze ? axes.size() : 0);
  for (int64_t &axis : axes) {
    GEVO_ASSIGN_OR_RETURN(axis, state.axis(axis, rank));
  }
  Shape out;
  if (unsqueeze) {
    auto next = x->shape.begin();
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(std::count(axes.begin(), axes.end(), i) ? 1 : *next++);
  } else {
    for (size_t i = 0; i < x->shape.size(); ++i) {
      bool listed = std::count(axes.begin(), axes.end(), int64_t(i)) > 0;
      if (listed && x->shape[i] != 1)
        return state.error("a squeezed dimension is not 1");
      if (!(listed || (axes.empty() && x->shape[i] == 1)))
        out.push_back(x->shape[i]);
    }
  }
  state.define(0, reshaped(state, *x, out));
  return absl::OkStatus();
}

absl::Status importTranspose(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  std::vector<int64_t> permutation = state.intsAttr("perm");
  int64_t rank = x->shape.size();
  if (permutation.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      permutation.push_back(i);
  std::vector<int64_t> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < rank; ++i)
    if (static_cast<int64_t>(sorted.size()) != rank || sorted[i] != i)
      return state.error("perm is not a permutation of the dimensions");
  TensorValue out;
  for (int64_t axis : permutation)
    out.shape.push_back(x->shape[axis]);
  out.ssa = emitTranspose(state, state.use(*x), x->shape, permutation);
  state.define(0, std::move(out));
  return absl::OkStatus();
}

absl::Status importConcat(ImportState &state) {
  std::vector<TensorValue *> inputs;
  bool allKnownInts = true;
  for (int i = 0; i < state.node().input_size(); ++i) {
    GEVO_ASSIGN_OR_RETURN(TensorValue * input, state.input(i));
    inputs.push_back(input);
    allKnownInts = allKnownInts && input->ints && input->shape.size() == 1;
  }
  if (inputs.empty())
    return state.error("needs at least one input");
  if (allKnownInts) {
    TensorValue out;
    out.isInteger = true;
    out.ints.emplace();
    for (TensorValue *input : inputs)
      out.ints->insert(out.ints->end(), input->ints->begin(),
                       input->ints->end());
    out.shape = {static_cast<int64_t>(out.ints->size())};
    state.define(0, std::move(out));
    return absl::OkStatus();
  }
  int64_t rank = inputs[0]->shape.size();
  GEVO_ASSIGN_OR_RETURN(int64_t axis,
                        state.axis(state.intAttr("axis", 0), rank));
  Shape out = inputs[0]->shape;
  out[axis] = 0;
  for (TensorValue *input : inputs) {
    if (static_cast<int64_t>(input->shape.size()) != rank)
      return state.error("inputs differ in rank");
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis && input->shape[i] != inputs[0]->shape[i])
        return state.error("inputs differ outside the concatenated axis");
    out[axis] += input->shape[axis];
  }
  std::string result = emitEmpty(state, out);
  int64_t offset = 0;
  for (TensorValue *input : inputs) {
    std::vector<int64_t> offsets(rank, 0), strides(rank, 1);
    offsets[axis] = offset;
    offset += input->shape[axis];
    std::string value = state.use(*input);
    std::string next = state.fresh();
    state.emit(absl::StrCat(
        next, " = tensor.insert_slice ", value, " into ", result, "[",
        absl::StrJoin(offsets, ", "), "] [", absl::StrJoin(input->shape, ", "),
        "] [", absl::StrJoin(strides, ", "), "] : ", tensorType(input->shape),
        " into ", tensorType(out)));
    result = next;
  }
  return state.defineResult(out, result);
}

absl::Status importShape(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  int64_t rank = x->shape.size();
  int64_t start = state.intAttr("start", 0), end = state.intAttr("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  TensorValue out;
  out.isInteger = true;
  out.ints.emplace();
  for (int64_t i = start; i < end; ++i)
    out.ints->push_back(x->shape[i]);
  out.shape = {static_cast<int64_t>(out.ints->size())};
  state.define(0, std::move(out));
  return absl::OkStatus();
}

} // namespace gevo
