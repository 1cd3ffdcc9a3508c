//===- host_tensor.h - Dense host buffers passed to and from the JIT ------===//
//
// A HostTensor is a row-major, dense buffer with a shape and an element type.
// The evaluator builds them from data sets, hands them to compiled code as
// memref descriptors, and copies results back into them.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_HOST_TENSOR_H
#define GEVO_EVAL_HOST_TENSOR_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gevo {

enum class ElementType { F32, F64, I32, I64 };

inline size_t byteWidth(ElementType type) {
  return type == ElementType::F64 || type == ElementType::I64 ? 8 : 4;
}
const char *toString(ElementType type);

/// A ranked tensor type; kDynamic marks a `?` dimension.
struct TensorSpec {
  static constexpr int64_t kDynamic = -1;
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;

  /// Whether a tensor of `type` and `shape` has this element type and every
  /// static dimension.
  bool accepts(ElementType type, const std::vector<int64_t> &shape) const;
  /// "tensor<360x?xf32>"
  std::string toString() const;
};

struct HostTensor {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  // 8-byte words keep every element type aligned.
  std::vector<uint64_t> storage;
  /// When set, the elements live here instead (a view).
  void *external = nullptr;

  HostTensor() = default;
  HostTensor(ElementType type, std::vector<int64_t> shape);

  /// A tensor over memory it does not own (`data` must outlive it).
  static HostTensor view(ElementType type, std::vector<int64_t> shape,
                         void *data);

  int64_t numElements() const;
  void *data() { return external ? external : storage.data(); }
  const void *data() const { return external ? external : storage.data(); }
  bool matches(const TensorSpec &spec) const {
    return spec.accepts(type, shape);
  }
  template <typename T> T *as() { return reinterpret_cast<T *>(data()); }
  template <typename T> const T *as() const {
    return reinterpret_cast<const T *>(data());
  }
  /// Element `i` (row-major) widened to double.
  double at(int64_t i) const;
  /// "tensor<360x10xf32>"
  std::string typeString() const;
};

/// Pointers to each tensor of `tensors`, as JitEntry::run takes them.
std::vector<const HostTensor *>
pointersTo(const std::vector<HostTensor> &tensors);

} // namespace gevo

#endif // GEVO_EVAL_HOST_TENSOR_H
