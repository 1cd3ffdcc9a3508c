//===- value_codecs.cc - A setting's value as flag text and as JSON -------===//

#include "gevo/support/value_codecs.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gevo/support/tool_paths.h"
#include "llvm/ADT/StringExtras.h"

namespace gevo {

absl::StatusOr<double> parseDuration(const std::string &text) {
  if (text.empty())
    return absl::InvalidArgumentError("empty duration");
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (
        i < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    if (start == i)
      return absl::InvalidArgumentError(absl::StrCat(
          "bad duration '", text, "' (expected e.g. 30m, 90s, 2h, 1h30m)"));
    double number = std::stod(text.substr(start, i - start));
    char unit = i < text.size() ? text[i++] : 's';
    switch (unit) {
    case 's':
      total += number;
      break;
    case 'm':
      total += number * 60;
      break;
    case 'h':
      total += number * 3600;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("bad duration '", text, "': unit '",
                       std::string(1, unit), "' (expected s, m or h)"));
    }
  }
  return total;
}

std::string formatDuration(double seconds) {
  return seconds == 0 ? "0" : absl::StrFormat("%gs", seconds);
}

bool parseByteSize(const std::string &text, int64_t &bytes) {
  if (text.empty())
    return false;
  char *end = nullptr;
  double number = std::strtod(text.c_str(), &end);
  std::string unit(end);
  double scale = unit.empty() || unit == "B"   ? 1
                 : unit == "K" || unit == "KB" ? 1024.0
                 : unit == "M" || unit == "MB" ? 1024.0 * 1024
                 : unit == "G" || unit == "GB" ? 1024.0 * 1024 * 1024
                                               : -1;
  if (scale < 0 || number < 0)
    return false;
  bytes = static_cast<int64_t>(number * scale);
  return true;
}

std::string formatByteSize(int64_t bytes) {
  for (auto [shift, unit] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
    if (bytes != 0 && bytes % (int64_t(1) << shift) == 0)
      return absl::StrCat(bytes >> shift, unit);
  return absl::StrCat(bytes);
}

absl::Status NumberCodec::parse(llvm::StringRef text, double &out) const {
  if (!llvm::to_float(text, out))
    return absl::InvalidArgumentError(
        absl::StrCat("expected a number, got '", text.str(), "'"));
  return absl::OkStatus();
}

std::string NumberCodec::show(const double &value) const {
  return absl::StrFormat("%g", value);
}

absl::Status NumberCodec::read(const llvm::json::Value &value,
                               double &out) const {
  std::optional<double> number = value.getAsNumber();
  if (!number)
    return absl::InvalidArgumentError("expected a number");
  out = *number;
  return absl::OkStatus();
}

absl::Status BoolCodec::parse(llvm::StringRef text, bool &out) const {
  if (text.empty() || text == "true" || text == "TRUE" || text == "True" ||
      text == "1")
    out = true;
  else if (text == "false" || text == "FALSE" || text == "False" || text == "0")
    out = false;
  else
    return absl::InvalidArgumentError(
        absl::StrCat("expected true or false, got '", text.str(), "'"));
  return absl::OkStatus();
}

absl::Status BoolCodec::read(const llvm::json::Value &value, bool &out) const {
  std::optional<bool> flag = value.getAsBoolean();
  if (!flag)
    return absl::InvalidArgumentError("expected true or false");
  out = *flag;
  return absl::OkStatus();
}

absl::Status TextCodec::read(const llvm::json::Value &value,
                             std::string &out) const {
  std::optional<llvm::StringRef> text = value.getAsString();
  if (!text)
    return absl::InvalidArgumentError("expected a string");
  out = text->str();
  return absl::OkStatus();
}

absl::Status PathCodec::parse(llvm::StringRef text, std::string &out) const {
  out = text.empty() ? "" : resolveUserPath(text.str());
  return absl::OkStatus();
}

absl::Status ListCodec::parse(llvm::StringRef text,
                              std::vector<std::string> &out) const {
  out = absl::StrSplit(absl::string_view(text.data(), text.size()), ',',
                       absl::SkipEmpty());
  return absl::OkStatus();
}

std::string ListCodec::show(const std::vector<std::string> &value) const {
  return absl::StrJoin(value, ",");
}

llvm::json::Value
ListCodec::write(const std::vector<std::string> &value) const {
  llvm::json::Array array;
  for (const std::string &item : value)
    array.push_back(item);
  return array;
}

absl::Status ListCodec::read(const llvm::json::Value &value,
                             std::vector<std::string> &out) const {
  const llvm::json::Array *array = value.getAsArray();
  if (!array)
    return absl::InvalidArgumentError("expected an array of strings");
  out.clear();
  for (const llvm::json::Value &item : *array) {
    std::optional<llvm::StringRef> text = item.getAsString();
    if (!text)
      return absl::InvalidArgumentError("expected an array of strings");
    out.push_back(text->str());
  }
  return absl::OkStatus();
}

absl::Status DurationCodec::parse(llvm::StringRef text, double &out) const {
  if (text.empty() && emptyIsZero) {
    out = 0;
    return absl::OkStatus();
  }
  absl::StatusOr<double> seconds = parseDuration(text.str());
  if (!seconds.ok())
    return seconds.status();
  out = *seconds;
  return absl::OkStatus();
}

absl::Status ByteSizeCodec::parse(llvm::StringRef text, int64_t &out) const {
  if (!parseByteSize(text.str(), out))
    return absl::InvalidArgumentError(
        absl::StrCat("expected e.g. 512M or 4G, got '", text.str(), "'"));
  return absl::OkStatus();
}

} // namespace gevo
