//===- linalg_text.cc - Write linalg-on-tensors ops as MLIR text ----------===//

#include "gevo/frontend/linalg_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace gevo {

std::string affineMap(int rank, const std::vector<std::string> &results) {
  std::vector<std::string> dims;
  for (int i = 0; i < rank; ++i)
    dims.push_back(absl::StrCat("d", i));
  return absl::StrCat("affine_map<(", absl::StrJoin(dims, ", "), ") -> (",
                      absl::StrJoin(results, ", "), ")>");
}

std::string identityMap(int rank) {
  std::vector<std::string> results;
  for (int i = 0; i < rank; ++i)
    results.push_back(absl::StrCat("d", i));
  return affineMap(rank, results);
}

std::string broadcastMap(const Shape &operand, const Shape &out) {
  int rank = out.size(), offset = out.size() - operand.size();
  std::vector<std::string> results;
  for (size_t i = 0; i < operand.size(); ++i) {
    bool stretched = operand[i] == 1 && out[offset + i] != 1;
    results.push_back(stretched ? "0" : absl::StrCat("d", offset + i));
  }
  return affineMap(rank, results);
}

std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b) {
  Shape out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::string emitEmpty(ImportState &state, const Shape &shape) {
  std::string name = state.fresh();
  state.emit(absl::StrCat(name, " = tensor.empty() : ", tensorType(shape)));
  return name;
}

std::string emitFilled(ImportState &state, const Shape &shape, float value) {
  std::string empty = emitEmpty(state, shape);
  std::string constant = state.fresh();
  state.emit(absl::StrCat(constant, " = arith.constant ", floatLiteral(value),
                          " : f32"));
  std::string name = state.fresh();
  state.emit(absl::StrCat(name, " = linalg.fill ins(", constant,
                          " : f32) outs(", empty, " : ", tensorType(shape),
                          ") -> ", tensorType(shape)));
  return name;
}

std::string scalar(ImportState &state, const std::string &op,
                   const std::string &operands, const std::string &type) {
  std::string name = state.fresh();
  state.emitRaw(
      absl::StrCat("  ", name, " = ", op, " ", operands, " : ", type));
  return name;
}

std::string scalarConstant(ImportState &state, float value) {
  std::string name = state.fresh();
  state.emitRaw(absl::StrCat("  ", name, " = arith.constant ",
                             floatLiteral(value), " : f32"));
  return name;
}

std::string emitGeneric(ImportState &state,
                        const std::vector<GenericOperand> &inputs,
                        const GenericOperand &output,
                        const std::vector<std::string> &iterators,
                        const BodyWriter &body) {
  std::vector<std::string> maps, names, types, quoted, blockArgs, argNames;
  for (const GenericOperand &input : inputs) {
    maps.push_back(input.map);
    names.push_back(input.ssa);
    types.push_back(tensorType(input.shape));
  }
  maps.push_back(output.map);
  for (const std::string &iterator : iterators)
    quoted.push_back(absl::StrCat("\"", iterator, "\""));
  for (size_t i = 0; i <= inputs.size(); ++i) {
    argNames.push_back(state.fresh());
    blockArgs.push_back(argNames.back() + ": f32");
  }
  std::string result = state.fresh();
  std::string outType = tensorType(output.shape);
  state.emitRaw(absl::StrCat(
      result, " = linalg.generic {indexing_maps = [", absl::StrJoin(maps, ", "),
      "], iterator_types = [", absl::StrJoin(quoted, ", "), "]} ins(",
      absl::StrJoin(names, ", "), inputs.empty() ? "" : " : ",
      absl::StrJoin(types, ", "), ") outs(", output.ssa, " : ", outType,
      ") {"));
  state.emitRaw(absl::StrCat("^bb0(", absl::StrJoin(blockArgs, ", "), "):"));
  std::string yielded = body(state, argNames);
  state.emitRaw(absl::StrCat("  linalg.yield ", yielded, " : f32"));
  state.emit(absl::StrCat("} -> ", outType));
  return result;
}

std::string emitElementwise(ImportState &state,
                            const std::vector<GenericOperand> &inputs,
                            const Shape &outShape, const BodyWriter &body) {
  std::vector<GenericOperand> mapped = inputs;
  for (GenericOperand &input : mapped)
    input.map = broadcastMap(input.shape, outShape);
  GenericOperand output{emitEmpty(state, outShape), outShape,
                        identityMap(outShape.size())};
  return emitGeneric(state, mapped, output,
                     std::vector<std::string>(outShape.size(), "parallel"),
                     body);
}

namespace {

std::string allDims(size_t rank) {
  std::vector<int> dims;
  for (size_t i = 0; i < rank; ++i)
    dims.push_back(i);
  return absl::StrCat("[[", absl::StrJoin(dims, ", "), "]]");
}

} // namespace

std::string emitReshape(ImportState &state, const std::string &value,
                        const Shape &from, const Shape &to) {
  if (from == to)
    return value;
  std::string flat = value;
  Shape flatShape = {numElements(from)};
  if (from.size() != 1) {
    flat = state.fresh();
    // A rank-0 tensor expands with no groups.
    if (from.empty())
      state.emit(absl::StrCat(flat, " = tensor.expand_shape ", value,
                              " [] output_shape [1] : ", tensorType(from),
                              " into ", tensorType(flatShape)));
    else
      state.emit(absl::StrCat(flat, " = tensor.collapse_shape ", value, " ",
                              allDims(from.size()), " : ", tensorType(from),
                              " into ", tensorType(flatShape)));
  }
  if (to.size() == 1)
    return flat;
  std::string out = state.fresh();
  if (to.empty())
    state.emit(absl::StrCat(out, " = tensor.collapse_shape ", flat, " [] : ",
                            tensorType(flatShape), " into ", tensorType(to)));
  else
    state.emit(absl::StrCat(
        out, " = tensor.expand_shape ", flat, " ", allDims(to.size()),
        " output_shape [", absl::StrJoin(to, ", "),
        "] : ", tensorType(flatShape), " into ", tensorType(to)));
  return out;
}

std::string emitPad(ImportState &state, const std::string &value,
                    const Shape &shape, const std::vector<int64_t> &low,
                    const std::vector<int64_t> &high, float fill) {
  Shape padded = shape;
  std::vector<std::string> indices;
  for (size_t i = 0; i < shape.size(); ++i) {
    padded[i] += low[i] + high[i];
    indices.push_back(state.fresh() + ": index");
  }
  if (padded == shape)
    return value;
  std::string constant = state.fresh();
  state.emit(absl::StrCat(constant, " = arith.constant ", floatLiteral(fill),
                          " : f32"));
  std::string name = state.fresh();
  state.emitRaw(absl::StrCat(name, " = tensor.pad ", value, " low[",
                             absl::StrJoin(low, ", "), "] high[",
                             absl::StrJoin(high, ", "), "] {"));
  state.emitRaw(absl::StrCat("^bb0(", absl::StrJoin(indices, ", "), "):"));
  state.emitRaw(absl::StrCat("  tensor.yield ", constant, " : f32"));
  state.emit(
      absl::StrCat("} : ", tensorType(shape), " to ", tensorType(padded)));
  return name;
}

std::string emitTranspose(ImportState &state, const std::string &value,
                          const Shape &shape,
                          const std::vector<int64_t> &permutation) {
  Shape out;
  for (int64_t axis : permutation)
    out.push_back(shape[axis]);
  std::string init = emitEmpty(state, out);
  std::string name = state.fresh();
  state.emit(absl::StrCat(name, " = linalg.transpose ins(", value, " : ",
                          tensorType(shape), ") outs(", init, " : ",
                          tensorType(out), ") permutation = [",
                          absl::StrJoin(permutation, ", "), "]"));
  return name;
}

} // namespace gevo
