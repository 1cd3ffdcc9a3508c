//===- tool_paths.cc - Where a tool's files are ---------------------------===//

#include "gevo/support/tool_paths.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace gevo {
namespace {

constexpr const char kWorkspace[] = "gevo_ml";

bool exists(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

std::string selfExecutable() {
  char buffer[4096];
  ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return length > 0 ? std::string(buffer, length) : std::string();
}

} // namespace

std::string resolveUserPath(const std::string &path) {
  const char *workingDirectory = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || !workingDirectory)
    return path;
  return std::string(workingDirectory) + "/" + path;
}

std::string findRunfile(const std::string &relative) {
  if (exists(relative))
    return relative;
  std::vector<std::string> roots;
  for (const char *variable : {"RUNFILES_DIR", "TEST_SRCDIR"})
    if (const char *value = std::getenv(variable))
      roots.push_back(std::string(value) + "/" + kWorkspace);
  std::string self = selfExecutable();
  if (!self.empty())
    roots.push_back(self + ".runfiles/" + kWorkspace);
  for (const std::string &root : roots) {
    std::string candidate = root + "/" + relative;
    if (exists(candidate))
      return candidate;
  }
  return relative;
}

} // namespace gevo
