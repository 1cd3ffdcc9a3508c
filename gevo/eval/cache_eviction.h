//===- cache_eviction.h - A cheap run that leaves the caches cold ---------===//
//
// Racing times a short variant against one run of a long unmodified program
// and, in the pairs after it, a sweep over a buffer the size of the last
// level cache in place of that program's further runs (session_child.cc): each
// run of the variant still follows one that evicted its data, as in a pair.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CACHE_EVICTION_H
#define GEVO_EVAL_CACHE_EVICTION_H

#include <cstddef>
#include <vector>

namespace gevo {

/// The last level cache's size in bytes (sysfs; 32 MiB where unknown).
size_t lastLevelCacheBytes();

/// Writes one byte in every cache line of a buffer of `bytes` (allocated
/// and touched once, at construction), evicting what a run left cached.
class CacheEvictor {
public:
  explicit CacheEvictor(size_t bytes = lastLevelCacheBytes());
  void evict();

private:
  std::vector<unsigned char> buffer;
};

} // namespace gevo

#endif // GEVO_EVAL_CACHE_EVICTION_H
