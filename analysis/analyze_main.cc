//===- analyze_main.cc - gevo-analyze: minimal, labelled patches, reported ===//
//
//   bazel run //analysis:analyze -- --run=gevo-runs/digits_mlp_train-...
//   bazel run //analysis:analyze -- --patch=P.gevo --workload=W --out=DIR
//
// Parses flags and calls analysis/analyze. Exit codes: 0 done, 3 done but
// some patch's full form does not evaluate ok (the report says how; it was
// not analysed), 2 bad input.
//
//===----------------------------------------------------------------------===//

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "analysis/analyze.h"
#include "gevo/eval/evaluator.h"
#include "gevo/mpi/mpi_job.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("gevo-analyze options");
cl::opt<std::string>
    runDir("run",
           cl::desc("A search run directory: analyse every front member"),
           cl::value_desc("dir"), cl::init(""), cl::cat(category));
cl::list<std::string>
    patchPaths("patch",
               cl::desc("A patch to analyse (repeatable; needs --workload)"),
               cl::value_desc("p.gevo"), cl::cat(category));
cl::opt<std::string> workloadPath("workload", cl::desc("The patches' workload"),
                                  cl::value_desc("path"), cl::init(""),
                                  cl::cat(category));
cl::opt<std::string> outDir(
    "out",
    cl::desc("Where report.html, report.md, report.json and the minimal "
             "patches go (default: <run>/analysis, or analysis/ beside the "
             "first patch)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(category));
cl::opt<std::string> objectives(
    "objectives",
    cl::desc("Objectives the minimal patches must keep (default: the run's "
             "or the workload's)"),
    cl::init(""), cl::cat(category));
cl::opt<double> runtimeTolerance(
    "runtime-tolerance",
    cl::desc("Run-time ratio a subset may lose (default 0.03)"), cl::init(0.03),
    cl::cat(category));
cl::opt<double>
    errorTolerance("error-tolerance",
                   cl::desc("Error a subset may lose (default 0: none)"),
                   cl::init(0), cl::cat(category));
cl::opt<int> pairs("pairs",
                   cl::desc("Interleaved runs per measurement (default 10)"),
                   cl::init(10), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Processes at once (default: cores)"),
                     cl::init(0), cl::cat(category));
cl::opt<int> maxVariants("max-variants",
                         cl::desc("Most front members analysed (default: all)"),
                         cl::init(0), cl::cat(category));
cl::opt<bool> optimizedCheck(
    "optimized-check",
    cl::desc("Check each gain again under the other CPU pipeline: a gain "
             "found with the vectorising pipeline (the search's default) "
             "under the plain one after canonicalize, cse and LLVM -O3; one "
             "found with --pipeline=plain under the vectorising one. The "
             "pipeline is the run's (run.json) (default true; "
             "--optimized-check=false to skip)"),
    cl::init(true), cl::cat(category));
cl::opt<std::string>
    pipeline("pipeline",
             cl::desc("How variants are lowered, as //gevo:search's --pipeline "
                      "(vector or plain; default: the run's, else vector)"),
             cl::init(""), cl::cat(category));
cl::opt<std::string>
    target("target",
           cl::desc("Where variants run, as //gevo:search's --target (cpu or "
                    "cuda; default: the run's, else cpu). On cuda, "
                    "--optimized-check measures the CPU target instead"),
           cl::init(""), cl::cat(category));
cl::opt<std::string> minimizer(
    "minimizer",
    cl::desc("split (adaptive binary splitting, the default: fewest "
             "evaluations), ddmin, greedy (GEVO's one pass) or exhaustive"),
    cl::init("split"), cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("No progress output"), cl::cat(category));
cl::opt<std::string> backend(
    "backend",
    cl::desc("local (default), or mpi: started by mpirun, rank 0 analyses "
             "and ranks 1.. measure its plain variants (--workers each); "
             "writes mpi.json beside the report"),
    cl::init("local"), cl::cat(category));

using Patches = std::vector<std::pair<std::string, gevo::Patch>>;

int badInput(const absl::Status &status) {
  return gevo::reportBadInput(std::string(status.message()));
}

/// Either --run, or --patch with --workload.
absl::Status checkSources() {
  if (runDir.empty() == patchPaths.empty())
    return absl::InvalidArgumentError(
        "give either --run=DIR or --patch=P --workload=W");
  if (!patchPaths.empty() && workloadPath.empty())
    return absl::InvalidArgumentError("--patch needs --workload");
  return absl::OkStatus();
}

/// Where the report goes: --out, else <run>/analysis, else analysis/ beside
/// the first patch.
std::string reportDirectory() {
  if (!outDir.empty())
    return gevo::resolveUserPath(outDir);
  if (!runDir.empty())
    return gevo::resolveUserPath(runDir) + "/analysis";
  std::string first = gevo::resolveUserPath(patchPaths[0]);
  return first.substr(0, first.find_last_of('/') + 1) + "analysis";
}

/// The analysis the flags ask for; `job` (--backend=mpi) measures the plain
/// variants.
absl::StatusOr<gevo::AnalyzeOptions> optionsFromFlags(gevo::MpiJob *job) {
  if (absl::Status sources = checkSources(); !sources.ok())
    return sources;
  gevo::AnalyzeOptions options;
  for (absl::string_view name :
       absl::StrSplit(objectives.getValue(), ',', absl::SkipEmpty()))
    options.effect.objectives.emplace_back(name);
  options.effect.runtimeTolerance = runtimeTolerance;
  options.effect.errorTolerance = errorTolerance;
  options.effect.pairs = pairs;
  options.workers = workers;
  std::optional<gevo::Minimizer> method = gevo::parseMinimizer(minimizer);
  if (!method)
    return absl::InvalidArgumentError(
        "--minimizer must be split, ddmin, greedy or exhaustive");
  options.minimizer = *method;
  options.maxVariants = maxVariants;
  options.checkOptimized = optimizedCheck;
  options.pipeline = pipeline;
  options.target = target;
  if (!target.empty())
    if (absl::Status valid = gevo::checkTarget(target); !valid.ok())
      return valid;
  options.progress = quiet ? nullptr : stderr;
  if (job)
    options.connectRemote = [job](const std::string &workload,
                                  const gevo::WorkbenchOptions &bench) {
      return &job->begin(workload, bench, quiet ? nullptr : stderr);
    };
  options.outDir = reportDirectory();
  if (runDir.empty())
    options.source = patchPaths[0];
  return options;
}

/// The patches of --patch, each with the name it was given by.
absl::StatusOr<Patches> loadPatches() {
  Patches patches;
  for (const std::string &path : patchPaths) {
    absl::StatusOr<gevo::Patch> patch =
        gevo::loadPatch(gevo::resolveUserPath(path));
    if (!patch.ok())
      return patch.status();
    patches.push_back({path, *patch});
  }
  return patches;
}

/// The run's front, or `patches` on --workload.
absl::StatusOr<gevo::AnalysisReport>
analyze(const gevo::AnalyzeOptions &options, const Patches &patches) {
  if (!runDir.empty())
    return gevo::analyzeRun(gevo::resolveUserPath(runDir), options);
  return gevo::analyzePatches(gevo::resolveUserPath(workloadPath), patches,
                              options);
}

/// A line per variant and its kept edits, then where the report is.
void printFindings(const gevo::AnalysisReport &report, const std::string &dir) {
  for (const gevo::VariantFinding &v : report.variants) {
    llvm::outs() << v.name << ": ";
    if (!v.error.empty()) {
      llvm::outs() << "not analysed: " << v.error << "\n";
      continue;
    }
    llvm::outs() << v.edits.size() << " of " << v.originalEdits
                 << " edits matter (" << v.tests << " subsets tested)\n";
    for (size_t i = 0; i < v.edits.size(); ++i)
      llvm::outs() << "  " << i + 1 << ". " << v.edits[i].label.summary << "\n";
  }
  llvm::outs() << "report: " << dir << "/report.html (and .md, "
               << ".json)\n";
}

/// Exit code 3 and a line saying so when some patch is not ok as a whole.
int notOk(const gevo::AnalysisReport &report) {
  size_t failed = 0;
  for (const gevo::VariantFinding &v : report.variants)
    failed += !v.error.empty();
  if (failed == 0)
    return 0;
  llvm::errs() << "error: " << failed << " of " << report.variants.size()
               << " patches do not evaluate ok as a whole and were not "
                  "analysed (their outcome is in the report)\n";
  return 3;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-analyze: minimise patches, ablate and label their edits, and "
          "write an HTML/Markdown/JSON report.\n",
          &llvm::errs()))
    return 2;
  absl::StatusOr<std::unique_ptr<gevo::MpiJob>> mpi =
      gevo::MpiJob::forBackend(backend, &argc, &argv);
  if (!mpi.ok())
    return badInput(mpi.status());
  if (*mpi && !(*mpi)->leads())
    return (*mpi)->serve(workers.getNumOccurrences() ? int(workers) : 0);
  absl::StatusOr<gevo::AnalyzeOptions> options = optionsFromFlags(mpi->get());
  if (!options.ok())
    return badInput(options.status());
  absl::StatusOr<Patches> patches = loadPatches();
  if (!patches.ok())
    return badInput(patches.status());
  absl::StatusOr<gevo::AnalysisReport> report = analyze(*options, *patches);
  if (*mpi)
    if (absl::Status stats = (*mpi)->finish(options->outDir + "/mpi.json");
        !stats.ok())
      llvm::errs() << std::string(stats.message()) << "\n";
  if (!report.ok())
    return badInput(report.status());
  if (absl::Status status = gevo::writeReport(*report, options->outDir);
      !status.ok())
    return badInput(status);
  printFindings(*report, options->outDir);
  return notOk(*report);
}
