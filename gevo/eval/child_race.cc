//===- child_race.cc - Racing's steps in a session's child ----------------===//
//
// The first run that reads a variant's error exactly and its time roughly,
// and the stop after each timed pair, as the RacePlan (race.h) decides.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>

#include "gevo/eval/child_run.h"
#include "gevo/eval/race.h"
#include "gevo/eval/run_limit.h"
#include "gevo/support/median.h"

namespace gevo {
namespace child {

StepResult ChildRun::firstRun() {
  // The error is exact after one run; the run time is a single reading,
  // read against the unmodified program's run time in the parent. A
  // variant the front already dominates beyond what that reading can be off
  // stops here, before the unmodified program is even compiled.
  firstRunMade = true;
  // A short program's first run reads several times its steady time (first
  // touches of fresh memory): where the front beats a reading, the variant
  // runs again until kFirstReadingMs have passed (at most three runs, one on
  // a heavy program) and the reading is the fastest.
  constexpr double kFirstReadingMs = 50;
  // A first run past the run limit ends the child there (a dry run only
  // notes it).
  double limitMs = request.race.runLimitMs();
  double readingMs = 0, spentMs = 0;
  auto ratioOf = [&](double ms) {
    return request.race.referenceMs > 0 ? ms / request.race.referenceMs : 0;
  };
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
    if (k == 0)
      score = scoreFirstRun();
    // What the outputs alone decide needs no better reading of the time, nor
    // does a reading the front does not beat (another run can only lower
    // it, and the timed pairs follow anyway).
    if (score && !request.race.dryRun &&
        (decidedByOutputs(*score) ||
         beatenAfterFirstRun(request.race, 1.0 - score->accuracy(),
                             ratioOf(readingMs))
             .empty()))
      break;
  }
  runs.ms.push_back(readingMs);
  firstReadingMs = readingMs;
  variantRanLast = true;
  if (!score)
    return std::nullopt; // timeRuns() reports it
  if (score->nonFiniteRows > 0) {
    // It fails whatever its time (the parent classifies it from the logits).
    stopAt(kRacedFailedFirstRun);
    return std::nullopt;
  }
  firstError = 1.0 - score->accuracy();
  header["first_ratio"] = ratioOf(readingMs);
  if (!beatenAfterFirstRun(request.race, firstError, ratioOf(readingMs))
           .empty())
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

StepResult ChildRun::raceMember() {
  // The member the variant must beat, timed head to head with it here: a
  // variant as fast as it stops as dominated after a few pairs of two short
  // programs, instead of pairs with the (often far slower) unmodified
  // program, and one that beats it enters the front the same way; one the
  // pairs do not decide goes on to pairs with the unmodified program.
  if (request.race.dryRun || firstError < 0 || request.interleavedPairs <= 0)
    return std::nullopt;
  const FrontPoint *member = memberToBeat(request.race.front, firstError);
  if (!member || member->key.empty())
    return std::nullopt;
  auto held = s.opponents.find(member->key);
  if (held == s.opponents.end())
    return std::nullopt;
  // One untimed run first: the member's first run here touches its pages
  // afresh and would read slow (the variant's first run warmed it up). A
  // member that fails a run leaves the variant to the unmodified program.
  if (!held->second->run(*inputs).ok())
    return std::nullopt;
  variantRanLast = false; // and each pair below ends with the member
  TimedRuns pairs;
  RunSchedule schedule;
  schedule.interleavedPairs = request.interleavedPairs;
  PairVerdict verdict = PairVerdict::Undecided;
  bool derives = derivesFrom(request.race, *member);
  schedule.keepGoing = [&](int pairsDone) {
    if (pairsDone == 0)
      return true;
    std::vector<double> ratios = pairRatios(pairs.ms, pairs.baselineMs);
    double memberMs = median(pairs.baselineMs);
    verdict = judgeHeadToHead(request.race, ratios, memberMs);
    // Pairs with a member it cannot derive from only pay off as a stop as
    // dominated: none once that is out of reach.
    return verdict == PairVerdict::Undecided &&
           (derives || pairsDone < request.race.minPairsDominated ||
            headToHeadCouldDominate(request.race, ratios, memberMs,
                                    request.interleavedPairs));
  };
  if (std::optional<ScheduleFailure> failure = makeTimedRuns(
          schedule, *variant, held->second.get(), *inputs, pairs)) {
    if (failure->baseline)
      return std::nullopt;
    return fail(TargetStep::Run, failure->status);
  }
  if (StepResult failed = checkMember(*member, pairs))
    return failed;
  // Beating the fastest member at least as accurate puts it on the front:
  // its ratio is the pairs' times the member's, without the unmodified
  // program's far slower runs (the member's logits were the corruption
  // check), unless the member is short or its own ratio was derived so
  // (derivesFrom).
  // Pairs that decide neither way (as fast as the member within their
  // noise) give the same derived ratio: timing it again against the
  // unmodified program doubled what a neutral edit of a member cost (§11).
  // A tie of two short programs (WithinNoise) never derives (the member is
  // short): it goes on to pairs with the unmodified program.
  int n = static_cast<int>(pairs.ms.size());
  bool tied =
      verdict == PairVerdict::Undecided || verdict == PairVerdict::WithinNoise;
  if (verdict == PairVerdict::Dominated)
    stopAt(racedAgainstMember(n));
  else if (verdict == PairVerdict::Enters && derives)
    stopAt(enteredAgainstMember(n));
  else if (tied && derives)
    stopAt(tiedAgainstMember(n));
  else {
    // Not slower than the member, head to head: the pairs with the
    // unmodified program that follow may not stop it as dominated by the
    // member's stored reading (in §11, a member that read x0.1994 in the
    // search and x0.2263 measured again stopped a variant of x0.2043).
    notDominatedHeadToHead = true;
    return std::nullopt;
  }
  runs.ms = pairs.ms;
  header["member_run_ms"] = llvm::json::Array(pairs.baselineMs);
  header["member_ratio"] = member->ratio;
  return std::nullopt;
}

StepResult ChildRun::checkMember(const FrontPoint &member,
                                 const TimedRuns &pairs) const {
  // The member's error is known exactly: logits that score another one were
  // computed from memory this variant wrote (the unmodified program's
  // corruption check, for the program it was timed against here).
  if (pairs.baselineResults.size() <=
      static_cast<size_t>(s.workload.logitsResult()))
    return StepFailure{"baseline", "the front member returned fewer results "
                                   "than the workload's logits index"};
  if (scoresError(pairs.baselineResults, member.error))
    return std::nullopt;
  return StepFailure{"corrupts", "a front member's logits changed once this "
                                 "variant had run in the same process"};
}

bool ChildRun::scoresError(const std::vector<HostTensor> &results,
                           double error) const {
  absl::StatusOr<ClassificationScore> score = scoreSplit(
      s.data, SplitRole::Validation, results[s.workload.logitsResult()]);
  return score.ok() && std::abs((1.0 - score->accuracy()) - error) < 1e-12;
}

bool ChildRun::keepTiming(int pairsDone) {
  // After each timed pair: stop once the pairs' confidence interval decides
  // whether the front dominates the variant (race.h).
  if (pairsDone == 0 || firstError < 0)
    return true;
  std::vector<double> ratios = pairRatios(runs.ms, runs.baselineMs);
  switch (judgePairs(request.race, firstError, ratios)) {
  case PairVerdict::Dominated:
    // Head to head it was as fast as the fastest member at least as
    // accurate: only pairs that show it faster decide (below).
    if (notDominatedHeadToHead)
      break;
    return stopAt(racedAfterPairs(pairsDone));
  case PairVerdict::Enters:
    return stopAt(enteredAfterPairs(pairsDone));
  case PairVerdict::WithinNoise:
    // Dominated here, not beyond what another process would read: more
    // pairs here cannot decide, and its reading stays in the archive.
    return stopAt(withinNoiseAfterPairs(pairsDone));
  case PairVerdict::Undecided:
    break;
  }
  // Pairs left that could not decide it either, at this median and spread,
  // would only narrow a reading that joins the front as it is and is read
  // again there (RacePlan::stopUndecided).
  if (request.race.stopUndecided && pairsDone >= request.race.minPairs &&
      median(ratios) < ratioToBeat(request.race.front, firstError) &&
      !morePairsCouldDecide(request.race, firstError, ratios,
                            request.interleavedPairs, !notDominatedHeadToHead))
    return stopAt(undecidedAfterPairs(pairsDone));
  return true;
}

std::string ChildRun::racedHere() const {
  return header.getString("raced").value_or("").str();
}

bool ChildRun::stoppedDominatedHere() const {
  return stoppedDominated(racedHere());
}

bool ChildRun::stoppedBeforePairs() const {
  std::string raced = racedHere();
  return stoppedDominated(raced) || raced == kRacedFailedFirstRun ||
         derivedHeadToHead(raced);
}

bool ChildRun::derivedHere() const { return derivedHeadToHead(racedHere()); }

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

} // namespace child
} // namespace gevo
