//===- explore.cc - Every single edit of the chosen operators, measured ---===//

#include "gevo/search/explore.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/variant_session.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/fitness_cache.h"
#include "gevo/search/run_files.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "replay/patch.h"

namespace gevo {
namespace {} // namespace

absl::StatusOr<ExploreSummary>
explore(SearchConfig config, const std::string &csvPath, std::FILE *progress) {
  auto start = SteadyClock::now();
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec,
                        loadWorkloadSpec(config.workloadPath));
  std::vector<std::string> objectives =
      config.objectives.empty() ? spec.objectives : config.objectives;
  GEVO_RETURN_IF_ERROR(checkObjectives(objectives));
  if (config.workers <= 0)
    config.workers = std::max(1u, std::thread::hardware_concurrency());
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<EvaluationSession> session,
                        EvaluationSession::create(spec, config.evaluation));
  SandboxPool pool(
      config.workers,
      SandboxLimits{config.timeoutSeconds > 0 ? config.timeoutSeconds : 600,
                    config.memoryBytes});
  Measurement baseline = session->evaluate(
      pool, mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone()),
      RunRequest());
  if (!baseline.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(spec.modulePath, ": the unmodified program fails (",
                     toString(baseline.outcome), "): ", baseline.detail));
  if (config.timeoutSeconds <= 0)
    pool.setLimits(SandboxLimits{
        std::max(2.0, 5 *
                              (baseline.lowerMs + baseline.codegenMs +
                               10 * baseline.medianRunMs) /
                              1000 +
                          1),
        config.memoryBytes});

  std::ofstream csv(csvPath);
  if (!csv)
    return absl::PermissionDeniedError(absl::StrCat(csvPath, ": cannot write"));
  csv << "operator,target,outcome";
  for (const std::string &name : objectives)
    csv << "," << name;
  csv << ",validation_accuracy,accuracy_change,runtime_ratio,edit,detail\n";

  mlir::ModuleOp module = session->baseline();
  AddressIndex index(module);
  std::mt19937_64 rng(config.seed);
  MutationOptions options;
  options.functions = config.functions;
  options.opPrefixes = config.opPrefixes;
  FitnessCache cache;
  cache.insert(modelFingerprint(module), baseline);
  ExploreSummary summary;
  int64_t measured = 0;
  bool live = progress && ::isatty(::fileno(progress));
  for (EditKind kind : config.operators) {
    for (mlir::Operation *op : index.ops()) {
      if (!passesFilters(*index.refOf(op), options))
        continue;
      options.target = op;
      options.kinds = {kind};
      ++summary.targets;
      absl::StatusOr<Edit> edit = proposeAnyEdit(module, options, rng, 3);
      if (!edit.ok())
        continue;
      ++summary.proposed;
      mlir::OwningOpRef<mlir::ModuleOp> variant(module.clone());
      if (!applyEdit(*variant, *edit).ok())
        continue;
      std::string key = modelFingerprint(*variant);
      std::string prefix = absl::StrCat(toString(kind), ",",
                                        csvField(toString(*index.refOf(op))));
      std::string line = printEdit(*edit);
      auto write = [&, prefix, line](const Measurement &m) {
        std::string row = absl::StrCat(prefix, ",", toString(m.outcome));
        for (const std::string &name : objectives)
          absl::StrAppend(
              &row, ",",
              m.ok() ? absl::StrFormat("%.6g", objectiveValue(m, name)) : "");
        double ratio = m.ok() && baseline.medianRunMs > 0
                           ? m.medianRunMs / baseline.medianRunMs
                           : 0;
        absl::StrAppend(
            &row, ",", absl::StrFormat("%.4f", m.validation.accuracy()), ",",
            absl::StrFormat("%+.4f", m.validation.accuracy() -
                                         baseline.validation.accuracy()),
            ",", absl::StrFormat("%.3f", ratio), ",", csvField(line), ",",
            csvField(m.detail), "\n");
        csv << row;
        summary.ok += m.ok();
        ++measured;
        if (progress && (live || measured % 50 == 0))
          std::fprintf(progress,
                       "%sexplore: %lld of %lld edits measured, %lld ok%s",
                       live ? "\r" : "", static_cast<long long>(measured),
                       static_cast<long long>(summary.proposed),
                       static_cast<long long>(summary.ok), live ? "" : "\n");
      };
      if (std::optional<Measurement> hit = cache.find(key)) {
        ++summary.cacheHits;
        write(*hit);
        continue;
      }
      session->submit(pool, std::move(variant), RunRequest(),
                      [&, key, write](Measurement m) {
                        cache.insert(key, m);
                        write(m);
                      });
    }
  }
  pool.wait();
  if (progress && live)
    std::fprintf(progress, "\n");
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return summary;
}

} // namespace gevo
