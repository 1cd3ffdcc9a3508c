//===- minimize_main.cc - gevo-minimize: shrink a patch to what matters ---===//
//
//   bazel run //analysis:minimize -- --patch=P.gevo --workload=W -o P.min.gevo
//
// Parses flags and calls analysis/minimize. Exit codes: 0 done, 2 bad input.
//
//===----------------------------------------------------------------------===//

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "analysis/minimize.h"
#include "analysis/patch_progress.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/mpi/mpi_job.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("gevo-minimize options");
cl::opt<std::string> patchPath("patch", cl::desc("Patch to minimise"),
                               cl::value_desc("p.gevo"), cl::Required,
                               cl::cat(category));
cl::opt<std::string>
    workloadPath("workload",
                 cl::desc("Workload the patch was found on (directory or "
                          "workload.json)"),
                 cl::value_desc("path"), cl::Required, cl::cat(category));
cl::opt<std::string>
    outputPath("o",
               cl::desc("Minimised patch to write (default: standard output)"),
               cl::value_desc("p.min.gevo"), cl::init("-"), cl::cat(category));
cl::opt<std::string> objectives(
    "objectives",
    cl::desc("Objectives the minimised patch must keep (comma-separated; "
             "default: the workload's)"),
    cl::init(""), cl::cat(category));
cl::opt<double> runtimeTolerance(
    "runtime-tolerance",
    cl::desc("Run-time ratio a subset may lose against the full patch "
             "(default 0.03)"),
    cl::init(0.03), cl::cat(category));
cl::opt<double> errorTolerance(
    "error-tolerance",
    cl::desc("Error (1 - validation accuracy) a subset may lose (default 0)"),
    cl::init(0), cl::cat(category));
cl::opt<int> pairs("pairs",
                   cl::desc("Interleaved runs against the unmodified program "
                            "per measurement (default 10)"),
                   cl::init(10), cl::cat(category));
cl::opt<std::string>
    method("method",
           cl::desc("split (adaptive binary splitting, the default: fewest "
                    "evaluations), ddmin (Zeller's), greedy (GEVO's one "
                    "pass) or exhaustive"),
           cl::init("split"), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Processes at once (default: cores)"),
                     cl::init(0), cl::cat(category));
cl::opt<std::string>
    cachePath("cache",
              cl::desc("Fitness cache to read and extend (a search run's "
                       "cache.jsonl); deterministic objectives only"),
              cl::init(""), cl::cat(category));
cl::opt<std::string> backend(
    "backend",
    cl::desc("local (default), or mpi: started by mpirun, rank 0 minimises "
             "and ranks 1.. measure its plain subsets (--workers each)"),
    cl::init("local"), cl::cat(category));

int badInput(const absl::Status &status) {
  return gevo::reportBadInput(std::string(status.message()));
}

/// What the minimal patch must keep: --objectives (else the workload's) and
/// the tolerances.
absl::StatusOr<gevo::EffectOptions>
effectOptions(const gevo::WorkloadSpec &spec) {
  gevo::EffectOptions options;
  options.objectives = spec.objectives;
  if (!objectives.empty()) {
    options.objectives.clear();
    for (absl::string_view name : absl::StrSplit(objectives.getValue(), ','))
      options.objectives.emplace_back(name);
  }
  for (const std::string &name : options.objectives)
    if (!gevo::isKnownObjective(name))
      return absl::InvalidArgumentError("--objectives: unknown objective '" +
                                        name + "'");
  options.runtimeTolerance = runtimeTolerance;
  options.errorTolerance = errorTolerance;
  options.pairs = pairs;
  return options;
}

/// The workbench the subsets are measured on: --cache opened, the
/// unmodified program measured, and `job`'s ranks (--backend=mpi) running
/// its plain measurements.
absl::StatusOr<std::unique_ptr<gevo::Workbench>>
openWorkbench(const gevo::WorkloadSpec &spec, gevo::MpiJob *job) {
  gevo::WorkbenchOptions benchOptions;
  benchOptions.workers = workers;
  auto bench = gevo::Workbench::create(spec, benchOptions);
  if (!bench.ok())
    return bench.status();
  if (!cachePath.empty())
    if (absl::Status status =
            (*bench)->cache().open(gevo::resolveUserPath(cachePath));
        !status.ok())
      return status;
  if (absl::Status status = (*bench)->measureBaseline(); !status.ok())
    return status;
  if (job)
    (*bench)->setRemote(
        &job->begin(gevo::resolveUserPath(workloadPath), benchOptions, stderr));
  return bench;
}

/// Minimises `patch` with `method`, its progress on stderr.
absl::StatusOr<gevo::MinimizeResult> minimize(gevo::PatchEffect &effect,
                                              const gevo::Patch &patch,
                                              gevo::Minimizer method,
                                              const gevo::Workbench &bench) {
  gevo::PatchProgress progress(stderr, "minimize", {patch.edits().size()},
                               gevo::secondsPerEvaluation(bench.baseline()));
  progress.begin(0, patchPath);
  absl::StatusOr<gevo::MinimizeResult> result =
      gevo::minimizePatch(effect, method);
  progress.finished(0);
  return result;
}

/// What was kept and tested, and each objective, full and minimal.
void printSummary(const gevo::MinimizeResult &result, size_t edits,
                  const gevo::PatchEffect &effect,
                  const gevo::EffectOptions &options) {
  llvm::errs() << llvm::format(
      "minimize: kept %zu of %zu edits; %d subsets tested: %d evaluated, "
      "%d decided without running, %d from cache\n",
      result.kept.size(), edits, result.tests, result.evaluations,
      result.decidedStatically, effect.cacheHits);
  for (const std::string &name : options.objectives)
    llvm::errs() << llvm::format("  %-12s full %.4g  minimal %.4g\n",
                                 name.c_str(), effect.value(result.full, name),
                                 effect.value(result.minimal, name));
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-minimize: the smallest subset of a patch's edits that keeps "
          "its effect (1-minimal).\n",
          &llvm::errs()))
    return 2;
  absl::StatusOr<std::unique_ptr<gevo::MpiJob>> mpi =
      gevo::MpiJob::forBackend(backend, &argc, &argv);
  if (!mpi.ok())
    return badInput(mpi.status());
  if (*mpi && !(*mpi)->leads())
    return (*mpi)->serve(workers.getNumOccurrences() ? int(workers) : 0);
  absl::StatusOr<gevo::Patch> patch =
      gevo::loadPatch(gevo::resolveUserPath(patchPath));
  if (!patch.ok())
    return badInput(patch.status());
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::loadWorkloadSpec(gevo::resolveUserPath(workloadPath));
  if (!spec.ok())
    return badInput(spec.status());
  absl::StatusOr<gevo::EffectOptions> options = effectOptions(*spec);
  if (!options.ok())
    return badInput(options.status());
  std::optional<gevo::Minimizer> minimizer = gevo::parseMinimizer(method);
  if (!minimizer)
    return gevo::reportBadInput(
        "--method must be split, ddmin, greedy or exhaustive");
  auto bench = openWorkbench(*spec, mpi->get());
  if (!bench.ok())
    return badInput(bench.status());
  gevo::PatchEffect effect(**bench, patch->edits(), *options);
  absl::StatusOr<gevo::MinimizeResult> result =
      minimize(effect, *patch, *minimizer, **bench);
  if (!result.ok())
    return gevo::reportBadInput(patchPath + ": " +
                                std::string(result.status().message()));
  gevo::Patch minimal =
      gevo::minimizedPatch(*patch, patchPath, *result, options->objectives);
  printSummary(*result, patch->edits().size(), effect, *options);
  std::string path =
      outputPath == "-" ? "-" : gevo::resolveUserPath(outputPath);
  if (absl::Status status = gevo::writeOutput(path, gevo::printPatch(minimal));
      !status.ok())
    return badInput(status);
  return 0;
}
