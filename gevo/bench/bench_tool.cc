//===- bench_tool.cc - The steps every benchmark's main shares ------------===//

#include "gevo/bench/bench_tool.h"

#include <string>

#include "gevo/support/tool_errors.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

bool parseBenchFlags(llvm::cl::OptionCategory &category, int argc, char **argv,
                     llvm::StringRef overview) {
  llvm::cl::HideUnrelatedOptions(category);
  return llvm::cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs());
}

int reportFailure(const absl::Status &status) {
  return reportBadInput(std::string(status.message()));
}

} // namespace gevo
