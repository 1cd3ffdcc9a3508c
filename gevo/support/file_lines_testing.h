//===- file_lines_testing.h - What a test's temporary file holds, by line -===//
//
// For tests of progress output written to a std::tmpfile(): the lines written
// so far, read from the start.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_FILE_LINES_TESTING_H
#define GEVO_SUPPORT_FILE_LINES_TESTING_H

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace gevo {

/// Every line `file` holds (flushed and read from its start).
inline std::vector<std::string> linesOf(std::FILE *file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    text.append(buffer, n);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

} // namespace gevo

#endif // GEVO_SUPPORT_FILE_LINES_TESTING_H
