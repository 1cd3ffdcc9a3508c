//===- target.cc - The one factory of Targets -----------------------------===//
//
// The only place a target's name is compared: every other unit asks the
// Target it was given, or its capabilities.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/target.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/cpu_target.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/eval/cuda/cuda_target.h"

namespace gevo {

PlacedInputs::~PlacedInputs() = default;
CompiledVariant::~CompiledVariant() = default;
Target::~Target() = default;

void Target::setFreshMemoryFill(unsigned char) {}

void Target::placeAhead(const std::vector<HostTensor> &) {}

absl::StatusOr<std::unique_ptr<Target>>
makeTarget(const EvaluationOptions &options, TargetUse use) {
  if (options.target == kCpuTargetName)
    return makeCpuTarget(options, use);
  if (options.target == kCudaPipelineName)
    return makeCudaTarget(options, use);
  return absl::InvalidArgumentError(
      absl::StrCat("--target must be ", kCpuTargetName, " or ",
                   kCudaPipelineName, ", not '", options.target, "'"));
}

absl::Status checkTarget(const std::string &target) {
  EvaluationOptions options;
  options.target = target;
  return makeTarget(options).status();
}

std::string useOtherPipeline(const std::string &pipeline,
                             EvaluationOptions &options) {
  absl::StatusOr<std::unique_ptr<Target>> target = makeTarget(options);
  if (!target.ok()) // not a target: as the CPU's
    return useOtherCpuPipeline(pipeline, options);
  return (*target)->useOther(pipeline, options);
}

} // namespace gevo
