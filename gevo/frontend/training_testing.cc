//===- training_testing.cc - Run a generated module in the training tests -===//
//
// makeTarget, lower, compile once; place and run per call.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_testing.h"

#include "gevo/eval/entry_signature.h"
#include "gevo/eval/target.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {
namespace {

class TargetModule : public CompiledModule {
public:
  absl::StatusOr<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs) override {
    GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> placed,
                          target->place(inputs));
    GEVO_ASSIGN_OR_RETURN(TimedRun result, variant->run(*placed));
    return std::move(result.results);
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Target> target;
  std::unique_ptr<CompiledVariant> variant;
};

} // namespace

absl::StatusOr<std::unique_ptr<CompiledModule>>
CompiledModule::compile(const std::string &text, const std::string &entry) {
  auto compiled = std::make_unique<TargetModule>();
  GEVO_ASSIGN_OR_RETURN(compiled->target, makeTarget(EvaluationOptions()));
  GEVO_RETURN_IF_ERROR(compiled->target->start());
  compiled->context = createContext();
  GEVO_RETURN_IF_ERROR(compiled->target->prepare(*compiled->context));
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(*compiled->context, text, entry));
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, entry));
  GEVO_RETURN_IF_ERROR(compiled->target->lower(*module, entry, nullptr));
  GEVO_ASSIGN_OR_RETURN(compiled->variant,
                        compiled->target->compile(*module, signature));
  return std::unique_ptr<CompiledModule>(std::move(compiled));
}

} // namespace gevo
