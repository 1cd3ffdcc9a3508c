//===- racing_sample.cc - Racing's stopped variants measured fully -------===//

#include "gevo/bench/racing_sample.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "gevo/bench/bench_workbench.h"
#include "gevo/eval/race.h"
#include "gevo/search/checkpoint.h"
#include "gevo/support/file_io.h"
#include "gevo/workbench/run_directory.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// A stopped variant and how near its reading came to the front.
struct Candidate {
  std::string key;
  std::vector<Edit> edits;
  std::string raced;
  double reading = 0;
  double error = 0;
  double toBeat = 0;
  double nearness = 0; // reading / ratio to beat (0: nothing to beat)
};

/// The archive's variants that were measured (not stopped), lie inside the
/// error bound and lie near its front (nearFront on search-time figures),
/// sorted by error.
std::vector<const Individual *>
archiveFront(const Checkpoint &checkpoint, double maxError,
             const std::set<std::string> &leftOut) {
  std::vector<const Individual *> measured;
  std::vector<FrontPoint> points;
  std::set<std::string> seen;
  for (const Individual &individual : checkpoint.archive) {
    const Measurement &m = individual.measurement;
    if (m.ok() && !stoppedDominated(m.raced) && m.runtimeRatio > 0 &&
        m.error() <= maxError && !leftOut.count(individual.key) &&
        seen.insert(individual.key).second) {
      measured.push_back(&individual);
      points.push_back({m.error(), m.runtimeRatio});
    }
  }
  std::vector<const Individual *> kept;
  for (size_t index : nearFront(points))
    kept.push_back(measured[index]);
  return kept;
}

/// `onFront`: the keys of the search's final front (front.json), which
/// were not lost whatever their label says (a tie head to head, or a variant
/// kept within the noise that the end's second look put on the front).
std::vector<Candidate> nearestStopped(const Checkpoint &checkpoint,
                                      const std::vector<FrontPoint> &front,
                                      double maxError, int size,
                                      const std::set<std::string> &onFront) {
  std::vector<Candidate> candidates;
  std::set<std::string> seen = onFront;
  for (const Individual &individual : checkpoint.archive) {
    const Measurement &m = individual.measurement;
    // A tie head to head took its ratio from the member's, and one within
    // the process noise stopped its pairs short of a full measurement: each
    // is checked as a stopped variant is.
    if (!m.ok() ||
        !(stoppedDominated(m.raced) || tiedHeadToHead(m.raced) ||
          stoppedWithinNoise(m.raced)) ||
        m.error() > maxError || !seen.insert(individual.key).second)
      continue;
    double toBeat = ratioToBeat(front, m.error());
    candidates.push_back({individual.key, individual.edits, m.raced,
                          m.runtimeRatio, m.error(), toBeat,
                          std::isfinite(toBeat) ? m.runtimeRatio / toBeat : 0});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) {
                     return a.nearness < b.nearness;
                   });
  if (candidates.size() > static_cast<size_t>(size))
    candidates.resize(size);
  return candidates;
}

/// The verdicts on `candidates` measured fully (`measured`, then the front
/// members measured again in the same batch); one not measured (it failed)
/// counts as Dominated and not in `sample`.
std::vector<StopVerdict> judge(const std::vector<Candidate> &candidates,
                               const Measurement &baseline,
                               const std::vector<Measurement> &measured,
                               StoppedSample &sample) {
  std::vector<FullReading> members;
  for (size_t i = candidates.size(); i < measured.size(); ++i)
    if (measured[i].ok() && measured[i].runtimeRatio > 0)
      members.push_back(readingOf(measured[i]));
  std::vector<StopVerdict> verdicts(candidates.size(), StopVerdict::Dominated);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Measurement &m = measured[i];
    if (!m.ok() || m.runtimeRatio <= 0)
      continue;
    ++sample.measured;
    double toBeat = 0;
    verdicts[i] =
        judgeAgainst(readingOf(m), members, baseline.error(), &toBeat);
    sample.counts.add(verdicts[i]);
    std::fprintf(stderr,
                 "  stopped %-9s error %.4f reading x%.4f, measured fully "
                 "x%.4f, front x%.4f: %s\n",
                 candidates[i].raced.c_str(), m.error(), candidates[i].reading,
                 m.runtimeRatio, toBeat, toString(verdicts[i]));
  }
  return verdicts;
}

/// `batch` measured fully beside `members` measured again in the same batch
/// (one moment's noise for both): the verdicts, counted in `into`.
std::vector<StopVerdict>
measureBeside(Workbench &bench, const std::vector<Candidate> &batch,
              const std::vector<std::vector<Edit>> &members, int pairs,
              StoppedSample &into) {
  std::vector<std::vector<Edit>> lists;
  for (const Candidate &candidate : batch)
    lists.push_back(candidate.edits);
  lists.insert(lists.end(), members.begin(), members.end());
  Workbench::AgainstUnmodified full = bench.measureAgainstUnmodified(
      lists, pairs, /*scoreTest=*/false, /*children=*/1);
  return judge(batch, bench.baseline(), full.variants, into);
}

/// `candidates` measured as measureBeside does, and those that read as
/// false stops confirmed in fresh processes: the first batch's verdicts in
/// `sample`, the confirmed false stops in `sample.confirmed`.
void measureTwice(Workbench &bench, const SampleSetup &setup,
                  const std::vector<Candidate> &candidates,
                  const std::vector<std::vector<Edit>> &members,
                  StoppedSample &sample) {
  std::vector<StopVerdict> first =
      measureBeside(bench, candidates, members, setup.pairs, sample);
  std::set<std::string> flagged;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (first[i] == StopVerdict::FalseStop)
      flagged.insert(candidates[i].key);
  sample.confirmed = confirmInProcesses(setup, flagged);
}

/// The run directory's checkpoint and a workbench measuring its workload.
struct OpenedRun {
  Checkpoint checkpoint;
  std::unique_ptr<Workbench> bench;
};
absl::StatusOr<OpenedRun> openRun(const SampleSetup &setup) {
  std::string path = setup.outDir + "/checkpoint.json";
  absl::StatusOr<std::string> text = readFile(path, "checkpoint");
  if (!text.ok())
    return text.status();
  absl::StatusOr<Checkpoint> checkpoint = parseCheckpoint(*text, path);
  if (!checkpoint.ok())
    return checkpoint.status();
  absl::StatusOr<std::unique_ptr<Workbench>> bench =
      openMeasuredWorkbench(setup.workloadPath, setup.workbench);
  if (!bench.ok())
    return bench.status();
  return OpenedRun{std::move(*checkpoint), std::move(*bench)};
}

/// Frees the parsed checkpoint: what is measured must be copied out first
/// (pointers into its archive, as archiveFront() returns, dangle after).
/// Children forked while this process held it read the variants of §11's
/// seed 2 10-40% slower than children of the search or of noise_probe did,
/// the unmodified program not (docs/evaluation.md, "Which process reads a
/// program slow"); with it freed they read as those do.
void releaseCheckpoint(OpenedRun &run) { run.checkpoint = Checkpoint(); }

/// The edit lists of `individuals`, copied.
std::vector<std::vector<Edit>>
editListsOf(const std::vector<const Individual *> &individuals) {
  std::vector<std::vector<Edit>> lists;
  for (const Individual *individual : individuals)
    lists.push_back(individual->edits);
  return lists;
}

} // namespace

std::vector<size_t> nearFront(const std::vector<FrontPoint> &points,
                              double tolerance, size_t limit) {
  std::vector<size_t> order(points.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto byError = [&](size_t a, size_t b) {
    const FrontPoint &pa = points[a], &pb = points[b];
    return pa.error != pb.error ? pa.error < pb.error : pa.ratio < pb.ratio;
  };
  std::stable_sort(order.begin(), order.end(), byError);
  // Each kept point with its ratio over the fastest at least as accurate
  // before it (0: none is).
  std::vector<std::pair<double, size_t>> near;
  double fastest = std::numeric_limits<double>::infinity();
  for (size_t index : order) {
    double ratio = points[index].ratio;
    if (ratio < fastest * (1 + tolerance))
      near.push_back({std::isinf(fastest) ? 0 : ratio / fastest, index});
    fastest = std::min(fastest, ratio);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  if (near.size() > limit)
    near.resize(limit);
  std::vector<size_t> kept;
  for (const auto &entry : near)
    kept.push_back(entry.second);
  std::stable_sort(kept.begin(), kept.end(), byError);
  return kept;
}

StopVerdict judgeStop(double ratio, double toBeat, bool twin) {
  if (ratio >= toBeat)
    return StopVerdict::Dominated;
  if (twin)
    return StopVerdict::Twin;
  if (ratio > kHypervolumeRatio)
    return StopVerdict::BeyondReference;
  return ratio * (1 + RacePlan().band) < toBeat ? StopVerdict::FalseStop
                                                : StopVerdict::WithinBand;
}

const char *toString(StopVerdict verdict) {
  switch (verdict) {
  case StopVerdict::Dominated:
    return "dominated";
  case StopVerdict::Twin:
    return "twin of a member";
  case StopVerdict::BeyondReference:
    return "beyond the reference point";
  case StopVerdict::WithinBand:
    return "inside the band";
  case StopVerdict::FalseStop:
    return "FALSE STOP";
  }
  return "?";
}

FullReading readingOf(const Measurement &m) {
  return {m.error(), m.staticCost, m.runtimeRatio};
}

bool sameComputation(const FullReading &a, const FullReading &b) {
  return a.error == b.error && a.staticCost == b.staticCost;
}

bool sameComputation(const Measurement &a, const Measurement &b) {
  return sameComputation(readingOf(a), readingOf(b));
}

StopVerdict judgeAgainst(const FullReading &stopped,
                         const std::vector<FullReading> &members,
                         double baselineError, double *toBeat) {
  std::vector<FrontPoint> front = {{baselineError, 1.0}};
  bool twin = false;
  for (const FullReading &member : members) {
    front.push_back({member.error, member.ratio});
    twin |= sameComputation(member, stopped);
  }
  double ratio = ratioToBeat(front, stopped.error);
  if (toBeat)
    *toBeat = ratio;
  return judgeStop(stopped.ratio, ratio, twin);
}

void StopCounts::add(StopVerdict verdict) {
  falseStops += verdict == StopVerdict::FalseStop;
  withinBand += verdict == StopVerdict::WithinBand;
  twins += verdict == StopVerdict::Twin;
  beyondReference += verdict == StopVerdict::BeyondReference;
}

StoppedSample checkStoppedSample(const SampleSetup &setup) {
  absl::StatusOr<OpenedRun> run = openRun(setup);
  if (!run.ok()) {
    std::fprintf(stderr, "sample check: %s\n",
                 std::string(run.status().message()).c_str());
    return {};
  }
  const Measurement &baseline = run->bench->baseline();
  double maxError = baseline.error() + setup.maxErrorIncrease;
  std::vector<const Individual *> members =
      archiveFront(run->checkpoint, maxError, {});
  std::vector<FrontPoint> front = {{baseline.error(), 1.0}};
  for (const Individual *member : members)
    front.push_back(
        {member->measurement.error(), member->measurement.runtimeRatio});
  std::set<std::string> onFront;
  if (absl::StatusOr<std::vector<FrontEntry>> entries =
          RunDirectory(setup.outDir).readFront();
      entries.ok())
    for (const FrontEntry &entry : *entries)
      onFront.insert(entry.key);
  std::vector<Candidate> candidates =
      nearestStopped(run->checkpoint, front, maxError, setup.size, onFront);
  std::vector<std::vector<Edit>> memberLists = editListsOf(members);
  releaseCheckpoint(*run);
  StoppedSample sample;
  if (!candidates.empty())
    measureTwice(*run->bench, setup, candidates, memberLists, sample);
  return sample;
}

absl::Status measureKeysToFile(const SampleSetup &setup,
                               const std::set<std::string> &keys,
                               const std::string &outPath) {
  absl::StatusOr<OpenedRun> run = openRun(setup);
  if (!run.ok())
    return run.status();
  const Measurement &baseline = run->bench->baseline();
  double maxError = baseline.error() + setup.maxErrorIncrease;
  // The front without them: every other variant measured fully.
  std::vector<const Individual *> members =
      archiveFront(run->checkpoint, maxError, keys);
  std::vector<const Individual *> measured;
  std::set<std::string> seen;
  for (const Individual &individual : run->checkpoint.archive)
    if (keys.count(individual.key) && seen.insert(individual.key).second)
      measured.push_back(&individual);
  size_t flagged = measured.size();
  measured.insert(measured.end(), members.begin(), members.end());
  std::vector<std::vector<Edit>> lists = editListsOf(measured);
  std::vector<std::string> measuredKeys;
  for (const Individual *individual : measured)
    measuredKeys.push_back(individual->key);
  releaseCheckpoint(*run);
  Workbench::AgainstUnmodified full = run->bench->measureAgainstUnmodified(
      lists, setup.pairs, /*scoreTest=*/false, /*children=*/1);
  llvm::json::Array variants;
  for (size_t i = 0; i < lists.size() && i < full.variants.size(); ++i) {
    const Measurement &m = full.variants[i];
    if (!m.ok() || m.runtimeRatio <= 0)
      continue;
    variants.push_back(llvm::json::Object{{"key", measuredKeys[i]},
                                          {"member", i >= flagged},
                                          {"error", m.error()},
                                          {"static_cost", m.staticCost},
                                          {"ratio", m.runtimeRatio}});
  }
  llvm::json::Object out{{"baseline_error", baseline.error()},
                         {"variants", std::move(variants)}};
  return writeOutput(
      outPath, llvm::formatv("{0}", llvm::json::Value(std::move(out))).str());
}

void StopCounts::put(llvm::json::Object &row, const std::string &prefix) const {
  row[prefix + "false_stops"] = falseStops;
  row[prefix + "within_band"] = withinBand;
  row[prefix + "twins"] = twins;
  row[prefix + "beyond_reference"] = beyondReference;
}

void putSampleFigures(llvm::json::Object &row, const StoppedSample &sample) {
  row["sample_measured"] = sample.measured;
  sample.counts.put(row, "sample_");
  row["sample_confirmed"] = sample.confirmed.everyProcess;
  row["sample_confirmed_by_median"] = sample.confirmed.byMedian;
}

} // namespace gevo
