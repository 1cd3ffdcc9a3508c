//===- minimizers_main.cc - Minimisers compared on a run's front patches --===//
//
//   bazel run //gevo/bench:minimizers -- --run=gevo-runs/<run>
//
// Minimises every front patch of a search run four ways with the same
// oracle (deterministic objectives, so that all see the same answers):
// adaptive binary splitting (the default), ddmin, GEVO's one greedy pass,
// and exhaustive search by increasing size (patches of at most
// --exhaustive-limit edits). Each method starts with an empty cache, so its
// evaluations (variants run) are its own; a separate referee checks that
// each result is 1-minimal. Prints a row per patch (kept edits/evaluations)
// and the totals over the patches every method finished last; writes the
// figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_split.h"
#include "analysis/ddmin.h"
#include "analysis/minimize.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/bench_workbench.h"
#include "gevo/bench/figures.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/run_directory.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("minimizer benchmark options");
cl::opt<std::string> runDir("run", cl::desc("Search run directory"),
                            cl::Required, cl::cat(category));
cl::opt<std::string>
    objectives("objectives",
               cl::desc("Objectives the minimal patches keep (default "
                        "static_cost,error: deterministic)"),
               cl::init("static_cost,error"), cl::cat(category));
cl::opt<int> exhaustiveLimit(
    "exhaustive-limit",
    cl::desc("Largest patch searched exhaustively (default 10)"), cl::init(10),
    cl::cat(category));
cl::opt<std::string>
    jsonPath("json", cl::desc("Figures file (default minimizers.json)"),
             cl::init("minimizers.json"), cl::cat(category));

constexpr int kMethods = 4, kExhaustive = 3;
const gevo::Minimizer kMethodList[kMethods] = {
    gevo::Minimizer::Split, gevo::Minimizer::Ddmin, gevo::Minimizer::Greedy,
    gevo::Minimizer::Exhaustive};

/// One method's result on one patch (kept -1: it did not finish).
struct MethodRun {
  int kept = -1, tests = 0, evaluations = 0, statically = 0;
  bool minimal = false;
  std::string cell = "-";
};

/// The sums over the patches every method finished.
struct Totals {
  int64_t evaluations[kMethods] = {}, tests[kMethods] = {}, kept[kMethods] = {},
          notOneMinimal[kMethods] = {}, statically[kMethods] = {};
  int compared = 0;

  void add(const MethodRun (&runs)[kMethods]) {
    ++compared;
    for (int m = 0; m < kMethods; ++m) {
      evaluations[m] += runs[m].evaluations;
      tests[m] += runs[m].tests;
      statically[m] += runs[m].statically;
      kept[m] += runs[m].kept;
      notOneMinimal[m] += !runs[m].minimal;
    }
  }
};

/// The run's front and a workbench for its workload (the unmodified program
/// measured).
struct FrontBench {
  std::vector<gevo::FrontEntry> front;
  std::unique_ptr<gevo::Workbench> bench;
};

absl::StatusOr<FrontBench> openFront(const gevo::RunDirectory &run) {
  absl::StatusOr<gevo::RunInfo> info = run.readRun();
  absl::StatusOr<std::vector<gevo::FrontEntry>> front = run.readFront();
  if (!info.ok() || !front.ok())
    return !info.ok() ? info.status() : front.status();
  // A search records its workload as it found it: maybe in its runfiles.
  absl::StatusOr<std::unique_ptr<gevo::Workbench>> bench =
      gevo::openMeasuredWorkbench(info->workloadPath, gevo::WorkbenchOptions());
  if (!bench.ok())
    return bench.status();
  return FrontBench{std::move(*front), std::move(*bench)};
}

void printHeader() {
  std::printf("%-16s %5s", "patch", "edits");
  for (gevo::Minimizer m : kMethodList)
    std::printf(" | %-14s", gevo::minimizerName(m));
  std::printf("\n%-16s %5s", "", "");
  for (int m = 0; m < kMethods; ++m)
    std::printf(" | %-14s", "kept/evals");
  std::printf("\n");
}

/// Whether no single kept edit can go (the referee's measurements).
bool oneMinimal(gevo::PatchEffect &referee, const std::vector<size_t> &kept,
                const gevo::Measurement &full) {
  bool minimal = true;
  for (size_t drop = 0; drop < kept.size(); ++drop) {
    std::vector<size_t> smaller = kept;
    smaller.erase(smaller.begin() + drop);
    std::optional<gevo::Measurement> without = referee.measure(smaller);
    if (without && referee.keepsEffect(*without, full))
      minimal = false;
  }
  return minimal;
}

/// Minimises `edits` with method `m`, on a cache of its own.
MethodRun runMethod(gevo::Workbench &bench,
                    const std::vector<gevo::Edit> &edits,
                    const gevo::EffectOptions &options, int m,
                    gevo::PatchEffect &referee, const gevo::Measurement &full) {
  MethodRun run;
  if (m == kExhaustive && static_cast<int>(edits.size()) > exhaustiveLimit)
    return run;
  gevo::FitnessCache cache; // each method pays for its own evaluations
  gevo::PatchEffect effect(bench, edits, options, &cache);
  absl::StatusOr<gevo::MinimizeResult> result =
      gevo::minimizePatch(effect, kMethodList[m]);
  if (!result.ok())
    return run;
  run.kept = static_cast<int>(result->kept.size());
  run.tests = result->tests;
  run.evaluations = result->evaluations;
  run.statically = result->decidedStatically;
  run.minimal = oneMinimal(referee, result->kept, full);
  run.cell = llvm::formatv("{0}/{1}{2}", run.kept, run.evaluations,
                           run.minimal ? "" : " (not 1-min)")
                 .str();
  return run;
}

/// Every method on the patch `name` (`runs`), its row printed; the row's
/// JSON, or nothing when the patch is not read or does not measure ok.
std::optional<llvm::json::Object>
comparePatch(gevo::Workbench &bench, const gevo::RunDirectory &run,
             const std::string &name, const gevo::EffectOptions &options,
             gevo::FitnessCache &refereeCache, MethodRun (&runs)[kMethods]) {
  absl::StatusOr<gevo::Patch> patch = run.readPatch(name);
  if (!patch.ok())
    return std::nullopt;
  std::vector<gevo::Edit> edits = patch->edits();
  gevo::PatchEffect referee(bench, edits, options, &refereeCache);
  std::optional<gevo::Measurement> full =
      referee.measure(gevo::allItems(edits.size()));
  if (!full || !full->ok())
    return std::nullopt;
  llvm::json::Object row{{"patch", name},
                         {"edits", static_cast<int64_t>(edits.size())}};
  for (int m = 0; m < kMethods; ++m) {
    runs[m] = runMethod(bench, edits, options, m, referee, *full);
    if (runs[m].kept < 0)
      continue;
    std::string method = gevo::minimizerName(kMethodList[m]);
    row[method + "_kept"] = runs[m].kept;
    row[method + "_tests"] = runs[m].tests;
    row[method + "_evaluations"] = runs[m].evaluations;
    row[method + "_decided_statically"] = runs[m].statically;
    row[method + "_one_minimal"] = runs[m].minimal;
  }
  std::printf("%-16s %5zu", name.c_str(), edits.size());
  for (int m = 0; m < kMethods; ++m)
    std::printf(" | %-14s", runs[m].cell.c_str());
  std::printf("\n");
  std::fflush(stdout);
  return row;
}

/// The totals as figures, and as one line in `summary`.
llvm::json::Object totalFigures(const Totals &totals, llvm::json::Array rows,
                                std::string &summary) {
  // The run as the user named it (relative under run_all.sh), not this
  // checkout's absolute path.
  llvm::json::Object figures{{"run", runDir.getValue()},
                             {"objectives", objectives.getValue()},
                             {"patches_compared", totals.compared},
                             {"patches", std::move(rows)}};
  for (int m = 0; m < kMethods; ++m) {
    std::string method = gevo::minimizerName(kMethodList[m]);
    figures[method + "_evaluations"] = totals.evaluations[m];
    figures[method + "_tests"] = totals.tests[m];
    figures[method + "_decided_statically"] = totals.statically[m];
    figures[method + "_kept"] = totals.kept[m];
    figures[method + "_not_one_minimal"] = totals.notOneMinimal[m];
    summary += llvm::formatv("{0}{1} {2} evaluations -> {3} edits ({4} not "
                             "1-minimal)",
                             m ? ", " : "", method, totals.evaluations[m],
                             totals.kept[m], totals.notOneMinimal[m])
                   .str();
  }
  return figures;
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "split vs ddmin vs greedy vs exhaustive "
                             "patch minimisation on a run's front.\n"))
    return 2;
  gevo::RunDirectory run(gevo::resolveUserPath(runDir));
  absl::StatusOr<FrontBench> opened = openFront(run);
  if (!opened.ok())
    return gevo::reportFailure(opened.status());
  gevo::EffectOptions options;
  for (absl::string_view name : absl::StrSplit(objectives.getValue(), ','))
    options.objectives.emplace_back(name);
  Totals totals;
  // Judges whether a result is 1-minimal; its measurements are not counted
  // against any method.
  gevo::FitnessCache refereeCache;
  llvm::json::Array rows;
  printHeader();
  for (const gevo::FrontEntry &member : opened->front) {
    MethodRun runs[kMethods];
    std::optional<llvm::json::Object> row = comparePatch(
        *opened->bench, run, member.patchPath, options, refereeCache, runs);
    if (!row)
      continue;
    bool all = std::all_of(runs, runs + kMethods,
                           [](const MethodRun &r) { return r.kept >= 0; });
    if (all)
      totals.add(runs);
    (*row)["compared"] = all;
    rows.push_back(std::move(*row));
  }
  std::string summary;
  llvm::json::Object figures = totalFigures(totals, std::move(rows), summary);
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  std::printf("minimizers on %d patches: %s\n", totals.compared,
              summary.c_str());
  return 0;
}
