//===- child_payload.cc - What a sandboxed evaluation sends back ---------===//

#include "gevo/eval/child_payload.h"

#include <cstring>
#include <optional>

#include "absl/status/status.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

std::optional<ElementType> parseElementType(llvm::StringRef name) {
  for (ElementType type :
       {ElementType::F32, ElementType::F64, ElementType::I32, ElementType::I64})
    if (name == toString(type))
      return type;
  return std::nullopt;
}

} // namespace

std::string encodePayload(llvm::json::Object header,
                          const std::vector<const HostTensor *> &tensors) {
  llvm::json::Array shapes;
  for (const HostTensor *tensor : tensors) {
    llvm::json::Array shape;
    for (int64_t d : tensor->shape)
      shape.push_back(d);
    shapes.push_back(llvm::json::Object{{"type", toString(tensor->type)},
                                        {"shape", std::move(shape)}});
  }
  header["tensors"] = std::move(shapes);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(header)) << "\n";
  os.flush();
  for (const HostTensor *tensor : tensors)
    text.append(static_cast<const char *>(tensor->data()),
                tensor->numElements() * byteWidth(tensor->type));
  return text;
}

absl::StatusOr<std::vector<HostTensor>>
decodePayloadTensors(const llvm::json::Object &header,
                     const std::string &payload, size_t offset) {
  std::vector<HostTensor> tensors;
  const llvm::json::Array *specs = header.getArray("tensors");
  if (!specs)
    return tensors;
  for (const llvm::json::Value &spec : *specs) {
    const llvm::json::Object *object = spec.getAsObject();
    std::optional<ElementType> type =
        object ? parseElementType(object->getString("type").value_or(""))
               : std::nullopt;
    const llvm::json::Array *shapeArray =
        object ? object->getArray("shape") : nullptr;
    if (!type || !shapeArray)
      return absl::DataLossError("the child sent back a malformed tensor");
    std::vector<int64_t> shape;
    for (const llvm::json::Value &d : *shapeArray)
      shape.push_back(d.getAsInteger().value_or(0));
    HostTensor tensor(*type, shape);
    size_t bytes = tensor.numElements() * byteWidth(*type);
    if (offset + bytes > payload.size())
      return absl::DataLossError("the child sent back a truncated tensor");
    std::memcpy(tensor.data(), payload.data() + offset, bytes);
    offset += bytes;
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

} // namespace gevo
