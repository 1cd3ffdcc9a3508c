//===- run_settings.cc - The config a run directory was started with ------===//
//
// What --resume starts from: the config run.json saved.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/search.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

absl::StatusOr<SearchConfig> loadRunConfig(const std::string &path) {
  RunDirectory dir(path);
  GEVO_ASSIGN_OR_RETURN(RunInfo run, dir.readRun());
  // The text only places an error at its line; readRun() has read it.
  absl::StatusOr<std::string> text = readFile(dir.file("run.json"), "run");
  GEVO_ASSIGN_OR_RETURN(
      SearchConfig parsed,
      configFromJson(run.config, dir.file("run.json"), text.value_or("")));
  parsed.outDir = path;
  return parsed;
}

} // namespace gevo
