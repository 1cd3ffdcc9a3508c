//===- escape.h - User text made safe to echo in a one-line message -------===//
//
// Error messages quote what the user wrote (a patch line, an MLIR token). Raw
// control bytes in that text (a bell, a carriage return, an escape sequence,
// a newline) would ring, rewrite or split the one-line error, so quoted text
// goes through escapeForMessage first.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_ESCAPE_H
#define GEVO_IR_ESCAPE_H

#include <string>

#include "absl/strings/string_view.h"

namespace gevo {

/// `text` with control bytes (below 0x20, 0x7f, and the C1 controls
/// U+0080..U+009F) and bytes that are not valid UTF-8 written as `\xNN`;
/// printable ASCII and valid UTF-8 are kept as they are.
std::string escapeForMessage(absl::string_view text);

} // namespace gevo

#endif // GEVO_IR_ESCAPE_H
