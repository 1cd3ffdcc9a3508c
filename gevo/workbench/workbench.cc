//===- workbench.cc - Measuring variants of one workload ------------------===//

#include "gevo/workbench/workbench.h"

#include <algorithm>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// The limit before anything is known about the program: generous.
constexpr double kFirstTimeoutSeconds = 600;

} // namespace

Workbench::~Workbench() = default;

absl::StatusOr<std::unique_ptr<Workbench>>
Workbench::create(const WorkloadSpec &spec, WorkbenchOptions options) {
  std::unique_ptr<Workbench> bench(new Workbench());
  bench->options = std::move(options);
  bench->workerCount =
      bench->options.workers > 0
          ? bench->options.workers
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  GEVO_ASSIGN_OR_RETURN(bench->session, EvaluationSession::create(
                                            spec, bench->options.evaluation));
  bench->baselineKey = modelFingerprint(bench->session->baseline());
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
  // both, pair after pair.
  bool known = baselineMeasured || options.timeoutSeconds > 0;
  if (known && request.run.interleavedPairs > 0)
    seconds *= 2 + request.run.interleavedPairs;
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
  const EvaluationOptions &evaluation = options.evaluation;
  int warmup = evaluation.warmup >= 0 ? evaluation.warmup : spec().warmup;
  int repeats = evaluation.repeats > 0 ? evaluation.repeats : spec().repeats;
  const Measurement &m = baselineMeasurement;
  double totalSeconds =
      (m.lowerMs + m.codegenMs + (warmup + repeats) * m.medianRunMs) / 1000;
  derivedTimeout = std::max(2.0, 5 * totalSeconds + 1);
  baselineMeasured = true;
  return absl::OkStatus();
}

BuiltVariant Workbench::build(const std::vector<Edit> &edits) {
  return buildVariant(unmodified(), edits);
}

std::vector<MeasuredVariant> Workbench::measure(
    const std::vector<std::vector<Edit>> &lists, const BatchRequest &request,
    const std::function<void(size_t, const MeasuredVariant &)> &onMeasured) {
  FitnessCache &cache = request.cache ? *request.cache : fitnessCache;
  pool->setLimits(limitsFor(request));
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
    variant.key = modelFingerprint(*built.module);
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
    session->submit(*pool, std::move(built.module), request.run,
                    [&, key](Measurement m) {
                      cache.insert(key, m);
                      std::vector<size_t> members;
                      members.swap(waiting[key]);
                      for (size_t index : members)
                        arrived(index, m);
                    });
  }
  pool->wait();
  return out;
}

Workbench::AgainstUnmodified Workbench::measureAgainstUnmodified(
    const std::vector<std::vector<Edit>> &lists, int pairs, bool scoreTest,
    const std::function<void(size_t, const MeasuredVariant &)> &onMeasured) {
  std::vector<std::vector<Edit>> all = lists;
  all.emplace_back(); // the unmodified program, against itself
  FitnessCache fresh; // run-time noise belongs to the moment
  BatchRequest request;
  request.run.scoreTest = scoreTest;
  request.run.interleavedPairs = std::max(1, pairs);
  request.cache = &fresh;
  std::vector<MeasuredVariant> measured = measure(all, request, onMeasured);
  AgainstUnmodified result;
  for (size_t i = 0; i + 1 < measured.size(); ++i)
    result.variants.push_back(*measured[i].measurement);
  result.unmodified = *measured.back().measurement;
  return result;
}

} // namespace gevo
