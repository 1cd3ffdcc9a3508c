//===- fitness_cache.h - Measurements keyed by the variant's printed form -===//
//
// Equal programs reached by different edit lists are evaluated once: the key
// is modelFingerprint() of the variant (a hash of its canonical printed
// form). The cache lives in a JSON-lines file, one `{"key", "measurement"}`
// per line, appended and flushed as each evaluation ends, so a crash loses
// nothing and a later run can start from it. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_FITNESS_CACHE_H
#define GEVO_WORKBENCH_FITNESS_CACHE_H

#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gevo/eval/measurement.h"

namespace gevo {

class FitnessCache {
public:
  /// Reads `path` if it exists (a torn last line from a crash is skipped)
  /// and appends new entries to it; an empty path keeps the cache in memory.
  absl::Status open(const std::string &path);
  /// Adds entries from another run's cache file (read only).
  absl::Status import(const std::string &path);

  std::optional<Measurement> find(const std::string &key) const;
  void insert(const std::string &key, const Measurement &measurement);
  size_t size() const { return entries.size(); }
  /// Every entry, by key.
  const std::map<std::string, Measurement> &all() const { return entries; }

private:
  absl::Status read(const std::string &path, bool mustExist);
  std::map<std::string, Measurement> entries;
  std::ofstream file;
};

} // namespace gevo

#endif // GEVO_WORKBENCH_FITNESS_CACHE_H
