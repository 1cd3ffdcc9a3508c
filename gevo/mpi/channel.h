//===- channel.h - Text messages over MPI that never block on a peer ------===//
//
// The MPI backend's only contact with MPI point-to-point calls: sends are
// nonblocking and own their text until MPI is done with it (a dead peer
// never blocks the sender; completed sends are collected with one
// MPI_Testsome), receives take a message only when one has arrived and give
// up on one that stops part way (its sender died while sending). Errors are
// returned (MPI_ERRORS_RETURN), never fatal.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_CHANNEL_H
#define GEVO_MPI_CHANNEL_H

#include <mpi.h>

#include <algorithm>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gevo {

class Outbox {
public:
  ~Outbox();
  /// Starts sending `text` to `rank` (moved in, never copied); false when
  /// MPI refuses at once.
  bool send(int rank, int tag, std::string text);
  /// Drops the sends that have completed (one MPI_Testsome).
  void progress();
  /// Abandons the sends to `rank` (declared dead).
  void forget(int rank);
  /// Polls until every send has completed or `maxSeconds` have passed.
  void flush(double maxSeconds);
  bool empty() const { return requests.empty(); }

private:
  // Parallel vectors: MPI_Testsome takes the requests as one array. A text
  // lives on the heap, so moving the vectors never moves what MPI reads.
  std::vector<MPI_Request> requests;
  std::vector<int> ranks;
  std::vector<std::unique_ptr<std::string>> texts;
  std::vector<int> doneIndices;
};

struct Incoming {
  int source = 0;
  int tag = 0;
  std::string text;
};

/// The tag of an Incoming whose message began to arrive but did not complete
/// within the receive's limit: its source died while sending (Open MPI then
/// never completes the receive; a blocking one would spin forever).
constexpr int kTagBroken = -1;

/// A message from `source` (MPI_ANY_SOURCE: anyone) that has arrived,
/// received; nullopt when none has (or MPI failed). A message that has begun
/// to arrive gets `maxSeconds` to complete; past that its buffer is abandoned
/// and the Incoming says kTagBroken with the source.
std::optional<Incoming> receiveIfAny(int source, double maxSeconds);

/// Sleeps `microseconds`.
void idleFor(int microseconds);

/// The sleep between polls that found nothing: a first step (50 us unless
/// set), doubling up to a ceiling (2 ms unless set), back to the first step
/// once something happens. Each wakeup costs CPU; answering late costs an
/// evaluating rank with nothing queued up to the ceiling.
class Backoff {
public:
  void idle() {
    idleFor(step);
    step = std::min(step * 2, ceiling);
  }
  void reset() { step = first; }
  void setSteps(int firstMicroseconds, int ceilingMicroseconds) {
    first = std::max(kMinMicroseconds, firstMicroseconds);
    ceiling = std::max(first, ceilingMicroseconds);
    step = std::clamp(step, first, ceiling);
  }

private:
  static constexpr int kMinMicroseconds = 50;
  int first = kMinMicroseconds;
  int ceiling = 2000;
  int step = kMinMicroseconds;
};

} // namespace gevo

#endif // GEVO_MPI_CHANNEL_H
