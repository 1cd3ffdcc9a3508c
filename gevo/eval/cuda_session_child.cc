//===- cuda_session_child.cc - A session's child on the GPU target --------===//
//
// EvaluationSession::runInChild for --target=cuda, in a unit of its own so the
// CPU path does not read through it. Runs in the forked child only: the CUDA
// driver is initialised here (a driver initialised before fork() would be
// unusable), the variant lowered with the CUDA pipeline, its host code
// compiled, the inputs copied to managed memory once, and every run timed with
// CUDA events on the variant's stream. The payload is the CPU child's, so the
// parent scores and classifies both alike; a driver error (a kernel that
// faults, a launch that fails) is the "device" stage.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/eval/child_payload.h"
#include "gevo/eval/cuda_program.h"
#include "gevo/eval/cuda_runtime.h"
#include "gevo/eval/run_schedule.h"
#include "gevo/eval/variant_session.h"
#include "gevo/support/message_lines.h"
#include "gevo/support/stopwatch.h"
#include "llvm/Support/JSON.h"

namespace gevo {

std::string EvaluationSession::runCudaInChild(mlir::ModuleOp variant,
                                              const RunRequest &request) {
  llvm::json::Object header{{"stage", "ok"}};
  auto fail = [&](const char *stage, const absl::Status &status) {
    header["stage"] = stage;
    header["message"] = firstLine(status.message());
    return encodePayload(std::move(header), {});
  };
  // Errors of the driver itself are "device"; of the pipeline "lowering".
  if (absl::Status ready = initializeCudaRuntime(); !ready.ok())
    return fail("device", ready);
  CudaTarget target;
  auto start = SteadyClock::now();
  if (absl::Status lowered = lowerForCuda(variant, workload.entry, target);
      !lowered.ok())
    return fail("lowering", lowered);
  header["lower_ms"] = millisecondsSince(start);
  int64_t loweredOps = 0;
  variant.walk([&](mlir::Operation *) { ++loweredOps; });
  header["lowered_ops"] = loweredOps;
  const EntrySignature &signature = entrySignature();
  start = SteadyClock::now();
  absl::StatusOr<std::unique_ptr<CudaProgram>> program =
      CudaProgram::compile(variant, signature);
  if (!program.ok())
    return fail(absl::IsInvalidArgument(program.status()) ? "codegen"
                                                          : "device",
                program.status());
  header["codegen_ms"] = millisecondsSince(start);

  std::unique_ptr<CudaProgram> baselineProgram;
  mlir::OwningOpRef<mlir::ModuleOp> baselineCopy;
  if (request.interleavedPairs > 0) {
    baselineCopy = baselineModule->clone();
    absl::Status lowered = lowerForCuda(*baselineCopy, workload.entry, target);
    if (!lowered.ok())
      return fail("baseline", lowered);
    absl::StatusOr<std::unique_ptr<CudaProgram>> compiled =
        CudaProgram::compile(*baselineCopy, signature);
    if (!compiled.ok())
      return fail("baseline", compiled.status());
    baselineProgram = std::move(*compiled);
  }

  SharedArguments validation;
  if (absl::Status copied = validation.copy(validationArguments); !copied.ok())
    return fail("device", copied);
  std::vector<HostTensor> results;
  llvm::json::Array runMs, baselineRunMs;
  int64_t launches = 0;
  // One timed call; `times` null for a warm-up, `out` null for the baseline.
  auto timeRun = [&](const CudaProgram &program, llvm::json::Array *times,
                     std::vector<HostTensor> *out) -> absl::Status {
    absl::StatusOr<CudaTimedCall> run = program.timedCall(validation.tensors());
    if (!run.ok())
      return run.status();
    if (times)
      times->push_back(run->kernelMs);
    if (out) {
      *out = std::move(run->results);
      launches = run->launches;
    }
    return absl::OkStatus();
  };
  RunSchedule schedule;
  RunCounts runs = runCounts(options, workload);
  schedule.warmup = runs.warmup;
  schedule.repeats = runs.repeats;
  schedule.interleavedPairs = request.interleavedPairs;
  if (std::optional<ScheduleFailure> failure = runSchedule(
          schedule,
          [&](bool timed) {
            return timeRun(**program, timed ? &runMs : nullptr, &results);
          },
          [&](bool timed) {
            return timeRun(*baselineProgram, timed ? &baselineRunMs : nullptr,
                           nullptr);
          }))
    return fail(failure->baseline ? "baseline" : "device", failure->status);
  if (results.size() <= static_cast<size_t>(workload.logitsResult()))
    return fail("run", absl::InvalidArgumentError(
                           "the entry returned fewer results than the "
                           "workload's logits index"));
  header["run_ms"] = std::move(runMs);
  header["baseline_run_ms"] = std::move(baselineRunMs);
  header["launches_per_run"] = launches;
  std::vector<HostTensor> testResults;
  std::vector<const HostTensor *> tensors = {&results[workload.logitsResult()]};
  if (request.scoreTest) {
    SharedArguments test;
    if (absl::Status copied = test.copy(testArguments); !copied.ok())
      return fail("device", copied);
    absl::StatusOr<std::vector<HostTensor>> produced =
        (*program)->call(test.tensors());
    if (!produced.ok())
      return fail("device", produced.status());
    testResults = std::move(*produced);
    tensors.push_back(&testResults[workload.logitsResult()]);
  }
  return encodePayload(std::move(header), tensors);
}

} // namespace gevo
