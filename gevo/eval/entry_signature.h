//===- entry_signature.h - The tensor types an entry function takes/returns
//===//
//
// Read from the tensor-level module before lowering, because lowering erases
// the types the harness needs to build and read memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_ENTRY_SIGNATURE_H
#define GEVO_EVAL_ENTRY_SIGNATURE_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/host_tensor.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

struct EntrySignature {
  std::string name;
  std::string location; // "file:line:col" of the function.
  std::vector<TensorSpec> arguments;
  std::vector<TensorSpec> results;
};

/// Finds `func.func @entry` and reads its signature. Every argument and result
/// must be a ranked tensor of f32, f64, i32 or i64; errors point at the
/// function (`file:line:col: error: ...`).
absl::StatusOr<EntrySignature> readEntrySignature(mlir::ModuleOp module,
                                                  const std::string &entry);

/// Marks the entry with `llvm.emit_c_interface` so that the JIT exposes a
/// `_mlir_ciface_<entry>` wrapper taking memref descriptors by pointer.
void requestCInterface(mlir::ModuleOp module, const std::string &entry);

} // namespace gevo

#endif // GEVO_EVAL_ENTRY_SIGNATURE_H
