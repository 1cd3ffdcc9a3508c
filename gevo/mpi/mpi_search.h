//===- mpi_search.h - A search as an mpirun job: --backend=mpi ------------===//
//
//   mpirun -np 3 bazel-bin/gevo/gevo_search --backend=mpi --workers=1 ...
//
// Rank 0 runs the search as the local backend does (same run directory,
// cache, checkpoints, outputs) and measures its variants on ranks 1..N-1,
// which each evaluate with their own workbench. No mpi.h here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_MPI_SEARCH_H
#define GEVO_MPI_MPI_SEARCH_H

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gevo/search/search_config.h"
#include "gevo/workbench/remote_runner.h"

namespace gevo {

class Coordinator;

class MpiSearchJob {
public:
  /// MPI_Init, with errors returned rather than fatal.
  static absl::StatusOr<std::unique_ptr<MpiSearchJob>>
  start(int *argc, char ***argv, double rankTimeoutSeconds);
  /// Rank 0: stops the evaluating ranks if finish() did not; MPI_Finalize.
  ~MpiSearchJob();

  int rank() const { return rankId; }
  int size() const { return sizeOfJob; }
  bool searches() const { return rankId == 0; }

  /// Ranks 1..: evaluates until rank 0 says stop; the exit code.
  int serve(int workers);
  /// Rank 0: sends the config to the evaluating ranks; measure through the
  /// runner this returns (valid until the job ends).
  RemoteRunner &begin(const SearchConfig &config, std::FILE *log);
  /// Rank 0: stops the evaluating ranks and writes the figures of the
  /// distribution (ranks, evaluations, rank-0 waiting and overhead) to
  /// `statsPath` (mpi.json) unless it is empty.
  absl::Status finish(const std::string &statsPath);

private:
  MpiSearchJob() = default;
  int rankId = 0;
  int sizeOfJob = 1;
  double rankTimeout = 10;
  std::unique_ptr<Coordinator> coordinator;
  bool finished = false;
};

} // namespace gevo

#endif // GEVO_MPI_MPI_SEARCH_H
