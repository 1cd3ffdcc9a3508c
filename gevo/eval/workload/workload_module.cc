//===- workload_module.cc - A workload's module in its linalg form --------===//

#include "gevo/eval/workload/workload_module.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/workload_training.h"
#include "gevo/frontend/training.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// The training program of a workload with a `training` field: its forward
/// module (an ONNX one imported with the eval rows as its batch), generated
/// for the data's sizes, as //:make_training writes it.
absl::StatusOr<std::string> trainingModuleText(const WorkloadSpec &spec,
                                               const DatasetSplit &data,
                                               const ImportSettings &import) {
  if (data.validation.size() != data.test.size())
    return absl::InvalidArgumentError(absl::StrCat(
        spec.specPath, ": data: the validation (", data.validation.size(),
        " rows) and test (", data.test.size(),
        " rows) splits must be the same size: the generated program's eval "
        "input has one shape"));
  GEVO_ASSIGN_OR_RETURN(std::string forward,
                        readModuleText(spec.modulePath, import));
  TrainingSpec training = *spec.training;
  training.trainRows = data.train.size();
  training.evalRows = data.validation.size();
  training.classes = data.train.numClasses;
  absl::StatusOr<std::string> text =
      generateTrainingModule(forward, training, spec.modulePath);
  if (!text.ok() && absl::StartsWith(text.status().message(), "training"))
    return locateTrainingError(
        spec, absl::StrCat(spec.specPath, ": ", text.status().message()));
  return text;
}

} // namespace

absl::StatusOr<ImportSettings> workloadImport(const WorkloadSpec &spec,
                                              const DatasetSplit &data) {
  ImportSettings import;
  import.entry = spec.entry;
  if (spec.training) {
    import.entry = spec.forwardEntry;
    import.training = trainingSourceWords(spec);
    if (isOnnxPath(spec.modulePath))
      import.batch = data.validation.size();
  } else if (isOnnxPath(spec.modulePath)) {
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
  if (!spec.training)
    return loadLinalgModule(context, spec.modulePath, form, settings);
  GEVO_ASSIGN_OR_RETURN(std::string text,
                        trainingModuleText(spec, data, settings));
  if (form)
    *form = SourceForm::Training;
  return parseLinalgModule(context, text, spec.modulePath);
}

absl::StatusOr<std::string> readWorkloadModuleText(const WorkloadSpec &spec,
                                                   const DatasetSplit &data,
                                                   SourceForm *form) {
  GEVO_ASSIGN_OR_RETURN(ImportSettings settings, workloadImport(spec, data));
  if (!spec.training)
    return readModuleText(spec.modulePath, settings, form);
  if (form)
    *form = SourceForm::Training;
  return trainingModuleText(spec, data, settings);
}

bool isWorkloadPath(const std::string &path) {
  return absl::EndsWith(path, ".json") || std::filesystem::is_directory(path);
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadWorkloadModuleAt(mlir::MLIRContext &context, const std::string &path,
                     SourceForm *form, ImportSettings *import) {
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec, loadWorkloadSpec(path));
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  return loadWorkloadModule(context, spec, data, form, import);
}

} // namespace gevo
