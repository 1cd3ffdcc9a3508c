//===- onnx_import.h - ONNX models as gevo-ml's MLIR ----------------------===//
//
// The door for models that frameworks export (PyTorch, Keras via tf2onnx,
// scikit-learn via skl2onnx): an ONNX file becomes one MLIR module of linalg
// on tensors with tensor/arith/math, one public function taking the graph's
// inputs and returning its outputs, weights as dense constants, every op at a
// `loc` naming its ONNX node. The text is deterministic (the same file gives
// the same bytes). No protobuf or MLIR header is needed to call it.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_ONNX_IMPORT_H
#define GEVO_FRONTEND_ONNX_IMPORT_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gevo {

struct OnnxImportOptions {
  /// The size given to every symbolic dimension (a batch dimension written
  /// as a name, e.g. "N" or "batch_size").
  int64_t batch = 1;
  /// The name of the module's public function.
  std::string entry = "main";
};

/// Imports the ONNX model in `bytes`; `name` (its file) prefixes every error.
/// Errors are InvalidArgument with one line: a file that is not an ONNX
/// model, a graph with a cycle or an undefined input, an unsupported op (its
/// type, node name and opset), an element type or shape that is not static.
absl::StatusOr<std::string> importOnnx(const std::string &bytes,
                                       const std::string &name,
                                       const OnnxImportOptions &options);

/// How many ONNX op types the importer has a handler for.
size_t supportedOnnxOpCount();

/// Reads `path` and imports it; external tensor data is read beside it.
absl::StatusOr<std::string> importOnnxFile(const std::string &path,
                                           const OnnxImportOptions &options);

} // namespace gevo

#endif // GEVO_FRONTEND_ONNX_IMPORT_H
