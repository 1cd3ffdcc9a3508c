//===- evaluator_rank.cc - An evaluating rank's loop ----------------------===//

#include "gevo/mpi/evaluator_rank.h"

#include <unistd.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "gevo/ir/op_address.h"
#include "gevo/mpi/channel.h"
#include "gevo/mpi/messages.h"
#include "gevo/search/search.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// Seconds between heartbeats while the rank holds jobs.
constexpr double kHeartbeatSeconds = 0.5;

/// The next message from rank 0, waiting for it.
Incoming nextFromRankZero() {
  Backoff backoff;
  while (true) {
    if (std::optional<Incoming> message = receiveIfAny(0))
      return *message;
    backoff.idle();
  }
}

absl::StatusOr<std::unique_ptr<Workbench>>
openWorkbench(const std::string &configJson, int workers) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(configJson);
  if (!value)
    return absl::InvalidArgumentError("rank 0's config: " +
                                      llvm::toString(value.takeError()));
  GEVO_ASSIGN_OR_RETURN(SearchConfig config,
                        configFromJson(*value, "rank 0's config"));
  if (workers >= 1)
    config.workers = workers;
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec,
                        loadWorkloadSpec(config.workloadPath));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        Workbench::create(spec, workbenchOptions(config)));
  GEVO_RETURN_IF_ERROR(bench->measureBaseline());
  return bench;
}

class Server {
public:
  Server(int rank, Workbench &bench)
      : rank(rank), bench(bench),
        pool(bench.workers(), bench.limitsFor(BatchRequest())) {}

  /// Serves jobs; true once rank 0 has said stop, false when this rank
  /// cannot go on (rank 0 was told why).
  bool run() {
    auto lastBeat = SteadyClock::now();
    bool stopping = false;
    Backoff backoff;
    while (!stopping || pool.runningCount() > 0) {
      while (!stopping && pool.runningCount() < bench.workers()) {
        std::optional<Incoming> message = receiveIfAny(0);
        if (!message)
          break;
        backoff.reset();
        if (message->tag == kTagStop)
          stopping = true;
        else if (message->tag == kTagJob && !start(message->text))
          return false;
      }
      if (pool.runningCount() > 0) {
        pool.service(2);
        if (secondsSince(lastBeat) > kHeartbeatSeconds) {
          outbox.send(0, kTagHeartbeat, "");
          lastBeat = SteadyClock::now();
        }
      } else if (!stopping) {
        backoff.idle();
      }
      outbox.progress();
    }
    outbox.flush(5.0);
    return true;
  }

private:
  /// Rebuilds and submits a job; false when this rank cannot go on.
  bool start(const std::string &text) {
    absl::StatusOr<std::pair<uint64_t, RemoteJob>> decoded = decodeJob(text);
    if (!decoded.ok())
      return fail(absl::StrCat("unreadable job: ", decoded.status().message()));
    auto &[id, job] = *decoded;
    // As Workbench::measure does: a fresh context for variants now and then
    // keeps what their edits unique from piling up in this rank.
    bench.variantContext().recycleIfDue().IgnoreError();
    bench.variantContext().count(1);
    BuiltVariant built = bench.build(job.edits);
    std::string key = modelFingerprint(*built.module);
    if (built.dropped > 0 || key != job.key)
      return fail(absl::StrCat("job ", id, " builds variant ", key,
                               " here, not ", job.key,
                               ": is the workload the same on every node?"));
    BatchRequest request;
    request.run.scoreTest = job.scoreTest;
    request.maxSeconds = job.maxSeconds;
    pool.setLimits(bench.limitsFor(request));
    double reference = job.referenceRunMs;
    uint64_t jobId = id;
    bench.evaluation().submit(
        pool, std::move(built.module), request.run,
        [this, jobId, reference](Measurement m) {
          scaleRunTimes(m, reference, bench.baseline().medianRunMs);
          outbox.send(0, kTagResult, encodeResult(jobId, m));
        });
    return true;
  }

  bool fail(const std::string &why) {
    std::fprintf(stderr, "gevo-search rank %d: %s\n", rank, why.c_str());
    outbox.send(0, kTagFailed, why);
    return false;
  }

  int rank;
  Workbench &bench;
  SandboxPool pool;
  Outbox outbox;
};

} // namespace

int serveEvaluations(int rank, int workers) {
  Incoming first = nextFromRankZero();
  if (first.tag != kTagStart)
    return 0; // stopped before the search began
  absl::StatusOr<std::unique_ptr<Workbench>> bench =
      openWorkbench(first.text, workers);
  Outbox outbox;
  if (!bench.ok()) {
    std::string why(bench.status().message());
    std::fprintf(stderr, "gevo-search rank %d: %s\n", rank, why.c_str());
    outbox.send(0, kTagFailed, why);
  } else {
    char host[256] = "";
    ::gethostname(host, sizeof(host) - 1);
    RankHello hello{host, static_cast<int64_t>(::getpid()), (*bench)->workers(),
                    (*bench)->unmodifiedKey(),
                    (*bench)->baseline().medianRunMs};
    std::fprintf(stderr, "gevo-search rank %d: evaluating on %s, pid %lld\n",
                 rank, host, static_cast<long long>(hello.pid));
    outbox.send(0, kTagHello, encodeHello(hello));
    Server server(rank, **bench);
    if (server.run())
      return 0;
  }
  // Wait for rank 0's stop (a failed rank's too), so no send is left unread.
  while (true) {
    Incoming message = nextFromRankZero();
    if (message.tag == kTagStop)
      break;
  }
  outbox.flush(5.0);
  return 0;
}

} // namespace gevo
