//===- race.h - When a variant's timing can stop early --------------------===//
//
// Racing: a variant's validation error is known exactly after its first run,
// its run time only roughly. A variant the front measured so far already
// dominates (beyond what a first reading can be off, or, after timed pairs,
// beyond their confidence interval) cannot enter the front, and the rest of
// its timing is not worth making; one the front cannot dominate is on it
// after a few pairs, and the rest are not worth making either. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_RACE_H
#define GEVO_EVAL_RACE_H

#include <string>
#include <vector>

namespace gevo {

/// A fully measured front member: validation error, run-time ratio to the
/// unmodified program (the unmodified program itself is (error, 1)) and the
/// timed pairs its ratio is the median of (0: exact, as the unmodified
/// program's 1 is): its ratio is as uncertain as the variant's.
struct FrontPoint {
  double error = 0;
  double ratio = 1;
  int pairs = 0;
  /// The member's variant key (modelFingerprint()), under which the session
  /// may hold it compiled for head-to-head pairs (EvaluationSession::
  /// holdOpponent); "" for the unmodified program and where none is held.
  std::string key;
  /// Its ratio is its pairs against another member times that member's
  /// ("enters_member:N"), not pairs with the unmodified program: a variant
  /// that beats it head to head is timed against the unmodified program, so
  /// that no ratio is a product of more than two.
  bool derived = false;
};

/// Where a program stops being short: from this run time (ms) on, the
/// band (RacePlan::band) covers how far its time moves between processes
/// (processNoise()).
inline constexpr double kProcessNoiseUntilMs = 20;

struct RacePlan {
  /// The front so far; empty: no racing (every variant fully measured).
  std::vector<FrontPoint> front;
  /// How far (relative) the first run's time, a single reading before any
  /// pair, may be above the variant's true time: it is stopped there only
  /// when that reading is above (1 + margin) times a dominating member's.
  double firstReadingMargin = 0.5;
  /// Ratios within this (relative) band count as equal, as in the front's
  /// re-measurement: a variant no faster than a member at least as accurate
  /// by more than the band is dominated.
  double band = 0.02;
  /// The relative spread (standard deviation) of one timed pair's ratio;
  /// after k pairs the ratio's confidence interval is the median
  /// +- confidenceZ * pairNoise / sqrt(k) (1.64: each side 95%), widened by
  /// the member's own uncertainty (its FrontPoint::pairs) when it is
  /// compared with one.
  double pairNoise = 0.02;
  double confidenceZ = 1.64;
  /// Timed pairs made before a variant the front cannot dominate stops.
  /// Three: a median that one disturbed pair (load hitting one side)
  /// cannot move; with two, the median is their mean.
  int minPairs = 3;
  /// Timed pairs made before a variant stops as dominated: one pair has no
  /// spread of its own, and a short program's first pair still reads slow
  /// (in §11's check, 13.3 ms where its later pairs read 11.2-12.4).
  int minPairsDominated = 2;
  /// The unmodified program's run time (ms) the first run is read against.
  double referenceMs = 0;
  /// The unmodified program's validation error (exact): a child whose
  /// unmodified program's logits score another one ran it on memory the
  /// variant wrote, even where racing's first run came before every run of
  /// it. < 0: unknown (not checked).
  double unmodifiedError = -1;
  /// Validation errors above this are ranked behind every other variant
  /// (SearchConfig::maxErrorIncrease over the unmodified program's): such
  /// a variant stops after its first run whatever its time. <= 0: none.
  double maxError = 0;
  /// The first run ends the variant once it has taken this many times
  /// referenceMs (RacePlan::runLimitMs): the search sets it 1 + margin
  /// times past the hypervolume's reference point (or the slowest member,
  /// if slower), where a variant adds nothing to the front's hypervolume
  /// whatever its error. 0: no limit but the sandbox's time limit.
  double runLimitRatio = 0;
  /// A variant that beats a member head to head enters with a ratio derived
  /// from the member's only when the member runs at least this long (its
  /// time: its ratio times referenceMs); a short one's pairs with another
  /// short program read it faster than its pairs with the unmodified program
  /// do (in §11, a 2.4-ms member derived so read x0.0139 and x0.0184 once
  /// measured again), which misorders the front. Such a variant is timed
  /// against the unmodified program, as every member it is judged beside is.
  /// Short as processNoise() has it: from 20 ms on a program's time moves
  /// between processes by under 1.3% (median absolute deviation), inside the
  /// band. It was 50 ms until 2026-12-07, when long variants tied with
  /// 20-50 ms members were timed through every pair with both.
  double minDerivingMs = kProcessNoiseUntilMs;
  /// Decide but do not stop: every run is made and the measurement says
  /// where racing would have stopped it (Measurement::wouldRace), so a
  /// benchmark can check that no variant it stops would have entered the
  /// front.
  bool dryRun = false;
  /// Stop timing a variant that reads Undecided after minPairs once no pair
  /// left could decide it (morePairsCouldDecide()), where its pairs' median
  /// is ahead of every member at least as accurate (`undecided:N`: it joins
  /// the front on that reading, and a second reading decides, as for every
  /// entry). One behind them is timed on: stopped there, its reading would
  /// be a stop within the noise that nothing reads again. Off: every
  /// undecided variant is timed through every pair
  /// (SearchConfig::raceStopUndecided).
  bool stopUndecided = false;
  /// A variant whose first reading is short (under kProcessNoiseUntilMs)
  /// beside an unmodified program that is not is timed against one run of
  /// it: in each later pair an eviction of the caches stands in for it
  /// (RunSchedule::standInForBaseline), the cost of a pair falling from the
  /// long program's run to the short variant's (SearchConfig::raceEvictShort).
  bool evictShort = false;
  /// Where every pair's ratio is read against that one run, its relative
  /// noise, which no number of pairs narrows: it adds to the variance of
  /// the pairs' interval (the child sets it; 0: a run per pair).
  double sharedBaselineNoise = 0;

  bool enabled() const { return !front.empty(); }
  /// The first run's limit in CPU ms (0: none); never below kMinRunLimitMs,
  /// since a short program's first run reads several times its steady time.
  double runLimitMs() const;
};

/// The run-time ratio of the hypervolume's reference point (the search
/// normalises run time by twice the unmodified program's).
inline constexpr double kHypervolumeRatio = 2;
inline constexpr double kMinRunLimitMs = 50;
/// How a child stopped at RacePlan::runLimitMs ends (sandbox exit code).
inline constexpr int kRunLimitExitCode = 88;

/// The smallest ratio of a front member at least as accurate as `error`;
/// infinity when none is (the variant would enter the front however slow).
double ratioToBeat(const std::vector<FrontPoint> &front, double error);

/// The member a variant of `error` must beat: the fastest at least as
/// accurate; null when none is.
const FrontPoint *memberToBeat(const std::vector<FrontPoint> &front,
                               double error);

/// After the first run (before any pair): why the variant cannot enter the
/// front ("" when it may). `ratio` is that run's time over
/// RacePlan::referenceMs.
std::string beatenAfterFirstRun(const RacePlan &plan, double error,
                                double ratio);

/// Each pair's ratio: `ms[i]` over `otherMs[i]`, for the pairs whose other
/// side has a time; over `otherMs[0]` for every pair where the other side
/// ran once (RacePlan::evictShort).
std::vector<double> pairRatios(const std::vector<double> &ms,
                               const std::vector<double> &otherMs);

/// What the timed pairs' `ratios` decide.
enum class PairVerdict {
  Undecided, ///< time another pair
  Dominated, ///< a member at least as accurate is as fast or faster
  Enters,    ///< no member at least as accurate is as fast: on the front
  /// After minPairs: dominated by the pairs' interval, not beyond the
  /// process noise (processNoise()) of a short variant or member. More pairs
  /// in this process cannot decide it; timing stops and the pairs' median is
  /// its ratio, as a full measurement's would be.
  WithinNoise
};
PairVerdict judgePairs(const RacePlan &plan, double error,
                       const std::vector<double> &ratios);

/// Whether pairs up to `maxPairs` could still decide what `ratios` leave
/// undecided, were their median and spread to stay where these put them:
/// Enters, or (with `dominatedStops`; a variant not dominated head to head
/// is not stopped so) any other verdict. A variant as fast as a member
/// within the band's width, as a neutral edit's twin is, reads Undecided
/// through every pair while the interval is wider than the band (at 5 pairs
/// and the default noise, 2.1% against 2%): in §11's searches such variants,
/// mostly short ones, were 9-13% of them and a third of the children's CPU,
/// each pair mostly the unmodified program's run.
bool morePairsCouldDecide(const RacePlan &plan, double error,
                          const std::vector<double> &ratios, int maxPairs,
                          bool dominatedStops);

/// How far (relative standard deviation) a program's run time of `ms`
/// moves from one process to another on the same machine, where pairs in
/// one process cannot see it: the heap's and the code's placement differ per
/// process. A stop as dominated must clear it for both sides (judgePairs);
/// entering need not. Measured on the Fashion MLP training (docs/
/// evaluation.md, "Timing noise by program length"): over 6 fresh processes
/// a variant's ratio spread (max - min over the median) 0.10-0.53 under
/// 1.5 ms, 0.06-0.20 at 2-16 ms, 0.04-0.07 at 20-50 ms. From
/// kProcessNoiseUntilMs on, the band (RacePlan::band) covers it: 0 there, and
/// for ms <= 0 (unknown).
double processNoise(double ms);

/// What timed pairs against the member to beat (memberToBeat(); `ratios`
/// are the variant's time over the member's, both run here) decide:
/// Dominated when even at the fast end of their interval the variant is not
/// faster than the member by more than the band (after minPairsDominated
/// pairs); Enters when even at the slow end it is (after minPairs: it is
/// not dominated by that member, and so by none the front measured; it
/// enters with its ratio to the member times the member's, unless that
/// member's ratio is itself derived, FrontPoint::derived, when pairs with
/// the unmodified program give it); else Undecided. Head to head, the
/// member's stored reading plays no part: a member whose reading was lucky
/// cannot stop a variant as fast as it.
///
/// `memberMs` is the member's run time in these pairs (0: unknown), for the
/// process noise of two short programs: a sub-ms variant as fast as a sub-ms
/// member here read 35% faster than it in each of 3 fresh processes (§11,
/// seed 2), so such a tie is WithinNoise, not Dominated.
PairVerdict judgeHeadToHead(const RacePlan &plan,
                            const std::vector<double> &ratios,
                            double memberMs = 0);

/// Whether pairs head to head up to `maxPairs` could still read Dominated
/// (judgeHeadToHead()), were their median and spread to stay where `ratios`
/// put them. Against a member it cannot derive its ratio from
/// (derivesFrom()), a stop as dominated is all such pairs can give: once it
/// is out of reach, the variant goes on to pairs with the unmodified
/// program without the rest (in §11's searches, undecided ties with such a
/// member made every pair, ~350 ms each on a long one, before pairs with the
/// unmodified program that they could no longer stop).
bool headToHeadCouldDominate(const RacePlan &plan,
                             const std::vector<double> &ratios, double memberMs,
                             int maxPairs);

/// Whether a variant that beats `member` head to head enters with a ratio
/// derived from the member's (RacePlan::minDerivingMs; never from a derived
/// one, FrontPoint::derived, so that no ratio is a product of more than two).
bool derivesFrom(const RacePlan &plan, const FrontPoint &member);

/// How much of a variant was measured, as Measurement::raced holds it:
/// "" (fully), "first_run" (stopped, dominated, after one untimed-against
/// run), "run_limit" (ended during its first run, at RacePlan::runLimitMs),
/// "failed_first_run" (its first run's logits were not finite),
/// "pairs:N" (stopped, dominated, after N pairs), "member:N" (stopped,
/// dominated, after N pairs against the member to beat: its ratio is their
/// median times the member's), "enters:N" (timing stopped after N pairs
/// because nothing measured dominates it: its ratio is those pairs') or
/// "enters_member:N" (timing stopped after N pairs head to head because it
/// beats the member to beat: its ratio is their median times the member's)
/// or "tied_member:N" (N pairs head to head decided neither way: as fast as
/// the member within the pairs' noise, its ratio is their median times the
/// member's, without pairs with the unmodified program).
std::string racedAfterPairs(int pairs);
std::string racedAgainstMember(int pairs);
std::string enteredAfterPairs(int pairs);
std::string enteredAgainstMember(int pairs);
std::string tiedAgainstMember(int pairs);
/// "within_noise:N": N pairs with the unmodified program put the variant
/// within the process noise of a member at least as accurate (PairVerdict::
/// WithinNoise); its ratio is their median. Not a stop as dominated: it
/// stays in the archive as a fully measured variant does.
std::string withinNoiseAfterPairs(int pairs);
bool stoppedWithinNoise(const std::string &raced);
/// "undecided:N": after N pairs (at least minPairs) with the unmodified
/// program neither verdict was reached, nor could the remaining ones reach
/// one (morePairsCouldDecide()), and their median (its ratio) was ahead of
/// every member at least as accurate: it joins the front on that reading,
/// and is read again as every entry is (readAgainOnRace). Not a stop.
std::string undecidedAfterPairs(int pairs);
/// Whether `raced` says the variant entered head to head, its ratio derived
/// from the member it beat ("enters_member:N"; FrontPoint::derived).
bool enteredHeadToHead(const std::string &raced);
/// Whether `raced` says the pairs head to head decided neither way and the
/// variant took the derived ratio ("tied_member:N").
bool tiedHeadToHead(const std::string &raced);
/// Whether `raced` says the variant's ratio was derived head to head from a
/// member's ("enters_member:N" or "tied_member:N"; FrontPoint::derived).
bool derivedHeadToHead(const std::string &raced);
inline constexpr char kRacedAfterFirstRun[] = "first_run";
/// Stopped during its first run at RacePlan::runLimitMs (a timeout).
inline constexpr char kRacedAtRunLimit[] = "run_limit";
/// Stopped after its first run, whose logits were not all finite: it fails
/// (Outcome::NonFinite) whatever its time, so none is measured.
inline constexpr char kRacedFailedFirstRun[] = "failed_first_run";
/// Whether `raced` says timing stopped because the variant enters the front.
bool enteredEarly(const std::string &raced);
/// Whether a reading that ran (`raced` its label, `ratio` its run-time
/// ratio, `error` its validation error) is read again in a child of its own
/// before it counts, with re-reading on: one that would join `front` (it
/// entered on the reading a selection picked: the winner's curse), and one
/// kept within the process noise (dominated in its own child only: another
/// child can read it faster, as §11 seed 2's d7246da0f5e750dc, x0.149 in its
/// child and x0.140-0.144 in three fresh processes, would have been) where
/// its timed runs (`timedMs`, the unmodified program's in its pairs
/// included) took at least its compile (`compileMs`): a second child then
/// costs about what the first did. On sub-millisecond programs the compile
/// is 2 to 25 times the pairs (the digits training) and a second reading of
/// every such stop cost 13% of the evaluations/s (docs/evaluation.md).
bool readAgainOnRace(const std::vector<FrontPoint> &front, double error,
                     double ratio, const std::string &raced, double timedMs,
                     double compileMs);
/// Whether `raced` says the variant stopped because it was dominated (it
/// then never counts as a front member).
bool stoppedDominated(const std::string &raced);

/// `points` reduced to its non-dominated members (lower error and lower
/// ratio are better), sorted by error.
std::vector<FrontPoint> nonDominated(std::vector<FrontPoint> points);

} // namespace gevo

#endif // GEVO_EVAL_RACE_H
