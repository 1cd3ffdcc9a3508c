//===- cache_eviction.cc - A cheap run that leaves the caches cold --------===//

#include "gevo/eval/cache_eviction.h"

#include <fstream>
#include <string>

namespace gevo {

namespace {
constexpr size_t kLineBytes = 64;
constexpr size_t kUnknownCacheBytes = size_t(32) << 20;

/// A sysfs cache size ("32768K", "2M"); 0 when unreadable.
size_t readCacheSize(const std::string &path) {
  std::ifstream in(path);
  size_t value = 0;
  char unit = 0;
  if (!(in >> value))
    return 0;
  in >> unit;
  if (unit == 'K')
    return value << 10;
  if (unit == 'M')
    return value << 20;
  return value;
}
} // namespace

size_t lastLevelCacheBytes() {
  // The highest level listed for cpu0 (index3 on most machines: L3).
  size_t best = 0;
  int bestLevel = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream levelFile(dir + "/level");
    int level = 0;
    if (!(levelFile >> level))
      continue;
    size_t bytes = readCacheSize(dir + "/size");
    if (bytes > 0 && level >= bestLevel) {
      bestLevel = level;
      best = bytes;
    }
  }
  return best > 0 ? best : kUnknownCacheBytes;
}

CacheEvictor::CacheEvictor(size_t bytes) : buffer(bytes, 0) {}

void CacheEvictor::evict() {
  // Written, as in the probe that measured it against the unmodified
  // program's runs (docs/evaluation.md).
  volatile unsigned char *data = buffer.data();
  for (size_t i = 0; i < buffer.size(); i += kLineBytes)
    data[i] = static_cast<unsigned char>(data[i] + 1);
}

} // namespace gevo
