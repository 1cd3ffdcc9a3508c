//===- workbench.h - Measuring variants of one workload -------------------===//
//
// The evaluation layer under search and analysis. A Workbench owns what
// measuring variants of one workload takes: the workload spec, the
// evaluation session (data, unmodified module, pipeline), the sandbox pool,
// the fitness cache, the unmodified program's measurement, and the time
// limits derived from it (this is the one place that sets them). It measures
// plain edit lists: each list is built into a variant (buildVariant), keyed
// by the variant's printed form, answered from a cache where it can, equal
// variants of one batch run once, and the rest run in the pool in parallel.
// Results do not depend on the order children finish in, nor on how many
// run at once. It knows nothing of individuals, generations or patches.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_WORKBENCH_H
#define GEVO_WORKBENCH_WORKBENCH_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/measurement.h"
#include "gevo/eval/sandbox.h"
#include "gevo/eval/variant_session.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/edit.h"
#include "gevo/workbench/build_variant.h"
#include "gevo/workbench/fitness_cache.h"
#include "gevo/workbench/remote_runner.h"
#include "gevo/workbench/variant_context.h"
#include "gevo/workbench/workbench_options.h"

namespace gevo {

/// How one batch of edit lists is measured.
struct BatchRequest {
  /// Test split scored; interleavedPairs > 0: each variant is run
  /// interleaved with the unmodified program (run-time ratios).
  RunRequest run;
  /// A list with an edit that does not apply is not measured at all
  /// (its measurement stays empty) instead of measured without that edit.
  bool skipIncomplete = false;
  /// Where measurements are looked up and kept; null: the workbench's.
  FitnessCache *cache = nullptr;
  /// > 0: no child of this batch runs longer than this.
  double maxSeconds = 0;
  /// Every list runs in a child of its own, even when it builds the same
  /// variant as another list or one in the cache (repeated measurements).
  bool distinctRuns = false;
  /// Run in this process's pool even when a remote runner is set.
  bool here = false;
};

/// One edit list, measured.
struct MeasuredVariant {
  /// The edits that applied, in order.
  std::vector<Edit> edits;
  int dropped = 0;
  /// modelFingerprint() of the variant.
  std::string key;
  /// Empty only for a list skipped by BatchRequest::skipIncomplete.
  std::optional<Measurement> measurement;
  /// Answered from the cache.
  bool fromCache = false;
  /// Run in a child (the first list of the batch with this key).
  bool ran = false;
};

/// Interleaved measurements of one variant from several children as one:
/// the first failure if any failed, else the first with the medians of the
/// children's run-time ratios and medians, and all their run times.
Measurement combineChildren(const std::vector<Measurement> &runs);

class Workbench {
public:
  /// Loads the workload's data and module and starts the pool; errors are
  /// the user's (bad data, module or pipeline).
  static absl::StatusOr<std::unique_ptr<Workbench>>
  create(const WorkloadSpec &spec, WorkbenchOptions options);
  ~Workbench();

  /// Measures the unmodified program (an error when it fails) and derives
  /// the time limits from it.
  absl::Status measureBaseline();

  /// Measures every list; `onMeasured(i, variant)` is called as list i's
  /// measurement arrives (for progress), in no fixed order.
  std::vector<MeasuredVariant>
  measure(const std::vector<std::vector<Edit>> &lists,
          const BatchRequest &request = BatchRequest(),
          const std::function<void(size_t, const MeasuredVariant &)>
              &onMeasured = {});

  /// One list measured without waiting (a steady-state search keeps a
  /// child per worker in flight): `edits` are built, keyed and looked up in
  /// the cache as measure() does, and a list that must run starts in the
  /// pool (or remotely). `done` is called with its measurement from start()
  /// itself (a cache hit, a variant the parent's checks refuse) or from a
  /// later service(); a list equal to one still running shares its run.
  void start(const std::vector<Edit> &edits, const BatchRequest &request,
             std::function<void(MeasuredVariant)> done);
  /// Calls `done` for the started lists measured meanwhile, waiting at most
  /// `maxWaitMs` for one.
  void service(int maxWaitMs);
  /// Runs started and not yet measured (equal lists count once).
  int running() const { return startedRuns; }
  /// How many runs start() should keep going: this pool's workers, or with
  /// a remote runner what it can take (its own count once it knows one).
  int slots() const;

  /// Noise control: each list's variant and the unmodified program itself,
  /// each run `pairs` times interleaved with the unmodified program in
  /// `children` separate children, all measured afresh (no cache). The
  /// run-time ratio is the median of the children's ratios (each the median
  /// of its per-pair ratios): a child whose whole run is slow on one side (it
  /// happens: a child once timed the unmodified program 6x slower than every
  /// other did, all 10 pairs long) is outvoted. A variant that fails in any
  /// child fails. `onMeasured` as for measure(), once per child run; the
  /// unmodified program is the last list of each child's share.
  struct AgainstUnmodified {
    std::vector<Measurement> variants;
    Measurement unmodified;
  };
  AgainstUnmodified measureAgainstUnmodified(
      const std::vector<std::vector<Edit>> &lists, int pairs, bool scoreTest,
      int children = 3,
      const std::function<void(size_t, const MeasuredVariant &)> &onMeasured =
          {});

  /// From now on measurements (not `here`, not distinctRuns) run on
  /// `runner` (not owned; null: this process's pool again), a search's
  /// paired runs included. Repeated ones against the unmodified program
  /// (measureAgainstUnmodified) stay here: a noise band belongs to one
  /// machine.
  void setRemote(RemoteRunner *runner) { remote = runner; }
  /// `edits`, all of which applied, build the variant of `key` (a remote
  /// process bred it): a remote measurement of that list is answered from
  /// the cache, without sending it, once the cache holds the key.
  void knowBuiltElsewhere(const std::vector<Edit> &edits,
                          const std::string &key);
  /// Racing's head-to-head pairs (gevo/eval/race.h): the front members
  /// `members` (key -> the edits that build it) are held compiled in this
  /// process for the children to time variants against, and the rest are
  /// freed. Nothing with a remote runner (its processes time against the
  /// unmodified program) or on a target that compiles nothing here; a
  /// member that does not build to its key or compile is left out.
  void holdOpponents(const std::map<std::string, std::vector<Edit>> &members);
  /// The sandbox limits a batch of `request` runs under.
  SandboxLimits limitsFor(const BatchRequest &request) const;

  /// Measures a module made elsewhere (a module of evaluation().context()
  /// or of another context with its dialects) in this process's pool, under
  /// the limits of a plain evaluation (as measure() would): how
  /// //gevo:evaluate runs a module file.
  Measurement measureModule(mlir::OwningOpRef<mlir::ModuleOp> variant,
                            const RunRequest &run);

  /// The variant `edits` make, without measuring it (built in
  /// variantContext()).
  BuiltVariant build(const std::vector<Edit> &edits);
  /// Where variants are built: a copy of the unmodified module in a context
  /// that measure() replaces now and then (so hold no handle from its
  /// baseline() across a measure() call).
  VariantContext &variantContext() { return *variants; }

  const WorkloadSpec &spec() const { return session->spec(); }
  EvaluationSession &evaluation() { return *session; }
  /// The unmodified module (do not edit it: clone it). It lives as long as
  /// the workbench: what is made from it does too (build variants with
  /// build() or in variantContext()).
  mlir::ModuleOp unmodified() { return session->baseline(); }
  /// modelFingerprint() of the unmodified module.
  const std::string &unmodifiedKey() const { return baselineKey; }
  FitnessCache &cache() { return fitnessCache; }
  /// Valid after measureBaseline().
  const Measurement &baseline() const { return baselineMeasurement; }
  /// The limit of one plain evaluation (after measureBaseline(): derived).
  double timeoutSeconds() const;
  int workers() const { return workerCount; }

private:
  /// The job that measures `edits` (keyed `key`, or "" for the remote side
  /// to key) elsewhere as `request` asks, racing included.
  RemoteJob remoteJob(std::string key, std::vector<Edit> edits,
                      const BatchRequest &request) const;

  Workbench() = default;

  /// Whether `request`'s lists go to the remote runner unbuilt (it builds,
  /// keys and measures them): plain measurements with a runner set.
  bool buildsRemotely(const BatchRequest &request) const;
  /// measure() and start() of such lists (workbench_remote.cc).
  std::vector<MeasuredVariant> measureRemotely(
      const std::vector<std::vector<Edit>> &lists, const BatchRequest &request,
      const std::function<void(size_t, const MeasuredVariant &)> &onMeasured);
  void startRemotely(const std::vector<Edit> &edits,
                     const BatchRequest &request,
                     std::function<void(MeasuredVariant)> done);
  /// A list the remote side built before whose key `cache` holds: `variant`
  /// answered from it.
  bool answerKnown(const std::vector<Edit> &list, const FitnessCache &cache,
                   MeasuredVariant &variant) const;
  void remember(const std::string &id, const RemoteResult &result);
  /// A job no remote process is left to run, built and run in this pool.
  void runHere(RemoteRunner::Returned back, const RunRequest &run);

  WorkbenchOptions options;
  int workerCount = 1;
  std::unique_ptr<EvaluationSession> session;
  std::unique_ptr<SandboxPool> pool;
  std::unique_ptr<VariantContext> variants;
  FitnessCache fitnessCache;
  std::string baselineKey;
  Measurement baselineMeasurement;
  bool baselineMeasured = false;
  double derivedTimeout = 0;
  RemoteRunner *remote = nullptr;
  /// start(): per key running, the lists waiting for its measurement.
  struct Started {
    MeasuredVariant variant;
    std::function<void(MeasuredVariant)> done;
  };
  std::map<std::string, std::vector<Started>> startedByKey;
  /// startRemotely(): per list (editListKey()) out, the same.
  std::map<std::string, std::vector<Started>> startedById;
  /// Lists the remote side built (editListKey()): the key and the edits
  /// that did not apply.
  std::map<std::string, RemoteResult> builtRemotely;
  int startedRuns = 0;
};

} // namespace gevo

#endif // GEVO_WORKBENCH_WORKBENCH_H
