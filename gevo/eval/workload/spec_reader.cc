//===- spec_reader.cc - Reading a workload.json with located errors -------===//

#include "gevo/eval/workload/spec_reader.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/support/json_position.h"
#include "llvm/Support/Path.h"

namespace gevo {

std::string SpecReader::location(const std::string &at,
                                 const std::string &locate) const {
  std::optional<TextPosition> position =
      findJsonPath(text, locate.empty() ? at : locate);
  if (!position)
    return absl::StrCat(specPath, ": error: at ", at);
  return absl::StrCat(specPath, ":", position->line, ":", position->column,
                      ": error: at ", at);
}

absl::Status SpecReader::error(const std::string &at,
                               const std::string &message,
                               const std::string &locate) const {
  return absl::InvalidArgumentError(
      absl::StrCat(location(at, locate), ": ", message));
}

absl::StatusOr<const llvm::json::Object *>
SpecReader::object(const llvm::json::Value *value, const std::string &at,
                   const std::set<std::string> &allowedKeys) const {
  const llvm::json::Object *obj = value ? value->getAsObject() : nullptr;
  if (!obj)
    return error(at, "expected an object");
  for (const auto &entry : *obj) {
    std::string key = entry.first.str();
    if (!allowedKeys.count(key))
      return error(at,
                   absl::StrCat("unknown key '", key, "' (expected one of: ",
                                absl::StrJoin(allowedKeys, ", "), ")"),
                   absl::StrCat(at, ".", key));
  }
  return obj;
}

absl::Status SpecReader::string(const llvm::json::Object &obj,
                                const std::string &at, const char *key,
                                std::string &out, bool required) const {
  const llvm::json::Value *value = obj.get(key);
  if (!value)
    return required
               ? error(at, absl::StrCat("missing required key '", key, "'"))
               : absl::OkStatus();
  std::optional<llvm::StringRef> text = value->getAsString();
  if (!text)
    return error(absl::StrCat(at, ".", key), "expected a string");
  out = text->str();
  return absl::OkStatus();
}

absl::Status SpecReader::integer(const llvm::json::Object &obj,
                                 const std::string &at, const char *key,
                                 int64_t &out, int64_t min,
                                 bool required) const {
  const llvm::json::Value *value = obj.get(key);
  if (!value)
    return required
               ? error(at, absl::StrCat("missing required key '", key, "'"))
               : absl::OkStatus();
  std::optional<int64_t> number = value->getAsInteger();
  if (!number || *number < min)
    return error(absl::StrCat(at, ".", key),
                 absl::StrCat("expected an integer >= ", min));
  out = *number;
  return absl::OkStatus();
}

absl::Status SpecReader::number(const llvm::json::Object &obj,
                                const std::string &at, const char *key,
                                double &out) const {
  const llvm::json::Value *value = obj.get(key);
  if (!value)
    return absl::OkStatus();
  std::optional<double> number = value->getAsNumber();
  if (!number || !(*number > 0))
    return error(absl::StrCat(at, ".", key), "expected a positive number");
  out = *number;
  return absl::OkStatus();
}

std::string SpecReader::resolve(const std::string &relative) const {
  if (relative.empty() || llvm::sys::path::is_absolute(relative))
    return relative;
  llvm::SmallString<256> path(llvm::sys::path::parent_path(specPath));
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

} // namespace gevo
