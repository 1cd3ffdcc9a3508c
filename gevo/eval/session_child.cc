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
#include <optional>

#include "gevo/eval/child_payload.h"
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
namespace {

/// A step that failed: the stage the child reports, and why.
struct StepFailure {
  const char *stage;
  std::string message;
};
using StepResult = std::optional<StepFailure>;

/// What of the session a child reads.
struct ChildSetup {
  Target &target;
  mlir::MLIRContext &context;
  mlir::ModuleOp baseline;
  const WorkloadSpec &workload;
  RunSchedule schedule;
  const EntrySignature &signature;
  const std::vector<HostTensor> &validation, &test;
  /// The labels, for racing's early look at the error (race.h); the parent
  /// scores the logits it is sent whatever this says.
  const DatasetSplit &data;
};

/// One variant's evaluation in the child, step by step; `payload()` is what
/// the child sends back.
class ChildRun {
public:
  ChildRun(const ChildSetup &setup, const RunRequest &request)
      : s(setup), target(setup.target), request(request) {}
  std::string payload(mlir::ModuleOp variant);

private:
  StepResult fail(TargetStep step, const absl::Status &status) const {
    return StepFailure{target.failureStage(step, status),
                       std::string(status.message())};
  }
  StepResult runSteps(mlir::ModuleOp variant);
  StepResult compileVariant(mlir::ModuleOp variant);
  StepResult compileBaseline();
  StepResult firstRun();
  std::optional<ClassificationScore> scoreFirstRun() const;
  bool decidedByOutputs(const ClassificationScore &score) const;
  StepResult timeRuns();
  bool keepTiming(int pairsDone);
  bool stoppedDominatedHere() const;
  bool stoppedAfterFirstRun() const;
  bool stopAt(const std::string &where);
  StepResult checkCorruption() const;
  StepResult checkUninitialized();
  StepResult runTest();

  const ChildSetup &s;
  Target &target;
  RunRequest request;
  llvm::json::Object header{{"stage", "ok"}};
  mlir::OwningOpRef<mlir::ModuleOp> copied, baselineCopy;
  std::unique_ptr<CompiledVariant> variant, ownBaseline;
  /// The unmodified program run here: the parent's (inherited) or its own.
  const CompiledVariant *baseline = nullptr;
  std::unique_ptr<PlacedInputs> inputs;
  TimedRuns runs;
  std::vector<HostTensor> baselineBefore, testResults;
  /// The validation error after the first run (racing); negative: unknown.
  double firstError = -1;
  /// Racing made the variant's first run before any pair (it warmed it up).
  bool firstRunMade = false;
};

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
    if (stoppedAfterFirstRun()) {
      // One run, no pair: neither the unmodified program nor the checks
      // that guard a timing (the variant never counts as a front member).
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
  header["lower_ms"] = millisecondsSince(start);
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
  // other logits, and often far slower (a bogus ratio).
  if (baseline && target.capabilities().checksCorruption) {
    absl::StatusOr<TimedRun> before = baseline->run(*inputs);
    if (!before.ok())
      return StepFailure{"baseline", std::string(before.status().message())};
    baselineBefore = std::move(before->results);
  }
  RunSchedule schedule = s.schedule;
  schedule.interleavedPairs = request.interleavedPairs;
  // Racing's first run warmed the variant up and the run above the
  // unmodified program: no warm-up pair is needed.
  if (firstRunMade && !baselineBefore.empty())
    schedule.warmup = 0;
  if (request.race.enabled())
    schedule.keepGoing = [this](int pairsDone) {
      return keepTiming(pairsDone);
    };
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

StepResult ChildRun::firstRun() {
  // The error is exact after one run; the run time is a single reading,
  // read against the unmodified program's run time in the parent. A
  // variant the front already dominates beyond what that reading can be off
  // stops here, before the unmodified program is even compiled.
  firstRunMade = true;
  // A short program's first run reads several times its steady time (first
  // touches of fresh memory): the reading is the fastest of the runs made
  // until kFirstReadingMs have passed (at most three), one run on a heavy
  // program.
  constexpr double kFirstReadingMs = 50;
  // A first run past the run limit ends the child there (a dry run only
  // notes it).
  double limitMs = request.race.runLimitMs();
  double readingMs = 0, spentMs = 0;
  std::optional<ClassificationScore> score;
  for (int k = 0; k < 3 && spentMs < kFirstReadingMs; ++k) {
    RunLimit limit(k == 0 ? limitMs : 0, !request.race.dryRun);
    absl::StatusOr<TimedRun> run = variant->run(*inputs);
    if (!run.ok())
      return fail(TargetStep::Run, run.status());
    if (limit.passed())
      stopAt(kRacedAtRunLimit); // a dry run's note
    readingMs = k == 0 ? run->ms : std::min(readingMs, run->ms);
    spentMs += run->ms;
    runs.results = std::move(run->results);
    runs.launches = run->launches;
    // What the outputs alone decide needs no better reading of the time.
    if (k == 0 && (score = scoreFirstRun()) && decidedByOutputs(*score) &&
        !request.race.dryRun)
      break;
  }
  runs.ms.push_back(readingMs);
  if (!score)
    return std::nullopt; // timeRuns() reports it
  if (score->nonFiniteRows > 0) {
    // It fails whatever its time (the parent classifies it from the logits).
    stopAt(kRacedFailedFirstRun);
    return std::nullopt;
  }
  firstError = 1.0 - score->accuracy();
  double ratio =
      request.race.referenceMs > 0 ? readingMs / request.race.referenceMs : 0;
  header["first_ratio"] = ratio;
  if (!beatenAfterFirstRun(request.race, firstError, ratio).empty())
    stopAt(kRacedAfterFirstRun);
  return std::nullopt;
}

std::optional<ClassificationScore> ChildRun::scoreFirstRun() const {
  int logits = s.workload.logitsResult();
  if (runs.results.size() <= static_cast<size_t>(logits))
    return std::nullopt;
  absl::StatusOr<ClassificationScore> score =
      scoreSplit(s.data, SplitRole::Validation, runs.results[logits]);
  if (!score.ok())
    return std::nullopt;
  return *score;
}

bool ChildRun::decidedByOutputs(const ClassificationScore &score) const {
  // Logits that are not finite fail the variant; racing's verdict on the
  // error alone (no reading: an error beyond the feasible band) stops it
  // whatever its time.
  return score.nonFiniteRows > 0 ||
         !beatenAfterFirstRun(request.race, 1.0 - score.accuracy(), 0).empty();
}

bool ChildRun::keepTiming(int pairsDone) {
  // After each timed pair: stop once the pairs' confidence interval decides
  // whether the front dominates the variant (race.h).
  if (pairsDone == 0 || firstError < 0)
    return true;
  std::vector<double> ratios;
  for (size_t i = 0; i < runs.ms.size() && i < runs.baselineMs.size(); ++i)
    if (runs.baselineMs[i] > 0)
      ratios.push_back(runs.ms[i] / runs.baselineMs[i]);
  switch (judgePairs(request.race, firstError, ratios)) {
  case PairVerdict::Dominated:
    return stopAt(racedAfterPairs(pairsDone));
  case PairVerdict::Enters:
    return stopAt(enteredAfterPairs(pairsDone));
  case PairVerdict::Undecided:
    break;
  }
  return true;
}

bool ChildRun::stoppedDominatedHere() const {
  std::optional<llvm::StringRef> raced = header.getString("raced");
  return raced && stoppedDominated(raced->str());
}

bool ChildRun::stoppedAfterFirstRun() const {
  std::optional<llvm::StringRef> raced = header.getString("raced");
  return raced &&
         (stoppedDominated(raced->str()) || *raced == kRacedFailedFirstRun);
}

bool ChildRun::stopAt(const std::string &where) {
  // A dry run records the first place racing would have stopped and goes on.
  if (!request.race.dryRun) {
    header["raced"] = where;
    return false;
  }
  if (!header.get("would_race"))
    header["would_race"] = where;
  return true;
}

StepResult ChildRun::checkCorruption() const {
  if (baselineBefore.empty())
    return std::nullopt;
  int logits = s.workload.logitsResult();
  if (baselineBefore[logits].storage != runs.baselineResults[logits].storage)
    return StepFailure{"corrupts",
                       "the unmodified program's logits changed once this "
                       "variant had run in the same process"};
  return std::nullopt;
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

} // namespace

std::string EvaluationSession::runInChild(mlir::ModuleOp variant,
                                          const RunRequest &request) {
  RunCounts counts = runCounts(options, workload);
  ChildSetup setup{*runner,
                   *mlirContext,
                   *baselineModule,
                   workload,
                   RunSchedule{counts.warmup, counts.repeats, 0},
                   *signature,
                   validationArguments,
                   testArguments,
                   data};
  return ChildRun(setup, request).payload(variant);
}

} // namespace gevo
