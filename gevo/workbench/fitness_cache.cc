//===- fitness_cache.cc - Measurements keyed by the variant's printed form ===//

#include "gevo/workbench/fitness_cache.h"

#include "absl/strings/str_cat.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

absl::Status FitnessCache::read(const std::string &path, bool mustExist) {
  std::ifstream in(path);
  if (!in)
    return mustExist ? absl::NotFoundError(
                           absl::StrCat(path, ": cannot open fitness cache"))
                     : absl::OkStatus();
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value) {
      llvm::consumeError(value.takeError());
      continue; // a line torn by a crash
    }
    const llvm::json::Object *object = value->getAsObject();
    auto key = object ? object->getString("key") : std::nullopt;
    const llvm::json::Value *measurement =
        object ? object->get("measurement") : nullptr;
    if (!key || !measurement)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *measurement;
    os.flush();
    absl::StatusOr<Measurement> parsed = parseMeasurementJson(text);
    if (parsed.ok())
      entries[key->str()] = *parsed;
  }
  return absl::OkStatus();
}

absl::Status FitnessCache::open(const std::string &path) {
  if (path.empty())
    return absl::OkStatus();
  if (absl::Status status = read(path, /*mustExist=*/false); !status.ok())
    return status;
  file.open(path, std::ios::app);
  if (!file)
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot write fitness cache"));
  return absl::OkStatus();
}

absl::Status FitnessCache::import(const std::string &path) {
  return read(path, /*mustExist=*/true);
}

std::optional<Measurement> FitnessCache::find(const std::string &key) const {
  auto it = entries.find(key);
  if (it == entries.end())
    return std::nullopt;
  return it->second;
}

void FitnessCache::insert(const std::string &key,
                          const Measurement &measurement) {
  entries[key] = measurement;
  if (file.is_open()) {
    file << "{\"key\":\"" << key
         << "\",\"measurement\":" << toJsonLine(measurement) << "}\n";
    file.flush();
  }
}

} // namespace gevo
