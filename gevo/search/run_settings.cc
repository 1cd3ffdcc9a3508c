//===- run_settings.cc - The config a run directory was started with ------===//
//
// What --resume starts from: the config run.json saved.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/search.h"
#include "gevo/support/status_macros.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

absl::StatusOr<SearchConfig> loadRunConfig(const std::string &path) {
  RunDirectory dir(path);
  GEVO_ASSIGN_OR_RETURN(RunInfo run, dir.readRun());
  GEVO_ASSIGN_OR_RETURN(SearchConfig parsed,
                        configFromJson(run.config, dir.file("run.json")));
  parsed.outDir = path;
  return parsed;
}

} // namespace gevo
