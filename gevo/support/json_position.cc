//===- json_position.cc - Where a JSON path's value sits in the text ------===//

#include "gevo/support/json_position.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace gevo {
namespace {

/// One step of a path: a member name, or an element index when `isIndex`.
struct PathStep {
  bool isIndex = false;
  std::string key;
  size_t index = 0;
};

std::optional<std::vector<PathStep>> parsePath(const std::string &path) {
  if (path.empty() || path[0] != '$')
    return std::nullopt;
  std::vector<PathStep> steps;
  size_t i = 1;
  while (i < path.size()) {
    PathStep step;
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[", i + 1);
      if (end == std::string::npos)
        end = path.size();
      step.key = path.substr(i + 1, end - i - 1);
      i = end;
    } else if (path[i] == '[') {
      size_t end = path.find(']', i);
      if (end == std::string::npos)
        return std::nullopt;
      step.isIndex = true;
      step.index = std::strtoul(path.c_str() + i + 1, nullptr, 10);
      i = end + 1;
    } else {
      return std::nullopt;
    }
    steps.push_back(step);
  }
  return steps;
}

/// A forgiving scanner over text that llvm::json has already accepted.
class Scanner {
public:
  explicit Scanner(const std::string &text) : text(text) {}

  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool at(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  /// Reads a string literal; escapes are kept as written (keys rarely have
  /// any).
  std::string readString() {
    std::string out;
    ++pos; // The opening quote.
    while (pos < text.size() && text[pos] != '"') {
      if (text[pos] == '\\' && pos + 1 < text.size())
        out.push_back(text[pos++]);
      out.push_back(text[pos++]);
    }
    ++pos;
    return out;
  }
  void skipValue() {
    skipSpace();
    if (pos >= text.size())
      return;
    char c = text[pos];
    if (c == '"') {
      readString();
    } else if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++pos;
      while (!at(close) && pos < text.size()) {
        if (c == '{') {
          skipSpace();
          readString();
          if (at(':'))
            ++pos;
        }
        skipValue();
        if (at(','))
          ++pos;
      }
      ++pos;
    } else {
      while (pos < text.size() && !std::strchr(",]} \t\r\n", text[pos]))
        ++pos;
    }
  }
  TextPosition position(size_t offset) const {
    TextPosition result;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++result.line;
        result.column = 1;
      } else {
        ++result.column;
      }
    }
    return result;
  }

  const std::string &text;
  size_t pos = 0;
};

} // namespace

std::optional<TextPosition> findJsonPath(const std::string &text,
                                         const std::string &path) {
  std::optional<std::vector<PathStep>> steps = parsePath(path);
  if (!steps)
    return std::nullopt;
  Scanner scanner(text);
  scanner.skipSpace();
  if (scanner.pos >= text.size())
    return std::nullopt;
  size_t found = scanner.pos;
  for (const PathStep &step : *steps) {
    bool matched = false;
    if (!step.isIndex && scanner.at('{')) {
      ++scanner.pos;
      while (!scanner.at('}') && scanner.pos < text.size()) {
        size_t keyPos = scanner.pos;
        std::string key = scanner.readString();
        if (scanner.at(':'))
          ++scanner.pos;
        if (key == step.key) {
          found = keyPos;
          matched = true;
          scanner.skipSpace();
          break;
        }
        scanner.skipValue();
        if (scanner.at(','))
          ++scanner.pos;
      }
    } else if (step.isIndex && scanner.at('[')) {
      ++scanner.pos;
      for (size_t i = 0; !scanner.at(']') && scanner.pos < text.size(); ++i) {
        if (i == step.index) {
          found = scanner.pos;
          matched = true;
          break;
        }
        scanner.skipValue();
        if (scanner.at(','))
          ++scanner.pos;
      }
    }
    if (!matched)
      break;
  }
  return scanner.position(found);
}

} // namespace gevo
