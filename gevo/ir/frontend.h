//===- frontend.h - Modules from other frontends, legalised to linalg -----===//
//
// gevo-ml mutates linalg on tensors. A module written in TOSA (as TensorFlow
// Lite and other frontends export it) is legalised to that form when it is
// loaded; the search, patches and analysis then address the linalg form, and
// a patch records that it did (`source tosa`, replay/FORMAT.md).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_FRONTEND_H
#define GEVO_IR_FRONTEND_H

#include <string>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace gevo {

/// The form a module was written in.
enum class SourceForm { Linalg, Tosa };

/// "linalg" or "tosa": the word a patch's `source` line and reports use.
const char *toString(SourceForm form);

/// The pass pipeline (mlir-opt syntax, anchored on the module) that
/// legalises TOSA to linalg, tensor and arith on tensors.
extern const char kTosaToLinalgPipeline[];

/// Legalises the module in place when it holds TOSA ops and returns the form
/// it was written in. Errors name the op that could not be legalised.
absl::StatusOr<SourceForm> legalizeToLinalg(mlir::ModuleOp module);

/// Reads and parses an MLIR file and legalises it (`form`, when given,
/// receives the form it was written in).
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadLinalgModule(mlir::MLIRContext &context, const std::string &path,
                 SourceForm *form = nullptr);

/// Parses MLIR text and legalises it.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
parseLinalgModule(mlir::MLIRContext &context, const std::string &text,
                  const std::string &bufferName, SourceForm *form = nullptr);

} // namespace gevo

#endif // GEVO_IR_FRONTEND_H
