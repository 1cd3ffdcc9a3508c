//===- memref_descriptor.cc - Tensors as the C interface passes memrefs ---===//

#include "gevo/eval/cpu/memref_descriptor.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"

namespace gevo {

size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }

void writeDescriptor(const HostTensor &tensor, int64_t *words) {
  size_t rank = tensor.shape.size();
  auto pointer = reinterpret_cast<int64_t>(tensor.data());
  words[0] = pointer;
  words[1] = pointer;
  words[2] = 0;
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    words[3 + i] = tensor.shape[i];
    words[3 + rank + i] = stride;
    stride *= tensor.shape[i];
  }
}

absl::StatusOr<HostTensor>
readDescriptor(const int64_t *words, const TensorSpec &spec, size_t index) {
  size_t rank = spec.shape.size();
  std::vector<int64_t> shape(words + 3, words + 3 + rank);
  if (!spec.accepts(spec.type, shape))
    return absl::InternalError(
        absl::StrCat("result #", index, " came back as ",
                     TensorSpec{spec.type, shape}.toString(),
                     " but its type is ", spec.toString()));
  HostTensor tensor(spec.type, shape);
  const char *base = reinterpret_cast<const char *>(words[1]);
  if (tensor.numElements() > 0 && !base)
    return absl::InternalError(
        absl::StrCat("result #", index, " came back as a null buffer"));
  size_t width = byteWidth(spec.type);
  char *out = reinterpret_cast<char *>(tensor.data());
  std::vector<int64_t> position(rank, 0);
  for (int64_t n = 0; n < tensor.numElements(); ++n) {
    int64_t offset = words[2];
    for (size_t i = 0; i < rank; ++i)
      offset += position[i] * words[3 + rank + i];
    std::memcpy(out + n * width, base + offset * width, width);
    for (size_t i = rank; i-- > 0;) {
      if (++position[i] < shape[i])
        break;
      position[i] = 0;
    }
  }
  return tensor;
}

} // namespace gevo
