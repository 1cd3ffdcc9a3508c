//===- paper_claims_main.cc - GEVO-ML's two results, on the digits data --===//
//
//   bazel run //gevo/bench:paper_claims [-- --budget=3m --seeds=3]
//
// Runs the search (runtime, error on the validation split) with a fixed
// budget per seed on each digits workload, then reads each front as the
// search reports it: every member re-measured interleaved with the unmodified
// program. One member per seed is chosen as a user would, on validation
// accuracy and re-measured run time only; only then is it scored on the test
// split, which neither the search nor the choice sees:
//   prediction: the fastest member beyond the noise band at no more than
//     --max-accuracy-loss of validation accuracy; figure: its speed-up
//     (unmodified run time / variant's - 1), with its test accuracy (paper:
//     +90.43%, 91.2% -> 89.3%);
//   training: the best validation accuracy at a run-time ratio of at most
//     1.0; figure: its test-accuracy gain (paper: +4.88 points, 91% -> 96%).
// The best seed and the median over seeds (0 for a seed with no member) are
// both reported.
// The patch behind each workload's best figure is minimised and its edits
// labelled (the analyzer). Prints a row per seed, the two figures last, and
// writes everything, minimal patches and labels included, as JSON (--json).
// Each seed's chosen patch and each minimal patch are copied into --keep
// (bench-results/paper-claims/ from run_all.sh), which is committed with the
// figures, so that every figure replays from the repository alone.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "analysis/analyze.h"
#include "gevo/bench/bench_search.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/claim_choice.h"
#include "gevo/bench/figures.h"
#include "gevo/eval/harness.h"
#include "gevo/search/search.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("paper-claims benchmark options");
cl::opt<std::string> budget("budget",
                            cl::desc("Search budget per seed (default 3m)"),
                            cl::init("3m"), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("Seeds 1..N (default 3)"), cl::init(3),
                   cl::cat(category));
cl::opt<double> maxAccuracyLoss(
    "max-accuracy-loss",
    cl::desc("Test accuracy a prediction variant may lose (default 0.02)"),
    cl::init(0.02), cl::cat(category));
cl::opt<double> maxRuntimeRatio(
    "max-runtime-ratio",
    cl::desc("Run-time ratio a training variant may reach (default 1.0)"),
    cl::init(1.0), cl::cat(category));
cl::opt<std::string>
    outDir("out",
           cl::desc("Where the search runs and analyses go (default "
                    "paper-claims-runs)"),
           cl::init("paper-claims-runs"), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers (default: cores)"),
                     cl::init(0), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default "
                                       "paper_claims.json)"),
                              cl::init("paper_claims.json"), cl::cat(category));
cl::opt<std::string> keepDir(
    "keep",
    cl::desc("Folder the chosen patches and the minimal ones are copied into, "
             "to be committed with the figures, which name them (default: "
             "paper-claims beside --json)"),
    cl::init(""), cl::cat(category));

cl::opt<std::string> claimsFlag(
    "claims",
    cl::desc("Workloads and their claim, e.g. testdata/fashion_cnn_onnx:"
             "prediction (default: the digits MLP's prediction and training)"),
    cl::init("testdata/digits_mlp_predict:prediction,"
             "testdata/digits_mlp_train:training"),
    cl::cat(category));

struct Claim {
  std::string workload;
  bool prediction; // else training
};

/// --claims read: one claim per "workload:kind"; none when one is malformed.
std::vector<Claim> claimsToRun() {
  std::vector<Claim> claims;
  for (absl::string_view item : absl::StrSplit(claimsFlag.getValue(), ',')) {
    std::pair<std::string, std::string> parts = absl::StrSplit(item, ':');
    if (parts.second != "prediction" && parts.second != "training")
      return {};
    claims.push_back({parts.first, parts.second == "prediction"});
  }
  return claims;
}

/// `path` as the user gave --out (relative to where the bench was started)
/// when it lies under `out` (--out resolved), not this machine's absolute
/// one.
std::string shown(const std::string &out, const std::string &path) {
  return path.rfind(out, 0) == 0 ? outDir + path.substr(out.size()) : path;
}

/// --keep as the user gave it (BENCHMARKS.md names the copies so).
std::string keptFolder() {
  if (!keepDir.empty())
    return keepDir;
  size_t slash = jsonPath.getValue().rfind('/');
  return slash == std::string::npos
             ? "paper-claims"
             : jsonPath.getValue().substr(0, slash) + "/paper-claims";
}

/// Writes `text` to `name` in the kept folder: its path as the user gave
/// it, or none (said on stderr) when it cannot be written.
std::optional<std::string> keep(const std::string &name,
                                const absl::StatusOr<std::string> &text) {
  std::string shownPath = keptFolder() + "/" + name;
  absl::Status made = text.status();
  if (made.ok())
    made = gevo::makeDirectory(gevo::resolveUserPath(keptFolder()));
  if (made.ok())
    made = gevo::writeOutput(gevo::resolveUserPath(shownPath), *text);
  if (made.ok())
    return shownPath;
  std::fprintf(stderr, "paper_claims: %s\n", made.ToString().c_str());
  return std::nullopt;
}

/// The workload's name: the last part of its path.
std::string workloadName(const Claim &claim) {
  return claim.workload.substr(claim.workload.rfind('/') + 1);
}

/// The seed whose member had the best figure.
struct Best {
  std::optional<double> figure;
  std::string patch; // under --out, resolved
  double baseline = 0, accuracy = 0, ratio = 0;
};

/// A claim over every seed.
struct ClaimRuns {
  llvm::json::Array rows;
  Best best;
  double sum = 0;
  int found = 0;
  // Each seed's figure, 0 where no member qualified (no speed-up beyond
  // noise, no gain on validation).
  std::vector<double> perSeed;
};

gevo::SearchConfig seedConfig(const Claim &claim, int seed, double seconds,
                              const std::string &out) {
  gevo::SearchConfig config;
  config.workloadPath = gevo::findRunfile(claim.workload);
  config.objectives = {"runtime", "error"};
  config.budgetSeconds = seconds;
  config.seed = seed;
  config.workbench.workers = workers;
  config.outDir =
      llvm::formatv("{0}/{1}-seed{2}", out, workloadName(claim), seed).str();
  return config;
}

void printSeedRow(const Claim &claim, int seed, const gevo::SearchResult &run,
                  const gevo::FrontMember *chosen, double figure) {
  std::printf(
      "%-20s %4d %8.4f %8.4f %10s %9.3f %6zu  %s\n",
      workloadName(claim).c_str(), seed, run.baselineRemeasured.test.accuracy(),
      chosen ? chosen->remeasured.test.accuracy() : 0.0,
      !chosen            ? "none"
      : claim.prediction ? absl::StrFormat("%+.1f%%", figure * 100).c_str()
                         : absl::StrFormat("%+.4f", figure).c_str(),
      chosen ? chosen->remeasured.runtimeRatio : 0.0, run.front.size(),
      chosen ? chosen->patchPath.c_str() : "");
  std::fflush(stdout);
}

/// What seed `seed`'s search (in `dir`) found for `claim`: its row in
/// `runs`, the best seed updated, the row printed.
void recordSeed(const Claim &claim, int seed, const std::string &dir,
                const gevo::SearchResult &run, const std::string &out,
                ClaimRuns &runs) {
  const gevo::FrontMember *chosen = gevo::chooseOnValidation(
      {claim.prediction, maxAccuracyLoss, maxRuntimeRatio}, run);
  std::optional<double> seedBest;
  if (chosen)
    seedBest = gevo::claimFigure(claim.prediction, *chosen, run);
  runs.perSeed.push_back(seedBest.value_or(0.0));
  double baselineTest = run.baselineRemeasured.test.accuracy();
  llvm::json::Object row{{"seed", seed},
                         {"run", shown(out, dir)},
                         {"baseline_test_accuracy", baselineTest},
                         {"front_size", int64_t(run.front.size())},
                         {"evaluations", run.counts.evaluations},
                         {"noise", run.runtimeNoise}};
  if (chosen) {
    const gevo::Measurement &m = chosen->remeasured;
    row["figure"] = *seedBest;
    row["test_accuracy"] = m.test.accuracy();
    row["validation_accuracy"] = m.validation.accuracy();
    row["test_accuracy_change"] = m.test.accuracy() - baselineTest;
    row["runtime_ratio"] = m.runtimeRatio;
    std::string patchPath = dir + "/" + chosen->patchPath;
    row["patch"] = shown(out, patchPath);
    if (std::optional<std::string> kept =
            keep(absl::StrCat(workloadName(claim), "-seed", seed, ".gevo"),
                 gevo::readFile(patchPath, "patch")))
      row["kept_patch"] = *kept;
    runs.sum += *seedBest;
    ++runs.found;
    if (!runs.best.figure || *seedBest > *runs.best.figure)
      runs.best = Best{seedBest, patchPath, baselineTest, m.test.accuracy(),
                       m.runtimeRatio};
  }
  printSeedRow(claim, seed, run, chosen, seedBest.value_or(0.0));
  runs.rows.push_back(std::move(row));
}

/// A search per seed for `claim`, each member chosen and recorded.
absl::StatusOr<ClaimRuns> runSeeds(const Claim &claim, double seconds,
                                   const std::string &out) {
  ClaimRuns runs;
  for (int seed = 1; seed <= seeds; ++seed) {
    gevo::SearchConfig config = seedConfig(claim, seed, seconds, out);
    absl::StatusOr<gevo::SearchResult> run = gevo::searchFromScratch(config);
    if (!run.ok())
      return run.status();
    recordSeed(claim, seed, config.outDir, *run, out, runs);
  }
  return runs;
}

/// What the best patch does, minimised and labelled (the analyzer), added
/// to `result`.
void analyzeBest(const Claim &claim, const Best &best, const std::string &out,
                 llvm::json::Object &result) {
  absl::StatusOr<gevo::Patch> patch = gevo::loadPatch(best.patch);
  gevo::AnalyzeOptions options;
  options.workers = workers;
  options.outDir = out + "/" + workloadName(claim) + "-analysis";
  options.progress = stderr;
  absl::StatusOr<gevo::AnalysisReport> report =
      patch.ok()
          ? gevo::analyzePatches(gevo::findRunfile(claim.workload),
                                 {{best.patch.substr(out.size() + 1), *patch}},
                                 options)
          : absl::StatusOr<gevo::AnalysisReport>(patch.status());
  if (!report.ok() || report->variants.empty()) {
    result["analysis_error"] = std::string(
        report.ok() ? "nothing analysed" : report.status().message());
    return;
  }
  (void)gevo::writeReport(*report, options.outDir);
  const gevo::VariantFinding &v = report->variants[0];
  llvm::json::Array labels;
  for (const gevo::EditFinding &e : v.edits)
    labels.push_back(llvm::json::Object{{"edit", e.line},
                                        {"label", e.label.summary},
                                        {"evidence", e.label.evidence}});
  absl::StatusOr<std::string> text =
      gevo::readFile(options.outDir + "/" + v.minimizedPath, "minimal patch");
  result["minimal_patch"] =
      text.ok() ? *text : std::string(text.status().message());
  if (std::optional<std::string> kept =
          keep(workloadName(claim) + "-minimal.gevo", text))
    result["kept_minimal_patch"] = *kept;
  result["minimal_edits"] = int64_t(v.edits.size());
  result["original_edits"] = int64_t(v.originalEdits);
  result["labels"] = std::move(labels);
  result["report"] = shown(out, options.outDir + "/report.html");
}

/// The claim's figures over the seeds, the best seed's patch analysed.
llvm::json::Object claimResult(const Claim &claim, ClaimRuns &runs,
                               const std::string &out) {
  llvm::json::Object result{
      {"workload", workloadName(claim)},
      {"claim", claim.prediction ? "speed-up at bounded test "
                                   "accuracy loss"
                                 : "test-accuracy gain at bounded "
                                   "run time"},
      {"seeds", std::move(runs.rows)},
      {"seeds_with_a_variant", runs.found},
      {"mean_figure", runs.found ? runs.sum / runs.found : 0},
      {"median_figure", gevo::median(runs.perSeed)},
      {"chosen_on", "validation accuracy and "
                    "re-measured run time; figures "
                    "read on the test split"}};
  const Best &best = runs.best;
  if (best.figure) {
    result["best_figure"] = *best.figure;
    result["best_patch"] = shown(out, best.patch);
    result["baseline_test_accuracy"] = best.baseline;
    result["test_accuracy"] = best.accuracy;
    result["runtime_ratio"] = best.ratio;
    analyzeBest(claim, best, out, result);
  }
  return result;
}

/// The claim's figures in words.
std::string claimSummary(const Claim &claim, const ClaimRuns &runs) {
  const Best &best = runs.best;
  double median = gevo::median(runs.perSeed);
  if (!best.figure)
    return claim.prediction ? "no speed-up beyond noise within the "
                              "accuracy bound"
                            : "no validation gain within the run-time "
                              "bound";
  if (claim.prediction)
    return absl::StrFormat("best seed %+.1f%% speed (run x%.3f) at test "
                           "accuracy %.1f%% -> %.1f%%, median over seeds "
                           "%+.1f%%",
                           *best.figure * 100, best.ratio, best.baseline * 100,
                           best.accuracy * 100, median * 100);
  return absl::StrFormat("best seed %+.2f points of test accuracy "
                         "(%.1f%% -> %.1f%%) at run x%.3f, median over "
                         "seeds %+.2f points",
                         *best.figure * 100, best.baseline * 100,
                         best.accuracy * 100, best.ratio, median * 100);
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "GEVO-ML's prediction and training claims "
                             "on the digits workloads.\n"))
    return 2;
  absl::StatusOr<double> seconds = gevo::parseDuration(budget);
  if (!seconds.ok())
    return gevo::reportBadInput("--budget: " +
                                std::string(seconds.status().message()));
  std::string out = gevo::resolveUserPath(outDir);
  if (absl::Status made = gevo::makeDirectory(out); !made.ok())
    return gevo::reportFailure(made);
  llvm::json::Object figures{{"budget_seconds", *seconds},
                             {"seeds", seeds.getValue()},
                             {"max_accuracy_loss", maxAccuracyLoss.getValue()},
                             {"max_runtime_ratio", maxRuntimeRatio.getValue()},
                             {"workers", workers.getValue()}};
  std::string summary;
  std::printf("%-20s %4s %8s %8s %10s %9s %6s  %s\n", "workload", "seed",
              "test", "variant", "figure", "run x", "front", "patch");
  std::vector<Claim> claims = claimsToRun();
  if (claims.empty())
    return gevo::reportBadInput("--claims: give workload:prediction or "
                                "workload:training, comma-separated");
  for (const Claim &claim : claims) {
    absl::StatusOr<ClaimRuns> runs = runSeeds(claim, *seconds, out);
    if (!runs.ok())
      return gevo::reportFailure(runs.status());
    absl::StrAppend(&summary, summary.empty() ? "" : "; ", workloadName(claim),
                    ": ", claimSummary(claim, *runs));
    figures[claim.prediction ? "prediction" : "training"] =
        claimResult(claim, *runs, out);
  }
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  std::printf("paper claims (%s per search, best of %d seeds): %s\n",
              budget.getValue().c_str(), seeds.getValue(), summary.c_str());
  return 0;
}
