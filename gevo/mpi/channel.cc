//===- channel.cc - Text messages over MPI that never block on a peer -----===//

#include "gevo/mpi/channel.h"

#include <time.h>

#include "gevo/support/stopwatch.h"

namespace gevo {

Outbox::~Outbox() { flush(1.0); }

bool Outbox::send(int rank, int tag, std::string text) {
  pending.push_back({rank, std::move(text), MPI_REQUEST_NULL});
  Pending &item = pending.back();
  int rc = MPI_Isend(item.text.data(), static_cast<int>(item.text.size()),
                     MPI_CHAR, rank, tag, MPI_COMM_WORLD, &item.request);
  if (rc != MPI_SUCCESS) {
    pending.pop_back();
    return false;
  }
  return true;
}

void Outbox::progress() {
  for (auto it = pending.begin(); it != pending.end();) {
    int done = 0;
    if (MPI_Test(&it->request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done)
      it = pending.erase(it);
    else
      ++it;
  }
}

void Outbox::forget(int rank) {
  // MPI may read a cancelled send's buffer until MPI_Finalize: the entries
  // move (list nodes, so the text stays where it is) to a list that lives
  // as long as the process.
  static auto *abandoned = new std::list<Pending>();
  for (auto it = pending.begin(); it != pending.end();) {
    auto next = std::next(it);
    if (it->rank == rank) {
      MPI_Cancel(&it->request);
      MPI_Request_free(&it->request);
      abandoned->splice(abandoned->end(), pending, it);
    }
    it = next;
  }
}

void Outbox::flush(double maxSeconds) {
  auto start = SteadyClock::now();
  while (!pending.empty() && secondsSince(start) < maxSeconds) {
    progress();
    if (!pending.empty())
      idleFor(200);
  }
}

std::optional<Incoming> receiveIfAny(int source) {
  int arrived = 0;
  MPI_Status status;
  if (MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status) !=
          MPI_SUCCESS ||
      !arrived)
    return std::nullopt;
  int count = 0;
  if (MPI_Get_count(&status, MPI_CHAR, &count) != MPI_SUCCESS || count < 0)
    return std::nullopt;
  Incoming message;
  message.source = status.MPI_SOURCE;
  message.tag = status.MPI_TAG;
  message.text.resize(static_cast<size_t>(count));
  if (MPI_Recv(message.text.data(), count, MPI_CHAR, status.MPI_SOURCE,
               status.MPI_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return std::nullopt;
  return message;
}

void idleFor(int microseconds) {
  timespec step{0, static_cast<long>(microseconds) * 1000};
  ::nanosleep(&step, nullptr);
}

} // namespace gevo
