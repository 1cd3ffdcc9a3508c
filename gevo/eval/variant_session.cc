//===- variant_session.cc - Evaluate many variants of one workload --------===//

#include "gevo/eval/variant_session.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/bindings.h"
#include "gevo/eval/child_payload.h"
#include "gevo/eval/cuda_driver.h"
#include "gevo/eval/cuda_pipeline.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/guarded_memory.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/jit.h"
#include "gevo/eval/kernel_cache.h"
#include "gevo/eval/kernel_directory.h"
#include "gevo/eval/lowering.h"
#include "gevo/eval/run_schedule.h"
#include "gevo/eval/static_cost.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/message_lines.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

using Clock = SteadyClock;

} // namespace

struct EvaluationSession::Prepared {
  std::unique_ptr<Lowering> lowering;
  EntrySignature signature;
  /// The kernel directory this session made (its children share compiled
  /// loop nests through it), and the process that removes it.
  std::string kernelDirectory;
  pid_t owner = 0;
};

EvaluationSession::~EvaluationSession() {
  if (prepared && !prepared->kernelDirectory.empty() &&
      prepared->owner == getpid()) {
    std::error_code ignored;
    std::filesystem::remove_all(prepared->kernelDirectory, ignored);
  }
}

absl::StatusOr<std::unique_ptr<EvaluationSession>>
EvaluationSession::create(const WorkloadSpec &spec,
                          const EvaluationOptions &options) {
  std::unique_ptr<EvaluationSession> session(new EvaluationSession());
  session->workload = spec;
  session->options = options;
  GEVO_RETURN_IF_ERROR(checkTarget(options.target));
  if (options.target == "cuda") {
    // The children initialise the driver; this process only looks for it.
    CudaTarget target;
    absl::Status found = checkCudaDriverPresent();
    if (found.ok())
      found = prepareCudaToolkit(target);
    if (!found.ok())
      return absl::FailedPreconditionError(
          absl::StrCat("--target=cuda: ", found.message()));
  }
  session->pipelineText = resolvePipeline(options.pipeline).passes;
  GEVO_RETURN_IF_ERROR(checkLlvmPipeline(options.codegen.llvmPipeline));
  GEVO_ASSIGN_OR_RETURN(session->data, loadWorkloadData(spec));
  session->validationArguments =
      bindArguments(spec, session->data, SplitRole::Validation);
  session->testArguments = bindArguments(spec, session->data, SplitRole::Test);
  session->mlirContext = createContext();
  session->prepared = std::make_unique<Prepared>();
  GEVO_ASSIGN_OR_RETURN(
      session->prepared->lowering,
      Lowering::create(*session->mlirContext, options.pipeline));
  GEVO_ASSIGN_OR_RETURN(
      session->baselineModule,
      loadLinalgModule(*session->mlirContext, spec.modulePath, &session->form));
  GEVO_ASSIGN_OR_RETURN(
      session->prepared->signature,
      readEntrySignature(*session->baselineModule, spec.entry));
  GEVO_RETURN_IF_ERROR(checkSignature(spec, session->prepared->signature,
                                      session->validationArguments,
                                      session->data));
  if (options.target == "cpu") {
    if (options.codegen.cacheKernels &&
        options.codegen.kernelDirectory.empty()) {
      session->prepared->kernelDirectory = makeKernelDirectory();
      session->prepared->owner = getpid();
      session->options.codegen.kernelDirectory =
          session->prepared->kernelDirectory;
    }
    session->warmUp();
  }
  return session;
}

const EntrySignature &EvaluationSession::entrySignature() const {
  return prepared->signature;
}

namespace {

/// Kernels compiled for `codegen` already need not be lowered again.
Lowering::CompiledKernels compiledKernels(const CodegenOptions &codegen) {
  return [codegen](const std::string &name) {
    return outlinedKernelCompiled(name, codegen);
  };
}

} // namespace

void EvaluationSession::warmUp() {
  // Every child is a fork of this process: what the first lowering and
  // compile in a process sets up (the pass manager's pattern sets, the parsed
  // vector schedules, LLVM's target, the runtime library) is done here once
  // instead of in every child; so are the unmodified program's kernels
  // (gevo/eval/kernel_cache.h), compiled as the children compile theirs, so
  // that a child compiles only the loop nests its variant changed. A failure
  // here is the unmodified program's, and its own measurement reports it.
  mlir::OwningOpRef<mlir::ModuleOp> copy = baselineModule->clone();
  requestCInterface(*copy, workload.entry);
  CodegenOptions codegen = options.codegen;
  codegen.guardAllocations = true;
  if (prepared->lowering->run(*copy, nullptr, compiledKernels(codegen)).ok())
    (void)JitEntry::compile(*copy, prepared->signature, codegen);
}

std::string EvaluationSession::runInChild(mlir::ModuleOp variant,
                                          const RunRequest &request) {
  if (options.target == "cuda")
    return runCudaInChild(variant, request);
  llvm::json::Object header{{"stage", "ok"}};
  auto fail = [&](const char *stage, absl::string_view message) {
    header["stage"] = stage;
    header["message"] = firstLine(message);
    return encodePayload(std::move(header), {});
  };
  CodegenOptions codegen = options.codegen;
  codegen.guardAllocations = true;
  const EntrySignature &signature = prepared->signature;

  // A variant built in another context (gevo/workbench/variant_context.h)
  // is copied into this one, whose passes the parent warmed up (passes made
  // afresh in the child cost 10-15 ms more than the copy); if that fails it
  // is lowered by passes of its own context, made here.
  auto start = Clock::now();
  Lowering *lowering = prepared->lowering.get();
  std::unique_ptr<Lowering> ownLowering;
  mlir::OwningOpRef<mlir::ModuleOp> copied;
  if (variant->getContext() != mlirContext.get()) {
    copied = copyIntoContext(variant, *mlirContext);
    if (copied) {
      variant = *copied;
    } else {
      absl::StatusOr<std::unique_ptr<Lowering>> made =
          Lowering::create(*variant->getContext(), lowering->choice());
      if (!made.ok())
        return fail("lowering", made.status().message());
      ownLowering = std::move(*made);
      lowering = ownLowering.get();
    }
  }

  requestCInterface(variant, workload.entry);
  LoweringNote lowered;
  Lowering::CompiledKernels compiled = compiledKernels(codegen);
  if (absl::Status status = lowering->run(variant, &lowered, compiled);
      !status.ok())
    return fail("lowering", status.message());
  header["lower_ms"] = millisecondsSince(start);
  if (lowered.fellBack())
    header["lowering_fallback"] = lowered.fallbackReason;
  int64_t loweredOps = 0;
  variant.walk([&](mlir::Operation *) { ++loweredOps; });
  header["lowered_ops"] = loweredOps;
  start = Clock::now();
  absl::StatusOr<std::unique_ptr<JitEntry>> entry =
      JitEntry::compile(variant, signature, codegen);
  if (!entry.ok())
    return fail("codegen", entry.status().message());
  header["codegen_ms"] = millisecondsSince(start);

  std::unique_ptr<JitEntry> baselineEntry;
  mlir::OwningOpRef<mlir::ModuleOp> baselineCopy;
  if (request.interleavedPairs > 0) {
    baselineCopy = baselineModule->clone();
    requestCInterface(*baselineCopy, workload.entry);
    if (absl::Status status =
            prepared->lowering->run(*baselineCopy, nullptr, compiled);
        !status.ok())
      return fail("baseline", status.message());
    absl::StatusOr<std::unique_ptr<JitEntry>> compiled =
        JitEntry::compile(*baselineCopy, signature, codegen);
    if (!compiled.ok())
      return fail("baseline", compiled.status().message());
    baselineEntry = std::move(*compiled);
  }

  // Inputs end at guard pages: reading past one is out_of_bounds, not a read
  // of whatever the parent's heap holds there.
  reportGuardPageFaults();
  GuardedTensors guardedValidation(pointersTo(validationArguments));
  std::vector<const HostTensor *> arguments = guardedValidation.pointers();
  std::vector<HostTensor> results;
  llvm::json::Array runMs, baselineRunMs;
  auto timeRun = [&](const JitEntry &jit, llvm::json::Array *times,
                     std::vector<HostTensor> *out) -> absl::Status {
    auto runStart = Clock::now();
    GEVO_ASSIGN_OR_RETURN(std::vector<HostTensor> produced, jit.run(arguments));
    if (times)
      times->push_back(millisecondsSince(runStart));
    if (out)
      *out = std::move(produced);
    return absl::OkStatus();
  };
  // The unmodified program's logits before the variant ever runs here: a
  // variant that writes memory it does not own (past a buffer it shrank,
  // say) can corrupt the unmodified program's constants, which then compute
  // other logits, and often far slower (a bogus ratio).
  std::vector<HostTensor> baselineBefore, baselineAfter;
  if (baselineEntry)
    if (absl::Status status = timeRun(*baselineEntry, nullptr, &baselineBefore);
        !status.ok())
      return fail("baseline", status.message());
  RunSchedule schedule;
  RunCounts runs = runCounts(options, workload);
  schedule.warmup = runs.warmup;
  schedule.repeats = runs.repeats;
  schedule.interleavedPairs = request.interleavedPairs;
  if (std::optional<ScheduleFailure> failure = runSchedule(
          schedule,
          [&](bool timed) {
            return timeRun(**entry, timed ? &runMs : nullptr, &results);
          },
          [&](bool timed) {
            return timeRun(*baselineEntry, timed ? &baselineRunMs : nullptr,
                           &baselineAfter);
          }))
    return fail(failure->baseline ? "baseline" : "run",
                failure->status.message());
  if (baselineEntry && baselineBefore[workload.logitsResult()].storage !=
                           baselineAfter[workload.logitsResult()].storage)
    return fail("corrupts", "the unmodified program's logits changed once "
                            "this variant had run in the same process");
  // Once more with fresh allocations filled with 0xFF (NaN as floats): a
  // variant whose logits change reads memory it never wrote, and would give
  // other answers built any other way.
  {
    setAllocationFill(0xFF);
    absl::StatusOr<std::vector<HostTensor>> again = (*entry)->run(arguments);
    setAllocationFill(0);
    const HostTensor &first = results[workload.logitsResult()];
    if (!again.ok())
      return fail("run", again.status().message());
    const HostTensor &second = (*again)[workload.logitsResult()];
    if (first.storage != second.storage)
      return fail("uninitialized",
                  "its logits change when fresh memory holds other bytes");
  }
  header["run_ms"] = std::move(runMs);
  header["baseline_run_ms"] = std::move(baselineRunMs);
  std::vector<HostTensor> testResults;
  std::vector<const HostTensor *> tensors = {&results[workload.logitsResult()]};
  if (request.scoreTest) {
    GuardedTensors guardedTest(pointersTo(testArguments));
    absl::StatusOr<std::vector<HostTensor>> produced =
        (*entry)->run(guardedTest.pointers());
    if (!produced.ok())
      return fail("run", produced.status().message());
    testResults = std::move(*produced);
    tensors.push_back(&testResults[workload.logitsResult()]);
  }
  return encodePayload(std::move(header), tensors);
}

void EvaluationSession::submit(SandboxPool &pool,
                               mlir::OwningOpRef<mlir::ModuleOp> variant,
                               const RunRequest &request,
                               std::function<void(Measurement)> done) {
  {
    DiagnosticCollector diagnostics(*variant->getContext());
    if (mlir::failed(mlir::verify(*variant)))
      return done(
          failedMeasurement(Outcome::InvalidIr,
                            firstLine(diagnostics.message("does not verify"))));
  }
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(*variant, workload.entry);
  if (!signature.ok())
    return done(failedMeasurement(Outcome::WrongShape,
                                  firstLine(signature.status().message())));
  if (absl::Status status =
          checkSignature(workload, *signature, validationArguments, data);
      !status.ok())
    return done(
        failedMeasurement(Outcome::WrongShape, firstLine(status.message())));
  double staticCost = estimateStaticCost(*variant, workload.entry);
  mlir::ModuleOp module = *variant;
  pool.submit([this, module, request] { return runInChild(module, request); },
              [this, staticCost, done = std::move(done)](ChildResult result) {
                Measurement m = decode(result);
                m.staticCost = staticCost;
                done(std::move(m));
              });
  // The child has its own copy now; `variant` is freed here.
}

Measurement
EvaluationSession::evaluate(SandboxPool &pool,
                            mlir::OwningOpRef<mlir::ModuleOp> variant,
                            const RunRequest &request) {
  Measurement out;
  submit(pool, std::move(variant), request,
         [&](Measurement m) { out = std::move(m); });
  pool.wait();
  return out;
}

} // namespace gevo
