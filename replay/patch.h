//===- patch.h - The patch (edit script) text format, v1 ------------------===//
//
// A patch is an ordered list of edits plus a header: the format version, a
// fingerprint of the model it was made for, optional metadata (fitness), and
// full-line `#` comments kept in place. `printPatch(parsePatch(t)) == t` for
// any text printPatch produced. The format is documented in replay/FORMAT.md.
//
//===----------------------------------------------------------------------===//
#ifndef REPLAY_PATCH_H
#define REPLAY_PATCH_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"

namespace gevo {

struct Patch {
  static constexpr int kVersion = 1;
  /// 16 hex digits (modelFingerprint() of the module it was made for).
  std::string model;
  /// The rest of a `source` line, the form the model was written in: empty
  /// (linalg, as given), "tosa" (its linalg form as gevo/ir/frontend.h
  /// legalises it) or "onnx batch=N[ entry=F]" (the module an ONNX file
  /// imports to with that batch and function name); the edits address the
  /// linalg form either way.
  std::string source;
  /// `meta key=value ...` pairs in order, e.g. runtime_ms=12.5.
  std::vector<std::pair<std::string, std::string>> metadata;
  /// Each entry is an edit or a comment line (text after '#').
  struct Entry {
    bool isComment = false;
    std::string comment;
    Edit edit;
    int line = 0; // 1-based line in the parsed text; 0 when built in memory.
  };
  std::vector<Entry> entries;

  std::vector<Edit> edits() const;
  void addEdit(Edit edit);
  void addComment(std::string text);
};

/// What a `source onnx` line says: how to import the model again.
struct OnnxSource {
  int64_t batch = 0;
  std::string entry = "main";
};
/// The import a patch made on an ONNX model records; nullopt for any other.
std::optional<OnnxSource> onnxSource(const Patch &patch);

std::string printPatch(const Patch &patch);
/// Prints one edit as its patch line.
std::string printEdit(const Edit &edit);

/// The most edits a patch may hold unless a reader raises it (apply's
/// --max-edits): a search writes tens, a hostile patch millions.
inline constexpr size_t kDefaultMaxEdits = 10000;

/// Parses patch text; errors read `name:line:col: error: expected ...`. The
/// same edit twice (as printEdit prints it) is an error at the second line,
/// and so is an edit past `maxEdits`.
absl::StatusOr<Patch> parsePatch(const std::string &text,
                                 const std::string &name,
                                 size_t maxEdits = kDefaultMaxEdits);
absl::StatusOr<Patch> loadPatch(const std::string &path,
                                size_t maxEdits = kDefaultMaxEdits);
/// Parses one edit line (as printEdit writes it).
absl::StatusOr<Edit> parseEdit(const std::string &line);

} // namespace gevo

#endif // REPLAY_PATCH_H
