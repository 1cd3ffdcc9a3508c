//===- edit_syntax.cc - The grammar of one patch line ---------------------===//

#include "replay/edit_syntax.h"

#include <cctype>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/escape.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/support/status_macros.h"
#include "replay/patch.h"
#include "replay/repair_syntax.h"

namespace gevo {

absl::Status LineParser::error(const std::string &expected) const {
  return absl::InvalidArgumentError(absl::StrCat(where, ":", lineNo, ":",
                                                 pos + 1, ": error: expected ",
                                                 expected, atText()));
}

void LineParser::skipSpaces() {
  while (pos < line.size() && line[pos] == ' ')
    ++pos;
}

bool LineParser::atEnd() {
  skipSpaces();
  return pos >= line.size();
}

bool LineParser::consume(const std::string &token) {
  skipSpaces();
  if (line.compare(pos, token.size(), token) != 0)
    return false;
  pos += token.size();
  return true;
}

absl::Status LineParser::expect(const std::string &token) {
  return consume(token) ? absl::OkStatus()
                        : error(absl::StrCat("'", token, "'"));
}

std::string LineParser::word() {
  skipSpaces();
  size_t start = pos;
  while (pos < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[pos])) ||
          line[pos] == '_' || line[pos] == '.' || line[pos] == '$' ||
          line[pos] == '-'))
    ++pos;
  return line.substr(start, pos - start);
}

absl::StatusOr<int> LineParser::integer() {
  skipSpaces();
  size_t start = pos;
  while (pos < line.size() &&
         std::isdigit(static_cast<unsigned char>(line[pos])))
    ++pos;
  int value = 0;
  if (pos == start || pos - start > 9 ||
      !absl::SimpleAtoi(line.substr(start, pos - start), &value)) {
    pos = start;
    return error("a non-negative integer");
  }
  return value;
}

absl::StatusOr<std::string> LineParser::literal() {
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

absl::StatusOr<Selection> LineParser::selection() {
  Selection keep;
  GEVO_RETURN_IF_ERROR(expect("["));
  GEVO_ASSIGN_OR_RETURN(int first, integer());
  if (consume(":")) {
    keep.start = first;
    GEVO_ASSIGN_OR_RETURN(int stop, integer());
    keep.stop = stop;
    if (consume(":")) {
      size_t at = pos;
      GEVO_ASSIGN_OR_RETURN(int step, integer());
      if (step == 0) {
        pos = at;
        return error("a step of at least 1");
      }
      keep.step = step;
    }
    if (keep.stop <= keep.start)
      return error("a range that keeps at least one index");
  } else {
    keep.indices.push_back(first);
    while (consume(",")) {
      size_t at = (skipSpaces(), pos);
      GEVO_ASSIGN_OR_RETURN(int next, integer());
      if (next <= keep.indices.back()) {
        pos = at;
        return error("indices in ascending order");
      }
      keep.indices.push_back(next);
    }
  }
  GEVO_RETURN_IF_ERROR(expect("]"));
  return keep;
}

absl::StatusOr<OpRef> LineParser::opRef() {
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

absl::StatusOr<ValueRef> LineParser::valueRef() {
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

absl::StatusOr<Rewire> LineParser::rewire() {
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
    GEVO_ASSIGN_OR_RETURN(rewire.repair, repair());
  }
  return rewire;
}

absl::StatusOr<Edit> LineParser::edit() {
  Edit edit;
  size_t start = (skipSpaces(), pos);
  std::string kind = word();
  std::optional<EditKind> known = parseEditKind(kind);
  if (!known) {
    pos = start;
    return error(absl::StrCat("an edit (", editKindList(), ")"));
  }
  edit.kind = *known;
  GEVO_ASSIGN_OR_RETURN(edit.target, opRef());
  GEVO_RETURN_IF_ERROR(operatorFor(edit.kind).parsePart(*this, edit));
  while (consume(";")) {
    size_t at = pos;
    GEVO_ASSIGN_OR_RETURN(Rewire rewire, this->rewire());
    for (const Rewire &earlier : edit.rewires)
      if (earlier.userIsNew == rewire.userIsNew &&
          earlier.user == rewire.user && earlier.operand == rewire.operand) {
        pos = at;
        return error("a rewire of another operand (this one is rewired "
                     "already)");
      }
    edit.rewires.push_back(std::move(rewire));
  }
  if (!atEnd())
    return error("';' and a rewire, or the end of the line");
  return edit;
}

std::string LineParser::atText() const {
  if (pos >= line.size())
    return " at the end of the line";
  // The line is user input: control bytes would break the one-line message.
  return absl::StrCat(", found '", escapeForMessage(line.substr(pos, 20)), "'");
}

std::string printEdit(const Edit &edit) {
  std::string text =
      absl::StrCat(toString(edit.kind), " ", toString(edit.target),
                   operatorFor(edit.kind).printPart(edit));
  for (const Rewire &rewire : edit.rewires) {
    absl::StrAppend(&text, " ; ",
                    rewire.userIsNew ? "new" : toString(rewire.user), "[",
                    rewire.operand, "] <- ", toString(rewire.value));
    if (!rewire.repair.empty())
      absl::StrAppend(&text, " via ", printRepair(rewire.repair));
  }
  return text;
}

absl::StatusOr<Edit> parseEdit(const std::string &line) {
  LineParser parser(line, "<edit>", 1);
  return parser.edit();
}

} // namespace gevo
