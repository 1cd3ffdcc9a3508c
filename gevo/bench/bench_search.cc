//===- bench_search.cc - A search run from scratch, for benchmarks --------===//

#include "gevo/bench/bench_search.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "absl/strings/str_split.h"
#include "gevo/bench/child_process.h"
#include "gevo/eval/race.h"
#include "gevo/search/nsga2.h"
#include "gevo/support/tool_errors.h"

namespace gevo {

absl::StatusOr<SearchResult> searchFromScratch(const SearchConfig &config) {
  runChild({"rm", "-rf", config.outDir}, nullptr);
  return runSearch(config, false, nullptr);
}

SearchResult pairedSearchOrExit(const SearchConfig &config) {
  std::filesystem::create_directories(
      std::filesystem::path(config.outDir).parent_path());
  absl::StatusOr<SearchResult> result = searchFromScratch(config);
  if (!result.ok()) {
    reportBadInput(std::string(result.status().message()));
    std::exit(kBadInputExitCode);
  }
  return *std::move(result);
}

double evaluationsPerSecond(const SearchResult &result) {
  return result.searchSeconds > 0
             ? result.counts.evaluations / result.searchSeconds
             : 0;
}

double remeasuredHypervolume(const SearchResult &result) {
  std::vector<Objectives> points;
  for (const FrontMember &member : result.front) {
    const Measurement &again = member.remeasured;
    if (!again.ok())
      continue;
    Objectives point;
    for (const std::string &name : result.objectives)
      if (name == "runtime")
        point.push_back(again.runtimeRatio / kHypervolumeRatio);
      else if (name == "error")
        point.push_back(again.error());
    points.push_back(std::move(point));
  }
  size_t dimensions = points.empty() ? 0 : points.front().size();
  return points.empty() ? 0 : hypervolume(points, Objectives(dimensions, 1.0));
}

llvm::json::Array alternatingPairs(llvm::StringRef workloads, int seeds,
                                   PairedRun run) {
  std::vector<int> all;
  for (int seed = 1; seed <= seeds; ++seed)
    all.push_back(seed);
  return alternatingPairs(workloads, all, run);
}

llvm::json::Array alternatingPairs(llvm::StringRef workloads,
                                   const std::vector<int> &seeds,
                                   PairedRun run) {
  llvm::json::Array rows;
  for (const std::string &workload :
       std::vector<std::string>(absl::StrSplit(workloads.str(), ',')))
    for (int seed : seeds) {
      bool onFirst = seed % 2 == 0;
      rows.push_back(run(workload, seed, onFirst));
      rows.push_back(run(workload, seed, !onFirst));
    }
  return rows;
}

} // namespace gevo
