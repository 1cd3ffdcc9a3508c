//===- value_codecs.h - A setting's value as flag text and as JSON --------===//
//
// How the settings tables (settings_table.h) read a field from a flag, show
// it in --help, and write and read it as JSON: integers, numbers, booleans,
// text, comma-separated lists, paths, durations ("90s", "30m") and byte
// sizes ("4G"). A codec is a small struct; a table names one per row, or
// DefaultCodec<T> picks it from the field's type. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_VALUE_CODECS_H
#define GEVO_SUPPORT_VALUE_CODECS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// "30m", "90s", "2h", "1h30m", "45" (seconds).
absl::StatusOr<double> parseDuration(const std::string &text);
/// Seconds as parseDuration reads them back: "90s", "0".
std::string formatDuration(double seconds);
/// "4G", "512M", "64K", "1024" (bytes; KB, MB, GB and B too); false when
/// malformed.
bool parseByteSize(const std::string &text, int64_t &bytes);
/// Bytes as parseByteSize reads them back: "4G", "512M", "1000".
std::string formatByteSize(int64_t bytes);

/// Whole numbers (int, int64_t, uint64_t); JSON integers.
template <typename T> struct IntCodec {
  static constexpr bool kIsBool = false;
  const char *name = "int";
  absl::Status parse(llvm::StringRef text, T &out) const {
    if (text.getAsInteger(0, out))
      return absl::InvalidArgumentError("expected an integer, got '" +
                                        text.str() + "'");
    return absl::OkStatus();
  }
  std::string show(const T &value) const { return std::to_string(value); }
  llvm::json::Value write(const T &value) const {
    return static_cast<int64_t>(value);
  }
  absl::Status read(const llvm::json::Value &value, T &out) const {
    std::optional<int64_t> number = value.getAsInteger();
    if (!number)
      return absl::InvalidArgumentError("expected an integer");
    out = static_cast<T>(*number);
    return absl::OkStatus();
  }
};

struct NumberCodec {
  static constexpr bool kIsBool = false;
  const char *name = "number";
  absl::Status parse(llvm::StringRef text, double &out) const;
  std::string show(const double &value) const;
  llvm::json::Value write(const double &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, double &out) const;
};

/// --flag, --flag=true|false|1|0; JSON booleans.
struct BoolCodec {
  static constexpr bool kIsBool = true;
  const char *name = "bool";
  absl::Status parse(llvm::StringRef text, bool &out) const;
  std::string show(const bool &value) const { return value ? "true" : "false"; }
  llvm::json::Value write(const bool &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, bool &out) const;
};

struct TextCodec {
  static constexpr bool kIsBool = false;
  const char *name = "text";
  absl::Status parse(llvm::StringRef text, std::string &out) const {
    out = text.str();
    return absl::OkStatus();
  }
  std::string show(const std::string &value) const { return value; }
  llvm::json::Value write(const std::string &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, std::string &out) const;
};

/// A file or directory the user names: resolved against the directory the
/// tool was started from (tool_paths.h) when read from a flag.
struct PathCodec {
  static constexpr bool kIsBool = false;
  const char *name = "path";
  absl::Status parse(llvm::StringRef text, std::string &out) const;
  std::string show(const std::string &value) const { return value; }
  llvm::json::Value write(const std::string &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, std::string &out) const {
    return TextCodec().read(value, out);
  }
};

/// Comma-separated on the command line; a JSON array of strings.
struct ListCodec {
  static constexpr bool kIsBool = false;
  const char *name = "list";
  absl::Status parse(llvm::StringRef text, std::vector<std::string> &out) const;
  std::string show(const std::vector<std::string> &value) const;
  llvm::json::Value write(const std::vector<std::string> &value) const;
  absl::Status read(const llvm::json::Value &value,
                    std::vector<std::string> &out) const;
};

/// Seconds: "90s", "30m", "2h" on the command line; a JSON number.
struct DurationCodec {
  static constexpr bool kIsBool = false;
  const char *name = "duration";
  /// An empty flag value means 0 (else it is an error).
  bool emptyIsZero = false;
  absl::Status parse(llvm::StringRef text, double &out) const;
  std::string show(const double &value) const { return formatDuration(value); }
  llvm::json::Value write(const double &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, double &out) const {
    return NumberCodec().read(value, out);
  }
};

/// Bytes: "512M", "4G" on the command line; a JSON integer.
struct ByteSizeCodec {
  static constexpr bool kIsBool = false;
  const char *name = "size";
  absl::Status parse(llvm::StringRef text, int64_t &out) const;
  std::string show(const int64_t &value) const { return formatByteSize(value); }
  llvm::json::Value write(const int64_t &value) const { return value; }
  absl::Status read(const llvm::json::Value &value, int64_t &out) const {
    return IntCodec<int64_t>().read(value, out);
  }
};

/// The codec a field of type T gets unless its row names another.
template <typename T> struct DefaultCodecOf;
template <> struct DefaultCodecOf<int> {
  using type = IntCodec<int>;
};
template <> struct DefaultCodecOf<int64_t> {
  using type = IntCodec<int64_t>;
};
template <> struct DefaultCodecOf<uint64_t> {
  using type = IntCodec<uint64_t>;
};
template <> struct DefaultCodecOf<double> {
  using type = NumberCodec;
};
template <> struct DefaultCodecOf<bool> {
  using type = BoolCodec;
};
template <> struct DefaultCodecOf<std::string> {
  using type = TextCodec;
};
template <> struct DefaultCodecOf<std::vector<std::string>> {
  using type = ListCodec;
};
template <typename T> using DefaultCodec = typename DefaultCodecOf<T>::type;

} // namespace gevo

#endif // GEVO_SUPPORT_VALUE_CODECS_H
