//===- target_test.cc - The Target factory and the CPU target's steps -----===//

#include "gevo/eval/target.h"

#include <sys/wait.h>
#include <unistd.h>

#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/cuda/cuda_driver.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

EvaluationOptions withTarget(const std::string &name) {
  EvaluationOptions options;
  options.target = name;
  options.warmup = 0;
  options.repeats = 1;
  return options;
}

TEST(TargetTest, UnknownTargetNamesTheFlag) {
  absl::StatusOr<std::unique_ptr<Target>> made = makeTarget(withTarget("tpu"));
  ASSERT_FALSE(made.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(made.status()));
  EXPECT_EQ(made.status().message(), "--target must be cpu or cuda, not 'tpu'");
  EXPECT_EQ(checkTarget("tpu"), made.status());
  EXPECT_TRUE(checkTarget("cpu").ok());
  EXPECT_TRUE(checkTarget("cuda").ok());
}

TEST(TargetTest, CapabilitiesSayWhatEachTargetChecks) {
  absl::StatusOr<std::unique_ptr<Target>> cpu =
      makeTarget(withTarget("cpu"), TargetUse::Sandboxed);
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  const TargetCapabilities &c = (*cpu)->capabilities();
  EXPECT_TRUE(c.checksCorruption);
  EXPECT_TRUE(c.checksUninitializedReads);
  EXPECT_TRUE(c.lowersInSessionContext);
  EXPECT_FALSE(c.deviceTime);
  EXPECT_FALSE(c.sharedDevice);
  // Making the GPU target touches no driver (none is needed to make it).
  absl::StatusOr<std::unique_ptr<Target>> gpu =
      makeTarget(withTarget("cuda"), TargetUse::Sandboxed);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  const TargetCapabilities &g = (*gpu)->capabilities();
  EXPECT_TRUE(g.deviceTime);
  EXPECT_TRUE(g.sharedDevice);
  EXPECT_FALSE(g.checksCorruption);
  EXPECT_FALSE(g.checksUninitializedReads);
  // A driver error is the child's "device" stage; host code that does not
  // compile is "codegen".
  EXPECT_STREQ((*gpu)->failureStage(TargetStep::Run, absl::InternalError("")),
               "device");
  EXPECT_STREQ(
      (*gpu)->failureStage(TargetStep::Compile, absl::InvalidArgumentError("")),
      "codegen");
  EXPECT_STREQ((*cpu)->failureStage(TargetStep::Run, absl::InternalError("")),
               "run");
}

TEST(TargetTest, GpuTargetWithoutADriverSaysSo) {
  if (checkCudaDriverPresent().ok())
    GTEST_SKIP() << "this machine has a CUDA driver";
  absl::StatusOr<std::unique_ptr<Target>> gpu = makeTarget(withTarget("cuda"));
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  absl::Status started = (*gpu)->start();
  EXPECT_THAT(std::string(started.message()),
              HasSubstr("no CUDA driver (libcuda.so.1 not found)"));
  // A session's parent only looks for the driver, and names the flag.
  absl::StatusOr<std::unique_ptr<Target>> session =
      makeTarget(withTarget("cuda"), TargetUse::Sandboxed);
  ASSERT_TRUE(session.ok());
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::Status prepared = (*session)->prepare(*context);
  EXPECT_TRUE(absl::IsFailedPrecondition(prepared));
  EXPECT_THAT(std::string(prepared.message()), HasSubstr("--target=cuda: "));
}

TEST(TargetTest, OtherPipelineOfTheGpuTargetIsTheCpuTarget) {
  EvaluationOptions options = withTarget("cuda");
  EXPECT_EQ(useOtherPipeline("", options),
            "the CPU target (vectorising pipeline)");
  EXPECT_EQ(options.target, "cpu");
  EXPECT_EQ(options.pipeline, kVectorPipelineName);
  EXPECT_EQ(useOtherPipeline("plain", options), "the vectorising pipeline");
}

// The CPU target's steps by hand: compile the prediction workload, run it on
// the validation split and score it as evaluateWorkload does (348 of 360).
TEST(TargetTest, CpuTargetCompilesRunsAndScoresAWorkload) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/digits_mlp_predict"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
  ASSERT_TRUE(data.ok()) << data.status();
  EvaluationOptions options = withTarget("cpu");
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<std::unique_ptr<Target>> made = makeTarget(options);
  ASSERT_TRUE(made.ok()) << made.status();
  Target &target = **made;
  ASSERT_TRUE(target.start().ok());
  ASSERT_TRUE(target.prepare(*context).ok());
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      loadLinalgModule(*context, spec->modulePath, nullptr);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(**module, spec->entry);
  ASSERT_TRUE(signature.ok()) << signature.status();
  LoweringNote note;
  ASSERT_TRUE(target.lower(**module, spec->entry, &note).ok());
  EXPECT_EQ(note.loweredWith, "vector");
  absl::StatusOr<std::unique_ptr<CompiledVariant>> variant =
      target.compile(**module, *signature);
  ASSERT_TRUE(variant.ok()) << variant.status();
  std::vector<HostTensor> arguments =
      bindArguments(*spec, *data, SplitRole::Validation);
  absl::StatusOr<std::unique_ptr<PlacedInputs>> inputs =
      target.place(arguments);
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  absl::StatusOr<TimedRun> run = (*variant)->run(**inputs);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->ms, run->hostMs);
  absl::StatusOr<ClassificationScore> score = scoreSplit(
      *data, SplitRole::Validation, run->results[spec->logitsResult()]);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(score->correct, 348);
  EXPECT_EQ(score->total, 360);

  absl::StatusOr<EvaluationReport> report = evaluateWorkload(*spec, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->validation.correct, score->correct);
  EXPECT_EQ(report->test.correct, 342);
  EXPECT_EQ(report->target, "cpu");
  EXPECT_FALSE(report->deviceTime);
  EXPECT_EQ(report->pipeline, target.pipelineText(note));
}

// A sandboxed CPU target places the inputs a session hands it ahead once
// (in the parent) and gives every later place() of that vector the same
// guarded read-only copies, which a forked child inherits; other tensors
// are copied as before.
TEST(TargetTest, CpuTargetPlacesInputsAheadOnce) {
  EvaluationOptions options = withTarget("cpu");
  absl::StatusOr<std::unique_ptr<Target>> made =
      makeTarget(options, TargetUse::Sandboxed);
  ASSERT_TRUE(made.ok()) << made.status();
  Target &target = **made;
  std::vector<HostTensor> ahead, other;
  ahead.emplace_back(ElementType::F32, std::vector<int64_t>{1000, 3});
  ahead[0].as<float>()[2999] = 7;
  other.emplace_back(ElementType::F32, std::vector<int64_t>{1000, 3});
  target.placeAhead(ahead);
  auto dataOf = [&](const std::vector<HostTensor> &tensors) {
    absl::StatusOr<std::unique_ptr<PlacedInputs>> placed =
        target.place(tensors);
    EXPECT_TRUE(placed.ok()) << placed.status();
    return placed.ok() ? (*placed)->tensors().at(0)->data() : nullptr;
  };
  const void *first = dataOf(ahead);
  EXPECT_NE(first, ahead[0].data());
  EXPECT_EQ(dataOf(ahead), first);
  pid_t child = fork();
  if (child == 0) // the child takes the copy it inherited, data and all
    _exit(dataOf(ahead) == first && static_cast<const float *>(first)[2999] == 7
              ? 0
              : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(dataOf(other), other[0].data());
  EXPECT_NE(dataOf(other), first);
}

} // namespace
} // namespace gevo
