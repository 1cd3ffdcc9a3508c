//===- batch_evaluator.cc - A generation's individuals, measured ----------===//

#include "gevo/search/batch_evaluator.h"

#include <algorithm>
#include <map>
#include <string>

namespace gevo {

Measurement onReferenceScale(Measurement m, double referenceMs) {
  if (m.ok() && m.runtimeRatio > 0 && referenceMs > 0)
    m.medianRunMs = m.runtimeRatio * referenceMs;
  return m;
}

bool disturbedPair(const Measurement &m, double referenceMs, double factor) {
  return m.ok() && m.runtimeRatio > 0 && referenceMs > 0 &&
         m.baselineMedianRunMs > factor * referenceMs;
}

void BatchEvaluator::remeasureDisturbed(std::vector<MeasuredVariant> &measured,
                                        BatchRequest request,
                                        bool firstReadings) {
  double referenceMs = bench.baseline().medianRunMs;
  std::vector<size_t> again;
  std::vector<std::vector<Edit>> lists;
  for (size_t i = 0; i < measured.size(); ++i)
    if (measured[i].ran && measured[i].measurement &&
        disturbedPair(*measured[i].measurement, referenceMs, disturbedFactor)) {
      again.push_back(i);
      lists.push_back(measured[i].edits);
    }
  if (again.empty())
    return;
  request.distinctRuns = true; // past the cache, each in a child of its own
  std::vector<MeasuredVariant> second = bench.measure(lists, request);
  std::map<std::string, Measurement> kept;
  for (size_t k = 0; k < again.size(); ++k) {
    ++counts.remeasured;
    const Measurement &first = *measured[again[k]].measurement;
    const Measurement &next = *second[k].measurement;
    if (!next.ok() || next.baselineMedianRunMs < first.baselineMedianRunMs)
      kept[measured[again[k]].key] = next;
  }
  if (firstReadings)
    for (auto &[key, m] : kept)
      bench.cache().insert(key, m);
  // Equal variants of the batch shared the first reading.
  for (MeasuredVariant &variant : measured)
    if (auto it = kept.find(variant.key); it != kept.end()) {
      if (firstReadings) {
        --counts.outcomes[variant.measurement->outcome];
        ++counts.outcomes[it->second.outcome];
      }
      variant.measurement = it->second;
    }
}

void BatchEvaluator::setRacing(double margin, bool dryRun,
                               double maxErrorIncrease, bool readEntriesTwice,
                               bool stopUndecided, bool evictShort) {
  raceMargin = margin;
  raceStopUndecided = stopUndecided;
  raceEvictShort = evictShort;
  raceDryRun = dryRun;
  raceReread = readEntriesTwice && !dryRun;
  raceMaxErrorIncrease = maxErrorIncrease;
  front.clear();
  const Measurement &baseline = bench.baseline();
  if (pairedRuns > 0 && margin > 0 && baseline.ok())
    front.push_back({baseline.error(), 1.0});
}

RacePlan BatchEvaluator::racePlan() const {
  RacePlan plan;
  if (front.empty())
    return plan; // not racing
  plan.front = front;
  plan.firstReadingMargin = raceMargin;
  // Well past the hypervolume's reference point and the slowest member
  // (the most accurate), a first run ends: by as much as a first reading
  // may be off (a more accurate variant just inside the reference point
  // must not be stopped for a slow first reading).
  double slowest = kHypervolumeRatio;
  for (const FrontPoint &point : front)
    slowest = std::max(slowest, point.ratio);
  plan.runLimitRatio = (1 + raceMargin) * slowest;
  plan.dryRun = raceDryRun;
  plan.stopUndecided = raceStopUndecided;
  plan.evictShort = raceEvictShort;
  // The first run is read against the unmodified program's time as the
  // latest paired children saw it, so that load that came up since the
  // start (other jobs, the other workers) does not read as a slow variant.
  plan.referenceMs = bench.baseline().medianRunMs;
  if (recentBaselineMs.size() >= 3) {
    std::vector<double> sorted(recentBaselineMs.begin(),
                               recentBaselineMs.end());
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2,
                     sorted.end());
    plan.referenceMs = sorted[sorted.size() / 2];
  }
  if (spreads.size() >= kSpreadSamples) {
    // A normal spread's median absolute deviation is 0.6745 sigma.
    std::vector<double> sorted = spreads;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2,
                     sorted.end());
    plan.pairNoise =
        std::clamp(sorted[sorted.size() / 2] / 0.6745, 0.005, 0.25);
  }
  if (raceMaxErrorIncrease > 0)
    plan.maxError = bench.baseline().error() + raceMaxErrorIncrease;
  if (bench.baseline().ok())
    plan.unmodifiedError = bench.baseline().error();
  return plan;
}

void BatchEvaluator::updateFront(const std::vector<Individual> &batch) {
  if (front.empty())
    return; // not racing
  std::vector<FrontPoint> points = front;
  for (const Individual &individual : batch) {
    const Measurement &m = individual.measurement;
    if (m.ok() && !stoppedDominated(m.raced) && m.runtimeRatio > 0) {
      points.push_back({m.error(), m.runtimeRatio,
                        static_cast<int>(m.runMs.size()), individual.key,
                        derivedHeadToHead(m.raced)});
      memberEdits.try_emplace(individual.key, individual.edits);
    }
    if (m.ok() && m.pairSpread > 0 && !individual.cached)
      spreads.push_back(m.pairSpread);
    if (m.ok() && m.baselineMedianRunMs > 0 && !individual.cached) {
      recentBaselineMs.push_back(m.baselineMedianRunMs);
      if (recentBaselineMs.size() > kRecentBaselines)
        recentBaselineMs.pop_front();
    }
  }
  front = nonDominated(std::move(points));
  holdMembers();
}

void BatchEvaluator::holdMembers() {
  // Every member but the unmodified program (its pairs are the plain ones),
  // compiled in the parent for the children's head-to-head pairs; a dry run
  // judges by the unmodified program's pairs only.
  // The workbench hears of it only when the members changed (an arrival
  // rarely changes them).
  std::map<std::string, std::vector<Edit>> held;
  for (const FrontPoint &member : front)
    if (!member.key.empty() && member.key != bench.unmodifiedKey())
      if (auto it = memberEdits.find(member.key); it != memberEdits.end())
        held.insert(memberEdits.extract(it));
  bool changed = held.size() != heldKeys.size() ||
                 !std::equal(held.begin(), held.end(), heldKeys.begin(),
                             [](const auto &entry, const std::string &key) {
                               return entry.first == key;
                             });
  memberEdits = std::move(held);
  if (!changed)
    return;
  heldKeys.clear();
  for (const auto &entry : memberEdits)
    heldKeys.push_back(entry.first);
  if (!raceDryRun)
    bench.holdOpponents(memberEdits);
}

void BatchEvaluator::evaluate(std::vector<Individual> &batch,
                              const std::function<void()> &onMeasured) {
  std::vector<std::vector<Edit>> lists;
  lists.reserve(batch.size());
  for (const Individual &individual : batch)
    lists.push_back(individual.edits);
  BatchRequest request;
  request.run.interleavedPairs = pairedRuns;
  request.run.race = racePlan();
  std::vector<MeasuredVariant> measured = bench.measure(
      lists, request, [&](size_t, const MeasuredVariant &variant) {
        ++counts.outcomes[variant.measurement->outcome];
        // Equal variants of one batch share a run: all but the first count
        // as cache hits.
        if (variant.ran)
          ++counts.evaluations;
        else
          ++counts.cacheHits;
        if (onMeasured)
          onMeasured();
      });
  if (pairedRuns > 0) {
    remeasureDisturbed(measured, request);
    rereadEntries(measured);
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    batch[i].edits = std::move(measured[i].edits);
    batch[i].key = std::move(measured[i].key);
    batch[i].measurement = pairedRuns > 0
                               ? onReferenceScale(*measured[i].measurement,
                                                  bench.baseline().medianRunMs)
                               : *measured[i].measurement;
    batch[i].cached = !measured[i].ran;
    if (measured[i].ran && !batch[i].measurement.raced.empty())
      ++counts.raced;
  }
  updateFront(batch);
}

void BatchEvaluator::settle(Individual &individual, MeasuredVariant variant) {
  ++counts.outcomes[variant.measurement->outcome];
  if (variant.ran)
    ++counts.evaluations;
  else
    ++counts.cacheHits;
  individual.edits = std::move(variant.edits);
  individual.key = std::move(variant.key);
  individual.measurement =
      pairedRuns > 0
          ? onReferenceScale(*variant.measurement, bench.baseline().medianRunMs)
          : *variant.measurement;
  individual.cached = !variant.ran;
  if (variant.ran && !individual.measurement.raced.empty())
    ++counts.raced;
  updateFront({individual});
}

bool BatchEvaluator::readAgain(const MeasuredVariant &variant) const {
  if (!raceReread || front.empty() || !variant.ran || !variant.measurement)
    return false;
  const Measurement &m = *variant.measurement;
  double timedMs = m.baselineMedianRunMs * static_cast<double>(m.runMs.size());
  for (double ms : m.runMs)
    timedMs += ms;
  return m.ok() && readAgainOnRace(front, m.error(), m.runtimeRatio, m.raced,
                                   timedMs, m.lowerMs + m.codegenMs);
}

BatchRequest BatchEvaluator::againRequest() const {
  BatchRequest again;
  again.run.interleavedPairs = pairedRuns;
  again.run.race = racePlan();
  again.distinctRuns = true;
  return again;
}

void BatchEvaluator::rereadEntries(std::vector<MeasuredVariant> &measured) {
  std::map<std::string, size_t> picked; // key -> its place in `lists`
  std::vector<std::vector<Edit>> lists;
  for (const MeasuredVariant &variant : measured)
    if (readAgain(variant) &&
        picked.try_emplace(variant.key, lists.size()).second)
      lists.push_back(variant.edits);
  if (lists.empty())
    return;
  BatchRequest again = againRequest();
  std::vector<MeasuredVariant> second = bench.measure(lists, again);
  remeasureDisturbed(second, again, /*firstReadings=*/false);
  counts.reread += static_cast<int64_t>(lists.size());
  for (const auto &[key, place] : picked)
    bench.cache().insert(key, *second[place].measurement);
  for (MeasuredVariant &variant : measured)
    if (auto it = picked.find(variant.key); it != picked.end()) {
      const Measurement &next = *second[it->second].measurement;
      --counts.outcomes[variant.measurement->outcome];
      ++counts.outcomes[next.outcome];
      variant.measurement = next;
    }
}

void BatchEvaluator::steady(MeasuredVariant variant,
                            const BatchRequest &request,
                            std::function<void(MeasuredVariant)> then,
                            bool cacheKept) {
  double referenceMs = bench.baseline().medianRunMs;
  if (!variant.ran || !variant.measurement ||
      !disturbedPair(*variant.measurement, referenceMs, disturbedFactor))
    return then(std::move(variant));
  // Disturbed: once more past the cache, in a child of its own; the
  // steadier reading (or a failure) is kept.
  ++counts.remeasured;
  BatchRequest again = request;
  again.distinctRuns = true;
  std::vector<Edit> edits = variant.edits;
  bench.start(edits, again,
              [this, cacheKept, first = std::move(variant),
               then = std::move(then)](MeasuredVariant second) mutable {
                const Measurement &next = *second.measurement;
                if (!next.ok() || next.baselineMedianRunMs <
                                      first.measurement->baselineMedianRunMs) {
                  if (cacheKept)
                    bench.cache().insert(first.key, next);
                  first.measurement = next;
                }
                then(std::move(first));
              });
}

void BatchEvaluator::readEntryAgain(
    MeasuredVariant first, std::function<void(MeasuredVariant)> finish) {
  if (!readAgain(first))
    return finish(std::move(first));
  // Its reading would enter the front: the one that does is a second, which
  // no selection picked.
  ++counts.reread;
  BatchRequest again = againRequest();
  std::vector<Edit> edits = first.edits;
  bench.start(edits, again, [this, again, finish](MeasuredVariant second) {
    steady(
        std::move(second), again,
        [this, finish](MeasuredVariant kept) {
          bench.cache().insert(kept.key, *kept.measurement);
          finish(std::move(kept));
        },
        /*cacheKept=*/false);
  });
}

void BatchEvaluator::submit(Individual individual,
                            std::function<void(Individual)> done) {
  BatchRequest request;
  request.run.interleavedPairs = pairedRuns;
  request.run.race = racePlan();
  std::vector<Edit> edits = individual.edits;
  std::function<void(MeasuredVariant)> finish =
      [this, individual = std::move(individual),
       done = std::move(done)](MeasuredVariant variant) mutable {
        settle(individual, std::move(variant));
        done(std::move(individual));
      };
  bench.start(edits, request, [this, request, finish](MeasuredVariant first) {
    steady(std::move(first), request, [this, finish](MeasuredVariant kept) {
      readEntryAgain(std::move(kept), finish);
    });
  });
}

} // namespace gevo
