//===- workbench_async.cc - Measuring one list at a time, without waiting -===//
//
// Workbench::start() and service(): what a steady-state search uses to keep
// every worker busy, one list at a time, instead of measure()'s batches; and
// the front members racing's children time variants against.

#include <set>

#include "gevo/ir/op_address.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

int Workbench::slots() const {
  int known = remote ? remote->capacity() : 0;
  return known > 0 ? known : workerCount;
}

void Workbench::start(const std::vector<Edit> &edits,
                      const BatchRequest &request,
                      std::function<void(MeasuredVariant)> done) {
  FitnessCache &cache = request.cache ? *request.cache : fitnessCache;
  pool->setLimits(limitsFor(request));
  if (buildsRemotely(request))
    return startRemotely(edits, request, std::move(done));
  // Built variants keep their own context alive: recycling is safe here.
  variants->recycleIfDue().IgnoreError();
  variants->count(1);
  BuiltVariant built = build(edits);
  MeasuredVariant variant;
  variant.edits = std::move(built.edits);
  variant.dropped = built.dropped;
  if (request.skipIncomplete && variant.dropped > 0)
    return done(std::move(variant));
  variant.key = keyOf(built);
  if (request.distinctRuns) {
    variant.ran = true;
    ++startedRuns;
    session->submit(*pool, std::move(built.module), request.run,
                    [this, variant, done](Measurement m) mutable {
                      --startedRuns;
                      variant.measurement = std::move(m);
                      done(std::move(variant));
                    });
    return;
  }
  if (std::optional<Measurement> hit = cache.find(variant.key)) {
    variant.fromCache = true;
    variant.measurement = *hit;
    return done(std::move(variant));
  }
  std::string key = variant.key;
  auto [it, first] = startedByKey.try_emplace(key);
  variant.ran = first;
  RemoteJob job = remoteJob(key, variant.edits, request);
  it->second.push_back({std::move(variant), std::move(done)});
  if (!first)
    return;
  ++startedRuns;
  auto finished = [this, key, &cache](Measurement m) {
    --startedRuns;
    cache.insert(key, m);
    std::vector<Started> members;
    members.swap(startedByKey[key]);
    startedByKey.erase(key);
    for (Started &member : members) {
      member.variant.measurement = m;
      member.done(std::move(member.variant));
    }
  };
  if (remote && !request.here)
    return remote->submit(std::move(job), [finished](RemoteResult result) {
      finished(std::move(result.measurement));
    });
  session->submit(*pool, std::move(built.module), request.run, finished);
}

void Workbench::holdOpponents(
    const std::map<std::string, std::vector<Edit>> &members) {
  if (remote || !session->holdsOpponents())
    return;
  std::set<std::string> keys;
  for (const auto &[key, edits] : members) {
    keys.insert(key);
    if (session->holdsOpponent(key))
      continue;
    BuiltVariant built = build(edits);
    if (built.module && built.dropped == 0 && keyOf(built) == key)
      session->holdOpponent(key, *built.module).IgnoreError();
  }
  session->keepOpponents(keys);
}

void Workbench::service(int maxWaitMs) {
  if (remote) {
    // Jobs no rank is left to run come back and run here.
    for (RemoteRunner::Returned &back :
         remote->service(pool->runningCount() > 0 ? 0 : maxWaitMs)) {
      RunRequest run;
      run.scoreTest = back.job.scoreTest;
      run.interleavedPairs = back.job.interleavedPairs;
      run.race = back.job.race;
      runHere(std::move(back), run);
    }
  }
  if (pool->runningCount() > 0)
    pool->service(maxWaitMs);
}

} // namespace gevo
