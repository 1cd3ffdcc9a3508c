//===- bench_workbench.cc - A workbench ready to measure, for benchmarks --===//

#include "gevo/bench/bench_workbench.h"

#include "gevo/support/status_macros.h"
#include "gevo/support/tool_paths.h"

namespace gevo {

absl::StatusOr<std::unique_ptr<Workbench>>
openMeasuredWorkbench(const WorkloadSpec &spec,
                      const WorkbenchOptions &options) {
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        Workbench::create(spec, options));
  GEVO_RETURN_IF_ERROR(bench->measureBaseline());
  return bench;
}

absl::StatusOr<std::unique_ptr<Workbench>>
openMeasuredWorkbench(const std::string &path,
                      const WorkbenchOptions &options) {
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec, loadWorkloadSpec(findRunfile(path)));
  return openMeasuredWorkbench(spec, options);
}

} // namespace gevo
