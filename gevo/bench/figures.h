//===- figures.h - Writing a benchmark's figures as JSON ------------------===//
//
// Every benchmark prints its figure last and writes all its figures as one
// JSON object (which BENCHMARKS.md is generated from); this writes it,
// indented, at the path the user gave (relative to where they ran `bazel
// run`).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_FIGURES_H
#define GEVO_BENCH_FIGURES_H

#include <string>

#include "absl/status/status.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace gevo {

inline absl::Status writeFigures(const std::string &path,
                                 llvm::json::Object figures) {
  return writeOutput(
      resolveUserPath(path),
      llvm::formatv("{0:2}", llvm::json::Value(std::move(figures))).str() +
          "\n");
}

} // namespace gevo

#endif // GEVO_BENCH_FIGURES_H
