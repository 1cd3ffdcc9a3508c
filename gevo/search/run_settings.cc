//===- run_settings.cc - A run's workbench options and its saved config ---===//
//
// What runSearch measures with (the workbench options a SearchConfig asks
// for) and what --resume starts from (the config run.json saved).
//
//===----------------------------------------------------------------------===//

#include "gevo/search/search.h"
#include "gevo/support/status_macros.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

WorkbenchOptions workbenchOptions(const SearchConfig &config) {
  WorkbenchOptions options;
  options.evaluation = config.evaluation;
  options.workers = config.workers;
  options.timeoutSeconds = config.timeoutSeconds;
  options.memoryBytes = config.memoryBytes;
  return options;
}

absl::StatusOr<SearchConfig> loadRunConfig(const std::string &path) {
  RunDirectory dir(path);
  GEVO_ASSIGN_OR_RETURN(RunInfo run, dir.readRun());
  GEVO_ASSIGN_OR_RETURN(SearchConfig parsed,
                        configFromJson(run.config, dir.file("run.json")));
  parsed.outDir = path;
  return parsed;
}

} // namespace gevo
