//===- training_text.cc - MLIR text the training generator writes ---------===//
//
// Types, literals, maps, fresh names and the linalg.generic every gradient
// rule and optimiser step is written with.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_graph.h"

namespace gevo::training {

std::string tensorType(const Dims &shape, const std::string &elem) {
  std::string text = "tensor<";
  for (int64_t d : shape)
    absl::StrAppend(&text, d, "x");
  return absl::StrCat(text, elem, ">");
}

std::string floatLiteral(double value) {
  char buffer[64];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos)
    text += ".0";
  else if (text.find('.') == std::string::npos &&
           text.find('e') != std::string::npos)
    text.insert(text.find('e'), ".0");
  return text;
}

std::string identityMap(size_t rank) {
  std::vector<std::string> dims;
  for (size_t i = 0; i < rank; ++i)
    dims.push_back(absl::StrCat("d", i));
  std::string list = absl::StrJoin(dims, ", ");
  return absl::StrCat("affine_map<(", list, ") -> (", list, ")>");
}

std::string Writer::fresh(const std::string &base) {
  int &count = used[base];
  ++count;
  return count == 1 ? absl::StrCat("%", base)
                    : absl::StrCat("%", base, "_", count);
}

void Writer::line(const std::string &lineText) {
  absl::StrAppend(&text, std::string(indent, ' '), lineText, "\n");
}

std::string scalarOp(Writer &w, const std::string &op,
                     const std::string &operands) {
  std::string name = w.fresh("t");
  w.line(absl::StrCat(name, " = ", op, " ", operands, " : ", w.elem));
  return name;
}

std::string Writer::empty(const Dims &shape) {
  std::string name = fresh("e");
  line(absl::StrCat(name, " = tensor.empty() : ", type(shape)));
  return name;
}

std::string Writer::filled(const Dims &shape, const std::string &value,
                           const std::string &base) {
  std::string init = empty(shape);
  std::string name = fresh(base);
  line(absl::StrCat(name, " = linalg.fill ins(", value, " : ", elem, ") outs(",
                    init, " : ", type(shape), ") -> ", type(shape)));
  return name;
}

std::string emitGeneric(
    Writer &w, const std::string &base, const std::vector<GenericInput> &ins,
    const std::string &init, const Dims &outShape, const std::string &outMap,
    const std::vector<std::string> &iterators,
    const std::function<std::string(Writer &, const std::vector<std::string> &)>
        &body) {
  std::vector<std::string> maps, values, types, args, quoted;
  for (const GenericInput &in : ins) {
    maps.push_back(in.map);
    values.push_back(in.value);
    types.push_back(w.type(in.shape));
  }
  maps.push_back(outMap);
  for (const std::string &it : iterators)
    quoted.push_back(absl::StrCat("\"", it, "\""));
  std::string name = w.fresh(base);
  w.line(absl::StrCat(name, " = linalg.generic {indexing_maps = [",
                      absl::StrJoin(maps, ", "), "], iterator_types = [",
                      absl::StrJoin(quoted, ", "), "]}"));
  std::string insText =
      ins.empty() ? ""
                  : absl::StrCat("ins(", absl::StrJoin(values, ", "), " : ",
                                 absl::StrJoin(types, ", "), ") ");
  w.line(absl::StrCat("    ", insText, "outs(", init, " : ", w.type(outShape),
                      ") {"));
  std::vector<std::string> blockArgs;
  for (size_t i = 0; i <= ins.size(); ++i)
    blockArgs.push_back(w.fresh(i == ins.size() ? "acc" : "a"));
  std::vector<std::string> typed;
  for (const std::string &a : blockArgs)
    typed.push_back(absl::StrCat(a, ": ", w.elem));
  int saved = w.indent;
  w.line(absl::StrCat("^bb0(", absl::StrJoin(typed, ", "), "):"));
  w.indent = saved + 2;
  std::string result = body(w, blockArgs);
  w.line(absl::StrCat("linalg.yield ", result, " : ", w.elem));
  w.indent = saved;
  w.line(absl::StrCat("} -> ", w.type(outShape)));
  return name;
}

} // namespace gevo::training
