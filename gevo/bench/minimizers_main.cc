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

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "split vs ddmin vs greedy vs exhaustive "
                                   "patch minimisation on a run's front.\n",
                                   &llvm::errs()))
    return 2;
  std::string dir = gevo::resolveUserPath(runDir);
  gevo::RunDirectory run(dir);
  absl::StatusOr<gevo::RunInfo> info = run.readRun();
  absl::StatusOr<std::vector<gevo::FrontEntry>> front = run.readFront();
  if (!info.ok() || !front.ok())
    return gevo::reportBadInput(
        std::string((!info.ok() ? info.status() : front.status()).message()));
  // A search records its workload as it found it: maybe in its runfiles.
  std::string workload = info->workloadPath;
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::loadWorkloadSpec(gevo::findRunfile(workload));
  if (!spec.ok())
    return gevo::reportBadInput(std::string(spec.status().message()));
  auto bench = gevo::Workbench::create(*spec, gevo::WorkbenchOptions());
  if (!bench.ok())
    return gevo::reportBadInput(std::string(bench.status().message()));
  if (absl::Status status = (*bench)->measureBaseline(); !status.ok())
    return gevo::reportBadInput(std::string(status.message()));
  gevo::EffectOptions options;
  for (absl::string_view name : absl::StrSplit(objectives.getValue(), ','))
    options.objectives.emplace_back(name);

  const gevo::Minimizer methods[] = {
      gevo::Minimizer::Split, gevo::Minimizer::Ddmin, gevo::Minimizer::Greedy,
      gevo::Minimizer::Exhaustive};
  constexpr int kMethods = 4, kExhaustive = 3;
  int64_t totalEvaluations[kMethods] = {}, totalTests[kMethods] = {},
          totalKept[kMethods] = {}, notOneMinimal[kMethods] = {},
          totalStatic[kMethods] = {};
  int compared = 0;
  // Judges whether a result is 1-minimal; its measurements are not counted
  // against any method.
  gevo::FitnessCache refereeCache;
  llvm::json::Array rows;
  std::printf("%-16s %5s", "patch", "edits");
  for (gevo::Minimizer m : methods)
    std::printf(" | %-14s", gevo::minimizerName(m));
  std::printf("\n%-16s %5s", "", "");
  for (int m = 0; m < kMethods; ++m)
    std::printf(" | %-14s", "kept/evals");
  std::printf("\n");
  for (const gevo::FrontEntry &member : *front) {
    const std::string &name = member.patchPath;
    absl::StatusOr<gevo::Patch> patch = run.readPatch(name);
    if (!patch.ok())
      continue;
    std::vector<gevo::Edit> edits = patch->edits();
    gevo::PatchEffect referee(**bench, edits, options, &refereeCache);
    std::optional<gevo::Measurement> full =
        referee.measure(gevo::allItems(edits.size()));
    if (!full || !full->ok())
      continue;
    int kept[kMethods], tests[kMethods] = {}, evaluations[kMethods] = {},
                        statically[kMethods] = {};
    bool minimal[kMethods] = {};
    std::string cells[kMethods];
    llvm::json::Object row{{"patch", name},
                           {"edits", static_cast<int64_t>(edits.size())}};
    for (int m = 0; m < kMethods; ++m) {
      kept[m] = -1;
      cells[m] = "-";
      if (m == kExhaustive && static_cast<int>(edits.size()) > exhaustiveLimit)
        continue;
      gevo::FitnessCache cache; // each method pays for its own evaluations
      gevo::PatchEffect effect(**bench, edits, options, &cache);
      absl::StatusOr<gevo::MinimizeResult> result =
          gevo::minimizePatch(effect, methods[m]);
      if (!result.ok())
        continue;
      kept[m] = static_cast<int>(result->kept.size());
      tests[m] = result->tests;
      evaluations[m] = result->evaluations;
      statically[m] = result->decidedStatically;
      // 1-minimal: no single kept edit can go.
      minimal[m] = true;
      for (size_t drop = 0; drop < result->kept.size(); ++drop) {
        std::vector<size_t> smaller = result->kept;
        smaller.erase(smaller.begin() + drop);
        std::optional<gevo::Measurement> without = referee.measure(smaller);
        if (without && referee.keepsEffect(*without, *full))
          minimal[m] = false;
      }
      cells[m] = llvm::formatv("{0}/{1}{2}", kept[m], evaluations[m],
                               minimal[m] ? "" : " (not 1-min)")
                     .str();
      std::string method = gevo::minimizerName(methods[m]);
      row[method + "_kept"] = kept[m];
      row[method + "_tests"] = tests[m];
      row[method + "_evaluations"] = evaluations[m];
      row[method + "_decided_statically"] = statically[m];
      row[method + "_one_minimal"] = minimal[m];
    }
    std::printf("%-16s %5zu", name.c_str(), edits.size());
    for (int m = 0; m < kMethods; ++m)
      std::printf(" | %-14s", cells[m].c_str());
    std::printf("\n");
    std::fflush(stdout);
    bool all = std::all_of(kept, kept + kMethods, [](int k) { return k >= 0; });
    if (all) {
      ++compared;
      for (int m = 0; m < kMethods; ++m) {
        totalEvaluations[m] += evaluations[m];
        totalTests[m] += tests[m];
        totalStatic[m] += statically[m];
        totalKept[m] += kept[m];
        notOneMinimal[m] += !minimal[m];
      }
    }
    row["compared"] = all;
    rows.push_back(std::move(row));
  }
  // The run as the user named it (relative under run_all.sh), not this
  // checkout's absolute path.
  llvm::json::Object figures{{"run", runDir.getValue()},
                             {"objectives", objectives.getValue()},
                             {"patches_compared", compared},
                             {"patches", std::move(rows)}};
  std::string summary;
  for (int m = 0; m < kMethods; ++m) {
    std::string method = gevo::minimizerName(methods[m]);
    figures[method + "_evaluations"] = totalEvaluations[m];
    figures[method + "_tests"] = totalTests[m];
    figures[method + "_decided_statically"] = totalStatic[m];
    figures[method + "_kept"] = totalKept[m];
    figures[method + "_not_one_minimal"] = notOneMinimal[m];
    summary += llvm::formatv("{0}{1} {2} evaluations -> {3} edits ({4} not "
                             "1-minimal)",
                             m ? ", " : "", method, totalEvaluations[m],
                             totalKept[m], notOneMinimal[m])
                   .str();
  }
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  std::printf("minimizers on %d patches: %s\n", compared, summary.c_str());
  return 0;
}
