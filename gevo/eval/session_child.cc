//===- session_child.cc - A session's sandboxed child: compile, run, time -===//
//
// EvaluationSession::runInChild, on every target: the variant lowered and
// compiled by the session's Target, the unmodified program beside it for
// interleaved pairs, the inputs placed, the runs made and timed
// (timed_runs.h), the checks the Target can make (corruption of the
// unmodified program, reads of uninitialised memory), and the test split.
// Runs in the forked child only; what it sends back is raw logits and
// timings with the stage that failed, if any (child_payload.h), which the
// parent decodes (session_decode.cc).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <optional>

#include "gevo/eval/child_payload.h"
#include "gevo/eval/child_run.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/run_limit.h"
#include "gevo/eval/timed_runs.h"
#include "gevo/eval/variant_session.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/message_lines.h"
#include "gevo/support/stopwatch.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace child {

std::string ChildRun::payload(mlir::ModuleOp module) {
  if (StepResult failed = runSteps(module)) {
    header["stage"] = failed->stage;
    header["message"] = firstLine(failed->message);
    return encodePayload(std::move(header), {});
  }
  int logits = s.workload.logitsResult();
  std::vector<const HostTensor *> tensors = {&runs.results[logits]};
  if (request.scoreTest)
    tensors.push_back(&testResults[logits]);
  return encodePayload(std::move(header), tensors);
}

StepResult ChildRun::runSteps(mlir::ModuleOp module) {
  if (absl::Status ready = target.start(); !ready.ok())
    return fail(TargetStep::Start, ready);
  if (StepResult failed = compileVariant(module))
    return failed;
  absl::StatusOr<std::unique_ptr<PlacedInputs>> placed =
      target.place(s.validation);
  if (!placed.ok())
    return fail(TargetStep::PlaceInputs, placed.status());
  inputs = std::move(*placed);
  if (request.race.enabled() && request.interleavedPairs > 0) {
    if (StepResult failed = firstRun())
      return failed;
    if (!stoppedBeforePairs())
      if (StepResult failed = raceMember())
        return failed;
    if (stoppedBeforePairs()) {
      // One run, or pairs with the member to beat: not the unmodified
      // program. A dominated variant never counts as a front member and
      // needs no check that guards a timing; one whose ratio was derived head
      // to head had its corruption check on the member and still needs the
      // check for reads of memory it never wrote.
      if (derivedHere())
        if (StepResult failed = checkUninitialized())
          return failed;
      header["run_ms"] = llvm::json::Array(runs.ms);
      return request.scoreTest ? runTest() : std::nullopt;
    }
    runs.ms.clear();
    runs.hostMs.clear();
  }
  if (request.interleavedPairs > 0)
    if (StepResult failed = compileBaseline())
      return failed;
  if (StepResult failed = timeRuns())
    return failed;
  if (StepResult failed = checkCorruption())
    return failed;
  if (!stoppedDominatedHere())
    if (StepResult failed = checkUninitialized())
      return failed;
  header["run_ms"] = llvm::json::Array(runs.ms);
  header["baseline_run_ms"] = llvm::json::Array(runs.baselineMs);
  if (target.capabilities().deviceTime)
    header["launches_per_run"] = runs.launches;
  return request.scoreTest ? runTest() : std::nullopt;
}

StepResult ChildRun::compileVariant(mlir::ModuleOp module) {
  // A variant built in another context (gevo/workbench/variant_context.h)
  // is copied into the session's, whose passes the parent warmed up (passes
  // made afresh in the child cost 10-15 ms more than the copy); if that
  // fails it is lowered by passes of its own context.
  auto start = SteadyClock::now();
  if (target.capabilities().lowersInSessionContext &&
      module->getContext() != &s.context) {
    copied = copyIntoContext(module, s.context);
    if (copied)
      module = *copied;
  }
  LoweringNote lowered;
  if (absl::Status status = target.lower(module, s.workload.entry, &lowered);
      !status.ok())
    return fail(TargetStep::Lower, status);
  header["lower_ms"] = millisecondsSince(start) + s.readMs;
  if (lowered.fellBack())
    header["lowering_fallback"] = lowered.fallbackReason;
  int64_t loweredOps = 0;
  module.walk([&](mlir::Operation *) { ++loweredOps; });
  header["lowered_ops"] = loweredOps;
  start = SteadyClock::now();
  absl::StatusOr<std::unique_ptr<CompiledVariant>> compiled =
      target.compile(module, s.signature);
  if (!compiled.ok())
    return fail(TargetStep::Compile, compiled.status());
  variant = std::move(*compiled);
  header["codegen_ms"] = millisecondsSince(start);
  return std::nullopt;
}

StepResult ChildRun::compileBaseline() {
  if ((baseline = target.compiledBaseline()))
    return std::nullopt;
  mlir::ModuleOp unmodified = s.baseline;
  baselineCopy = unmodified.clone();
  if (absl::Status status =
          target.lower(*baselineCopy, s.workload.entry, nullptr);
      !status.ok())
    return StepFailure{"baseline", std::string(status.message())};
  absl::StatusOr<std::unique_ptr<CompiledVariant>> compiled =
      target.compile(*baselineCopy, s.signature);
  if (!compiled.ok())
    return StepFailure{"baseline", std::string(compiled.status().message())};
  ownBaseline = std::move(*compiled);
  baseline = ownBaseline.get();
  return std::nullopt;
}

StepResult ChildRun::timeRuns() {
  // The unmodified program's logits before the variant ever runs here: a
  // variant that writes memory it does not own (past a buffer it shrank,
  // say) can corrupt the unmodified program's constants, which then compute
  // other logits, and often far slower (a bogus ratio). Where racing made
  // the variant's first run already, such a run would come after it anyway:
  // the first timed pair's unmodified run stands in for it.
  bool checks = baseline && target.capabilities().checksCorruption;
  bool racingLive = firstRunMade && !request.race.dryRun;
  if (checks && !racingLive) {
    absl::StatusOr<TimedRun> before = baseline->run(*inputs);
    if (!before.ok())
      return StepFailure{"baseline", std::string(before.status().message())};
    baselineBefore = std::move(before->results);
    variantRanLast = false;
  }
  RunSchedule schedule = s.schedule;
  schedule.interleavedPairs = request.interleavedPairs;
  schedule.variantRanLast = variantRanLast;
  // No warm-up pair after racing's first run, which warmed the variant up;
  // the unmodified program ran above, or, with racing live, first runs in
  // the first pair (measured as such in §11). A target that checks nothing
  // keeps its warm-up pair.
  if (firstRunMade && checks)
    schedule.warmup = 0;
  if (request.race.enabled())
    schedule.keepGoing = [this](int pairsDone) {
      return keepTiming(pairsDone);
    };
  if (timesAgainstOneBaselineRun()) {
    // Its interval carries that one run's noise (half a pair's variance,
    // where both sides are long) whatever the number of pairs.
    evictor = std::make_unique<CacheEvictor>();
    schedule.standInForBaseline = [this] { evictor->evict(); };
    request.race.sharedBaselineNoise = request.race.pairNoise / std::sqrt(2.0);
  }
  if (std::optional<ScheduleFailure> failure =
          makeTimedRuns(schedule, *variant, baseline, *inputs, runs)) {
    if (failure->baseline)
      return StepFailure{"baseline", std::string(failure->status.message())};
    return fail(TargetStep::Run, failure->status);
  }
  if (runs.results.size() <= static_cast<size_t>(s.workload.logitsResult()))
    return StepFailure{"run", "the entry returned fewer results than the "
                              "workload's logits index"};
  return std::nullopt;
}

bool ChildRun::timesAgainstOneBaselineRun() const {
  // The variant's own noise (a short program's runs and its process noise)
  // dwarfs the long unmodified program's, which further runs would narrow
  // at the cost of each: one run of it gives the ratio and the corruption
  // check (a variant's writes are the same in every run, so its first run's
  // already reached that one). Measured on the Fashion MLP training (110 ms):
  // runs after the eviction read 1.01x the paired runs (median over 136
  // short variants), docs/evaluation.md.
  return request.race.evictShort && firstRunMade && !request.race.dryRun &&
         !target.capabilities().deviceTime && firstReadingMs > 0 &&
         firstReadingMs < kProcessNoiseUntilMs &&
         request.race.referenceMs >= kProcessNoiseUntilMs;
}

StepResult ChildRun::checkCorruption() const {
  const std::vector<HostTensor> &before =
      baselineBefore.empty() ? runs.firstBaselineResults : baselineBefore;
  auto logits = static_cast<size_t>(s.workload.logitsResult());
  if (!target.capabilities().checksCorruption ||
      runs.baselineResults.size() <= logits)
    return std::nullopt;
  if (before.size() > logits &&
      before[logits].storage != runs.baselineResults[logits].storage)
    return StepFailure{"corrupts", "the unmodified program's logits changed "
                                   "once this variant had run in the same "
                                   "process"};
  // Its first run here may already come after the variant's (racing): its
  // known error is the check that does not depend on the order.
  if (request.race.unmodifiedError < 0 ||
      scoresError(runs.baselineResults, request.race.unmodifiedError))
    return std::nullopt;
  return StepFailure{"corrupts", "the unmodified program's logits score "
                                 "another error once this variant had run in "
                                 "the same process"};
}

StepResult ChildRun::checkUninitialized() {
  // Once more with fresh allocations filled with 0xFF (NaN as floats): a
  // variant whose logits change reads memory it never wrote, and would give
  // other answers built any other way.
  if (!target.capabilities().checksUninitializedReads)
    return std::nullopt;
  target.setFreshMemoryFill(0xFF);
  absl::StatusOr<TimedRun> again = variant->run(*inputs);
  target.setFreshMemoryFill(0);
  if (!again.ok())
    return fail(TargetStep::Run, again.status());
  int logits = s.workload.logitsResult();
  if (runs.results[logits].storage != again->results[logits].storage)
    return StepFailure{"uninitialized",
                       "its logits change when fresh memory holds other bytes"};
  return std::nullopt;
}

StepResult ChildRun::runTest() {
  absl::StatusOr<std::unique_ptr<PlacedInputs>> placed = target.place(s.test);
  if (!placed.ok())
    return fail(TargetStep::PlaceInputs, placed.status());
  absl::StatusOr<TimedRun> run = variant->run(**placed);
  if (!run.ok())
    return fail(TargetStep::Run, run.status());
  testResults = std::move(run->results);
  return std::nullopt;
}

} // namespace child

std::string EvaluationSession::runInChild(mlir::ModuleOp variant,
                                          const RunRequest &request,
                                          double readMs) {
  RunCounts counts = runCounts(options, workload);
  child::ChildSetup setup{*runner,
                          *mlirContext,
                          *baselineModule,
                          workload,
                          RunSchedule{counts.warmup, counts.repeats, 0},
                          *signature,
                          validationArguments,
                          testArguments,
                          data,
                          opponents,
                          readMs};
  return child::ChildRun(setup, request).payload(variant);
}

} // namespace gevo
