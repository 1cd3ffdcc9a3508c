//===- workload_module.cc - A workload's module in its linalg form --------===//

#include "gevo/eval/workload/workload_module.h"

#include "gevo/support/status_macros.h"

namespace gevo {

absl::StatusOr<ImportSettings> workloadImport(const WorkloadSpec &spec,
                                              const DatasetSplit &data) {
  ImportSettings import;
  import.entry = spec.entry;
  if (isOnnxPath(spec.modulePath)) {
    GEVO_ASSIGN_OR_RETURN(import.batch, importBatch(spec, data));
  }
  return import;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadWorkloadModule(mlir::MLIRContext &context, const WorkloadSpec &spec,
                   const DatasetSplit &data, SourceForm *form,
                   ImportSettings *import) {
  GEVO_ASSIGN_OR_RETURN(ImportSettings settings, workloadImport(spec, data));
  if (import)
    *import = settings;
  return loadLinalgModule(context, spec.modulePath, form, settings);
}

absl::StatusOr<std::string> readWorkloadModuleText(const WorkloadSpec &spec,
                                                   const DatasetSplit &data,
                                                   SourceForm *form) {
  GEVO_ASSIGN_OR_RETURN(ImportSettings settings, workloadImport(spec, data));
  return readModuleText(spec.modulePath, settings, form);
}

} // namespace gevo
