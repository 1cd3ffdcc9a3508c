//===- mpi_job.cc - A tool as an mpirun job: --backend=mpi ----------------===//

#include "gevo/mpi/mpi_job.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gevo/mpi/channel.h"
#include "gevo/mpi/coordinator.h"
#include "gevo/mpi/evaluator_rank.h"
#include "gevo/mpi/rank_setup.h"
#include "gevo/support/file_io.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

/// How long MPI_Finalize may take before the process ends without it.
constexpr int kFinalizeSeconds = 10;

} // namespace

absl::StatusOr<std::unique_ptr<MpiJob>>
MpiJob::start(int *argc, char ***argv, double rankTimeoutSeconds) {
  if (MPI_Init(argc, argv) != MPI_SUCCESS)
    return absl::FailedPreconditionError(
        "--backend=mpi: MPI_Init failed (run under mpirun)");
  // A lost rank must come back as an error code, never end this process.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::unique_ptr<MpiJob> job(new MpiJob());
  MPI_Comm_rank(MPI_COMM_WORLD, &job->rankId);
  MPI_Comm_size(MPI_COMM_WORLD, &job->sizeOfJob);
  job->rankTimeout = rankTimeoutSeconds;
  return job;
}

absl::StatusOr<std::unique_ptr<MpiJob>>
MpiJob::forBackend(const std::string &backend, int *argc, char ***argv,
                   double rankTimeoutSeconds) {
  if (backend == "local")
    return nullptr;
  if (backend != "mpi")
    return absl::InvalidArgumentError("--backend must be local or mpi");
  return start(argc, argv, rankTimeoutSeconds);
}

MpiJob::~MpiJob() {
  if (leads() && !finished)
    (void)finish("");
  // Open MPI 4's MPI_Finalize waits on a fence over every process of the
  // job; after a rank was lost that fence may never complete. All the work
  // is written by now: if finalizing takes longer than kFinalizeSeconds,
  // end the process as it would have ended.
  std::fflush(nullptr);
  llvm::outs().flush();
  llvm::errs().flush();
  std::thread([rank = rankId] {
    std::this_thread::sleep_for(std::chrono::seconds(kFinalizeSeconds));
    std::fprintf(stderr,
                 "gevo rank %d: MPI_Finalize did not return in %d s "
                 "(a rank was lost?); ending without it\n",
                 rank, kFinalizeSeconds);
    std::_Exit(0);
  }).detach();
  MPI_Finalize();
}

int MpiJob::serve(int workers, Breeder breeder) {
  return serveEvaluations(rankId, workers, std::move(breeder));
}

RemoteRunner &MpiJob::begin(const std::string &workloadPath,
                            const WorkbenchOptions &options, std::FILE *log) {
  coordinator = std::make_unique<Coordinator>(sizeOfJob, rankTimeout, log);
  coordinator->start(encodeRankSetup(RankSetup{workloadPath, options}));
  return *coordinator;
}

absl::Status MpiJob::finish(const std::string &statsPath) {
  finished = true;
  if (!coordinator) {
    // Stopped before the search began: the ranks wait for a start or stop.
    Outbox outbox;
    for (int r = 1; r < sizeOfJob; ++r)
      outbox.send(r, kTagStop, "");
    outbox.flush(5.0);
    return absl::OkStatus();
  }
  coordinator->stop();
  if (statsPath.empty())
    return absl::OkStatus();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", coordinator->stats()) << "\n";
  os.flush();
  return writeOutput(statsPath, text);
}

} // namespace gevo
