//===- child_run.h - One variant's evaluation in a session's child --------===//
//
// The steps of EvaluationSession::runInChild, shared by session_child.cc
// (compile, time, check, test) and child_race.cc (racing's first run and
// when the timed pairs stop). Internal to the session's library.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CHILD_RUN_H
#define GEVO_EVAL_CHILD_RUN_H

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gevo/eval/cache_eviction.h"
#include "gevo/eval/race.h"
#include "gevo/eval/timed_runs.h"
#include "gevo/eval/variant_session.h"
#include "gevo/eval/workload/bindings.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace child {

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
  /// Front members the parent compiled (EvaluationSession::holdOpponent),
  /// by FrontPoint::key: racing's head-to-head pairs.
  const std::map<std::string, std::unique_ptr<CompiledVariant>> &opponents;
  /// The time a fork server's child took to read the variant it was sent,
  /// counted in lower_ms as the copy into the context it stands for.
  double readMs = 0;
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
  StepResult raceMember();
  StepResult checkMember(const FrontPoint &member,
                         const TimedRuns &pairs) const;
  /// Whether `results` (holding the logits) score validation error `error`
  /// exactly: how a program's known error checks its logits.
  bool scoresError(const std::vector<HostTensor> &results, double error) const;
  StepResult timeRuns();
  /// Racing's short variant beside a long unmodified program: timed
  /// against one run of it (RacePlan::evictShort).
  bool timesAgainstOneBaselineRun() const;
  bool keepTiming(int pairsDone);
  /// Where racing stopped the variant here (Measurement::raced; "" not).
  std::string racedHere() const;
  bool stoppedDominatedHere() const;
  bool stoppedBeforePairs() const;
  /// Its ratio derived head to head (entered or tied; no pairs with the
  /// unmodified program).
  bool derivedHere() const;
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
  /// The first run's time (its fastest reading; racing): 0 unknown.
  double firstReadingMs = 0;
  /// Stands in for the unmodified program after its first timed run
  /// (timesAgainstOneBaselineRun()).
  std::unique_ptr<CacheEvictor> evictor;
  /// Racing made the variant's first run before any pair (it warmed it up).
  bool firstRunMade = false;
  /// Whether the last run this child made was the variant's (the next
  /// pairs start with the other program: run_schedule.h).
  bool variantRanLast = false;
  /// Timed head to head with the member to beat, it was not slower
  /// (raceMember): the pairs with the unmodified program may not stop it as
  /// dominated.
  bool notDominatedHeadToHead = false;
};

} // namespace child
} // namespace gevo

#endif // GEVO_EVAL_CHILD_RUN_H
