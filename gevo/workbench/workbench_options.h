//===- workbench_options.h - What a workbench measures with ---------------===//
//
// WorkbenchOptions (the evaluation settings, workers and limits a Workbench
// is created with) and their settings table (settings_table.h): the flags
// --workers, --timeout and --memory-limit with the evaluation's, and their
// JSON fields in run.json and the MPI ranks' setup. No MLIR here, so that
// a search's config can hold the options.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_WORKBENCH_OPTIONS_H
#define GEVO_WORKBENCH_WORKBENCH_OPTIONS_H

#include <cstdint>

#include "gevo/eval/evaluator.h"
#include "gevo/support/settings_table.h"

namespace gevo {

struct WorkbenchOptions {
  EvaluationOptions evaluation;
  /// Variants evaluated at once; <= 0: one per core (on the GPU target: 1).
  int workers = 0;
  /// Time limit per plain evaluation; <= 0: derived from the unmodified
  /// program once measured (5x its compile and run time, at least 2 s).
  double timeoutSeconds = 0;
  /// Address-space limit of a child beyond the parent's; not applied on the
  /// GPU target (the CUDA driver reserves far more than it maps).
  int64_t memoryBytes = int64_t(4) << 30;
  /// Variants built in one context before it is replaced by a fresh one
  /// (variant_context.h); <= 0: never.
  int64_t recycleContextEvery = 256;
};

/// One row per workbench setting, the evaluation's (evaluationSettings())
/// included; recycleContextEvery has none.
const SettingsTable<WorkbenchOptions> &workbenchSettings();

} // namespace gevo

#endif // GEVO_WORKBENCH_WORKBENCH_OPTIONS_H
