//===- workload_check.cc - Validate a workload without running it ---------===//

#include "gevo/eval/workload/workload_check.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {

absl::StatusOr<std::string> checkWorkload(const WorkloadSpec &spec) {
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  GEVO_ASSIGN_OR_RETURN(std::string text, readWorkloadModuleText(spec, data));
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(*context, text, spec.modulePath));
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, spec.entry));
  for (SplitRole eval : {SplitRole::Validation, SplitRole::Test})
    GEVO_RETURN_IF_ERROR(
        checkSignature(spec, signature, bindArguments(spec, data, eval), data));
  const FeatureScaling &scaling = spec.data.scaling;
  return absl::StrCat(
      spec.name, ": ok: train ", data.train.size(), " rows, validation ",
      data.validation.size(), ", test ", data.test.size(), "; ",
      data.train.numFeatures, " features, ", data.train.numClasses,
      " classes; features divided by ", scaling.divideBy, ", normalize ",
      toString(scaling.normalize), "; @", spec.entry, " matches its ",
      spec.arguments.size(), " bindings");
}

} // namespace gevo
