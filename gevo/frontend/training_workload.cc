//===- training_workload.cc - A workload's "training" field to a program --===//
//
// The workload reader parses the field and the workload's module loader
// generates the program (an ONNX forward model imported first), so
// //:make_training writes the very text the other tools run.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_workload.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/support/status_macros.h"

namespace gevo {

absl::StatusOr<std::string> makeTrainingModule(const std::string &path) {
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec, loadWorkloadSpec(path));
  if (!spec.training)
    return absl::InvalidArgumentError(
        absl::StrCat(spec.specPath, ": error: at $.training: missing (no "
                                    "training program to generate)"));
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  return readWorkloadModuleText(spec, data);
}

} // namespace gevo
