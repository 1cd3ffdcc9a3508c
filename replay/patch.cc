//===- patch.cc - The patch (edit script) text format, v1 -----------------===//

#include "replay/patch.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

constexpr const char kMagic[] = "gevo-patch";

/// A cursor over one line that reports errors at its column.
class LineParser {
public:
  LineParser(const std::string &line, std::string where, int lineNo)
      : line(line), where(std::move(where)), lineNo(lineNo) {}

  absl::Status error(const std::string &expected) const {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ":", lineNo, ":", pos + 1, ": error: expected ",
                     expected, atText()));
  }

  void skipSpaces() {
    while (pos < line.size() && line[pos] == ' ')
      ++pos;
  }
  bool atEnd() {
    skipSpaces();
    return pos >= line.size();
  }
  bool consume(const std::string &token) {
    skipSpaces();
    if (line.compare(pos, token.size(), token) != 0)
      return false;
    pos += token.size();
    return true;
  }
  absl::Status expect(const std::string &token) {
    return consume(token) ? absl::OkStatus()
                          : error(absl::StrCat("'", token, "'"));
  }
  /// Characters up to the next one not in [A-Za-z0-9_.$-].
  std::string word() {
    skipSpaces();
    size_t start = pos;
    while (pos < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[pos])) ||
            line[pos] == '_' || line[pos] == '.' || line[pos] == '$' ||
            line[pos] == '-'))
      ++pos;
    return line.substr(start, pos - start);
  }
  absl::StatusOr<int> integer() {
    skipSpaces();
    size_t start = pos;
    while (pos < line.size() && std::isdigit(static_cast<unsigned char>(line[pos])))
      ++pos;
    int value = 0;
    if (pos == start || pos - start > 9 ||
        !absl::SimpleAtoi(line.substr(start, pos - start), &value)) {
      pos = start;
      return error("a non-negative integer");
    }
    return value;
  }
  /// A number literal: [+-]digits[.digits][e[+-]digits], or inf/nan forms.
  absl::StatusOr<std::string> literal() {
    skipSpaces();
    size_t start = pos;
    while (pos < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[pos])) ||
            line[pos] == '.' || line[pos] == '-' || line[pos] == '+'))
      ++pos;
    std::string text = line.substr(start, pos - start);
    double value;
    if (text.empty() || !absl::SimpleAtod(text, &value)) {
      pos = start;
      return error("a number");
    }
    return text;
  }

  absl::StatusOr<OpRef> opRef() {
    OpRef ref;
    GEVO_RETURN_IF_ERROR(expect("@"));
    ref.function = word();
    if (ref.function.empty())
      return error("a function name after '@'");
    GEVO_RETURN_IF_ERROR(expect("/"));
    size_t nameStart = (skipSpaces(), pos);
    ref.opName = word();
    if (ref.opName.find('.') == std::string::npos) {
      pos = nameStart;
      return error("an op name such as arith.mulf");
    }
    GEVO_RETURN_IF_ERROR(expect("#"));
    GEVO_ASSIGN_OR_RETURN(ref.ordinal, integer());
    GEVO_RETURN_IF_ERROR(expect("~"));
    size_t start = pos;
    std::string hex = word();
    if (hex.size() != 8 || !absl::SimpleHexAtoi(hex, &ref.fingerprint)) {
      pos = start;
      return error("an 8-digit hex fingerprint after '~'");
    }
    return ref;
  }

  absl::StatusOr<ValueRef> valueRef() {
    ValueRef value;
    skipSpaces();
    if (consume("const(")) {
      value.kind = ValueRef::Kind::Constant;
      GEVO_ASSIGN_OR_RETURN(value.literal, literal());
      GEVO_RETURN_IF_ERROR(expect(")"));
      return value;
    }
    if (consume("new:")) {
      value.kind = ValueRef::Kind::NewResult;
      GEVO_ASSIGN_OR_RETURN(value.index, integer());
      return value;
    }
    // @func^k, or an op ref followed by :k or ^k.
    size_t start = pos;
    GEVO_RETURN_IF_ERROR(expect("@"));
    std::string function = word();
    if (consume("^")) {
      value.kind = ValueRef::Kind::FunctionArg;
      value.function = function;
      GEVO_ASSIGN_OR_RETURN(value.index, integer());
      return value;
    }
    pos = start;
    GEVO_ASSIGN_OR_RETURN(value.op, opRef());
    if (consume(":"))
      value.kind = ValueRef::Kind::Result;
    else if (consume("^"))
      value.kind = ValueRef::Kind::RegionArg;
    else
      return error("':<result>' or '^<argument>' after the op");
    GEVO_ASSIGN_OR_RETURN(value.index, integer());
    return value;
  }

  absl::StatusOr<Rewire> rewire() {
    Rewire rewire;
    skipSpaces();
    if (consume("new")) {
      rewire.userIsNew = true;
    } else {
      GEVO_ASSIGN_OR_RETURN(rewire.user, opRef());
    }
    GEVO_RETURN_IF_ERROR(expect("["));
    GEVO_ASSIGN_OR_RETURN(rewire.operand, integer());
    GEVO_RETURN_IF_ERROR(expect("]"));
    GEVO_RETURN_IF_ERROR(expect("<-"));
    GEVO_ASSIGN_OR_RETURN(rewire.value, valueRef());
    if (consume("via")) {
      skipSpaces();
      size_t start = pos;
      while (pos < line.size() && line[pos] != ' ' && line[pos] != ';')
        ++pos;
      rewire.repair = line.substr(start, pos - start);
      if (rewire.repair.empty())
        return error("repair steps after 'via'");
    }
    return rewire;
  }

  absl::StatusOr<Edit> edit() {
    Edit edit;
    size_t start = (skipSpaces(), pos);
    std::string kind = word();
    std::optional<EditKind> known = parseEditKind(kind);
    if (!known) {
      pos = start;
      return error("an edit (delete, copy, move, swap, replace, operand, "
                   "constant)");
    }
    edit.kind = *known;
    GEVO_ASSIGN_OR_RETURN(edit.target, opRef());
    switch (edit.kind) {
    case EditKind::Copy:
    case EditKind::Move:
      GEVO_RETURN_IF_ERROR(expect("before"));
      break;
    case EditKind::Swap:
      GEVO_RETURN_IF_ERROR(expect("and"));
      break;
    case EditKind::Replace:
      GEVO_RETURN_IF_ERROR(expect("with"));
      break;
    case EditKind::Constant: {
      GEVO_RETURN_IF_ERROR(expect("="));
      GEVO_ASSIGN_OR_RETURN(edit.literal, literal());
      break;
    }
    default:
      break;
    }
    if (hasAnchor(edit.kind)) {
      GEVO_ASSIGN_OR_RETURN(edit.anchor, opRef());
    }
    while (consume(";")) {
      GEVO_ASSIGN_OR_RETURN(Rewire rewire, this->rewire());
      edit.rewires.push_back(std::move(rewire));
    }
    if (!atEnd())
      return error("';' and a rewire, or the end of the line");
    return edit;
  }

  std::string atText() const {
    if (pos >= line.size())
      return " at the end of the line";
    return absl::StrCat(", found '", line.substr(pos, 20), "'");
  }

  const std::string &line;
  std::string where;
  int lineNo;
  size_t pos = 0;
};

} // namespace

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

std::string printEdit(const Edit &edit) {
  std::string text = absl::StrCat(toString(edit.kind), " ", toString(edit.target));
  switch (edit.kind) {
  case EditKind::Copy:
  case EditKind::Move:
    absl::StrAppend(&text, " before ", toString(edit.anchor));
    break;
  case EditKind::Swap:
    absl::StrAppend(&text, " and ", toString(edit.anchor));
    break;
  case EditKind::Replace:
    absl::StrAppend(&text, " with ", toString(edit.anchor));
    break;
  case EditKind::Constant:
    absl::StrAppend(&text, " = ", edit.literal);
    break;
  default:
    break;
  }
  for (const Rewire &rewire : edit.rewires) {
    absl::StrAppend(&text, " ; ",
                    rewire.userIsNew ? "new" : toString(rewire.user), "[",
                    rewire.operand, "] <- ", toString(rewire.value));
    if (!rewire.repair.empty())
      absl::StrAppend(&text, " via ", rewire.repair);
  }
  return text;
}

std::string printPatch(const Patch &patch) {
  std::string text = absl::StrCat(kMagic, " ", Patch::kVersion, "\n");
  absl::StrAppend(&text, "model ", patch.model, "\n");
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

absl::StatusOr<Edit> parseEdit(const std::string &line) {
  LineParser parser(line, "<edit>", 1);
  return parser.edit();
}

absl::StatusOr<Patch> parsePatch(const std::string &text,
                                 const std::string &name) {
  Patch patch;
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  enum { Magic, Model, Body } state = Magic;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &line = lines[i];
    int lineNo = static_cast<int>(i + 1);
    LineParser parser(line, name, lineNo);
    if (line.find('\r') != std::string::npos)
      return absl::InvalidArgumentError(absl::StrCat(
          name, ":", lineNo, ":", line.find('\r') + 1,
          ": error: carriage return in a patch; use Unix line endings"));
    if (state == Magic) {
      if (!parser.consume(kMagic))
        return parser.error(absl::StrCat("'", kMagic, " ", Patch::kVersion,
                                         "' on the first line"));
      absl::StatusOr<int> version = parser.integer();
      if (!version.ok())
        return version.status();
      if (*version != Patch::kVersion)
        return absl::InvalidArgumentError(absl::StrCat(
            name, ":", lineNo, ":", sizeof(kMagic) + 1,
            ": error: patch format version ", *version,
            " is not supported (this gevo-ml reads version ", Patch::kVersion,
            ")"));
      if (!parser.atEnd())
        return parser.error("the end of the line after the version");
      state = Model;
      continue;
    }
    if (!line.empty() && line[0] == '#') {
      patch.addComment(line.substr(1));
      continue;
    }
    if (state == Model) {
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
      state = Body;
      continue;
    }
    if (patch.entries.empty() && patch.metadata.empty() &&
        parser.consume("meta")) {
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
        patch.metadata.emplace_back(key, line.substr(start, parser.pos - start));
      }
      continue;
    }
    absl::StatusOr<Edit> edit = parser.edit();
    if (!edit.ok())
      return edit.status();
    patch.addEdit(std::move(*edit));
    patch.entries.back().line = lineNo;
  }
  if (state != Body)
    return absl::InvalidArgumentError(absl::StrCat(
        name, ":", lines.size() + 1, ":1: error: expected ",
        state == Magic ? "'gevo-patch 1'" : "'model <fingerprint>'",
        ": the patch is empty or truncated"));
  return patch;
}

absl::StatusOr<Patch> loadPatch(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat(path, ": cannot open patch"));
  std::ostringstream text;
  text << in.rdbuf();
  return parsePatch(text.str(), path);
}

} // namespace gevo
