//===- race.cc - When a variant's timing can stop early -------------------===//

#include "gevo/eval/race.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/support/median.h"

namespace gevo {
double ratioToBeat(const std::vector<FrontPoint> &front, double error) {
  double best = std::numeric_limits<double>::infinity();
  for (const FrontPoint &point : front)
    if (point.error <= error)
      best = std::min(best, point.ratio);
  return best;
}

const FrontPoint *memberToBeat(const std::vector<FrontPoint> &front,
                               double error) {
  const FrontPoint *best = nullptr;
  for (const FrontPoint &point : front)
    if (point.error <= error && (!best || point.ratio < best->ratio))
      best = &point;
  return best;
}

std::string beatenAfterFirstRun(const RacePlan &plan, double error,
                                double ratio) {
  if (!plan.enabled())
    return "";
  if (plan.maxError > 0 && error > plan.maxError)
    return "error beyond the feasible band";
  if (!(ratio > 0))
    return "";
  // Only the time decides: the same static cost is not the same time (in
  // §11's check, variants with a member's static cost ran 3-13% faster).
  if (ratio > (1 + plan.firstReadingMargin) * ratioToBeat(plan.front, error))
    return "first run slower than a member at least as accurate";
  return "";
}

namespace {
/// judgePairs() as if `count` pairs had read what `ratios` did: their
/// median and spread, with `count`'s interval and minimums.
PairVerdict judgeAsIf(const RacePlan &plan, double error,
                      const std::vector<double> &ratios, int count) {
  if (!plan.enabled() || ratios.empty())
    return PairVerdict::Undecided;
  double estimate = median(ratios);
  auto pairs = static_cast<double>(count);
  // The noise is the search's pooled estimate, or this variant's own spread
  // when its pairs scatter more (short runs do, and the pool is mostly long
  // runs).
  double noise = plan.pairNoise;
  if (ratios.size() >= 2 && estimate > 0) {
    std::vector<double> deviations;
    for (double ratio : ratios)
      deviations.push_back(std::abs(ratio - estimate));
    noise = std::max(noise, median(deviations) / estimate / 0.6745);
  }
  // Between processes a short program's time moves further than its pairs
  // in this one can show (processNoise): it widens the interval a stop as
  // dominated needs, never the one entering needs.
  double variantNoise = processNoise(estimate * plan.referenceMs);
  bool dominated = false, dominatedHere = false, clearsEvery = true;
  for (const FrontPoint &member : plan.front) {
    if (member.error > error)
      continue;
    // The difference of two estimates: the member's pairs are noisy too.
    double variance = noise * noise / pairs +
                      plan.sharedBaselineNoise * plan.sharedBaselineNoise;
    if (member.pairs > 0)
      variance += plan.pairNoise * plan.pairNoise / member.pairs;
    double halfWidth = plan.confidenceZ * std::sqrt(variance);
    double memberNoise = processNoise(member.ratio * plan.referenceMs);
    double acrossProcesses =
        plan.confidenceZ * std::sqrt(variance + variantNoise * variantNoise +
                                     memberNoise * memberNoise);
    // Even at the fast end of the interval not faster than the member by
    // more than the band: dominated (here, or in any process).
    dominatedHere |=
        estimate * (1 - halfWidth) * (1 + plan.band) >= member.ratio;
    dominated |=
        estimate * (1 - acrossProcesses) * (1 + plan.band) >= member.ratio;
    // Even at the slow end faster than the member by more than the band.
    clearsEvery &= estimate * (1 + halfWidth) * (1 + plan.band) < member.ratio;
  }
  int done = count;
  if (dominated && done >= plan.minPairsDominated)
    return PairVerdict::Dominated;
  if (done >= plan.minPairs && clearsEvery)
    return PairVerdict::Enters;
  if (done >= plan.minPairs && dominatedHere)
    return PairVerdict::WithinNoise;
  return PairVerdict::Undecided;
}
} // namespace

PairVerdict judgePairs(const RacePlan &plan, double error,
                       const std::vector<double> &ratios) {
  return judgeAsIf(plan, error, ratios, static_cast<int>(ratios.size()));
}

bool morePairsCouldDecide(const RacePlan &plan, double error,
                          const std::vector<double> &ratios, int maxPairs,
                          bool dominatedStops) {
  if (!plan.enabled() || static_cast<int>(ratios.size()) >= maxPairs)
    return false;
  PairVerdict later = judgeAsIf(plan, error, ratios, maxPairs);
  return later == PairVerdict::Enters ||
         (dominatedStops && later != PairVerdict::Undecided);
}

double processNoise(double ms) {
  if (!(ms > 0) || ms >= kProcessNoiseUntilMs)
    return 0;
  // About a third of the spread over 6 processes (whose expected range is
  // 2.5 standard deviations): 0.09 at 0.7 ms, 0.05 at 7 ms, 0.033 just
  // under 20 ms; never above 0.15 however short.
  return std::min(0.15, 0.08 * std::pow(ms, -0.3));
}

namespace {
/// judgePairs()'s plan for pairs head to head: one member of ratio 1
/// measured exactly (the ratios are already to the member, whose time here
/// is the reference), with its minimum pairs.
RacePlan headToHeadPlan(const RacePlan &plan, double memberMs) {
  RacePlan member = plan;
  member.front = {FrontPoint{0, 1, 0, ""}};
  member.referenceMs = memberMs;
  return member;
}
} // namespace

PairVerdict judgeHeadToHead(const RacePlan &plan,
                            const std::vector<double> &ratios,
                            double memberMs) {
  if (!plan.enabled())
    return PairVerdict::Undecided;
  return judgePairs(headToHeadPlan(plan, memberMs), 0, ratios);
}

bool headToHeadCouldDominate(const RacePlan &plan,
                             const std::vector<double> &ratios, double memberMs,
                             int maxPairs) {
  if (!plan.enabled() || ratios.empty())
    return false;
  int count = std::max(maxPairs, static_cast<int>(ratios.size()));
  return judgeAsIf(headToHeadPlan(plan, memberMs), 0, ratios, count) ==
         PairVerdict::Dominated;
}

bool derivesFrom(const RacePlan &plan, const FrontPoint &member) {
  return !member.derived &&
         member.ratio * plan.referenceMs >= plan.minDerivingMs;
}

std::vector<double> pairRatios(const std::vector<double> &ms,
                               const std::vector<double> &otherMs) {
  std::vector<double> ratios;
  bool once = otherMs.size() == 1;
  for (size_t i = 0; i < ms.size() && (once || i < otherMs.size()); ++i)
    if (double other = otherMs[once ? 0 : i]; other > 0)
      ratios.push_back(ms[i] / other);
  return ratios;
}

std::string racedAfterPairs(int pairs) { return absl::StrCat("pairs:", pairs); }
std::string racedAgainstMember(int pairs) {
  return absl::StrCat("member:", pairs);
}
std::string enteredAfterPairs(int pairs) {
  return absl::StrCat("enters:", pairs);
}
std::string enteredAgainstMember(int pairs) {
  return absl::StrCat("enters_member:", pairs);
}
std::string tiedAgainstMember(int pairs) {
  return absl::StrCat("tied_member:", pairs);
}
std::string withinNoiseAfterPairs(int pairs) {
  return absl::StrCat("within_noise:", pairs);
}
bool stoppedWithinNoise(const std::string &raced) {
  return absl::StartsWith(raced, "within_noise:");
}
std::string undecidedAfterPairs(int pairs) {
  return absl::StrCat("undecided:", pairs);
}
bool enteredHeadToHead(const std::string &raced) {
  return absl::StartsWith(raced, "enters_member:");
}
bool tiedHeadToHead(const std::string &raced) {
  return absl::StartsWith(raced, "tied_member:");
}
bool derivedHeadToHead(const std::string &raced) {
  return enteredHeadToHead(raced) || tiedHeadToHead(raced);
}

bool stoppedDominated(const std::string &raced) {
  return raced == kRacedAfterFirstRun || raced == kRacedAtRunLimit ||
         absl::StartsWith(raced, "pairs:") ||
         absl::StartsWith(raced, "member:");
}

bool enteredEarly(const std::string &raced) {
  return absl::StartsWith(raced, "enters:") || enteredHeadToHead(raced);
}

bool readAgainOnRace(const std::vector<FrontPoint> &front, double error,
                     double ratio, const std::string &raced, double timedMs,
                     double compileMs) {
  if (front.empty() || !(ratio > 0) || stoppedDominated(raced))
    return false;
  if (stoppedWithinNoise(raced))
    return timedMs >= compileMs;
  return ratio < ratioToBeat(front, error);
}

double RacePlan::runLimitMs() const {
  if (!enabled() || runLimitRatio <= 0 || referenceMs <= 0)
    return 0;
  return std::max(kMinRunLimitMs, runLimitRatio * referenceMs);
}

std::vector<FrontPoint> nonDominated(std::vector<FrontPoint> points) {
  std::sort(points.begin(), points.end(),
            [](const FrontPoint &a, const FrontPoint &b) {
              return a.error != b.error ? a.error < b.error : a.ratio < b.ratio;
            });
  std::vector<FrontPoint> kept;
  for (const FrontPoint &point : points)
    if (kept.empty() || point.ratio < kept.back().ratio)
      kept.push_back(point);
  return kept;
}

} // namespace gevo
