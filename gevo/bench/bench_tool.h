//===- bench_tool.h - The steps every benchmark's main shares -------------===//
//
// A benchmark main parses the flags of its own category (llvm::cl, errors
// on stderr, exit code 2) and reports a failed step as bad input (exit code
// 2, its message on stderr); these are those two steps.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_BENCH_TOOL_H
#define GEVO_BENCH_BENCH_TOOL_H

#include "absl/status/status.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

namespace gevo {

/// Shows only `category`'s flags in --help and parses the command line with
/// `overview`; false (errors printed) when the flags are bad.
bool parseBenchFlags(llvm::cl::OptionCategory &category, int argc, char **argv,
                     llvm::StringRef overview);

/// Reports `status`'s message as bad input; main's exit code for it.
int reportFailure(const absl::Status &status);

} // namespace gevo

#endif // GEVO_BENCH_BENCH_TOOL_H
