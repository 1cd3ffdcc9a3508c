//===- evaluator_rank.cc - An evaluating rank's loop ----------------------===//

#include "gevo/mpi/evaluator_rank.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/op_address.h"
#include "gevo/mpi/channel.h"
#include "gevo/mpi/messages.h"
#include "gevo/mpi/rank_setup.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/workbench.h"

namespace gevo {
namespace {

/// Seconds between heartbeats while the rank holds jobs.
constexpr double kHeartbeatSeconds = 0.5;
/// How long a full pool waits for its children before looking at MPI
/// again: a child that ends wakes it at once, and the next job is queued
/// here already, so only heartbeats, a stop and recipes wait on this (a
/// steady search's rank 0 waits for its child's recipe).
constexpr int kFullPoolWaitMs = 5;
/// How long a message from rank 0 that has begun to arrive may take to
/// complete (the search's setup is the largest) before this rank takes rank
/// 0 for dead and ends.
constexpr double kReceiveSeconds = 60;

/// The next message from rank 0, waiting for it.
Incoming nextFromRankZero() {
  Backoff backoff;
  while (true) {
    if (std::optional<Incoming> message = receiveIfAny(0, kReceiveSeconds))
      return *message;
    backoff.idle();
  }
}

absl::StatusOr<std::unique_ptr<Workbench>>
openWorkbench(const std::string &setupJson, int workers) {
  GEVO_ASSIGN_OR_RETURN(RankSetup setup, decodeRankSetup(setupJson));
  if (workers >= 1)
    setup.options.workers = workers;
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec,
                        loadWorkloadSpec(setup.workloadPath));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        Workbench::create(spec, setup.options));
  GEVO_RETURN_IF_ERROR(bench->measureBaseline());
  return bench;
}

class Server {
public:
  Server(int rank, Workbench &bench, Breeder breeder)
      : rank(rank), bench(bench), breeder(std::move(breeder)),
        pool(bench.workers(), bench.limitsFor(BatchRequest())) {}

  /// Serves jobs; true once rank 0 has said stop, false when this rank
  /// cannot go on (rank 0 was told why).
  bool run() {
    auto lastBeat = SteadyClock::now();
    bool stopping = false;
    Backoff backoff;
    while (!stopping || pool.runningCount() > 0) {
      while (!stopping) {
        std::optional<Incoming> message = receiveIfAny(0, kReceiveSeconds);
        if (!message)
          break;
        backoff.reset();
        if (message->tag == kTagStop || message->tag == kTagBroken) {
          stopping = true;
          queued.clear(); // rank 0 wants nothing more
        } else if (message->tag == kTagJobs && !accept(message->text)) {
          return false;
        } else if (message->tag == kTagBreed && !breed(message->text)) {
          return false;
        } else if (message->tag == kTagCancel) {
          cancel(message->text);
        }
      }
      while (!queued.empty() && pool.runningCount() < bench.workers()) {
        std::pair<uint64_t, RemoteJob> job = std::move(queued.front());
        queued.pop_front();
        if (!start(job.first, job.second))
          return false;
      }
      if (pool.runningCount() > 0) {
        bool full = pool.runningCount() >= bench.workers();
        pool.service(full ? kFullPoolWaitMs : 2);
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
  /// Queues the jobs of one message; false when this rank cannot go on.
  bool accept(const std::string &message) {
    absl::StatusOr<std::vector<std::string>> texts = splitBatch(message);
    if (!texts.ok())
      return fail(absl::StrCat("unreadable jobs: ", texts.status().message()));
    for (const std::string &text : *texts) {
      absl::StatusOr<std::pair<uint64_t, RemoteJob>> decoded = decodeJob(text);
      if (!decoded.ok())
        return fail(
            absl::StrCat("unreadable job: ", decoded.status().message()));
      queued.push_back(std::move(*decoded));
    }
    return true;
  }

  /// Answers a message of recipes at once (the variants' runs go on in
  /// their children meanwhile); false when this rank cannot go on.
  bool breed(const std::string &message) {
    absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> recipes =
        decodeNumbered(message);
    if (!recipes.ok())
      return fail(
          absl::StrCat("unreadable recipes: ", recipes.status().message()));
    bench.variantContext().recycleIfDue().IgnoreError();
    bench.variantContext().count(static_cast<int>(recipes->size()));
    std::vector<std::pair<uint64_t, std::string>> answers;
    for (const auto &[number, recipe] : *recipes)
      answers.emplace_back(
          number, encodeBred(breeder ? breeder(bench, recipe)
                                     : absl::UnimplementedError(
                                           "this tool's ranks do not breed")));
    outbox.send(0, kTagBred, encodeNumbered(answers));
    return true;
  }

  /// Drops a queued job rank 0 gave to another rank (started: it runs on,
  /// and rank 0 ignores its result).
  void cancel(const std::string &text) {
    uint64_t id = 0;
    if (!absl::SimpleAtoi(text, &id))
      return;
    queued.erase(
        std::remove_if(queued.begin(), queued.end(),
                       [id](const auto &job) { return job.first == id; }),
        queued.end());
  }

  /// Builds, keys and submits a job (or answers it from this rank's cache);
  /// false when this rank cannot go on.
  bool start(uint64_t id, const RemoteJob &job) {
    // As Workbench::measure does: a fresh context for variants now and then
    // keeps what their edits unique from piling up in this rank.
    bench.variantContext().recycleIfDue().IgnoreError();
    bench.variantContext().count(1);
    BuiltVariant built = bench.build(job.edits);
    RemoteResult result;
    result.key = modelFingerprint(*built.module);
    if (!job.key.empty() && (built.dropped > 0 || result.key != job.key))
      return fail(absl::StrCat("job ", id, " builds variant ", result.key,
                               " here, not ", job.key,
                               ": is the workload the same on every node?"));
    result.dropped = droppedIndices(job.edits, built.edits);
    // A job without a key is rank 0's plain search traffic: this rank's
    // cache answers a variant it measured under the same request before.
    std::string cacheKey = absl::StrCat(
        result.key, " pairs=", job.interleavedPairs, " test=", job.scoreTest);
    std::optional<Measurement> hit;
    if (job.key.empty())
      hit = bench.cache().find(cacheKey);
    if (hit) {
      result.measurement = *hit;
      result.fromCache = true;
      outbox.send(0, kTagResult, encodeResult(id, result));
      return true;
    }
    BatchRequest request;
    request.run.scoreTest = job.scoreTest;
    request.maxSeconds = job.maxSeconds;
    request.run.interleavedPairs = job.interleavedPairs;
    request.run.race = job.race;
    request.run.race.referenceMs = bench.baseline().medianRunMs;
    pool.setLimits(bench.limitsFor(request));
    double reference = job.referenceRunMs;
    bool keep = job.key.empty();
    bench.evaluation().submit(
        pool, std::move(built.module), request.run,
        [this, id, reference, keep, cacheKey, result](Measurement m) mutable {
          scaleRunTimes(m, reference, bench.baseline().medianRunMs);
          if (keep)
            bench.cache().insert(cacheKey, m);
          result.measurement = std::move(m);
          outbox.send(0, kTagResult, encodeResult(id, result));
        });
    return true;
  }

  bool fail(const std::string &why) {
    std::fprintf(stderr, "gevo rank %d: %s\n", rank, why.c_str());
    outbox.send(0, kTagFailed, why);
    return false;
  }

  int rank;
  Workbench &bench;
  Breeder breeder;
  SandboxPool pool;
  Outbox outbox;
  /// Jobs received, not yet started (rank 0 queues some ahead).
  std::deque<std::pair<uint64_t, RemoteJob>> queued;
};

} // namespace

int serveEvaluations(int rank, int workers, Breeder breeder) {
  Incoming first = nextFromRankZero();
  if (first.tag != kTagStart)
    return 0; // stopped before the search began
  absl::StatusOr<std::unique_ptr<Workbench>> bench =
      openWorkbench(first.text, workers);
  Outbox outbox;
  if (!bench.ok()) {
    std::string why(bench.status().message());
    std::fprintf(stderr, "gevo rank %d: %s\n", rank, why.c_str());
    outbox.send(0, kTagFailed, why);
  } else {
    char host[256] = "";
    ::gethostname(host, sizeof(host) - 1);
    RankHello hello{host, static_cast<int64_t>(::getpid()), (*bench)->workers(),
                    (*bench)->unmodifiedKey(),
                    (*bench)->baseline().medianRunMs};
    std::fprintf(stderr, "gevo rank %d: evaluating on %s, pid %lld\n", rank,
                 host, static_cast<long long>(hello.pid));
    outbox.send(0, kTagHello, encodeHello(hello));
    Server server(rank, **bench, std::move(breeder));
    if (server.run())
      return 0;
  }
  // Wait for rank 0's stop (a failed rank's too), so no send is left unread.
  while (true) {
    Incoming message = nextFromRankZero();
    if (message.tag == kTagStop || message.tag == kTagBroken)
      break;
  }
  outbox.flush(5.0);
  return 0;
}

} // namespace gevo
