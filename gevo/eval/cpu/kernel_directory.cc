//===- kernel_directory.cc - Where a session's processes share kernels ----===//

#include "gevo/eval/cpu/kernel_directory.h"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace gevo {

std::string makeKernelDirectory() {
  std::error_code error;
  std::filesystem::path base = std::filesystem::temp_directory_path(error);
  if (error)
    return "";
  // A process killed outright leaves its directory; the next one removes
  // the directories of processes that are gone.
  constexpr llvm::StringLiteral kPrefix = "gevo-kernels-";
  for (const auto &entry : std::filesystem::directory_iterator(base, error)) {
    std::string filename = entry.path().filename().string();
    llvm::StringRef name(filename);
    long owner = 0;
    if (!name.consume_front(kPrefix) ||
        name.split('-').first.getAsInteger(10, owner) || owner <= 0)
      continue;
    if (kill(static_cast<pid_t>(owner), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }
  std::string pattern =
      (base / (kPrefix.str() + std::to_string(getpid()) + "-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  return mkdtemp(name.data()) ? std::string(name.data()) : "";
}

} // namespace gevo
