//===- channel.h - Text messages over MPI that never block on a peer ------===//
//
// The MPI backend's only contact with MPI point-to-point calls: sends are
// nonblocking and own their text until MPI is done with it (a dead peer
// never blocks the sender), receives take a message only when one has
// arrived. Errors are returned (MPI_ERRORS_RETURN), never fatal.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_CHANNEL_H
#define GEVO_MPI_CHANNEL_H

#include <mpi.h>

#include <algorithm>
#include <list>
#include <optional>
#include <string>

namespace gevo {

class Outbox {
public:
  ~Outbox();
  /// Starts sending `text` to `rank`; false when MPI refuses at once.
  bool send(int rank, int tag, std::string text);
  /// Drops the sends that have completed.
  void progress();
  /// Abandons the sends to `rank` (declared dead).
  void forget(int rank);
  /// Polls until every send has completed or `maxSeconds` have passed.
  void flush(double maxSeconds);
  bool empty() const { return pending.empty(); }

private:
  struct Pending {
    int rank;
    std::string text;
    MPI_Request request;
  };
  std::list<Pending> pending;
};

struct Incoming {
  int source = 0;
  int tag = 0;
  std::string text;
};

/// A message from `source` (MPI_ANY_SOURCE: anyone) that has arrived,
/// received; nullopt when none has (or MPI failed).
std::optional<Incoming> receiveIfAny(int source);

/// Sleeps `microseconds`.
void idleFor(int microseconds);

/// The sleep between polls that found nothing: 50 us, doubling up to a
/// ceiling (2 ms unless set), back to 50 us once something happens. Each
/// wakeup costs CPU; answering late costs an evaluating rank the ceiling.
class Backoff {
public:
  void idle() {
    idleFor(step);
    step = std::min(step * 2, ceiling);
  }
  void reset() { step = kMinMicroseconds; }
  void setCeiling(int microseconds) {
    ceiling = std::max(kMinMicroseconds, microseconds);
  }

private:
  static constexpr int kMinMicroseconds = 50;
  int ceiling = 2000;
  int step = kMinMicroseconds;
};

} // namespace gevo

#endif // GEVO_MPI_CHANNEL_H
