//===- racing_sample.cc - Racing's stopped variants measured fully -------===//

#include "gevo/bench/racing_sample.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "gevo/bench/bench_workbench.h"
#include "gevo/eval/race.h"
#include "gevo/search/checkpoint.h"
#include "gevo/support/file_io.h"

namespace gevo {
namespace {

/// A stopped variant and how near its reading came to the front.
struct Candidate {
  std::vector<Edit> edits;
  std::string raced;
  double reading = 0;
  double error = 0;
  double toBeat = 0;
  double nearness = 0; // reading / ratio to beat (0: nothing to beat)
};

/// The archive's non-dominated variants that were measured (not stopped)
/// and lie inside the error bound, with their search-time figures.
std::vector<const Individual *> archiveFront(const Checkpoint &checkpoint,
                                             double maxError) {
  std::vector<const Individual *> kept, measured;
  std::set<std::string> seen;
  for (const Individual &individual : checkpoint.archive) {
    const Measurement &m = individual.measurement;
    if (m.ok() && !stoppedDominated(m.raced) && m.runtimeRatio > 0 &&
        m.error() <= maxError && seen.insert(individual.key).second)
      measured.push_back(&individual);
  }
  std::sort(measured.begin(), measured.end(),
            [](const Individual *a, const Individual *b) {
              double ea = a->measurement.error(), eb = b->measurement.error();
              return ea != eb ? ea < eb
                              : a->measurement.runtimeRatio <
                                    b->measurement.runtimeRatio;
            });
  for (const Individual *individual : measured)
    if (kept.empty() || individual->measurement.runtimeRatio <
                            kept.back()->measurement.runtimeRatio)
      kept.push_back(individual);
  return kept;
}

std::vector<Candidate> nearestStopped(const Checkpoint &checkpoint,
                                      const std::vector<FrontPoint> &front,
                                      double maxError, int size) {
  std::vector<Candidate> candidates;
  std::set<std::string> seen;
  for (const Individual &individual : checkpoint.archive) {
    const Measurement &m = individual.measurement;
    if (!m.ok() || !stoppedDominated(m.raced) || m.error() > maxError ||
        !seen.insert(individual.key).second)
      continue;
    double toBeat = ratioToBeat(front, m.error());
    candidates.push_back({individual.edits, m.raced, m.runtimeRatio, m.error(),
                          toBeat,
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
/// members measured again in the same batch).
StoppedSample judge(const std::vector<Candidate> &candidates,
                    const Measurement &baseline,
                    const std::vector<Measurement> &measured) {
  std::vector<FrontPoint> front = {{baseline.error(), 1.0}};
  std::vector<const Measurement *> members;
  for (size_t i = candidates.size(); i < measured.size(); ++i)
    if (measured[i].ok() && measured[i].runtimeRatio > 0) {
      front.push_back({measured[i].error(), measured[i].runtimeRatio});
      members.push_back(&measured[i]);
    }
  StoppedSample sample;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Measurement &m = measured[i];
    if (!m.ok() || m.runtimeRatio <= 0)
      continue;
    ++sample.measured;
    double toBeat = ratioToBeat(front, m.error());
    bool twin = false;
    for (const Measurement *member : members)
      twin |= sameComputation(*member, m);
    StopVerdict verdict = judgeStop(m.runtimeRatio, toBeat, twin);
    sample.counts.add(verdict);
    std::fprintf(stderr,
                 "  stopped %-9s error %.4f reading x%.4f, measured fully "
                 "x%.4f, front x%.4f: %s\n",
                 candidates[i].raced.c_str(), m.error(), candidates[i].reading,
                 m.runtimeRatio, toBeat, toString(verdict));
  }
  return sample;
}

} // namespace

StopVerdict judgeStop(double ratio, double toBeat, bool twin) {
  if (ratio >= toBeat)
    return StopVerdict::Dominated;
  if (twin)
    return StopVerdict::Twin;
  return ratio * (1 + RacePlan().band) < toBeat ? StopVerdict::FalseStop
                                                : StopVerdict::WithinBand;
}

const char *toString(StopVerdict verdict) {
  switch (verdict) {
  case StopVerdict::Dominated:
    return "dominated";
  case StopVerdict::Twin:
    return "twin of a member";
  case StopVerdict::WithinBand:
    return "inside the band";
  case StopVerdict::FalseStop:
    return "FALSE STOP";
  }
  return "?";
}

bool sameComputation(const Measurement &a, const Measurement &b) {
  return a.error() == b.error() && a.staticCost == b.staticCost;
}

void StopCounts::add(StopVerdict verdict) {
  falseStops += verdict == StopVerdict::FalseStop;
  withinBand += verdict == StopVerdict::WithinBand;
  twins += verdict == StopVerdict::Twin;
}

StoppedSample checkStoppedSample(const SampleSetup &setup) {
  std::string path = setup.outDir + "/checkpoint.json";
  absl::StatusOr<std::string> text = readFile(path, "checkpoint");
  absl::StatusOr<Checkpoint> checkpoint =
      text.ok() ? parseCheckpoint(*text, path)
                : absl::StatusOr<Checkpoint>(text.status());
  absl::StatusOr<std::unique_ptr<Workbench>> bench =
      checkpoint.ok()
          ? openMeasuredWorkbench(setup.workloadPath, setup.workbench)
          : absl::StatusOr<std::unique_ptr<Workbench>>(checkpoint.status());
  if (!bench.ok()) {
    std::fprintf(stderr, "sample check: %s\n",
                 std::string(bench.status().message()).c_str());
    return {};
  }
  const Measurement &baseline = (*bench)->baseline();
  double maxError = baseline.error() + setup.maxErrorIncrease;
  std::vector<const Individual *> members = archiveFront(*checkpoint, maxError);
  std::vector<FrontPoint> front = {{baseline.error(), 1.0}};
  for (const Individual *member : members)
    front.push_back(
        {member->measurement.error(), member->measurement.runtimeRatio});
  std::vector<Candidate> candidates =
      nearestStopped(*checkpoint, front, maxError, setup.size);
  if (candidates.empty())
    return {};
  // The front measured again beside them: one moment's noise for both.
  std::vector<std::vector<Edit>> lists;
  for (const Candidate &candidate : candidates)
    lists.push_back(candidate.edits);
  for (const Individual *member : members)
    lists.push_back(member->edits);
  Workbench::AgainstUnmodified full = (*bench)->measureAgainstUnmodified(
      lists, setup.pairs, /*scoreTest=*/false, /*children=*/1);
  return judge(candidates, baseline, full.variants);
}

} // namespace gevo
