//===- host_tensor.cc - Dense host buffers passed to and from the JIT -----===//

#include "gevo/eval/host_tensor.h"

#include "absl/strings/str_cat.h"

namespace gevo {

const char *toString(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  }
  return "?";
}

HostTensor::HostTensor(ElementType type, std::vector<int64_t> shape)
    : type(type), shape(std::move(shape)) {
  storage.assign((numElements() * byteWidth(type) + 7) / 8, 0);
}

HostTensor HostTensor::view(ElementType type, std::vector<int64_t> shape,
                            void *data) {
  HostTensor tensor;
  tensor.type = type;
  tensor.shape = std::move(shape);
  tensor.external = data;
  return tensor;
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t dim : shape)
    n *= dim;
  return n;
}

double HostTensor::at(int64_t i) const {
  switch (type) {
  case ElementType::F32:
    return as<float>()[i];
  case ElementType::F64:
    return as<double>()[i];
  case ElementType::I32:
    return as<int32_t>()[i];
  case ElementType::I64:
    return static_cast<double>(as<int64_t>()[i]);
  }
  return 0;
}

bool TensorSpec::accepts(ElementType otherType,
                         const std::vector<int64_t> &otherShape) const {
  if (otherType != type || otherShape.size() != shape.size())
    return false;
  for (size_t i = 0; i < shape.size(); ++i)
    if (otherShape[i] < 0 ||
        (shape[i] != kDynamic && shape[i] != otherShape[i]))
      return false;
  return true;
}

std::string TensorSpec::toString() const {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    absl::StrAppend(&text, dim == kDynamic ? "?" : std::to_string(dim), "x");
  absl::StrAppend(&text, gevo::toString(type), ">");
  return text;
}

std::string HostTensor::typeString() const {
  return TensorSpec{type, shape}.toString();
}

std::vector<const HostTensor *> pointersTo(const std::vector<HostTensor> &v) {
  std::vector<const HostTensor *> pointers;
  for (const HostTensor &tensor : v)
    pointers.push_back(&tensor);
  return pointers;
}

} // namespace gevo
