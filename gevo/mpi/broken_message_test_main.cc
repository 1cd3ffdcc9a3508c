//===- broken_message_test_main.cc - A sender dying mid-message ---------===//
//
// Run by broken_message_test.sh as `mpirun --enable-recovery -np 2`: rank 1
// starts sending a message too large to go eagerly and kills itself before
// rank 0 has taken it, so the message's header has arrived and its body
// never can. Rank 0's receiveIfAny must give up on it within its limit and
// say kTagBroken with the source (a blocking receive spins forever here).
// Prints PASS or FAIL lines; exits 0 on PASS.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gevo/mpi/channel.h"
#include "gevo/support/stopwatch.h"

namespace {

constexpr int kTag = 5;
constexpr size_t kBytes = 8 << 20; // far past any eager limit

int sendAndDie() {
  static std::string text(kBytes, 'x');
  MPI_Request request;
  MPI_Isend(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kTag,
            MPI_COMM_WORLD, &request);
  for (int i = 0; i < 10; ++i) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    gevo::idleFor(1000);
  }
  ::raise(SIGKILL);
  return 1;
}

int receiveBroken() {
  gevo::idleFor(1000 * 1000); // rank 1 is dead by now
  auto start = gevo::SteadyClock::now();
  while (gevo::secondsSince(start) < 30) {
    std::optional<gevo::Incoming> message = gevo::receiveIfAny(1, 2.0);
    if (!message) {
      gevo::idleFor(10 * 1000);
      continue;
    }
    double took = gevo::secondsSince(start);
    if (message->tag != gevo::kTagBroken || message->source != 1) {
      std::printf("FAIL: a message of tag %d and %zu bytes from rank %d "
                  "completed although its sender died\n",
                  message->tag, message->text.size(), message->source);
      return 1;
    }
    if (took > 10) {
      std::printf("FAIL: giving up took %.1f s (limit 2 s)\n", took);
      return 1;
    }
    std::printf("PASS: rank 1's message broken, given up after %.1f s\n", took);
    return 0;
  }
  std::printf("FAIL: rank 1's message never showed up\n");
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1)
    return sendAndDie();
  int failed = receiveBroken();
  std::fflush(nullptr);
  // MPI_Finalize waits on the dead rank: end without it.
  ::_exit(failed);
}
