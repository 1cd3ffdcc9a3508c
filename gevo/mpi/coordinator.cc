//===- coordinator.cc - Rank 0's side: variants handed out to ranks -------===//

#include "gevo/mpi/coordinator.h"

#include <time.h>

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "gevo/mpi/channel.h"

namespace gevo {
namespace {

/// How long a rank may take to load the workload and measure its baseline.
double startupLimit(double rankTimeout) {
  return std::max(120.0, 10 * rankTimeout);
}

} // namespace

double Coordinator::threadCpuSeconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

void Coordinator::markFirstJob(double cpuNow) {
  if (anyJob)
    return;
  anyJob = true;
  firstJob = SteadyClock::now();
  cpuAtFirstJob = cpuNow;
}

Coordinator::Coordinator(int size, double rankTimeoutSeconds, std::FILE *log)
    : ranks(static_cast<size_t>(std::max(1, size))),
      rankTimeout(rankTimeoutSeconds), log(log),
      outbox(std::make_unique<Outbox>()), begun(SteadyClock::now()) {}

Coordinator::~Coordinator() = default;

void Coordinator::start(const std::string &configJson) {
  begun = SteadyClock::now();
  for (size_t r = 1; r < ranks.size(); ++r) {
    ranks[r].lastHeard = begun;
    if (!outbox->send(static_cast<int>(r), kTagStart, configJson))
      lose(static_cast<int>(r), "MPI refused to send it the config");
  }
}

void Coordinator::submit(RemoteJob job, Done done) {
  double entered = threadCpuSeconds();
  double callbacksBefore = callbackCpu;
  markFirstJob(entered);
  uint64_t id = nextId++;
  std::string text = encodeJob(id, job);
  jobs[id] = Pending{std::move(job), std::move(done), std::move(text), -1};
  queue.push_back(id);
  // Start the ranks on the first jobs while the rest of the batch is built.
  while (poll()) {
  }
  dispatch();
  dispatchCpu += threadCpuSeconds() - entered - (callbackCpu - callbacksBefore);
}

bool Coordinator::step(std::vector<Returned> &back) {
  bool busy = poll();
  checkSilence();
  if (!anyUsable()) {
    // No rank is left: the caller runs what is still here.
    for (auto &[id, pending] : jobs)
      back.push_back({std::move(pending.job), std::move(pending.done)});
    handedBack += static_cast<int64_t>(jobs.size());
    jobs.clear();
    queue.clear();
    return true;
  }
  dispatch();
  outbox->progress();
  return busy;
}

std::vector<RemoteRunner::Returned> Coordinator::wait() {
  double entered = threadCpuSeconds();
  double callbacksBefore = callbackCpu;
  std::vector<Returned> back;
  Backoff backoff;
  while (!jobs.empty()) {
    double iteration = threadCpuSeconds();
    if (step(back)) {
      backoff.reset();
      continue;
    }
    if (saturated()) {
      // Every rank has its next job: rank 0 may answer a tenth of a round
      // trip late (2..200 ms), and starts there after a quarter of it.
      int ceiling = static_cast<int>(std::clamp(meanRoundTrip * 1e5, 2e3, 2e5));
      backoff.setSteps(ceiling / 4, ceiling);
    } else
      backoff.setSteps(
          50, static_cast<int>(std::clamp(meanRoundTrip * 1e4, 2e3, 2e4)));
    backoff.idle();
    // The sleep's own CPU (the system call, the wakeup) is polling too.
    pollingCpu += threadCpuSeconds() - iteration;
  }
  dispatchCpu += threadCpuSeconds() - entered - (callbackCpu - callbacksBefore);
  return back;
}

std::vector<RemoteRunner::Returned> Coordinator::service(int maxWaitMs) {
  double entered = threadCpuSeconds();
  double callbacksBefore = callbackCpu;
  auto until = SteadyClock::now() + std::chrono::milliseconds(maxWaitMs);
  std::vector<Returned> back;
  Backoff backoff; // 50 us, doubling to 2 ms: a result is answered soon
  while (!jobs.empty()) {
    double iteration = threadCpuSeconds();
    if (step(back) || SteadyClock::now() >= until)
      break;
    backoff.idle();
    pollingCpu += threadCpuSeconds() - iteration;
  }
  dispatchCpu += threadCpuSeconds() - entered - (callbackCpu - callbacksBefore);
  return back;
}

int Coordinator::capacity() const {
  // Each ready rank's workers and one job queued behind them, so that a
  // rank starts its next job without waiting for rank 0.
  int slots = 0;
  for (size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].state == Rank::State::Ready)
      slots += ranks[r].hello.workers + 1;
  return slots;
}

bool Coordinator::poll() {
  bool any = false;
  while (std::optional<Incoming> message =
             receiveIfAny(MPI_ANY_SOURCE, rankTimeout)) {
    any = true;
    handle(message->source, message->tag, message->text);
  }
  return any;
}

void Coordinator::handle(int source, int tag, const std::string &text) {
  if (source < 1 || static_cast<size_t>(source) >= ranks.size())
    return;
  Rank &rank = ranks[static_cast<size_t>(source)];
  if (rank.state == Rank::State::Lost || rank.state == Rank::State::Failed)
    return; // too late: its jobs went elsewhere
  if (tag == kTagBroken)
    return lose(source, "a message from it stopped part way (it died?)");
  rank.lastHeard = SteadyClock::now();
  switch (tag) {
  case kTagHello: {
    absl::StatusOr<RankHello> hello = decodeHello(text);
    if (!hello.ok())
      return lose(source, std::string(hello.status().message()));
    rank.hello = *hello;
    rank.state = Rank::State::Ready;
    rank.idleSince = rank.lastHeard;
    if (log)
      std::fprintf(log,
                   "mpi: rank %d ready on %s (pid %lld), %d workers, "
                   "unmodified program %.3f ms\n",
                   source, hello->host.c_str(),
                   static_cast<long long>(hello->pid), hello->workers,
                   hello->baselineRunMs);
    return;
  }
  case kTagResult: {
    absl::StatusOr<std::pair<uint64_t, RemoteResult>> result =
        decodeResult(text);
    if (!result.ok())
      return lose(source, std::string(result.status().message()));
    auto it = jobs.find(result->first);
    if (it == jobs.end() || it->second.rank != source)
      return; // already re-queued and answered elsewhere
    auto &holding = rank.holding;
    holding.erase(std::remove(holding.begin(), holding.end(), it->first),
                  holding.end());
    ++rank.evaluations;
    ++evaluations;
    if (holding.empty())
      rank.idleSince = rank.lastHeard;
    double roundTrip = secondsSince(it->second.sent);
    meanRoundTrip =
        meanRoundTrip > 0 ? 0.8 * meanRoundTrip + 0.2 * roundTrip : roundTrip;
    Done done = std::move(it->second.done);
    jobs.erase(it);
    double before = threadCpuSeconds();
    done(std::move(result->second));
    cpuAtLastResult = threadCpuSeconds();
    callbackCpu += cpuAtLastResult - before;
    lastResult = SteadyClock::now();
    return;
  }
  case kTagBred:
    return handleBred(source, text);
  case kTagFailed:
    rank.state = Rank::State::Failed;
    return lose(source, text);
  default:
    return; // a heartbeat: lastHeard is all it says
  }
}

void Coordinator::rebalance() {
  for (size_t a = 1; a < ranks.size(); ++a) {
    Rank &free = ranks[a];
    if (free.state != Rank::State::Ready ||
        static_cast<int>(free.holding.size() + batches[a].size()) >=
            free.hello.workers)
      continue;
    // The rank with the most jobs beyond its workers gives its last one
    // (sent last, so queued there unless it started it meanwhile: then both
    // run it and the first result counts).
    size_t from = 0;
    int most = 0;
    for (size_t b = 1; b < ranks.size(); ++b) {
      const Rank &busy = ranks[b];
      int surplus = static_cast<int>(busy.holding.size()) - busy.hello.workers;
      if (b != a && busy.state == Rank::State::Ready && surplus > most) {
        most = surplus;
        from = b;
      }
    }
    if (from == 0)
      return;
    uint64_t id = ranks[from].holding.back();
    ranks[from].holding.pop_back();
    jobs[id].rank = -1; // a late result from `from` is ignored
    if (!outbox->send(static_cast<int>(from), kTagCancel, absl::StrCat(id)))
      lose(static_cast<int>(from), "MPI refused to send it a cancel");
    batches[a].push_back(id);
    ++moved;
  }
}

void Coordinator::dispatch() {
  size_t n = ranks.size();
  if (n < 2)
    return;
  batches.resize(n);
  if (queue.empty())
    rebalance();
  size_t ready = 0;
  for (size_t r = 1; r < n; ++r)
    ready += ranks[r].state == Rank::State::Ready;
  // Round robin from where the last round stopped, one job per rank per
  // turn, so that free slots fill evenly; a job queued at a rank only while
  // the queue holds one for every ready rank, so that the last jobs of a
  // batch go to ranks that are free.
  bool gave = true;
  while (!queue.empty() && gave) {
    gave = false;
    for (size_t k = 0; k + 1 < n && !queue.empty(); ++k) {
      size_t r = 1 + (dispatchFrom - 1 + k) % (n - 1);
      Rank &rank = ranks[r];
      if (rank.state != Rank::State::Ready)
        continue;
      int held = static_cast<int>(rank.holding.size() + batches[r].size());
      int limit = rank.hello.workers * (queue.size() >= ready ? 2 : 1);
      if (held >= limit)
        continue;
      batches[r].push_back(queue.front());
      queue.pop_front();
      gave = true;
      dispatchFrom = r % (n - 1) + 1;
    }
  }
  auto now = SteadyClock::now();
  for (size_t r = 1; r < n; ++r) {
    std::vector<uint64_t> &batch = batches[r];
    if (batch.empty())
      continue;
    std::string message;
    for (uint64_t id : batch)
      appendToBatch(message, jobs[id].text);
    Rank &rank = ranks[r];
    if (!outbox->send(static_cast<int>(r), kTagJobs, std::move(message))) {
      // Back to the front, in order, for the other ranks.
      for (auto it = batch.rbegin(); it != batch.rend(); ++it)
        queue.push_front(*it);
      batch.clear();
      lose(static_cast<int>(r), "MPI refused to send it jobs");
      continue;
    }
    if (rank.holding.empty()) {
      rank.lastHeard = now; // silence counts from here
      if (anyJob)
        rank.idleSeconds +=
            std::max(0.0, std::chrono::duration<double>(
                              now - std::max(rank.idleSince, firstJob))
                              .count());
    }
    for (uint64_t id : batch) {
      Pending &pending = jobs[id];
      pending.rank = static_cast<int>(r);
      pending.sent = now;
      rank.holding.push_back(id);
    }
    batch.clear();
  }
}

bool Coordinator::saturated() const {
  bool any = false;
  for (size_t r = 1; r < ranks.size(); ++r) {
    const Rank &rank = ranks[r];
    if (rank.state == Rank::State::Starting)
      return false;
    if (rank.state != Rank::State::Ready)
      continue;
    any = true;
    if (static_cast<int>(rank.holding.size()) <= rank.hello.workers)
      return false;
  }
  return any;
}

void Coordinator::checkSilence() {
  auto now = SteadyClock::now();
  for (size_t r = 1; r < ranks.size(); ++r) {
    Rank &rank = ranks[r];
    double silent = std::chrono::duration<double>(now - rank.lastHeard).count();
    if (rank.state == Rank::State::Ready &&
        (!rank.holding.empty() || rank.breeding > 0) && silent > rankTimeout)
      lose(static_cast<int>(r),
           absl::StrCat("silent for ", static_cast<int>(silent),
                        " s while holding ", rank.holding.size(), " jobs"));
    else if (rank.state == Rank::State::Starting &&
             silent > startupLimit(rankTimeout))
      lose(static_cast<int>(r), "never said it was ready");
  }
}

void Coordinator::lose(int r, const std::string &why) {
  Rank &rank = ranks[static_cast<size_t>(r)];
  if (rank.state != Rank::State::Failed)
    rank.state = Rank::State::Lost;
  rank.why = why;
  outbox->forget(r);
  // Its jobs go first, in the order they were made.
  std::sort(rank.holding.rbegin(), rank.holding.rend());
  for (uint64_t id : rank.holding) {
    jobs[id].rank = -1;
    queue.push_front(id);
    ++requeued;
  }
  if (log)
    std::fprintf(log, "mpi: rank %d %s (%s); %zu jobs re-queued\n", r,
                 rank.state == Rank::State::Failed ? "cannot evaluate" : "lost",
                 why.c_str(), rank.holding.size());
  rank.holding.clear();
  for (int &at : breedAt)
    if (at == r)
      at = -1; // to another rank
  rank.breeding = 0;
}

bool Coordinator::anyUsable() const {
  for (size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].state == Rank::State::Ready ||
        ranks[r].state == Rank::State::Starting)
      return true;
  return false;
}

void Coordinator::stop() {
  if (log) {
    std::string perRank;
    for (size_t r = 1; r < ranks.size(); ++r)
      absl::StrAppend(&perRank, r > 1 ? ", " : "", "rank ", r, ": ",
                      ranks[r].evaluations);
    std::fprintf(log, "mpi: %lld evaluations (%s)\n",
                 static_cast<long long>(evaluations), perRank.c_str());
  }
  for (size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].state != Rank::State::Lost)
      outbox->send(static_cast<int>(r), kTagStop, "");
  outbox->flush(5.0);
}

} // namespace gevo
