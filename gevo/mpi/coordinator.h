//===- coordinator.h - Rank 0's side: variants handed out to ranks --------===//
//
// A RemoteRunner over the evaluating ranks of an mpirun job. Jobs wait in
// one queue; a rank gets one whenever it holds fewer than its workers, so
// fast ranks take more, and while the queue holds a job for every rank it
// gets up to twice that (the next job waits at the rank, so the rank never
// idles waiting for rank 0). The jobs a rank gets at once travel in one
// message. Once the queue is empty, a job still queued at one rank moves to
// a rank with nothing to do (the first rank is told to drop it), so the end
// of a batch does not wait on jobs queued behind another. Results are keyed by
// job, never by arrival order. A rank that falls silent for longer than the
// rank timeout (or that MPI reports failed) is declared lost: its jobs go back
// to the front of the queue for the others, and when no rank is left the jobs
// are handed back to the caller to run itself. wait() serves a batch to its
// end; service() serves for a while and returns (a steady-state search keeps
// capacity() jobs out and selects each result as it comes). breed() spreads
// a search's recipes evenly over the ready ranks, each rank's in one message,
// and waits for every answer (coordinator_breed.cc). No mpi.h here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_COORDINATOR_H
#define GEVO_MPI_COORDINATOR_H

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gevo/mpi/messages.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/remote_runner.h"
#include "llvm/Support/JSON.h"

namespace gevo {

class Outbox;

class Coordinator : public RemoteRunner {
public:
  /// Ranks 1..size-1 evaluate; `progress` gets a line per rank event.
  Coordinator(int size, double rankTimeoutSeconds, std::FILE *log);
  ~Coordinator() override;

  /// Sends every evaluating rank the search's config (JSON text).
  void start(const std::string &configJson);
  void submit(RemoteJob job, Done done) override;
  std::vector<Returned> wait() override;
  std::vector<Returned> service(int maxWaitMs) override;
  int capacity() const override;
  std::vector<std::optional<std::string>>
  breed(const std::vector<std::string> &recipes) override;
  /// Tells every rank still there to end and waits (briefly) for the sends.
  void stop();
  /// Ranks, evaluations, rank-0 time waiting and working, and the share of
  /// the window the evaluating ranks held no job (waiting on rank 0 or on
  /// the end of a batch): mpi.json.
  llvm::json::Value stats() const;

private:
  struct Rank {
    enum class State { Starting, Ready, Failed, Lost } state = State::Starting;
    RankHello hello;
    std::vector<uint64_t> holding;
    /// Recipes out at the rank (breed()).
    int breeding = 0;
    SteadyClock::time_point lastHeard;
    int64_t evaluations = 0;
    /// Holding nothing since (once ready), and the seconds it so waited
    /// for rank 0 between its first job and its last.
    SteadyClock::time_point idleSince;
    double idleSeconds = 0;
    std::string why; // failed or lost: why
  };
  struct Pending {
    RemoteJob job;
    Done done;
    std::string text;
    int rank = -1;
    SteadyClock::time_point sent;
  };

  bool poll();
  /// One round: results in, silence checked, jobs out. True when a message
  /// came in or, no rank being left, every job was moved to `back`.
  bool step(std::vector<Returned> &back);
  void handle(int source, int tag, const std::string &text);
  void dispatch();
  /// Queue empty: moves jobs queued behind running ones to free ranks.
  void rebalance();
  /// Every ready rank holds a job queued behind its running ones: rank 0
  /// may answer late without idling a rank.
  bool saturated() const;
  void checkSilence();
  /// CPU time this thread has used.
  static double threadCpuSeconds();
  /// Marks the window's start (the first job or recipe handed out).
  void markFirstJob(double cpuNow);
  /// breed(): recipes not with a rank go out, evenly over the ready ranks.
  void sendRecipes();
  void handleBred(int source, const std::string &text);
  void lose(int rank, const std::string &why);
  bool anyUsable() const;

  std::vector<Rank> ranks; // index = MPI rank; 0 unused
  double rankTimeout;
  std::FILE *log;
  std::unique_ptr<Outbox> outbox;
  std::map<uint64_t, Pending> jobs;
  std::deque<uint64_t> queue;
  uint64_t nextId = 0;
  size_t dispatchFrom = 1;
  // Figures for mpi.json: wall clock, and this thread's CPU time (what
  // rank 0 spends; time it yields to evaluating ranks is waiting).
  SteadyClock::time_point begun, firstJob, lastResult;
  double cpuAtFirstJob = 0, cpuAtLastResult = 0;
  bool anyJob = false;
  double dispatchCpu = 0; // in submit() and wait(), results' callbacks not
  double pollingCpu = 0;  // of that, in polls that found nothing and sleeps
  double callbackCpu = 0; // in the callbacks: the search's bookkeeping
  /// Mean seconds from handing a job out to its result: polls that find
  /// nothing back off up to 1% of it (2..20 ms), or 10% (2..200 ms) while
  /// every rank has a job queued.
  double meanRoundTrip = 0;
  std::vector<std::vector<uint64_t>> batches; // per rank, reused
  /// breed()'s recipes, and per recipe the rank it is with (0: answered,
  /// -1: to send), the answers and how many are still out.
  const std::vector<std::string> *breedRecipes = nullptr;
  std::vector<int> breedAt;
  std::vector<std::optional<std::string>> bredAnswers;
  size_t breedLeft = 0;
  int64_t bred = 0; // recipes the ranks answered
  int64_t evaluations = 0, requeued = 0, handedBack = 0, moved = 0;
};

} // namespace gevo

#endif // GEVO_MPI_COORDINATOR_H
