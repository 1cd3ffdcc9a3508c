//===- tool_errors.cc - How every gevo-ml tool reports a bad input --------===//

#include "gevo/support/tool_errors.h"

#include <cstdio>
#include <string>

namespace gevo {

namespace {

bool continuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

} // namespace

std::string elideMiddle(const std::string &line, size_t maxChars) {
  if (line.size() <= maxChars)
    return line;
  // The marker takes at most 40 bytes; the head gets four fifths of the rest.
  size_t room = maxChars > 40 ? maxChars - 40 : 0;
  size_t head = room * 4 / 5, tail = room - head;
  while (head > 0 && continuationByte(line[head]))
    --head;
  size_t tailStart = line.size() - tail;
  while (tailStart < line.size() && continuationByte(line[tailStart]))
    ++tailStart;
  return line.substr(0, head) + " [... " + std::to_string(tailStart - head) +
         " characters elided ...] " + line.substr(tailStart);
}

int reportBadInput(const std::string &message) {
  bool located = message.find("error:") != std::string::npos;
  std::string line = elideMiddle((located ? "" : "error: ") + message);
  std::fprintf(stderr, "%s\n", line.c_str());
  return kBadInputExitCode;
}

} // namespace gevo
