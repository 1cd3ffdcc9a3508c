//===- nesting_guard.cc - Refuse MLIR text nested too deep to parse -------===//

#include "gevo/ir/nesting_guard.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/escape.h"

namespace gevo {

absl::Status checkNesting(absl::string_view text, const std::string &bufferName,
                          int maxDepth) {
  // MLIR bytecode starts with "ML\xefR"; its reader does not recurse on text.
  if (absl::StartsWith(text, "ML\xef"
                             "R"))
    return absl::OkStatus();
  int depth = 0;
  int line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"':
      // A string literal: skip to its closing quote (escapes included); it
      // ends at the line's end at the latest, as in MLIR's lexer.
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < text.size() && text[i] == '\n')
        --i; // let the loop count the line
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '{':
    case '[':
    case '(':
    case '<':
      if (++depth > maxDepth)
        return absl::InvalidArgumentError(absl::StrCat(
            escapeForMessage(bufferName), ":", line, ":", i - lineStart + 1,
            ": error: the MLIR nests deeper than ", maxDepth,
            " levels of brackets or regions; refusing to parse it (the "
            "parser would overflow the stack)"));
      break;
    case '-':
      if (i + 1 < text.size() && text[i + 1] == '>')
        ++i; // an arrow, not a closing '>'
      break;
    case '}':
    case ']':
    case ')':
    case '>':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return absl::OkStatus();
}

} // namespace gevo
