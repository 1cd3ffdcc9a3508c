//===- workbench_remote.cc - Edit lists measured where they are built -----===//
//
// Workbench's remote path without building here: a list goes to the remote
// runner as drawn, the remote side builds, keys and measures it (or answers
// from its own cache) and says which key it built; equal variants are found
// by key as the results arrive (a later one counts as a cache hit).

#include <set>

#include "gevo/ir/op_address.h"
#include "gevo/workbench/workbench.h"

namespace gevo {
namespace {

/// `variant` as the remote side built `list`: the edits that applied, the
/// key, the measurement.
void fill(MeasuredVariant &variant, const std::vector<Edit> &list,
          const RemoteResult &result, const Measurement &measurement) {
  variant.edits.clear();
  size_t next = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    if (next < result.dropped.size() &&
        result.dropped[next] == static_cast<int>(i))
      ++next;
    else
      variant.edits.push_back(list[i]);
  }
  variant.dropped = static_cast<int>(result.dropped.size());
  variant.key = result.key;
  variant.measurement = measurement;
}

} // namespace

void Workbench::remember(const std::string &id, const RemoteResult &result) {
  RemoteResult &known = builtRemotely[id];
  known.key = result.key;
  known.dropped = result.dropped;
}

void Workbench::knowBuiltElsewhere(const std::vector<Edit> &edits,
                                   const std::string &key) {
  RemoteResult built;
  built.key = key;
  remember(editListKey(edits), built);
}

bool Workbench::buildsRemotely(const BatchRequest &request) const {
  return remote && !request.here && !request.distinctRuns &&
         !request.skipIncomplete;
}

bool Workbench::answerKnown(const std::vector<Edit> &list,
                            const FitnessCache &cache,
                            MeasuredVariant &variant) const {
  auto known = builtRemotely.find(editListKey(list));
  if (known == builtRemotely.end())
    return false;
  std::optional<Measurement> hit = cache.find(known->second.key);
  if (!hit)
    return false;
  fill(variant, list, known->second, *hit);
  variant.fromCache = true;
  return true;
}

void Workbench::runHere(RemoteRunner::Returned back, const RunRequest &run) {
  BuiltVariant built = build(back.job.edits);
  RemoteResult result;
  result.key = modelFingerprint(*built.module);
  result.dropped = droppedIndices(back.job.edits, built.edits);
  session->submit(*pool, std::move(built.module), run,
                  [done = std::move(back.done),
                   result = std::move(result)](Measurement m) mutable {
                    result.measurement = std::move(m);
                    done(std::move(result));
                  });
}

std::vector<MeasuredVariant> Workbench::measureRemotely(
    const std::vector<std::vector<Edit>> &lists, const BatchRequest &request,
    const std::function<void(size_t, const MeasuredVariant &)> &onMeasured) {
  FitnessCache &cache = request.cache ? *request.cache : fitnessCache;
  std::vector<MeasuredVariant> out(lists.size());
  auto arrived = [&](size_t i) {
    if (onMeasured)
      onMeasured(i, out[i]);
  };
  // Equal lists share a job; keys first measured in this batch.
  std::map<std::string, std::vector<size_t>> waiting;
  std::set<std::string> newKeys;
  for (size_t i = 0; i < lists.size(); ++i) {
    if (answerKnown(lists[i], cache, out[i])) {
      arrived(i);
      continue;
    }
    std::string id = editListKey(lists[i]);
    auto [it, first] = waiting.try_emplace(id);
    it->second.push_back(i);
    if (!first)
      continue;
    auto done = [&, id](RemoteResult result) {
      remember(id, result);
      std::optional<Measurement> before = cache.find(result.key);
      if (!before) {
        cache.insert(result.key, result.measurement);
        newKeys.insert(result.key);
      }
      // A variant another list of this batch (or an earlier one) built is
      // a cache hit.
      bool ran = !before;
      for (size_t index : waiting[id]) {
        fill(out[index], lists[index], result,
             before ? *before : result.measurement);
        out[index].ran = ran;
        out[index].fromCache = !ran;
        ran = false;
        arrived(index);
      }
    };
    remote->submit(remoteJob("", lists[i], request), done);
  }
  for (RemoteRunner::Returned &back : remote->wait())
    runHere(std::move(back), request.run);
  pool->wait();
  // As measure() counts them: of the lists that built a variant new to the
  // cache, the first in the batch's order ran, whichever result came first.
  std::set<std::string> counted;
  for (MeasuredVariant &variant : out)
    if (newKeys.count(variant.key)) {
      variant.ran = counted.insert(variant.key).second;
      variant.fromCache = !variant.ran;
    }
  return out;
}

void Workbench::startRemotely(const std::vector<Edit> &edits,
                              const BatchRequest &request,
                              std::function<void(MeasuredVariant)> done) {
  FitnessCache *cache = request.cache ? request.cache : &fitnessCache;
  MeasuredVariant variant;
  if (answerKnown(edits, *cache, variant))
    return done(std::move(variant));
  std::string id = editListKey(edits);
  auto [it, first] = startedById.try_emplace(id);
  it->second.push_back({std::move(variant), std::move(done)});
  if (!first)
    return;
  ++startedRuns;
  auto finished = [this, id, cache, edits](RemoteResult result) {
    --startedRuns;
    remember(id, result);
    std::optional<Measurement> before = cache->find(result.key);
    if (!before)
      cache->insert(result.key, result.measurement);
    std::vector<Started> members;
    members.swap(startedById[id]);
    startedById.erase(id);
    bool ran = !before;
    for (Started &member : members) {
      fill(member.variant, edits, result,
           before ? *before : result.measurement);
      member.variant.ran = ran;
      member.variant.fromCache = !ran;
      ran = false;
      member.done(std::move(member.variant));
    }
  };
  remote->submit(remoteJob("", edits, request), finished);
}

} // namespace gevo
