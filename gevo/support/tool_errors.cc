//===- tool_errors.cc - How every gevo-ml tool reports a bad input --------===//

#include "gevo/support/tool_errors.h"

#include <cstdio>

namespace gevo {

int reportBadInput(const std::string &message) {
  bool located = message.find("error:") != std::string::npos;
  std::fprintf(stderr, "%s%s\n", located ? "" : "error: ", message.c_str());
  return kBadInputExitCode;
}

} // namespace gevo
