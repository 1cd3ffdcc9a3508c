//===- spec_reader.h - Reading a workload.json with located errors --------===//
//
// Walks the parsed JSON of a workload spec and reports a wrong field as
// `spec:line:col: error: at $.path: message`, finding the line in the text.
// Internal to gevo/eval's workload parsing.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_SPEC_READER_H
#define GEVO_EVAL_SPEC_READER_H

#include <cstdint>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "llvm/Support/JSON.h"

namespace gevo {

class SpecReader {
public:
  SpecReader(std::string specPath, std::string text)
      : specPath(std::move(specPath)), text(std::move(text)) {}

  /// "spec:line:col: error: at <at>" with the position of `locate` (default:
  /// `at`) in the text.
  std::string location(const std::string &at,
                       const std::string &locate = "") const;
  absl::Status error(const std::string &at, const std::string &message,
                     const std::string &locate = "") const;

  /// `value` as an object whose keys are all in `allowedKeys`.
  absl::StatusOr<const llvm::json::Object *>
  object(const llvm::json::Value *value, const std::string &at,
         const std::set<std::string> &allowedKeys) const;

  /// Reads obj[key] into `out`; a missing key is an error when `required`.
  absl::Status string(const llvm::json::Object &obj, const std::string &at,
                      const char *key, std::string &out, bool required) const;
  absl::Status integer(const llvm::json::Object &obj, const std::string &at,
                       const char *key, int64_t &out, int64_t min,
                       bool required = false) const;
  absl::Status number(const llvm::json::Object &obj, const std::string &at,
                      const char *key, double &out) const;

  template <typename Int>
  absl::Status integer(const llvm::json::Object &obj, const std::string &at,
                       const char *key, Int &out, int64_t min,
                       bool required = false) const {
    int64_t value = static_cast<int64_t>(out);
    absl::Status status = integer(obj, at, key, value, min, required);
    out = static_cast<Int>(value);
    return status;
  }

  /// `relative` resolved against the spec's directory.
  std::string resolve(const std::string &relative) const;

  const std::string &path() const { return specPath; }

private:
  std::string specPath;
  std::string text;
};

} // namespace gevo

#endif // GEVO_EVAL_SPEC_READER_H
