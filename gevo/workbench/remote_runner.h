//===- remote_runner.h - Running variants outside this process's pool -----===//
//
// Where a Workbench hands its plain measurements when it is given one: other
// processes (gevo/mpi: other ranks, other machines) that build each variant
// from its edit list and measure it in their own sandbox pool. A runner gets
// edits, never a module: with the key, which the remote side checks, or
// without one, and then the remote side keys the variant, answers from its
// own cache where it can, and says which key it built and which edits did not
// apply. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_REMOTE_RUNNER_H
#define GEVO_WORKBENCH_REMOTE_RUNNER_H

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

#include "gevo/eval/measurement.h"
#include "gevo/eval/race.h"
#include "gevo/ir/edit.h"

namespace gevo {

class Workbench;

/// What a remote process does with a breeding recipe (a search's text,
/// opaque to the runner): the bred variant as text, built on `bench`, the
/// remote process's own workbench.
using Breeder = std::function<absl::StatusOr<std::string>(
    Workbench &bench, const std::string &recipe)>;

/// One variant to measure elsewhere.
struct RemoteJob {
  /// modelFingerprint() of the variant the edits build: the remote side
  /// checks it built the same program. Empty: the caller has not built it
  /// (the remote side keys it and reports the key).
  std::string key;
  /// With a key, the edits that applied here, in order; without, the list
  /// as drawn (some may not apply).
  std::vector<Edit> edits;
  bool scoreTest = false;
  /// > 0: no child runs longer than this (BatchRequest::maxSeconds).
  double maxSeconds = 0;
  /// This process's unmodified-program run time: a run time measured
  /// elsewhere is scaled by it over the remote side's own, so run-time
  /// objectives stay comparable across mixed hardware.
  double referenceRunMs = 0;
  /// > 0: timed in this many pairs interleaved with the unmodified program
  /// in the remote side's child (RunRequest::interleavedPairs); the ratio
  /// comes back as measured there.
  int interleavedPairs = 0;
  /// Racing (gevo/eval/race.h) with the pairs: the front the variant must
  /// reach; the remote side reads the first run against its own unmodified
  /// program (RacePlan::referenceMs is its own).
  RacePlan race = {};
};

/// What comes back for one job.
struct RemoteResult {
  Measurement measurement;
  /// modelFingerprint() of the variant the remote side built.
  std::string key;
  /// Indices into RemoteJob::edits of the edits that did not apply there
  /// (a job sent with a key: none).
  std::vector<int> dropped;
  /// Answered from the remote side's own cache, not run.
  bool fromCache = false;
};

class RemoteRunner {
public:
  using Done = std::function<void(RemoteResult)>;
  /// A job handed back: no remote process is left to run it.
  struct Returned {
    RemoteJob job;
    Done done;
  };
  virtual ~RemoteRunner() = default;
  /// Queues `job`; `done` is called from submit() or wait() with its
  /// measurement, never concurrently.
  virtual void submit(RemoteJob job, Done done) = 0;
  /// Returns when every submitted job has been measured or handed back;
  /// the caller measures the ones handed back itself.
  virtual std::vector<Returned> wait() = 0;
  /// For a caller that keeps jobs in flight (a steady-state search): calls
  /// the `done` of the jobs measured meanwhile, waiting at most `maxWaitMs`
  /// for one, and hands back the jobs no remote process is left to run.
  virtual std::vector<Returned> service(int maxWaitMs) = 0;
  /// How many jobs to keep in flight so that no remote worker waits for
  /// the next (0 until a remote process has said it is ready).
  virtual int capacity() const = 0;
  /// Breeds elsewhere: each recipe goes to a remote process whose Breeder
  /// answers it, the recipes spread over the processes; returns when every
  /// one is answered. An answer is nullopt where no remote process could
  /// breed it (none left, or none with a breeder): the caller breeds it
  /// itself. Measurements in flight go on meanwhile: their `done` may be
  /// called from here.
  virtual std::vector<std::optional<std::string>>
  breed(const std::vector<std::string> &recipes) {
    return std::vector<std::optional<std::string>>(recipes.size());
  }
};

} // namespace gevo

#endif // GEVO_WORKBENCH_REMOTE_RUNNER_H
