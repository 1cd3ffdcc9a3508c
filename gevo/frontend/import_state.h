//===- import_state.h - What an ONNX import knows while it walks the graph ===//
//
// The values defined so far (an SSA name and static type, or data known at
// import time: initializers, Constant nodes, shapes folded from them), the
// MLIR text written so far, and the node being imported, which every error
// and every op's `loc` name. Shared by the importer and its op handlers only.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_IMPORT_STATE_H
#define GEVO_FRONTEND_IMPORT_STATE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace gevo {

using Shape = std::vector<int64_t>;

/// A tensor of the graph: f32 values computed by the module, or values known
/// at import time (f32 weights, i64 shapes and axes).
struct TensorValue {
  Shape shape;
  bool isInteger = false;
  /// The SSA name once the module computes or holds it; empty for a known
  /// tensor not used as a module value yet.
  std::string ssa;
  std::optional<std::vector<float>> floats;
  std::optional<std::vector<int64_t>> ints;
  bool known() const { return floats.has_value() || ints.has_value(); }
};

int64_t numElements(const Shape &shape);
/// The most elements an imported tensor may hold (2^28): a model's tensors
/// are far smaller, and a hostile file's sizes must not make the importer
/// allocate or loop without bound.
inline constexpr int64_t kMaxImportElements = int64_t(1) << 28;
/// Whether every size is in 0..kMaxImportElements and so is their product.
bool withinImportLimit(const Shape &shape);
/// "tensor<2x3xf32>" (rank 0: "tensor<f32>").
std::string tensorType(const Shape &shape, const char *element = "f32");
/// `text` as the inside of an MLIR string literal: quotes, backslashes and
/// bytes outside printable ASCII as \XX escapes.
std::string escapeForMlir(const std::string &text);
/// An f32 literal that reads back exactly ("1.000000000e+00").
std::string floatLiteral(float value);

class ImportState {
public:
  ImportState(std::string fileName, int64_t opset)
      : file(std::move(fileName)), opsetVersion(opset) {}

  int64_t opset() const { return opsetVersion; }
  const onnx::NodeProto &node() const { return *current; }
  void beginNode(const onnx::NodeProto &node) { current = &node; }

  /// An error about the current node: "file: node 'n' (Op, opset k): what".
  absl::Status error(const std::string &what) const;

  /// Input `index` of the current node; an error when it is absent or never
  /// defined. `optionalInput` gives null for an absent optional input.
  absl::StatusOr<TensorValue *> input(int index);
  TensorValue *optionalInput(int index);
  /// Input `index` as data known at import time (an initializer or Constant).
  absl::StatusOr<std::vector<int64_t>> knownInts(int index);
  absl::StatusOr<std::vector<float>> knownFloats(int index);

  /// `axis` of a rank-`rank` tensor counted from 0 (negative ones from the
  /// end); an error when out of range.
  absl::StatusOr<int64_t> axis(int64_t axis, int64_t rank) const;

  /// The SSA name of `value`, writing its constant first if it has none.
  std::string use(TensorValue &value);
  /// Defines output `index` of the current node.
  void define(int index, TensorValue value);
  /// Defines output 0 of the current node as the module value `ssa` of
  /// `shape`; returns OK, so that a handler can end with it.
  absl::Status defineResult(Shape shape, std::string ssa);
  /// Defines a graph-level name (an input or an initializer).
  void defineName(const std::string &name, TensorValue value) {
    values[name] = std::move(value);
  }
  TensorValue *find(const std::string &name);

  /// A fresh SSA name ("%v12").
  std::string fresh();
  /// Appends one op; `loc` with the current node's name is added at its end.
  void emit(const std::string &op);
  /// Appends one line without a location (a region's body).
  void emitRaw(const std::string &line);
  const std::string &text() const { return body; }

  /// Attribute helpers: the node's attribute or the default.
  int64_t intAttr(const std::string &name, int64_t otherwise) const;
  float floatAttr(const std::string &name, float otherwise) const;
  std::vector<int64_t> intsAttr(const std::string &name) const;
  bool hasAttr(const std::string &name) const;
  const onnx::AttributeProto *attr(const std::string &name) const;

private:
  std::string file;
  int64_t opsetVersion;
  const onnx::NodeProto *current = nullptr;
  std::map<std::string, TensorValue> values;
  std::string body;
  int counter = 0;
};

/// Decodes an initializer or a Constant's tensor (f32, f64 narrowed to f32,
/// i64, i32). `directory` is where external data lives.
absl::StatusOr<TensorValue> decodeTensor(const onnx::TensorProto &tensor,
                                         const std::string &directory);

} // namespace gevo

#endif // GEVO_FRONTEND_IMPORT_STATE_H
