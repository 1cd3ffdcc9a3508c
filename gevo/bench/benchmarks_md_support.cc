//===- benchmarks_md_support.cc - Reading figures files, the machine line ===//
//
// Reading figures files, the machine line: a section of BENCHMARKS.md (see
// benchmarks_md.h).
//
//===----------------------------------------------------------------------===//

#include <sys/utsname.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "gevo/bench/figures.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {
std::string &resultsDirectoryStorage() {
  static std::string dir;
  return dir;
}
} // namespace

void setResultsDirectory(std::string dir) {
  resultsDirectoryStorage() = std::move(dir);
}
const std::string &resultsDirectory() { return resultsDirectoryStorage(); }

std::optional<llvm::json::Value> load(const std::string &name) {
  absl::StatusOr<llvm::json::Value> value =
      readFigures(resultsDirectory() + "/" + name);
  if (!value.ok())
    return std::nullopt;
  return std::move(*value);
}

/// The figures of `file` (held in `figures`), or null after writing "Not
/// run." into `md` when the file is missing or malformed.
const Object *figuresOf(std::ostringstream &md, const std::string &file,
                        std::optional<llvm::json::Value> &figures) {
  figures = load(file);
  const Object *o = figures ? figures->getAsObject() : nullptr;
  if (!o)
    md << "Not run.\n\n";
  return o;
}

double num(const Object *o, llvm::StringRef key) {
  return o ? o->getNumber(key).value_or(0) : 0;
}
std::string str(const Object *o, llvm::StringRef key) {
  return o ? o->getString(key).value_or("").str() : "";
}

/// `path` relative to where the user ran the tool (the repository root for
/// run_all.sh), so that BENCHMARKS.md names no one's home directory.
std::string relative(std::string path) {
  std::string root = gevo::resolveUserPath(".");
  if (!root.empty() && root.back() == '.')
    root.pop_back();
  if (!root.empty() && root.back() != '/')
    root += '/';
  return path.rfind(root, 0) == 0 ? path.substr(root.size()) : path;
}

std::string machine() {
  struct utsname u = {};
  uname(&u);
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  double memoryKiB = std::atof(procField("/proc/meminfo", "MemTotal").c_str());
  return absl::StrFormat("%s, %u cores, %.0f GiB memory, Linux %s; written %s",
                         cpuModel(), std::thread::hardware_concurrency(),
                         memoryKiB / (1 << 20), u.release, date);
}

} // namespace gevo::bench_md
