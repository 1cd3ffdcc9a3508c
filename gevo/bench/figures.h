//===- figures.h - Writing a benchmark's figures as JSON ------------------===//
//
// Every benchmark prints its figure last and writes all its figures as one
// JSON object (which BENCHMARKS.md is generated from); this writes it,
// indented, at the path the user gave (relative to where they ran `bazel
// run`), and reads it back.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_FIGURES_H
#define GEVO_BENCH_FIGURES_H

#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// The first line of `file` (/proc/cpuinfo, /proc/meminfo) starting with
/// `key`, after its colon; "?" when there is none.
inline std::string procField(const char *file, const std::string &key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "?";
}

/// The CPU's model name, which a figure measured on this machine records
/// (timings from another CPU are not comparable).
inline std::string cpuModel() {
  return procField("/proc/cpuinfo", "model name");
}

inline absl::Status writeFigures(const std::string &path,
                                 llvm::json::Object figures) {
  return writeOutput(
      resolveUserPath(path),
      llvm::formatv("{0:2}", llvm::json::Value(std::move(figures))).str() +
          "\n");
}

/// A benchmark's figures (or any JSON file) as written, read from the path
/// the user gave.
inline absl::StatusOr<llvm::json::Value> readFigures(const std::string &path) {
  std::string resolved = resolveUserPath(path);
  absl::StatusOr<std::string> text = readFile(resolved, "JSON file");
  if (!text.ok())
    return text.status();
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(*text);
  if (!value)
    return absl::InvalidArgumentError(resolved + ": " +
                                      llvm::toString(value.takeError()));
  return std::move(*value);
}

} // namespace gevo

#endif // GEVO_BENCH_FIGURES_H
