//===- bench_workbench.h - A workbench ready to measure, for benchmarks ---===//
//
// The workbench a benchmark measures variants on, opened as a search opens
// one: created for the workload and with the unmodified program measured
// first (which sets the time limits).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_BENCH_WORKBENCH_H
#define GEVO_BENCH_BENCH_WORKBENCH_H

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// A workbench for `spec` with `options`, the unmodified program measured.
absl::StatusOr<std::unique_ptr<Workbench>>
openMeasuredWorkbench(const WorkloadSpec &spec,
                      const WorkbenchOptions &options);

/// The same for the workload at `path` (relative to the runfiles, else as
/// given: a search records its workload as it found it).
absl::StatusOr<std::unique_ptr<Workbench>>
openMeasuredWorkbench(const std::string &path, const WorkbenchOptions &options);

} // namespace gevo

#endif // GEVO_BENCH_BENCH_WORKBENCH_H
