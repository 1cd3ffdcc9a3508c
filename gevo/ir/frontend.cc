//===- frontend.cc - TOSA legalised to linalg on tensors ------------------===//

#include "gevo/ir/frontend.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/frontend/onnx_import.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace gevo {

// TOSA's own preparation (decompositions, shape inference, rank
// broadcasting), then its conversions to linalg (named ops first), arith and
// tensor; canonicalize drops the tosa.const_shape operands the reshapes
// leave dead.
const char kTosaToLinalgPipeline[] =
    "func.func(tosa-optional-decompositions, tosa-infer-shapes, "
    "tosa-make-broadcastable, tosa-to-linalg-named, tosa-to-linalg, "
    "tosa-to-arith, tosa-to-tensor), canonicalize";

const char *toString(SourceForm form) {
  switch (form) {
  case SourceForm::Tosa:
    return "tosa";
  case SourceForm::Onnx:
    return "onnx";
  case SourceForm::Training:
    return "training";
  case SourceForm::Linalg:
    break;
  }
  return "linalg";
}

bool isOnnxPath(const std::string &path) {
  return absl::EndsWith(path, ".onnx");
}

std::string sourceLine(SourceForm form, const ImportSettings &import) {
  if (form == SourceForm::Training)
    return absl::StrCat("training ", import.training);
  if (form != SourceForm::Onnx)
    return form == SourceForm::Tosa ? toString(form) : "";
  std::string line = absl::StrCat("onnx batch=", import.batch);
  if (import.entry != "main")
    absl::StrAppend(&line, " entry=", import.entry);
  return line;
}

absl::StatusOr<std::string> readModuleText(const std::string &path,
                                           const ImportSettings &import,
                                           SourceForm *form) {
  if (form)
    *form = SourceForm::Linalg;
  if (!isOnnxPath(path))
    return readFile(path, "MLIR file");
  if (import.batch <= 0)
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": error: an ONNX model is imported with a batch size: give "
              "--batch=N (a workload takes its rows, or \"batch\")"));
  OnnxImportOptions options;
  options.batch = import.batch;
  options.entry = import.entry;
  GEVO_ASSIGN_OR_RETURN(std::string text, importOnnxFile(path, options));
  if (form)
    *form = SourceForm::Onnx;
  return text;
}

namespace {

mlir::Operation *firstTosaOp(mlir::ModuleOp module) {
  mlir::Operation *found = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (llvm::isa_and_nonnull<mlir::tosa::TosaDialect>(op->getDialect())) {
      found = op;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

} // namespace

absl::StatusOr<SourceForm> legalizeToLinalg(mlir::ModuleOp module) {
  if (!firstTosaOp(module))
    return SourceForm::Linalg;
  mlir::MLIRContext &context = *module.getContext();
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (mlir::failed(
          mlir::parsePassPipeline(kTosaToLinalgPipeline, pm, errorStream)))
    return absl::InternalError(
        absl::StrCat("the TOSA legalisation pipeline: ", error));
  DiagnosticCollector diagnostics(context);
  if (mlir::failed(pm.run(module)))
    return absl::InvalidArgumentError(diagnostics.message(
        "error: legalising TOSA to linalg failed without a diagnostic"));
  if (mlir::Operation *left = firstTosaOp(module))
    return absl::InvalidArgumentError(absl::StrCat(
        formatLocation(left->getLoc()), ": error: '",
        left->getName().getStringRef().str(),
        "' has no legalisation to linalg; gevo-ml mutates linalg on tensors"));
  return SourceForm::Tosa;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadLinalgModule(mlir::MLIRContext &context, const std::string &path,
                 SourceForm *form, const ImportSettings &import) {
  if (isOnnxPath(path)) {
    GEVO_ASSIGN_OR_RETURN(std::string text, readModuleText(path, import));
    GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          parseModule(context, text, path));
    if (form)
      *form = SourceForm::Onnx;
    return module;
  }
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        loadModule(context, path));
  GEVO_ASSIGN_OR_RETURN(SourceForm written, legalizeToLinalg(*module));
  if (form)
    *form = written;
  return module;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
parseLinalgModule(mlir::MLIRContext &context, const std::string &text,
                  const std::string &bufferName, SourceForm *form) {
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(context, text, bufferName));
  GEVO_ASSIGN_OR_RETURN(SourceForm written, legalizeToLinalg(*module));
  if (form)
    *form = written;
  return module;
}

} // namespace gevo
