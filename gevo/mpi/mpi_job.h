//===- mpi_job.h - A tool as an mpirun job: --backend=mpi -----------------===//
//
//   mpirun -np 3 bazel-bin/gevo/gevo_search --backend=mpi --workers=1 ...
//   mpirun -np 3 bazel-bin/analysis/gevo_analyze --backend=mpi ...
//
// Rank 0 runs the tool (search, analyze, minimize) as the local backend does
// and measures its workbench's plain variants on ranks 1..N-1, which each
// evaluate with their own workbench. No mpi.h here, nothing of the search.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_MPI_JOB_H
#define GEVO_MPI_MPI_JOB_H

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gevo/workbench/remote_runner.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

class Coordinator;

class MpiJob {
public:
  /// MPI_Init, with errors returned rather than fatal.
  static absl::StatusOr<std::unique_ptr<MpiJob>>
  start(int *argc, char ***argv, double rankTimeoutSeconds);
  /// `backend` as the tools' --backend takes it: "local" (null, no MPI) or
  /// "mpi" (the job, started); an InvalidArgument error for anything else.
  static absl::StatusOr<std::unique_ptr<MpiJob>>
  forBackend(const std::string &backend, int *argc, char ***argv,
             double rankTimeoutSeconds = 10);
  /// Rank 0: stops the evaluating ranks if finish() did not; MPI_Finalize.
  ~MpiJob();

  int rank() const { return rankId; }
  int size() const { return sizeOfJob; }
  /// Rank 0: runs the tool; every other rank serves it.
  bool leads() const { return rankId == 0; }

  /// Ranks 1..: evaluates (and breeds, with a `breeder`: a search's ranks)
  /// until rank 0 says stop; the exit code.
  int serve(int workers, Breeder breeder = {});
  /// Rank 0: sends the workload and options to the evaluating ranks (each
  /// opens its own workbench with them); measure through the runner this
  /// returns (valid until the job ends).
  RemoteRunner &begin(const std::string &workloadPath,
                      const WorkbenchOptions &options, std::FILE *log);
  /// Rank 0: stops the evaluating ranks and writes the figures of the
  /// distribution (ranks, evaluations, rank-0 waiting and overhead) to
  /// `statsPath` (mpi.json) unless it is empty.
  absl::Status finish(const std::string &statsPath);

private:
  MpiJob() = default;
  int rankId = 0;
  int sizeOfJob = 1;
  double rankTimeout = 10;
  std::unique_ptr<Coordinator> coordinator;
  bool finished = false;
};

} // namespace gevo

#endif // GEVO_MPI_MPI_JOB_H
