//===- cuda_target.cc - Variants run on a GPU through the CUDA driver -----===//

#include "gevo/eval/cuda/cuda_target.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/cuda/cuda_driver.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/eval/cuda/cuda_program.h"
#include "gevo/eval/cuda/cuda_runtime.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

class CudaVariant : public CompiledVariant {
public:
  explicit CudaVariant(std::unique_ptr<CudaProgram> program)
      : program(std::move(program)) {}
  absl::StatusOr<TimedRun> run(const PlacedInputs &inputs) const override {
    GEVO_ASSIGN_OR_RETURN(CudaTimedCall call,
                          program->timedCall(inputs.tensors()));
    TimedRun out;
    out.results = std::move(call.results);
    out.ms = call.kernelMs;
    out.hostMs = call.hostMs;
    out.launches = call.launches;
    return out;
  }

private:
  std::unique_ptr<CudaProgram> program;
};

/// Managed copies of the inputs (made once per variant), which host code and
/// kernels share.
class ManagedInputs : public PlacedInputs {
public:
  absl::Status copy(const std::vector<HostTensor> &tensors) {
    GEVO_RETURN_IF_ERROR(shared.copy(tensors));
    views = pointersTo(shared.tensors());
    return absl::OkStatus();
  }

private:
  SharedArguments shared;
};

class CudaTarget : public Target {
public:
  explicit CudaTarget(TargetUse use) : use(use) {
    caps.deviceTime = true;
    caps.sharedDevice = true;
  }

  absl::Status prepare(mlir::MLIRContext &) override {
    if (use == TargetUse::InProcess)
      return prepareCudaToolkit(chip);
    // A session's children initialise the driver; this process only looks
    // for it.
    absl::Status found = checkCudaDriverPresent();
    if (found.ok())
      found = prepareCudaToolkit(chip);
    if (!found.ok())
      return absl::FailedPreconditionError(
          absl::StrCat("--target=", kCudaPipelineName, ": ", found.message()));
    return absl::OkStatus();
  }
  void warmUp(mlir::ModuleOp, const EntrySignature &) override {}
  absl::Status start() override { return initializeCudaRuntime(); }
  absl::Status lower(mlir::ModuleOp module, const std::string &entry,
                     LoweringNote *note) override {
    GEVO_RETURN_IF_ERROR(lowerForCuda(module, entry, chip));
    if (note)
      note->loweredWith = kCudaPipelineName;
    return absl::OkStatus();
  }
  std::string pipelineText(const LoweringNote &) const override {
    return cudaPipeline(chip);
  }
  absl::StatusOr<std::unique_ptr<CompiledVariant>>
  compile(mlir::ModuleOp lowered, const EntrySignature &signature) override {
    GEVO_ASSIGN_OR_RETURN(std::unique_ptr<CudaProgram> program,
                          CudaProgram::compile(lowered, signature));
    return std::make_unique<CudaVariant>(std::move(program));
  }
  absl::StatusOr<std::unique_ptr<PlacedInputs>>
  place(const std::vector<HostTensor> &tensors) override {
    auto inputs = std::make_unique<ManagedInputs>();
    GEVO_RETURN_IF_ERROR(inputs->copy(tensors));
    return inputs;
  }
  /// Errors of the driver itself are "device"; of the pipeline "lowering";
  /// host code that does not compile is "codegen".
  const char *failureStage(TargetStep step,
                           const absl::Status &status) const override {
    switch (step) {
    case TargetStep::Lower:
      return "lowering";
    case TargetStep::Compile:
      return absl::IsInvalidArgument(status) ? "codegen" : "device";
    default:
      return "device";
    }
  }
  /// The other is the CPU target's vectorising pipeline.
  std::string useOther(const std::string &,
                       EvaluationOptions &options) const override {
    options.target = kCpuTargetName;
    options.pipeline = kVectorPipelineName;
    return "the CPU target (vectorising pipeline)";
  }

private:
  TargetUse use;
  CudaChip chip;
};

} // namespace

std::unique_ptr<Target> makeCudaTarget(const EvaluationOptions &,
                                       TargetUse use) {
  return std::make_unique<CudaTarget>(use);
}

} // namespace gevo
