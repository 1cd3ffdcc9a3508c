//===- onnx_ops.h - The ONNX ops the importer knows, one handler each -----===//
//
// A handler reads the current node of an ImportState (its inputs, attributes
// and opset), writes the linalg text that computes it, and defines its
// outputs. Handlers live in one file per family (ops_elementwise.cc,
// ops_linear.cc, ops_conv.cc, ops_shape.cc, ops_slice.cc, ops_normalize.cc)
// and are listed in one table (onnx_ops.cc): adding an op is its handler and
// one line there.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_ONNX_OPS_H
#define GEVO_FRONTEND_ONNX_OPS_H

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/frontend/import_state.h"

namespace gevo {

using OpHandler = absl::Status (*)(ImportState &state);

/// The handler for an op type of the default ONNX domain; null when none.
OpHandler findOpHandler(const std::string &opType);
/// Every op type with a handler, sorted.
std::vector<std::string> supportedOnnxOps();

// ops_elementwise.cc
absl::Status importUnary(ImportState &state);
absl::Status importBinary(ImportState &state);
absl::Status importVariadic(ImportState &state);
absl::Status importClip(ImportState &state);
absl::Status importPRelu(ImportState &state);
// ops_linear.cc
absl::Status importMatMul(ImportState &state);
absl::Status importGemm(ImportState &state);
// ops_conv.cc
absl::Status importConv(ImportState &state);
absl::Status importPool(ImportState &state);
absl::Status importGlobalPool(ImportState &state);
// ops_shape.cc
absl::Status importIdentity(ImportState &state);
absl::Status importConstant(ImportState &state);
absl::Status importFlatten(ImportState &state);
absl::Status importReshape(ImportState &state);
absl::Status importSqueeze(ImportState &state);
absl::Status importTranspose(ImportState &state);
absl::Status importConcat(ImportState &state);
absl::Status importShape(ImportState &state);
// ops_slice.cc
absl::Status importPad(ImportState &state);
absl::Status importSlice(ImportState &state);
absl::Status importGather(ImportState &state);
// ops_normalize.cc
absl::Status importSoftmax(ImportState &state);
absl::Status importReduce(ImportState &state);
absl::Status importBatchNorm(ImportState &state);
absl::Status importLayerNorm(ImportState &state);

} // namespace gevo

#endif // GEVO_FRONTEND_ONNX_OPS_H
