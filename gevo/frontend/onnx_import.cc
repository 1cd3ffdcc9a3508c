//===- onnx_import.cc - ONNX models as gevo-ml's MLIR ---------------------===//

#include "gevo/frontend/onnx_import.h"

#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/import_state.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

absl::Status invalid(const std::string &name, const std::string &what) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": ", what));
}

int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      return opset.version();
  return 1;
}

/// The graph's nodes in an order where each follows what it reads; an error
/// naming a node whose input nothing defines, or one on a cycle.
absl::StatusOr<std::vector<const onnx::NodeProto *>>
orderedNodes(const onnx::GraphProto &graph, std::set<std::string> defined,
             const std::string &name) {
  std::vector<const onnx::NodeProto *> pending, ordered;
  for (const onnx::NodeProto &node : graph.node())
    pending.push_back(&node);
  std::set<std::string> produced = defined;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &output : node.output())
      produced.insert(output);
  for (const onnx::NodeProto *node : pending)
    for (const std::string &input : node->input())
      if (!input.empty() && !produced.count(input))
        return invalid(name, absl::StrCat("node '", node->name(), "' (",
                                          node->op_type(), ") reads '", input,
                                          "', which nothing defines"));
  while (!pending.empty()) {
    std::vector<const onnx::NodeProto *> waiting;
    for (const onnx::NodeProto *node : pending) {
      bool ready = true;
      for (const std::string &input : node->input())
        ready = ready && (input.empty() || defined.count(input));
      if (!ready) {
        waiting.push_back(node);
        continue;
      }
      ordered.push_back(node);
      for (const std::string &output : node->output())
        defined.insert(output);
    }
    if (waiting.size() == pending.size())
      return invalid(name, absl::StrCat("the graph has a cycle through node '",
                                        waiting[0]->name(), "' (",
                                        waiting[0]->op_type(), ")"));
    pending = std::move(waiting);
  }
  return ordered;
}

/// The static shape of a graph input; symbolic dimensions take `batch`.
absl::StatusOr<Shape> inputShape(const onnx::ValueInfoProto &info,
                                 const OnnxImportOptions &options,
                                 const std::string &name) {
  const onnx::TypeProto &type = info.type();
  if (!type.has_tensor_type())
    return invalid(name,
                   absl::StrCat("input '", info.name(), "' is not a tensor"));
  if (type.tensor_type().elem_type() != onnx::TensorProto::FLOAT)
    return invalid(name,
                   absl::StrCat("input '", info.name(), "' has element type ",
                                onnx::TensorProto::DataType_Name(
                                    static_cast<onnx::TensorProto::DataType>(
                                        type.tensor_type().elem_type())),
                                "; only float inputs are supported"));
  if (!type.tensor_type().has_shape())
    return invalid(name,
                   absl::StrCat("input '", info.name(), "' has no shape"));
  Shape shape;
  for (const onnx::TensorShapeProto::Dimension &dim :
       type.tensor_type().shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() > 0)
      shape.push_back(dim.dim_value());
    else if (dim.has_dim_param() || !dim.has_dim_value())
      shape.push_back(options.batch);
    else
      return invalid(name,
                     absl::StrCat("input '", info.name(), "' has a size of 0"));
  }
  return shape;
}

struct Signature {
  std::vector<std::string> arguments, resultNames, resultTypes;
};

absl::Status defineGraphValues(const onnx::GraphProto &graph,
                               const OnnxImportOptions &options,
                               const std::string &name,
                               const std::string &directory, ImportState &state,
                               Signature &signature) {
  std::set<std::string> initializers;
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    absl::StatusOr<TensorValue> value = decodeTensor(tensor, directory);
    if (!value.ok())
      return invalid(name, std::string(value.status().message()));
    state.defineName(tensor.name(), std::move(*value));
    initializers.insert(tensor.name());
  }
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue; // older exporters list weights as inputs too
    GEVO_ASSIGN_OR_RETURN(Shape shape, inputShape(input, options, name));
    TensorValue value;
    value.shape = shape;
    value.ssa = absl::StrCat("%arg", signature.arguments.size());
    signature.arguments.push_back(
        absl::StrCat(value.ssa, ": ", tensorType(shape)));
    state.defineName(input.name(), std::move(value));
  }
  return absl::OkStatus();
}

absl::Status importNodes(const onnx::GraphProto &graph, const std::string &name,
                         ImportState &state) {
  std::set<std::string> defined;
  for (const onnx::TensorProto &tensor : graph.initializer())
    defined.insert(tensor.name());
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  GEVO_ASSIGN_OR_RETURN(std::vector<const onnx::NodeProto *> nodes,
                        orderedNodes(graph, defined, name));
  for (const onnx::NodeProto *node : nodes) {
    state.beginNode(*node);
    bool defaultDomain = node->domain().empty() || node->domain() == "ai.onnx";
    OpHandler handler =
        defaultDomain ? findOpHandler(node->op_type()) : nullptr;
    if (!handler)
      return state.error(absl::StrCat(
          "unsupported ONNX op",
          defaultDomain ? "" : absl::StrCat(" (domain ", node->domain(), ")")));
    GEVO_RETURN_IF_ERROR(handler(state));
    for (const std::string &output : node->output())
      if (!output.empty() && !state.find(output))
        return state.error(
            absl::StrCat("output '", output, "' is not supported"));
  }
  return absl::OkStatus();
}

absl::Status collectResults(const onnx::GraphProto &graph,
                            const std::string &name, ImportState &state,
                            Signature &signature) {
  for (const onnx::ValueInfoProto &output : graph.output()) {
    TensorValue *value = state.find(output.name());
    if (!value)
      return invalid(name, absl::StrCat("graph output '", output.name(),
                                        "' is never computed"));
    if (value->isInteger)
      return invalid(name, absl::StrCat("graph output '", output.name(),
                                        "' is an integer tensor"));
    signature.resultNames.push_back(state.use(*value));
    signature.resultTypes.push_back(tensorType(value->shape));
  }
  if (signature.resultNames.empty())
    return invalid(name, "the graph has no outputs");
  return absl::OkStatus();
}

std::string moduleText(const onnx::ModelProto &model, const std::string &name,
                       const OnnxImportOptions &options, int64_t opset,
                       const Signature &signature, const std::string &body) {
  std::string types = absl::StrJoin(signature.resultTypes, ", ");
  // The header comment is one line whatever the file's strings hold.
  std::string producer = escapeForMlir(
      absl::StrCat(model.producer_name(), " ", model.producer_version()));
  return absl::StrCat(
      "// Imported from ",
      escapeForMlir(std::filesystem::path(name).filename().string()),
      " by gevo-ml (ONNX opset ", opset, ", producer ", producer, ").\n",
      "module {\n  func.func @", options.entry, "(",
      absl::StrJoin(signature.arguments, ", "), ") -> (", types, ") {\n", body,
      "    return ", absl::StrJoin(signature.resultNames, ", "), " : ", types,
      "\n  }\n}\n");
}

/// Whether `entry` can name a func.func without quoting.
bool isPlainSymbol(const std::string &entry) {
  if (entry.empty() || std::isdigit(static_cast<unsigned char>(entry[0])))
    return false;
  for (char c : entry)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
      return false;
  return true;
}

absl::StatusOr<std::string> importModel(const onnx::ModelProto &model,
                                        const std::string &name,
                                        const std::string &directory,
                                        const OnnxImportOptions &options) {
  if (!isPlainSymbol(options.entry))
    return absl::InvalidArgumentError(absl::StrCat(
        "the entry name '", options.entry,
        "' must be letters, digits, '_' and '.', not starting with a digit"));
  if (options.batch < 1 || options.batch > kMaxImportElements)
    return absl::InvalidArgumentError("the batch size is out of range");
  if (!model.has_graph())
    return invalid(name, "the model has no graph");
  const onnx::GraphProto &graph = model.graph();
  int64_t opset = defaultOpset(model);
  ImportState state(name, opset);
  Signature signature;
  GEVO_RETURN_IF_ERROR(
      defineGraphValues(graph, options, name, directory, state, signature));
  GEVO_RETURN_IF_ERROR(importNodes(graph, name, state));
  GEVO_RETURN_IF_ERROR(collectResults(graph, name, state, signature));
  return moduleText(model, name, options, opset, signature, state.text());
}

absl::StatusOr<std::string>
importWithDirectory(const std::string &bytes, const std::string &name,
                    const std::string &directory,
                    const OnnxImportOptions &options) {
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes))
    return invalid(name, "not an ONNX model (the protobuf does not parse)");
  if (!model.has_ir_version() || !model.has_graph())
    return invalid(name, "not an ONNX model (no IR version or graph)");
  return importModel(model, name, directory, options);
}

} // namespace

absl::StatusOr<std::string> importOnnx(const std::string &bytes,
                                       const std::string &name,
                                       const OnnxImportOptions &options) {
  return importWithDirectory(bytes, name, "", options);
}

size_t supportedOnnxOpCount() { return supportedOnnxOps().size(); }

absl::StatusOr<std::string> importOnnxFile(const std::string &path,
                                           const OnnxImportOptions &options) {
  GEVO_ASSIGN_OR_RETURN(std::string bytes, readFile(path, "ONNX model"));
  return importWithDirectory(
      bytes, path, std::filesystem::path(path).parent_path().string(), options);
}

} // namespace gevo
