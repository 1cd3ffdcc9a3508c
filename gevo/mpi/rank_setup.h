//===- rank_setup.h - What an evaluating rank opens its workbench with ----===//
//
// Rank 0's start message: the workload and the workbench options (pipeline,
// codegen, timing, limits) as JSON, with the keys of their settings table
// (workbenchSettings(), as in run.json), so that any tool with a Workbench (the
// search, analyze, minimize) can hand its plain measurements to the ranks.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_RANK_SETUP_H
#define GEVO_MPI_RANK_SETUP_H

#include <string>

#include "absl/status/statusor.h"
#include "gevo/workbench/workbench_options.h"

namespace gevo {

struct RankSetup {
  std::string workloadPath;
  WorkbenchOptions options;
};

std::string encodeRankSetup(const RankSetup &setup);
absl::StatusOr<RankSetup> decodeRankSetup(const std::string &text);

} // namespace gevo

#endif // GEVO_MPI_RANK_SETUP_H
