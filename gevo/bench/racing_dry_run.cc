//===- racing_dry_run.cc - What a dry run's cache says of racing ----------===//
//
// A dry run of racing times every variant fully and notes where racing
// would have stopped it: each such variant against every other measured
// fully, by racing_sample.h's verdicts.
//
//===----------------------------------------------------------------------===//

#include "gevo/bench/racing_sample.h"
#include "gevo/eval/race.h"
#include "gevo/workbench/fitness_cache.h"
#include "llvm/Support/JSON.h"

namespace gevo {

DryRunCheck checkDryRunCache(const std::string &outDir,
                             const Measurement &baseline,
                             double maxErrorIncrease) {
  FitnessCache cache;
  DryRunCheck check;
  if (!cache.import(outDir + "/cache.jsonl").ok())
    return check;
  std::vector<const Measurement *> full;
  for (const auto &[key, m] : cache.all())
    if (m.ok() && m.runtimeRatio > 0)
      full.push_back(&m);
  double maxError = baseline.error() + maxErrorIncrease;
  for (const auto &[key, m] : cache.all()) {
    // Stopping within the process noise keeps a reading short of a full
    // one: checked as a stop is. One undecided (undecided:N) was ahead of
    // the front, which it joins on that reading, read again as every entry.
    if (!m.ok() ||
        !(stoppedDominated(m.wouldRace) || stoppedWithinNoise(m.wouldRace)))
      continue;
    ++check.wouldStop;
    if (m.error() > maxError)
      continue; // beyond the error bound it is never on the front
    std::vector<FullReading> others;
    for (const Measurement *other : full)
      if (other != &m)
        others.push_back(readingOf(*other));
    StopVerdict verdict = judgeAgainst(readingOf(m), others, baseline.error());
    check.counts.add(verdict);
    if (verdict == StopVerdict::FalseStop)
      check.falseStopKeys.insert(key);
  }
  return check;
}

std::pair<int, int> racedCounts(const std::string &outDir) {
  FitnessCache cache;
  std::pair<int, int> counts;
  if (cache.import(outDir + "/cache.jsonl").ok())
    for (const auto &[key, m] : cache.all()) {
      counts.first += stoppedDominated(m.raced);
      counts.second += enteredEarly(m.raced);
    }
  return counts;
}

void putDryRunFigures(llvm::json::Object &row, const DryRunCheck &check) {
  row["would_stop"] = check.wouldStop;
  check.counts.put(row, "");
  row["confirmed_false_stops"] = check.confirmed.everyProcess;
  row["confirmed_by_median"] = check.confirmed.byMedian;
}

} // namespace gevo
