//===- message_lines.h - One line out of a multi-line message -------------===//
//
// Errors and child stderr are reported in one line: the first line of a
// message (a pass failure's diagnostic) or the last non-empty line a child
// wrote. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_MESSAGE_LINES_H
#define GEVO_SUPPORT_MESSAGE_LINES_H

#include <string>

#include "absl/strings/string_view.h"

namespace gevo {

/// The first line of a (possibly multi-line) message.
inline std::string firstLine(absl::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

/// The last non-empty line of `text` (trailing newlines and spaces dropped).
inline std::string lastLine(absl::string_view text) {
  size_t end = text.find_last_not_of("\n ");
  if (end == absl::string_view::npos)
    return "";
  size_t start = text.rfind('\n', end);
  size_t from = start == absl::string_view::npos ? 0 : start + 1;
  return std::string(text.substr(from, end + 1 - from));
}

} // namespace gevo

#endif // GEVO_SUPPORT_MESSAGE_LINES_H
