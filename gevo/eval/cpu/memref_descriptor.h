//===- memref_descriptor.h - Tensors as the C interface passes memrefs ----===//
//
// A memref descriptor as `_mlir_ciface_` wrappers take and return it:
// allocated pointer, aligned pointer, offset, sizes[rank], strides[rank]; all
// 8-byte words. How the JIT (jit.h) and the GPU target's host code
// (cuda_program.h) pass a tensor in, and how the JIT copies a result out.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_MEMREF_DESCRIPTOR_H
#define GEVO_EVAL_MEMREF_DESCRIPTOR_H

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "gevo/eval/host_tensor.h"

namespace gevo {

/// The words of a descriptor of `rank`.
size_t descriptorWords(size_t rank);

/// Describes `tensor` (dense, row-major, offset 0) in `words`.
void writeDescriptor(const HostTensor &tensor, int64_t *words);

/// Copies the (possibly strided) result `words` describes into a dense
/// tensor; an error when its shape does not fit `spec` (result #`index`).
absl::StatusOr<HostTensor> readDescriptor(const int64_t *words,
                                          const TensorSpec &spec, size_t index);

} // namespace gevo

#endif // GEVO_EVAL_MEMREF_DESCRIPTOR_H
