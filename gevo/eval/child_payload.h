//===- child_payload.h - What a sandboxed evaluation sends back ----------===//
//
// A forked child reports one JSON line (stage, message, timings, tensor
// shapes) followed by the raw bytes of each result tensor in order; the
// session encodes it in the child and decodes it in the parent.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CHILD_PAYLOAD_H
#define GEVO_EVAL_CHILD_PAYLOAD_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/host_tensor.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// `header` with the tensors' shapes added, a newline, then their bytes.
std::string encodePayload(llvm::json::Object header,
                          const std::vector<const HostTensor *> &tensors);

/// The tensors `header` lists, read from `payload` at `offset` (just past
/// the header's line); an error for a malformed or truncated tensor.
absl::StatusOr<std::vector<HostTensor>>
decodePayloadTensors(const llvm::json::Object &header,
                     const std::string &payload, size_t offset);

} // namespace gevo

#endif // GEVO_EVAL_CHILD_PAYLOAD_H
