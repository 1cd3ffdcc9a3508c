//===- channel.cc - Text messages over MPI that never block on a peer -----===//

#include "gevo/mpi/channel.h"

#include <time.h>

#include "gevo/support/stopwatch.h"

namespace gevo {

Outbox::~Outbox() { flush(1.0); }

bool Outbox::send(int rank, int tag, std::string text) {
  auto owned = std::make_unique<std::string>(std::move(text));
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Isend(owned->data(), static_cast<int>(owned->size()), MPI_CHAR, rank,
                tag, MPI_COMM_WORLD, &request) != MPI_SUCCESS)
    return false;
  requests.push_back(request);
  ranks.push_back(rank);
  texts.push_back(std::move(owned));
  return true;
}

void Outbox::progress() {
  if (requests.empty())
    return;
  doneIndices.resize(requests.size());
  int count = 0;
  int rc = MPI_Testsome(static_cast<int>(requests.size()), requests.data(),
                        &count, doneIndices.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS || count == MPI_UNDEFINED) {
    // An error (a dead peer): drop what MPI has finished with by testing
    // each; a failed test counts as finished.
    for (size_t i = 0; i < requests.size(); ++i) {
      int done = 0;
      if (requests[i] == MPI_REQUEST_NULL ||
          MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        done = 1;
      if (done)
        requests[i] = MPI_REQUEST_NULL;
    }
  }
  // Completed requests are MPI_REQUEST_NULL now: compact the vectors.
  size_t kept = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] == MPI_REQUEST_NULL)
      continue;
    requests[kept] = requests[i];
    ranks[kept] = ranks[i];
    texts[kept] = std::move(texts[i]);
    ++kept;
  }
  requests.resize(kept);
  ranks.resize(kept);
  texts.resize(kept);
}

void Outbox::forget(int rank) {
  // MPI may read a cancelled send's buffer until MPI_Finalize: the texts
  // move to a list that lives as long as the process.
  static auto *abandoned = new std::list<std::unique_ptr<std::string>>();
  for (size_t i = 0; i < requests.size(); ++i) {
    if (ranks[i] != rank)
      continue;
    MPI_Cancel(&requests[i]);
    MPI_Request_free(&requests[i]);
    requests[i] = MPI_REQUEST_NULL;
    abandoned->push_back(std::move(texts[i]));
  }
  progress();
}

void Outbox::flush(double maxSeconds) {
  auto start = SteadyClock::now();
  while (!requests.empty() && secondsSince(start) < maxSeconds) {
    progress();
    if (!requests.empty())
      idleFor(200);
  }
}

std::optional<Incoming> receiveIfAny(int source, double maxSeconds) {
  int arrived = 0;
  MPI_Status status;
  if (MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status) !=
          MPI_SUCCESS ||
      !arrived)
    return std::nullopt;
  int count = 0;
  if (MPI_Get_count(&status, MPI_CHAR, &count) != MPI_SUCCESS || count < 0)
    return std::nullopt;
  auto message = std::make_unique<Incoming>();
  message->source = status.MPI_SOURCE;
  message->tag = status.MPI_TAG;
  message->text.resize(static_cast<size_t>(count));
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Irecv(message->text.data(), count, MPI_CHAR, status.MPI_SOURCE,
                status.MPI_TAG, MPI_COMM_WORLD, &request) != MPI_SUCCESS)
    return std::nullopt;
  auto start = SteadyClock::now();
  Backoff backoff;
  while (true) {
    int done = 0;
    if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      break;
    if (done)
      return std::move(*message);
    if (secondsSince(start) >= maxSeconds)
      break;
    backoff.idle();
  }
  // MPI may still write into the buffer: it lives as long as the process.
  static auto *abandoned = new std::list<std::unique_ptr<Incoming>>();
  Incoming broken;
  broken.source = message->source;
  broken.tag = kTagBroken;
  abandoned->push_back(std::move(message));
  return broken;
}

void idleFor(int microseconds) {
  timespec step{0, static_cast<long>(microseconds) * 1000};
  ::nanosleep(&step, nullptr);
}

} // namespace gevo
