//===- frontend.h - Modules from other frontends, legalised to linalg -----===//
//
// gevo-ml mutates linalg on tensors. A module written in TOSA (as TensorFlow
// Lite and other frontends export it) is legalised to that form when it is
// loaded, and an ONNX model (`.onnx`) is imported to it
// (gevo/frontend/onnx_import.h); the search, patches and analysis then
// address the linalg form, and a patch records that it did (`source tosa`,
// `source onnx batch=N`, replay/FORMAT.md).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_FRONTEND_H
#define GEVO_IR_FRONTEND_H

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace gevo {

/// The form a module was written in; Training: generated from a forward
/// model by a workload's `training` field (gevo/eval/workload/
/// workload_module.h).
enum class SourceForm { Linalg, Tosa, Onnx, Training };

/// "linalg", "tosa", "onnx" or "training": the word a patch's `source` line
/// and reports use.
const char *toString(SourceForm form);

/// How a model file that is not MLIR (an ONNX model) becomes a module.
struct ImportSettings {
  /// The size of every symbolic dimension (the batch); 0: not known, and an
  /// ONNX file is then an error that says how to give it.
  int64_t batch = 0;
  /// The name of the module's public function.
  std::string entry = "main";
  /// A generated training program's `forward=F spec=H [entry=E]`
  /// (trainingSourceWords), which its patches' `source training` records.
  std::string training;
};

/// Whether `path` names an ONNX model (it ends in `.onnx`).
bool isOnnxPath(const std::string &path);

/// What a patch made on a module of this form records after `source`: ""
/// for linalg, "tosa", or "onnx batch=N" (and " entry=F" when the entry is
/// not `main`), so that replay imports the file as the search did, or
/// "training " and import.training for a generated training program.
std::string sourceLine(SourceForm form, const ImportSettings &import);

/// The pass pipeline (mlir-opt syntax, anchored on the module) that
/// legalises TOSA to linalg, tensor and arith on tensors.
extern const char kTosaToLinalgPipeline[];

/// Legalises the module in place when it holds TOSA ops and returns the form
/// it was written in. Errors name the op that could not be legalised.
absl::StatusOr<SourceForm> legalizeToLinalg(mlir::ModuleOp module);

/// Reads and parses an MLIR file and legalises it, or imports an ONNX file
/// with `import` (`form`, when given, receives the form it was written in).
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadLinalgModule(mlir::MLIRContext &context, const std::string &path,
                 SourceForm *form = nullptr, const ImportSettings &import = {});

/// The text of the module at `path`: the MLIR file as it is, or an ONNX
/// file imported with `import` (`form` receives Onnx for it, else Linalg:
/// the text still has to be parsed to tell TOSA).
absl::StatusOr<std::string> readModuleText(const std::string &path,
                                           const ImportSettings &import,
                                           SourceForm *form = nullptr);

/// Parses MLIR text and legalises it.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
parseLinalgModule(mlir::MLIRContext &context, const std::string &text,
                  const std::string &bufferName, SourceForm *form = nullptr);

} // namespace gevo

#endif // GEVO_IR_FRONTEND_H
