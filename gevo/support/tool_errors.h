//===- tool_errors.h - How every gevo-ml tool reports a bad input ---------===//
#ifndef GEVO_SUPPORT_TOOL_ERRORS_H
#define GEVO_SUPPORT_TOOL_ERRORS_H

#include <string>

namespace gevo {

/// Exit code of a tool for bad input (a file, a flag, a patch that no longer
/// applies); 1 stays for internal failures.
constexpr int kBadInputExitCode = 2;

/// The longest error line a tool prints.
constexpr size_t kMaxErrorLineChars = 500;

/// `line` cut to at most `maxChars` bytes by eliding its middle (the place
/// and kind of the error come first, how it ends last): "... [N characters
/// elided] ...". A UTF-8 character is never split.
std::string elideMiddle(const std::string &line,
                        size_t maxChars = kMaxErrorLineChars);

/// Prints `message` as one line on stderr, prefixed with "error: " unless it
/// already says where and what ("file:line:col: error: ..."), elided to
/// kMaxErrorLineChars (a hostile input's text can be megabytes), and returns
/// kBadInputExitCode.
int reportBadInput(const std::string &message);

} // namespace gevo

#endif // GEVO_SUPPORT_TOOL_ERRORS_H
