//===- tool_errors.h - How every gevo-ml tool reports a bad input ---------===//
#ifndef GEVO_SUPPORT_TOOL_ERRORS_H
#define GEVO_SUPPORT_TOOL_ERRORS_H

#include <string>

namespace gevo {

/// Exit code of a tool for bad input (a file, a flag, a patch that no longer
/// applies); 1 stays for internal failures.
constexpr int kBadInputExitCode = 2;

/// Prints `message` as one line on stderr, prefixed with "error: " unless it
/// already says where and what ("file:line:col: error: ..."), and returns
/// kBadInputExitCode.
int reportBadInput(const std::string &message);

} // namespace gevo

#endif // GEVO_SUPPORT_TOOL_ERRORS_H
