//===- workbench.cc - Measuring variants of one workload ------------------===//

#include "gevo/workbench/workbench.h"

#include <algorithm>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gevo/eval/harness.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// The limit before anything is known about the program: generous.
constexpr double kFirstTimeoutSeconds = 600;

} // namespace

Measurement combineChildren(const std::vector<Measurement> &runs) {
  for (const Measurement &m : runs)
    if (!m.ok())
      return m;
  Measurement out = runs.front();
  std::vector<double> ratios, medians, baselineMedians;
  out.runMs.clear();
  for (const Measurement &m : runs) {
    ratios.push_back(m.runtimeRatio);
    medians.push_back(m.medianRunMs);
    baselineMedians.push_back(m.baselineMedianRunMs);
    out.runMs.insert(out.runMs.end(), m.runMs.begin(), m.runMs.end());
  }
  out.runtimeRatio = median(ratios);
  out.medianRunMs = median(medians);
  out.baselineMedianRunMs = median(baselineMedians);
  return out;
}

Workbench::~Workbench() = default;

absl::StatusOr<std::unique_ptr<Workbench>>
Workbench::create(const WorkloadSpec &spec, WorkbenchOptions options) {
  std::unique_ptr<Workbench> bench(new Workbench());
  bench->options = std::move(options);
  GEVO_ASSIGN_OR_RETURN(bench->session, EvaluationSession::create(
                                            spec, bench->options.evaluation));
  const bool sharedDevice =
      bench->session->target().capabilities().sharedDevice;
  // On a device that children share (the GPU target): by default one at a
  // time, so that no variant's kernel time includes another's. And no
  // address-space limit: the driver reserves far more than it maps (host
  // buffers are managed memory, bounded by the device).
  if (sharedDevice)
    bench->options.memoryBytes = 0;
  bench->workerCount =
      bench->options.workers > 0 ? bench->options.workers
      : sharedDevice
          ? 1
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bench->baselineKey = modelFingerprint(bench->session->baseline());
  GEVO_ASSIGN_OR_RETURN(
      bench->variants,
      VariantContext::create(bench->session->baseline(),
                             bench->options.recycleContextEvery));
  bench->pool = std::make_unique<SandboxPool>(
      bench->workerCount,
      SandboxLimits{bench->timeoutSeconds(), bench->options.memoryBytes});
  return bench;
}

double Workbench::timeoutSeconds() const {
  if (options.timeoutSeconds > 0)
    return options.timeoutSeconds;
  return baselineMeasured ? derivedTimeout : kFirstTimeoutSeconds;
}

SandboxLimits Workbench::limitsFor(const BatchRequest &request) const {
  double seconds = timeoutSeconds();
  // An interleaved evaluation compiles the unmodified program too and runs
  // both, pair after pair: twice a plain one's work when it has as many
  // pairs as a plain one has repeats, and one limit more for slack.
  bool known = baselineMeasured || options.timeoutSeconds > 0;
  if (known && request.run.interleavedPairs > 0) {
    auto [warmup, repeats] = runCounts(options.evaluation, spec());
    double runs = std::max(1.0, double(warmup + request.run.interleavedPairs) /
                                    std::max(1, warmup + repeats));
    seconds *= 2 * runs + 1;
  }
  if (request.maxSeconds > 0)
    seconds = std::min(seconds, request.maxSeconds);
  return SandboxLimits{seconds, options.memoryBytes};
}

absl::Status Workbench::measureBaseline() {
  pool->setLimits(limitsFor(BatchRequest()));
  baselineMeasurement = session->evaluate(
      *pool, mlir::OwningOpRef<mlir::ModuleOp>(unmodified().clone()),
      RunRequest());
  if (!baselineMeasurement.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(spec().modulePath, ": the unmodified program fails (",
                     toString(baselineMeasurement.outcome),
                     "): ", baselineMeasurement.detail));
  auto [warmup, repeats] = runCounts(options.evaluation, spec());
  const Measurement &m = baselineMeasurement;
  double totalSeconds =
      (m.lowerMs + m.codegenMs + (warmup + repeats) * m.medianRunMs) / 1000;
  derivedTimeout = std::max(2.0, 5 * totalSeconds + 1);
  baselineMeasured = true;
  return absl::OkStatus();
}

Measurement Workbench::measureModule(mlir::OwningOpRef<mlir::ModuleOp> variant,
                                     const RunRequest &run) {
  BatchRequest request;
  request.run = run;
  pool->setLimits(limitsFor(request));
  return session->evaluate(*pool, std::move(variant), run);
}

BuiltVariant Workbench::build(const std::vector<Edit> &edits) {
  return variants->build(edits);
}

std::vector<MeasuredVariant> Workbench::measure(
    const std::vector<std::vector<Edit>> &lists, const BatchRequest &request,
    const std::function<void(size_t, const MeasuredVariant &)> &onMeasured) {
  FitnessCache &cache = request.cache ? *request.cache : fitnessCache;
  pool->setLimits(limitsFor(request));
  if (buildsRemotely(request))
    return measureRemotely(lists, request, onMeasured);
  // Nothing from the variant context's baseline is held here: it may be
  // replaced. A failure to copy keeps the old one (it still builds right).
  variants->recycleIfDue().IgnoreError();
  variants->count(static_cast<int64_t>(lists.size()));
  // Repeated measurements against the unmodified program (a noise band)
  // stay on this machine; a search's paired runs may go remote, since each
  // child times both sides itself.
  bool useRemote = remote && !request.here && !request.distinctRuns;
  std::vector<MeasuredVariant> out(lists.size());
  auto arrived = [&](size_t i, const Measurement &m) {
    out[i].measurement = m;
    if (onMeasured)
      onMeasured(i, out[i]);
  };
  // Lists waiting for a child, by key: equal variants share one run.
  std::map<std::string, std::vector<size_t>> waiting;
  for (size_t i = 0; i < lists.size(); ++i) {
    BuiltVariant built = build(lists[i]);
    MeasuredVariant &variant = out[i];
    variant.edits = std::move(built.edits);
    variant.dropped = built.dropped;
    if (request.skipIncomplete && variant.dropped > 0)
      continue; // not a program of its own
    variant.key = keyOf(built);
    if (request.distinctRuns) {
      variant.ran = true;
      session->submit(*pool, std::move(built.module), request.run,
                      [&, i](Measurement m) { arrived(i, m); });
      continue;
    }
    if (std::optional<Measurement> hit = cache.find(variant.key)) {
      variant.fromCache = true;
      arrived(i, *hit);
      continue;
    }
    auto [it, first] = waiting.try_emplace(variant.key);
    it->second.push_back(i);
    if (!first)
      continue;
    variant.ran = true;
    std::string key = variant.key;
    auto done = [&, key](Measurement m) {
      cache.insert(key, m);
      std::vector<size_t> members;
      members.swap(waiting[key]);
      for (size_t index : members)
        arrived(index, m);
    };
    if (useRemote) {
      remote->submit(
          remoteJob(key, variant.edits, request),
          [done](RemoteResult result) { done(std::move(result.measurement)); });
      continue;
    }
    session->submit(*pool, std::move(built.module), request.run, done);
  }
  if (useRemote)
    for (RemoteRunner::Returned &back : remote->wait())
      runHere(std::move(back), request.run);
  pool->wait();
  return out;
}

Workbench::AgainstUnmodified Workbench::measureAgainstUnmodified(
    const std::vector<std::vector<Edit>> &lists, int pairs, bool scoreTest,
    int children,
    const std::function<void(size_t, const MeasuredVariant &)> &onMeasured) {
  children = std::max(1, children);
  std::vector<std::vector<Edit>> all;
  for (int child = 0; child < children; ++child) {
    all.insert(all.end(), lists.begin(), lists.end());
    all.emplace_back(); // the unmodified program, against itself
  }
  BatchRequest request;
  request.run.scoreTest = scoreTest;
  request.run.interleavedPairs = std::max(1, pairs);
  request.distinctRuns = true; // run-time noise belongs to the moment
  std::vector<MeasuredVariant> measured = measure(all, request, onMeasured);
  size_t stride = lists.size() + 1;
  auto combined = [&](size_t index) {
    std::vector<Measurement> runs;
    for (int child = 0; child < children; ++child)
      runs.push_back(*measured[child * stride + index].measurement);
    return combineChildren(runs);
  };
  AgainstUnmodified result;
  for (size_t i = 0; i < lists.size(); ++i)
    result.variants.push_back(combined(i));
  result.unmodified = combined(lists.size());
  return result;
}

} // namespace gevo

namespace gevo {

RemoteJob Workbench::remoteJob(std::string key, std::vector<Edit> edits,
                               const BatchRequest &request) const {
  RemoteJob job{std::move(key),
                std::move(edits),
                request.run.scoreTest,
                request.maxSeconds,
                baselineMeasurement.medianRunMs,
                request.run.interleavedPairs};
  job.race = request.run.race;
  return job;
}

} // namespace gevo
