//===- ops_elementwise.cc - ONNX elementwise ops as linalg.generic --------===//
//
// Unary activations and math, binary arithmetic with numpy broadcasting,
// variadic Max/Min/Sum/Mean, Clip and PRelu: each one linalg.generic whose
// body is a few arith/math ops on f32.

#include "absl/strings/str_cat.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

using Args = const std::vector<std::string> &;

std::string one(ImportState &s, const char *op, const std::string &x) {
  return scalar(s, op, x);
}
std::string two(ImportState &s, const char *op, const std::string &x,
                const std::string &y) {
  return scalar(s, op, absl::StrCat(x, ", ", y));
}
std::string select(ImportState &s, const std::string &condition,
                   const std::string &x, const std::string &y) {
  return scalar(s, "arith.select", absl::StrCat(condition, ", ", x, ", ", y));
}
std::string positive(ImportState &s, const std::string &x) {
  std::string zero = scalarConstant(s, 0.0f);
  std::string name = s.fresh();
  s.emitRaw(
      absl::StrCat("  ", name, " = arith.cmpf ogt, ", x, ", ", zero, " : f32"));
  return name;
}
std::string sigmoid(ImportState &s, const std::string &x) {
  std::string e = one(s, "math.exp", one(s, "arith.negf", x));
  std::string oneValue = scalarConstant(s, 1.0f);
  return two(s, "arith.divf", oneValue, two(s, "arith.addf", oneValue, e));
}

/// erf(x) by Abramowitz and Stegun 7.1.26 (error under 1.5e-7): the
/// lowering pipelines leave math.erf unlowered.
std::string erf(ImportState &s, const std::string &x) {
  std::string a = one(s, "math.absf", x);
  std::string t =
      two(s, "arith.divf", scalarConstant(s, 1.0f),
          two(s, "arith.addf", scalarConstant(s, 1.0f),
              two(s, "arith.mulf", scalarConstant(s, 0.3275911f), a)));
  const float coefficients[] = {1.061405429f, -1.453152027f, 1.421413741f,
                                -0.284496736f, 0.254829592f};
  std::string poly = scalarConstant(s, coefficients[0]);
  for (int i = 1; i < 5; ++i)
    poly = two(s, "arith.addf", two(s, "arith.mulf", poly, t),
               scalarConstant(s, coefficients[i]));
  poly = two(s, "arith.mulf", poly, t);
  std::string gauss =
      one(s, "math.exp", one(s, "arith.negf", two(s, "arith.mulf", a, a)));
  std::string magnitude = two(s, "arith.subf", scalarConstant(s, 1.0f),
                              two(s, "arith.mulf", poly, gauss));
  return scalar(s, "math.copysign", absl::StrCat(magnitude, ", ", x));
}

/// The body of a unary op: x -> f(x); empty string when the type is unknown.
std::string unaryBody(ImportState &s, const std::string &x) {
  const std::string &type = s.node().op_type();
  if (type == "Relu")
    return two(s, "arith.maximumf", x, scalarConstant(s, 0.0f));
  if (type == "Sigmoid")
    return sigmoid(s, x);
  if (type == "HardSigmoid") {
    std::string y = two(
        s, "arith.addf",
        two(s, "arith.mulf", x, scalarConstant(s, s.floatAttr("alpha", 0.2f))),
        scalarConstant(s, s.floatAttr("beta", 0.5f)));
    y = two(s, "arith.minimumf", y, scalarConstant(s, 1.0f));
    return two(s, "arith.maximumf", y, scalarConstant(s, 0.0f));
  }
  if (type == "LeakyRelu")
    return select(s, positive(s, x), x,
                  two(s, "arith.mulf", x,
                      scalarConstant(s, s.floatAttr("alpha", 0.01f))));
  if (type == "Elu" || type == "Selu") {
    bool selu = type == "Selu";
    float alpha = s.floatAttr("alpha", selu ? 1.67326319217681884765625f : 1);
    std::string negative = two(
        s, "arith.mulf", scalarConstant(s, alpha),
        two(s, "arith.subf", one(s, "math.exp", x), scalarConstant(s, 1.0f)));
    std::string y = select(s, positive(s, x), x, negative);
    if (!selu)
      return y;
    return two(
        s, "arith.mulf", y,
        scalarConstant(s, s.floatAttr("gamma", 1.05070102214813232421875f)));
  }
  if (type == "Softplus")
    return one(s, "math.log1p", one(s, "math.exp", x));
  if (type == "Softsign")
    return two(
        s, "arith.divf", x,
        two(s, "arith.addf", scalarConstant(s, 1.0f), one(s, "math.absf", x)));
  if (type == "Erf")
    return erf(s, x);
  if (type == "Reciprocal")
    return two(s, "arith.divf", scalarConstant(s, 1.0f), x);
  static const std::map<std::string, const char *> plain = {
      {"Abs", "math.absf"},  {"Ceil", "math.ceil"},   {"Cos", "math.cos"},
      {"Exp", "math.exp"},   {"Floor", "math.floor"}, {"Log", "math.log"},
      {"Neg", "arith.negf"}, {"Sin", "math.sin"},     {"Sqrt", "math.sqrt"},
      {"Tanh", "math.tanh"}};
  auto found = plain.find(type);
  return found == plain.end() ? "" : one(s, found->second, x);
}

absl::Status defineElementwise(ImportState &state,
                               std::vector<TensorValue *> inputs,
                               const BodyWriter &body) {
  Shape out = inputs[0]->shape;
  std::vector<GenericOperand> operands;
  for (TensorValue *input : inputs) {
    std::optional<Shape> joined = broadcastShapes(out, input->shape);
    if (!joined)
      return state.error("input shapes do not broadcast");
    out = *joined;
  }
  for (TensorValue *input : inputs) {
    if (input->isInteger)
      return state.error("integer inputs are not supported");
    operands.push_back({state.use(*input), input->shape, ""});
  }
  return state.defineResult(out, emitElementwise(state, operands, out, body));
}

} // namespace

absl::Status importUnary(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  bool known = true;
  BodyWriter body = [&](ImportState &s, Args args) {
    std::string y = unaryBody(s, args[0]);
    known = !y.empty();
    return known ? y : args[0];
  };
  GEVO_RETURN_IF_ERROR(defineElementwise(state, {x}, body));
  if (!known)
    return state.error("no elementwise body for this op");
  return absl::OkStatus();
}

absl::Status importBinary(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * a, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * b, state.input(1));
  static const std::map<std::string, const char *> ops = {{"Add", "arith.addf"},
                                                          {"Sub", "arith.subf"},
                                                          {"Mul", "arith.mulf"},
                                                          {"Div", "arith.divf"},
                                                          {"Pow", "math.powf"}};
  const char *op = ops.at(state.node().op_type());
  return defineElementwise(state, {a, b}, [op](ImportState &s, Args args) {
    return two(s, op, args[0], args[1]);
  });
}

absl::Status importVariadic(ImportState &state) {
  std::vector<TensorValue *> inputs;
  for (int i = 0; i < state.node().input_size(); ++i) {
    GEVO_ASSIGN_OR_RETURN(TensorValue * input, state.input(i));
    inputs.push_back(input);
  }
  if (inputs.empty())
    return state.error("needs at least one input");
  const std::string type = state.node().op_type();
  const char *op = type == "Max"   ? "arith.maximumf"
                   : type == "Min" ? "arith.minimumf"
                                   : "arith.addf";
  size_t count = inputs.size();
  return defineElementwise(state, inputs, [=](ImportState &s, Args args) {
    std::string value = args[0];
    for (size_t i = 1; i < count; ++i)
      value = two(s, op, value, args[i]);
    if (type == "Mean")
      value = two(s, "arith.divf", value,
                  scalarConstant(s, static_cast<float>(count)));
    return value;
  });
}

absl::Status importClip(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  float low = -3.402823466e+38f, high = 3.402823466e+38f;
  if (state.opset() < 11) {
    low = state.floatAttr("min", low);
    high = state.floatAttr("max", high);
  } else {
    for (int i = 1; i <= 2; ++i) {
      if (!state.optionalInput(i))
        continue;
      GEVO_ASSIGN_OR_RETURN(std::vector<float> bound, state.knownFloats(i));
      if (bound.size() != 1)
        return state.error("a bound must be a scalar");
      (i == 1 ? low : high) = bound[0];
    }
  }
  return defineElementwise(state, {x}, [=](ImportState &s, Args args) {
    std::string y = two(s, "arith.maximumf", args[0], scalarConstant(s, low));
    return two(s, "arith.minimumf", y, scalarConstant(s, high));
  });
}

absl::Status importPRelu(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * x, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * slope, state.input(1));
  return defineElementwise(state, {x, slope}, [](ImportState &s, Args args) {
    return select(s, positive(s, args[0]), args[0],
                  two(s, "arith.mulf", args[0], args[1]));
  });
}

} // namespace gevo
