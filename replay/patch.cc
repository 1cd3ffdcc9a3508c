//===- patch.cc - The patch (edit script) text format, v1 -----------------===//

#include "replay/patch.h"

#include <cmath>
#include <map>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/ir/escape.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "replay/edit_syntax.h"

namespace gevo {
namespace {

constexpr const char kMagic[] = "gevo-patch";

/// Where the first control byte (other than a tab) of a line is.
std::optional<size_t> controlByteAt(const std::string &line) {
  for (size_t i = 0; i < line.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return i;
  }
  return std::nullopt;
}

/// A carriage return or control byte anywhere in the line is an error at
/// its column.
absl::Status checkBytes(const std::string &line, const std::string &name,
                        int lineNo) {
  if (line.find('\r') != std::string::npos)
    return absl::InvalidArgumentError(absl::StrCat(
        name, ":", lineNo, ":", line.find('\r') + 1,
        ": error: carriage return in a patch; use Unix line endings"));
  if (std::optional<size_t> at = controlByteAt(line))
    return absl::InvalidArgumentError(
        absl::StrCat(name, ":", lineNo, ":", *at + 1, ": error: control byte ",
                     escapeForMessage(line.substr(*at, 1)),
                     " in a patch (a patch is plain text)"));
  return absl::OkStatus();
}

/// `gevo-patch 1`, the first line.
absl::Status parseMagic(LineParser &parser, const std::string &name,
                        int lineNo) {
  if (!parser.consume(kMagic))
    return parser.error(
        absl::StrCat("'", kMagic, " ", Patch::kVersion, "' on the first line"));
  absl::StatusOr<int> version = parser.integer();
  if (!version.ok())
    return version.status();
  if (*version != Patch::kVersion)
    return absl::InvalidArgumentError(
        absl::StrCat(name, ":", lineNo, ":", sizeof(kMagic) + 1,
                     ": error: patch format version ", *version,
                     " is not supported (this gevo-ml reads version ",
                     Patch::kVersion, ")"));
  if (!parser.atEnd())
    return parser.error("the end of the line after the version");
  return absl::OkStatus();
}

/// `model <16 hex>`.
absl::Status parseModel(LineParser &parser, Patch &patch) {
  GEVO_RETURN_IF_ERROR(parser.expect("model"));
  parser.skipSpaces();
  size_t start = parser.pos;
  std::string hex = parser.word();
  uint64_t ignored;
  if (hex.size() != 16 || !absl::SimpleHexAtoi(hex, &ignored)) {
    parser.pos = start;
    return parser.error("a 16-digit hex model fingerprint");
  }
  patch.model = hex;
  if (!parser.atEnd())
    return parser.error("the end of the line after the fingerprint");
  return absl::OkStatus();
}

/// `batch=N [entry=F]` after `source onnx`, kept in `patch.source` as
/// printPatch writes it back (`entry=main` is the default, left out).
absl::Status parseOnnxImport(LineParser &parser, Patch &patch) {
  GEVO_RETURN_IF_ERROR(parser.expect("batch="));
  size_t start = parser.pos;
  GEVO_ASSIGN_OR_RETURN(int batch, parser.integer());
  if (batch < 1) {
    parser.pos = start;
    return parser.error("a batch of at least 1");
  }
  std::string entry = "main";
  if (parser.consume("entry=")) {
    entry = parser.word();
    if (entry.empty())
      return parser.error("a function name");
  }
  patch.source = absl::StrCat("onnx batch=", batch);
  if (entry != "main")
    absl::StrAppend(&patch.source, " entry=", entry);
  return absl::OkStatus();
}

/// `forward=F spec=H [entry=E]` after `source training`, kept in
/// `patch.source` as printPatch writes it back.
absl::Status parseTrainingSource(LineParser &parser, Patch &patch) {
  GEVO_RETURN_IF_ERROR(parser.expect("forward="));
  std::string forward = parser.word();
  if (forward.empty())
    return parser.error("the forward module's file name");
  GEVO_RETURN_IF_ERROR(parser.expect("spec="));
  size_t start = parser.pos;
  std::string hash = parser.word();
  if (hash.size() != 16 ||
      hash.find_first_not_of("0123456789abcdef") != std::string::npos) {
    parser.pos = start;
    return parser.error("the training spec's hash, 16 hex digits");
  }
  patch.source = absl::StrCat("training forward=", forward, " spec=", hash);
  if (parser.consume("entry=")) {
    std::string entry = parser.word();
    if (entry.empty())
      return parser.error("a function name");
    absl::StrAppend(&patch.source, " entry=", entry);
  }
  return absl::OkStatus();
}

/// The rest of a `source <form>` line.
absl::Status parseSource(LineParser &parser, Patch &patch) {
  parser.skipSpaces();
  size_t start = parser.pos;
  std::string form = parser.word();
  if (form != "tosa" && form != "linalg" && form != "onnx" &&
      form != "training") {
    parser.pos = start;
    return parser.error(
        "a source form, 'tosa', 'onnx', 'training' or 'linalg'");
  }
  patch.source = form;
  if (form == "onnx")
    GEVO_RETURN_IF_ERROR(parseOnnxImport(parser, patch));
  if (form == "training")
    GEVO_RETURN_IF_ERROR(parseTrainingSource(parser, patch));
  if (!parser.atEnd())
    return parser.error("the end of the line after the source form");
  return absl::OkStatus();
}

/// The rest of a `meta k=v ...` line.
absl::Status parseMeta(LineParser &parser, Patch &patch) {
  const std::string &line = parser.line;
  while (!parser.atEnd()) {
    std::string key = parser.word();
    if (key.empty())
      return parser.error("key=value");
    GEVO_RETURN_IF_ERROR(parser.expect("="));
    size_t start = parser.pos;
    while (parser.pos < line.size() && line[parser.pos] != ' ')
      ++parser.pos;
    if (parser.pos == start)
      return parser.error("a value after '='");
    std::string value = line.substr(start, parser.pos - start);
    double number;
    if (absl::SimpleAtod(value, &number) && !std::isfinite(number)) {
      parser.pos = start;
      return parser.error("a finite number");
    }
    patch.metadata.emplace_back(key, std::move(value));
  }
  return absl::OkStatus();
}

/// Whether the header may still take a `source` or `meta` line.
bool beforeBody(const Patch &patch) {
  return patch.entries.empty() && patch.metadata.empty();
}

/// An edit may not repeat one of `seen` (printed edit -> line) nor be the
/// one past `maxEdits`; it is added to `seen`.
absl::Status checkNewEdit(const Edit &edit, std::map<std::string, int> &seen,
                          size_t maxEdits, const std::string &name,
                          int lineNo) {
  if (seen.size() >= maxEdits)
    return absl::InvalidArgumentError(absl::StrCat(
        name, ":", lineNo, ":1: error: more than ", maxEdits,
        " edits in one patch (apply's --max-edits raises the limit)"));
  auto [at, added] = seen.try_emplace(printEdit(edit), lineNo);
  if (!added)
    return absl::InvalidArgumentError(
        absl::StrCat(name, ":", lineNo, ":1: error: the same edit as line ",
                     at->second, " (a patch holds each edit once)"));
  return absl::OkStatus();
}

} // namespace

std::optional<OnnxSource> onnxSource(const Patch &patch) {
  std::vector<std::string> words = absl::StrSplit(patch.source, ' ');
  if (words.empty() || words[0] != "onnx")
    return std::nullopt;
  OnnxSource source;
  for (size_t i = 1; i < words.size(); ++i) {
    std::pair<std::string, std::string> option =
        absl::StrSplit(words[i], absl::MaxSplits('=', 1));
    if (option.first == "batch" &&
        !absl::SimpleAtoi(option.second, &source.batch))
      return std::nullopt;
    if (option.first == "entry")
      source.entry = option.second;
  }
  return source;
}

std::vector<Edit> Patch::edits() const {
  std::vector<Edit> out;
  for (const Entry &entry : entries)
    if (!entry.isComment)
      out.push_back(entry.edit);
  return out;
}

void Patch::addEdit(Edit edit) {
  Entry entry;
  entry.edit = std::move(edit);
  entries.push_back(std::move(entry));
}

void Patch::addComment(std::string text) {
  Entry entry;
  entry.isComment = true;
  entry.comment = std::move(text);
  entries.push_back(std::move(entry));
}

std::string printPatch(const Patch &patch) {
  std::string text = absl::StrCat(kMagic, " ", Patch::kVersion, "\n");
  absl::StrAppend(&text, "model ", patch.model, "\n");
  if (!patch.source.empty())
    absl::StrAppend(&text, "source ", patch.source, "\n");
  if (!patch.metadata.empty()) {
    absl::StrAppend(&text, "meta");
    for (const auto &[key, value] : patch.metadata)
      absl::StrAppend(&text, " ", key, "=", value);
    absl::StrAppend(&text, "\n");
  }
  for (const Patch::Entry &entry : patch.entries) {
    if (entry.isComment)
      absl::StrAppend(&text, "#", entry.comment, "\n");
    else
      absl::StrAppend(&text, printEdit(entry.edit), "\n");
  }
  return text;
}

absl::StatusOr<Patch> parsePatch(const std::string &text,
                                 const std::string &name, size_t maxEdits) {
  Patch patch;
  std::map<std::string, int> editLines; // printed edit -> its first line
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  enum { Magic, Model, Body } state = Magic;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &line = lines[i];
    int lineNo = static_cast<int>(i + 1);
    LineParser parser(line, name, lineNo);
    GEVO_RETURN_IF_ERROR(checkBytes(line, name, lineNo));
    if (state == Magic) {
      GEVO_RETURN_IF_ERROR(parseMagic(parser, name, lineNo));
      state = Model;
    } else if (!line.empty() && line[0] == '#') {
      patch.addComment(line.substr(1));
    } else if (state == Model) {
      GEVO_RETURN_IF_ERROR(parseModel(parser, patch));
      state = Body;
    } else if (beforeBody(patch) && patch.source.empty() &&
               parser.consume("source")) {
      GEVO_RETURN_IF_ERROR(parseSource(parser, patch));
    } else if (beforeBody(patch) && parser.consume("meta")) {
      GEVO_RETURN_IF_ERROR(parseMeta(parser, patch));
    } else {
      GEVO_ASSIGN_OR_RETURN(Edit edit, parser.edit());
      GEVO_RETURN_IF_ERROR(
          checkNewEdit(edit, editLines, maxEdits, name, lineNo));
      patch.addEdit(std::move(edit));
      patch.entries.back().line = lineNo;
    }
  }
  if (state != Body)
    return absl::InvalidArgumentError(absl::StrCat(
        name, ":", lines.size() + 1, ":1: error: expected ",
        state == Magic ? "'gevo-patch 1'" : "'model <fingerprint>'",
        ": the patch is empty or truncated"));
  return patch;
}

absl::StatusOr<Patch> loadPatch(const std::string &path, size_t maxEdits) {
  GEVO_ASSIGN_OR_RETURN(std::string text, readFile(path, "patch"));
  return parsePatch(text, path, maxEdits);
}

} // namespace gevo
