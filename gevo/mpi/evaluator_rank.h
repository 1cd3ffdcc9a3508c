//===- evaluator_rank.h - An evaluating rank's loop -----------------------===//
//
// What every rank but 0 does: wait for rank 0's config, open its own
// Workbench on the workload (same flags, its own baseline and time limits),
// say hello, then rebuild each job's variant from its edits and measure it
// in its own sandbox pool, `workers` at a time, until rank 0 says stop.
// A crashing or hanging variant ends a forked child, never the rank. A
// search's ranks also breed its children from rank 0's recipes.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_EVALUATOR_RANK_H
#define GEVO_MPI_EVALUATOR_RANK_H

#include "gevo/workbench/remote_runner.h"

namespace gevo {

/// Serves rank 0 until it says stop; `workers` >= 1 overrides the config's.
/// `breeder` answers rank 0's recipes (empty: the tool does not breed).
/// Returns the process's exit code (0 also when setup failed: rank 0 was
/// told why and goes on without this rank).
int serveEvaluations(int rank, int workers, Breeder breeder = {});

} // namespace gevo

#endif // GEVO_MPI_EVALUATOR_RANK_H
