//===- workload_module.h - A workload's module in its linalg form ---------===//
//
// Loads the module a workload names, importing an `.onnx` one with the batch
// its data gives (importBatch) and the workload's entry as its function. A
// workload with a `training` field runs the training program generated from
// its forward module (gevo/frontend/training.h) for the data's sizes, the
// very text //:make_training writes; its form is SourceForm::Training.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_WORKLOAD_MODULE_H
#define GEVO_EVAL_WORKLOAD_MODULE_H

#include <string>

#include "absl/status/statusor.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/frontend.h"

namespace gevo {

/// How the workload's module is imported when it is an ONNX file (the
/// batch is 0 for an MLIR module, which needs none).
absl::StatusOr<ImportSettings> workloadImport(const WorkloadSpec &spec,
                                              const DatasetSplit &data);

/// The workload's module, legalised or imported to linalg; `form` receives
/// the form it was written in and `import` how it was imported.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadWorkloadModule(mlir::MLIRContext &context, const WorkloadSpec &spec,
                   const DatasetSplit &data, SourceForm *form = nullptr,
                   ImportSettings *import = nullptr);

/// The workload's module as MLIR text (an ONNX file imported); `form`
/// receives Onnx for an imported one, else Linalg.
absl::StatusOr<std::string> readWorkloadModuleText(const WorkloadSpec &spec,
                                                   const DatasetSplit &data,
                                                   SourceForm *form = nullptr);

/// Whether a tool's `--input` names a workload (a `.json` file or a
/// directory) rather than a module.
bool isWorkloadPath(const std::string &path);

/// The module of the workload at `path` (loadWorkloadSpec), its data loaded
/// to size an import or a generated training program.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadWorkloadModuleAt(mlir::MLIRContext &context, const std::string &path,
                     SourceForm *form = nullptr,
                     ImportSettings *import = nullptr);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_MODULE_H
