//===- search_main.cc - gevo-search: evolve edits to a workload's MLIR ----===//
//
//   bazel run //gevo:search                       # digits MLP training, ~2 min
//   bazel run //gevo:search -- --workload=W --budget=30m --out=runs/w1
//   bazel run //gevo:search -- --resume=runs/w1   # after a crash or kill
//   bazel run //gevo:search -- --explore=single_edits.csv
//   mpirun -np 3 bazel-bin/gevo/gevo_search --backend=mpi --workers=1 ...
//
// Parses flags and calls gevo/search. The search settings' flags come from
// their table (searchSettings(), docs/search.md); the flags here only say
// what to do with them. Exit codes: 0 done, 2 bad input, 1 an internal
// failure.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <memory>
#include <string>

#include "gevo/mpi/mpi_job.h"
#include "gevo/search/explore.h"
#include "gevo/search/search.h"
#include "gevo/search/search_outputs.h"
#include "gevo/search/search_summary.h"
#include "gevo/support/settings_flags.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("gevo-search options");

// What to do with the settings (not saved in run.json).
cl::opt<std::string>
    resume("resume",
           cl::desc("Continue the run in this directory from its last "
                    "checkpoint, with the settings it started with "
                    "(--budget, --generations and --workers may be given "
                    "again to change them); a run another version wrote "
                    "with other history.csv columns is refused"),
           cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> exploreCsv(
    "explore",
    cl::desc("Instead of searching, measure one edit per (operator, target "
             "op) on the unmodified program and write them to this CSV"),
    cl::value_desc("file.csv"), cl::init(""), cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("No progress output"), cl::cat(category));
cl::opt<bool> printSettings(
    "print-settings",
    cl::desc("Print every search setting as a Markdown table (flag, run.json "
             "key, default, what it does), as docs/search.md lists them"),
    cl::Hidden, cl::cat(category));
cl::opt<std::string> backend(
    "backend",
    cl::desc("local (default), or mpi: started by mpirun, rank 0 searches "
             "and ranks 1.. evaluate (--workers each); writes mpi.json"),
    cl::init("local"), cl::cat(category));
cl::opt<std::string> rankTimeout(
    "rank-timeout",
    cl::desc("--backend=mpi: a rank silent this long while holding variants "
             "is lost and its variants go to the others (default 10s)"),
    cl::init("10s"), cl::cat(category));

// Every search setting: docs/search.md.
const gevo::SettingFlags<gevo::SearchConfig>
    settings(gevo::searchSettings(), gevo::SearchConfig(), category);

/// Exit code of a failed step.
int fail(const absl::Status &status) {
  return gevo::reportBadInput(std::string(status.message()));
}

/// With --backend=mpi, starts the job in `mpi`; on ranks other than 0,
/// serves it and returns their exit code. -1: go on.
int startBackend(int &argc, char **&argv, std::unique_ptr<gevo::MpiJob> &mpi) {
  if (backend != "local" && backend != "mpi")
    return gevo::reportBadInput("--backend must be local or mpi");
  if (backend == "local")
    return -1;
  absl::StatusOr<double> limit = gevo::parseDuration(rankTimeout);
  if (!limit.ok() || *limit <= 0)
    return gevo::reportBadInput("--rank-timeout: expected e.g. 10s");
  auto job = gevo::MpiJob::start(&argc, &argv, *limit);
  if (!job.ok())
    return fail(job.status());
  mpi = std::move(*job);
  if (mpi->leads())
    return -1;
  gevo::SearchConfig given; // --workers and the mutation filters matter here
  settings.apply(given).IgnoreError();
  return mpi->serve(given.workbench.workers, gevo::searchBreeder(given));
}

/// The run's settings: the flags over the defaults, or, with --resume, the
/// saved run's with the flags that may change.
absl::StatusOr<gevo::SearchConfig> configFromFlags() {
  gevo::SearchConfig config;
  if (!resume.empty()) {
    absl::StatusOr<gevo::SearchConfig> loaded =
        gevo::loadRunConfig(gevo::resolveUserPath(resume));
    if (!loaded.ok())
      return loaded.status();
    config = *std::move(loaded);
    config.outDir = gevo::resolveUserPath(resume);
  }
  if (absl::Status given = settings.apply(config, !resume.empty()); !given.ok())
    return given;
  if (config.workloadPath.empty())
    config.workloadPath = gevo::findRunfile("testdata/digits_mlp_train");
  if (absl::Status checked = gevo::checkSettings(config); !checked.ok())
    return checked;
  return config;
}

/// Without --out: gevo-runs/<workload>-<time>.
absl::Status chooseOutDir(gevo::SearchConfig &config) {
  if (!config.outDir.empty())
    return absl::OkStatus();
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::loadWorkloadSpec(config.workloadPath);
  if (!spec.ok())
    return spec.status();
  config.outDir = gevo::timestampedRunDirectory(
      gevo::resolveUserPath("gevo-runs"), spec->name);
  return absl::OkStatus();
}

int runExplore(const gevo::SearchConfig &config, std::FILE *progress) {
  std::string csv = gevo::resolveUserPath(exploreCsv);
  absl::StatusOr<gevo::ExploreSummary> summary =
      gevo::explore(config, csv, progress);
  if (!summary.ok())
    return fail(summary.status());
  llvm::outs() << gevo::summarize(*summary, csv);
  return 0;
}

int searchAndReport(gevo::SearchConfig config, gevo::MpiJob *mpi,
                    std::FILE *progress) {
  gevo::RemoteRunner *remote =
      mpi ? &mpi->begin(config.workloadPath, config.workbench, progress)
          : nullptr;
  absl::StatusOr<gevo::SearchResult> result =
      gevo::runSearch(config, !resume.empty(), progress, remote);
  if (mpi) {
    absl::Status stats = mpi->finish(config.outDir + "/mpi.json");
    if (!stats.ok())
      llvm::errs() << std::string(stats.message()) << "\n";
  }
  if (!result.ok()) {
    int code = fail(result.status());
    return absl::IsInternal(result.status()) ? 1 : code;
  }
  llvm::outs() << gevo::summarize(*result);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-search: evolve edits to a workload's MLIR with NSGA-II and "
          "write the Pareto front as replayable patches.\n",
          &llvm::errs()))
    return 2;
  if (printSettings) {
    llvm::outs() << gevo::settingsMarkdown(gevo::searchSettings(),
                                           gevo::SearchConfig());
    return 0;
  }
  std::unique_ptr<gevo::MpiJob> mpi;
  if (int code = startBackend(argc, argv, mpi); code >= 0)
    return code;
  absl::StatusOr<gevo::SearchConfig> config = configFromFlags();
  if (!config.ok())
    return fail(config.status());
  std::FILE *progress = quiet ? nullptr : stderr;
  if (!exploreCsv.empty())
    return runExplore(*config, progress);
  if (absl::Status out = chooseOutDir(*config); !out.ok())
    return fail(out);
  return searchAndReport(*std::move(config), mpi.get(), progress);
}
