//===- benchmarks_md_main.cc - BENCHMARKS.md from the benches' JSON -------===//
//
//   bazel run //gevo/bench:benchmarks_md -- --results=bench-results -o
//   BENCHMARKS.md
//
// Writes BENCHMARKS.md from the figures files the benchmarks wrote
// (throughput.json, search_vs_random.json, minimizers.json,
// paper_claims.json, scaling.json) and the machine it runs on, so that no
// figure in it is typed by hand. A missing file gives a section saying so.
// gevo/bench/run_all.sh runs every benchmark and then this.
//
//===----------------------------------------------------------------------===//

#include <sys/utsname.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("BENCHMARKS.md options");
cl::opt<std::string> resultsDir("results",
                                cl::desc("Directory of the benches' JSON "
                                         "files (default bench-results)"),
                                cl::init("bench-results"), cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Output (default BENCHMARKS.md)"),
                                cl::init("BENCHMARKS.md"), cl::cat(category));

using llvm::json::Object;

std::optional<llvm::json::Value> load(const std::string &name) {
  absl::StatusOr<std::string> text =
      gevo::readFile(resultsDir + "/" + name, "figures file");
  if (!text.ok())
    return std::nullopt;
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(*text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

/// The figures of `file` (held in `figures`), or null after writing "Not
/// run." into `md` when the file is missing or malformed.
const Object *figuresOf(std::ostringstream &md, const std::string &file,
                        std::optional<llvm::json::Value> &figures) {
  figures = load(file);
  const Object *o = figures ? figures->getAsObject() : nullptr;
  if (!o)
    md << "Not run.\n\n";
  return o;
}

double num(const Object *o, llvm::StringRef key) {
  return o ? o->getNumber(key).value_or(0) : 0;
}
std::string str(const Object *o, llvm::StringRef key) {
  return o ? o->getString(key).value_or("").str() : "";
}

/// `path` relative to where the user ran the tool (the repository root for
/// run_all.sh), so that BENCHMARKS.md names no one's home directory.
std::string relative(std::string path) {
  std::string root = gevo::resolveUserPath(".");
  if (!root.empty() && root.back() == '.')
    root.pop_back();
  if (!root.empty() && root.back() != '/')
    root += '/';
  return path.rfind(root, 0) == 0 ? path.substr(root.size()) : path;
}

/// The first line of /proc/cpuinfo's `key`, or "?".
std::string procField(const char *file, const std::string &key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "?";
}

std::string machine() {
  struct utsname u = {};
  uname(&u);
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  double memoryKiB = std::atof(procField("/proc/meminfo", "MemTotal").c_str());
  return absl::StrFormat("%s, %u cores, %.0f GiB memory, Linux %s; written %s",
                         procField("/proc/cpuinfo", "model name"),
                         std::thread::hardware_concurrency(),
                         memoryKiB / (1 << 20), u.release, date);
}

void throughput(std::ostringstream &md) {
  md << "## 1. Evaluation throughput (goal: at least 5x the tool pipeline)\n\n"
        "`bazel run //gevo/bench:throughput -- --json=bench-results/"
        "throughput.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "throughput.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "%d random variants of `%s`, each evaluated both ways, interleaved: "
      "gevo-ml %.1f ms per variant, `mlir-opt | mlir-runner` %.1f ms: "
      "**%.2fx**. With %d workers gevo-ml evaluates %.1f variants/s. Both "
      "ran %d variants; they agree on the accuracy of %d.\n\n"
      "| per variant (gevo-ml) | build | lower | codegen | run | compile "
      "overhead | the variant's own runs in a search |\n|---|---|---|---|---|"
      "---|---|\n| ms | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n\n",
      int(num(o, "variants")), str(o, "workload"),
      num(o, "gevo_ms_per_variant"), num(o, "naive_ms_per_variant"),
      num(o, "speedup"), int(num(o, "workers")),
      num(o, "gevo_variants_per_s_parallel"), int(num(o, "both_ok")),
      int(num(o, "agree")), num(o, "build_ms"), num(o, "lower_ms"),
      num(o, "codegen_ms"), num(o, "run_ms"), num(o, "compile_overhead_ms"),
      num(o, "search_run_ms"));
}

void searchVsRandom(std::ostringstream &md) {
  md << "## 2. NSGA-II vs random search (goal: at least 1.2x random's "
        "hypervolume)\n\n`bazel run //gevo/bench:search_vs_random -- "
        "--json=bench-results/search_vs_random.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "search_vs_random.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "Population %d, %d generations (%d individuals per run for both), "
      "objectives %s. Mean hypervolume ratio NSGA-II / random: **%.3fx**.\n\n"
      "| workload | seed | hv NSGA-II | hv random | ratio |\n|---|---|---|---|"
      "---|\n",
      int(num(o, "population")), int(num(o, "generations")),
      int(num(o, "population") * (num(o, "generations") + 1)),
      str(o, "objectives"), num(o, "mean_ratio"));
  if (const llvm::json::Array *runs = o->getArray("runs"))
    for (const llvm::json::Value &r : *runs) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat("| %s | %d | %.4f | %.4f | %.3f |\n",
                            str(row, "workload"), int(num(row, "seed")),
                            num(row, "hv_nsga2"), num(row, "hv_random"),
                            num(row, "ratio"));
    }
  md << "\n";
}

void minimizers(std::ostringstream &md) {
  md << "## 3. Minimisers (goal: fewer evaluations and smaller results than "
        "GEVO's greedy pass and exhaustive search)\n\n"
        "`bazel run //gevo/bench:minimizers -- --run=RUN "
        "--json=bench-results/minimizers.json` (RUN: a default search's run "
        "directory)\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "minimizers.json", v);
  if (!o)
    return;
  const char *methods[] = {"split", "ddmin", "greedy", "exhaustive"};
  md << absl::StrFormat(
      "Every front patch of `%s`, objectives %s, each method with its own "
      "empty cache; totals over the %d patches every method finished. "
      "Evaluations are variants run; subsets decided without running "
      "(their edits do not apply, or their static cost already loses the "
      "effect) are counted apart; a referee checks each result for "
      "1-minimality.\n\n| method | evaluations | subsets asked | decided "
      "without running | edits kept | results not 1-minimal "
      "|\n|---|---|---|---|---|---|\n",
      relative(str(o, "run")), str(o, "objectives"),
      int(num(o, "patches_compared")));
  for (const char *m : methods)
    md << absl::StrFormat("| %s | %d | %d | %d | %d | %d |\n", m,
                          int(num(o, absl::StrCat(m, "_evaluations"))),
                          int(num(o, absl::StrCat(m, "_tests"))),
                          int(num(o, absl::StrCat(m, "_decided_statically"))),
                          int(num(o, absl::StrCat(m, "_kept"))),
                          int(num(o, absl::StrCat(m, "_not_one_minimal"))));
  md << "\n| patch | edits | split | ddmin | greedy | exhaustive |\n"
        "|---|---|---|---|---|---|\n";
  if (const llvm::json::Array *rows = o->getArray("patches"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat("| %s | %d |", str(row, "patch"),
                            int(num(row, "edits")));
      for (const char *m : methods) {
        if (!row->get(absl::StrCat(m, "_kept"))) {
          md << " - |";
          continue;
        }
        bool minimal =
            row->getBoolean(absl::StrCat(m, "_one_minimal")).value_or(false);
        md << absl::StrFormat(" %d kept / %d evals%s |",
                              int(num(row, absl::StrCat(m, "_kept"))),
                              int(num(row, absl::StrCat(m, "_evaluations"))),
                              minimal ? "" : " (not 1-minimal)");
      }
      md << "\n";
    }
  md << "\n";
}

void claim(std::ostringstream &md, const Object *c, bool prediction) {
  md << (prediction ? "### Prediction: speed-up at a bounded accuracy loss\n\n"
                    : "### Training: test-accuracy gain at a bounded run "
                      "time\n\n");
  if (!c) {
    md << "Not run.\n\n";
    return;
  }
  md << "| seed | test accuracy (unmodified) | chosen variant's | run x | "
        "noise band | figure | front | patch |\n|---|---|---|---|---|---|---|"
        "---|\n";
  if (const llvm::json::Array *seeds = c->getArray("seeds"))
    for (const llvm::json::Value &s : *seeds) {
      const Object *row = s.getAsObject();
      bool found = row->get("figure") != nullptr;
      std::string figure =
          !found ? (prediction ? "none beyond noise in bound"
                               : "no validation gain in bound")
          : prediction
              ? absl::StrFormat("%+.1f%% speed", 100 * num(row, "figure"))
              : absl::StrFormat("%+.2f points", 100 * num(row, "figure"));
      // A run-time ratio inside the unmodified program's own noise band is
      // no measured speed difference.
      bool inNoise =
          std::abs(num(row, "runtime_ratio") - 1) <= num(row, "noise");
      md << absl::StrFormat(
          "| %d | %.2f%% | %s | %s | +-%.3f | %s%s | %d | `%s` |\n",
          int(num(row, "seed")), 100 * num(row, "baseline_test_accuracy"),
          found ? absl::StrFormat("%.2f%%", 100 * num(row, "test_accuracy"))
                : "-",
          found ? absl::StrFormat("%.3f", num(row, "runtime_ratio")) : "-",
          num(row, "noise"), figure,
          found && prediction && inNoise ? " (within noise)" : "",
          int(num(row, "front_size")), relative(str(row, "patch")));
    }
  if (c->get("median_figure"))
    md << absl::StrFormat(
        "\nMedian over seeds (a seed with no member counts as 0): **%s**.\n",
        prediction
            ? absl::StrFormat("%+.1f%% speed", 100 * num(c, "median_figure"))
            : absl::StrFormat("%+.2f points", 100 * num(c, "median_figure")));
  if (!c->get("best_figure")) {
    md << (prediction ? "\nNo seed found a speed-up beyond noise within the "
                        "bound.\n\n"
                      : "\nNo seed found a validation gain within the "
                        "bound.\n\n");
    return;
  }
  md << absl::StrFormat(
      "\nBest seed: **%s** (test accuracy %.2f%% -> %.2f%%, run x%.3f). Its "
      "patch, minimised from %d to %d edits, labelled by the analyzer:\n\n",
      prediction ? absl::StrFormat("%+.1f%% speed", 100 * num(c, "best_figure"))
                 : absl::StrFormat("%+.2f points of test accuracy",
                                   100 * num(c, "best_figure")),
      100 * num(c, "baseline_test_accuracy"), 100 * num(c, "test_accuracy"),
      num(c, "runtime_ratio"), int(num(c, "original_edits")),
      int(num(c, "minimal_edits")));
  if (const llvm::json::Array *labels = c->getArray("labels"))
    for (const llvm::json::Value &l : *labels) {
      const Object *row = l.getAsObject();
      md << absl::StrFormat("- **%s**: %s\n", str(row, "label"),
                            str(row, "evidence"));
    }
  md << "\n```\n" << str(c, "minimal_patch") << "```\n\n";
}

/// The independent check of the chosen variants (check_claims.py), when
/// there is one: the run-time ratio again, from separate processes.
void claimsCheck(std::ostringstream &md, const Object *check,
                 const char *claimName, bool prediction) {
  const llvm::json::Array *rows = check ? check->getArray(claimName) : nullptr;
  if (!rows || rows->empty())
    return;
  md << absl::StrFormat(
      "Independent check (`gevo/bench/check_claims.py`: each chosen patch "
      "replayed and timed in separate evaluator processes, alternating with "
      "the unmodified program, %d rounds of %d runs; ratio of medians):\n\n"
      "| seed | run x (search's re-measurement) | run x (checked) | %s |\n"
      "|---|---|---|---|\n",
      int(num(check, "rounds")), int(num(check, "repeats")),
      prediction ? "speed-up (checked)" : "within the run-time bound");
  std::vector<double> speedUps;
  int disagree = 0;
  for (const llvm::json::Value &r : *rows) {
    const Object *row = r.getAsObject();
    double checked = num(row, "checked_ratio");
    disagree += std::abs(checked - num(row, "search_ratio")) > 0.1;
    speedUps.push_back(checked < 1 ? 1 / checked - 1 : 0);
    md << absl::StrFormat(
        "| %d | %.3f | %.3f | %s |\n", int(num(row, "seed")),
        num(row, "search_ratio"), checked,
        prediction ? absl::StrFormat("%+.1f%%", 100 * speedUps.back())
                   : std::string(checked <= 1.02 ? "yes" : "no"));
  }
  if (disagree > 0)
    md << absl::StrFormat(
        "\n**The check and the search's re-measurement disagree by more than "
        "0.1 on %d of %d seeds**: the figures above are not confirmed there; "
        "the checked ones are the ones to trust.\n",
        disagree, int(rows->size()));
  if (prediction) {
    std::sort(speedUps.begin(), speedUps.end());
    md << absl::StrFormat(
        "\nChecked: best seed **%+.1f%% speed**, median over seeds "
        "**%+.1f%%**.\n\n",
        100 * speedUps.back(), 100 * speedUps[speedUps.size() / 2]);
  } else {
    md << "\n";
  }
}

void paperClaims(std::ostringstream &md) {
  md << "## 4. GEVO-ML's two results on the digits workloads\n\n"
        "`bazel run //gevo/bench:paper_claims -- --json=bench-results/"
        "paper_claims.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "paper_claims.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "Each search: objectives (runtime, validation error), %.0f s budget, "
      "seeds 1..%d. Each seed's variant is chosen as a user would, on "
      "validation accuracy and the re-measured run time alone (prediction: "
      "the fastest beyond the noise band within %.1f points of validation "
      "accuracy; training: the best validation accuracy at a run-time ratio "
      "of at most %.2f); only then is it scored on the test split. "
      "Paper: prediction +90.43%% speed at 91.2%% -> 89.3%%; training +4.88 "
      "points (91%% -> 96%%).\n\n",
      num(o, "budget_seconds"), int(num(o, "seeds")),
      100 * num(o, "max_accuracy_loss"), num(o, "max_runtime_ratio"));
  std::optional<llvm::json::Value> checkValue;
  const Object *check = nullptr;
  absl::StatusOr<std::string> checkText =
      gevo::readFile(resultsDir + "/claims_check.json", "check");
  if (checkText.ok()) {
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(*checkText);
    if (parsed) {
      checkValue = std::move(*parsed);
      check = checkValue->getAsObject();
    } else {
      llvm::consumeError(parsed.takeError());
    }
  }
  claim(md, o->getObject("prediction"), true);
  claimsCheck(md, check, "prediction", true);
  claim(md, o->getObject("training"), false);
  claimsCheck(md, check, "training", false);
}

void scaling(std::ostringstream &md) {
  md << "## 5. Scaling\n\n`bazel run //gevo/bench:scaling -- "
        "--json=bench-results/scaling.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "scaling.json", v);
  if (!o)
    return;
  md << "Evaluation of the prediction MLP's shape with its hidden widths "
        "multiplied (weights drawn in the module), by `//gevo:evaluate` in a "
        "child process (default pipeline), beside the same model lowered with "
        "the plain pipeline and NumPy over the machine's BLAS on one thread "
        "(weights drawn per run as the module does; forward pass alone in "
        "brackets; 0: not run):\n\n| width | hidden | parameters | parse ms "
        "| lower ms | codegen ms | run ms | plain run ms | NumPy ms | run / "
        "NumPy | peak memory MiB |\n|---|---|---|---|---|---|---|---|---|---|"
        "---|\n";
  if (const llvm::json::Array *rows = o->getArray("evaluation"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat(
          "| x%d | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f (%.1f) | "
          "%.2fx | %.1f |\n",
          int(num(row, "factor")), str(row, "hidden"),
          int64_t(num(row, "parameters")), num(row, "parse_ms"),
          num(row, "lower_ms"), num(row, "codegen_ms"),
          num(row, "median_run_ms"), num(row, "plain_run_ms"),
          num(row, "numpy_ms"), num(row, "numpy_forward_ms"),
          num(row, "vs_numpy"), num(row, "peak_rss_mib"));
    }
  md << "\nSearch on the training workload (static_cost, error) by "
        "population; selection is NSGA-II's own survivor selection (pagmo2) "
        "on that many random points:\n\n| population | generations | "
        "evaluations | s per generation | ms per individual | selection ms "
        "|\n|---|---|---|---|---|---|\n";
  if (const llvm::json::Array *rows = o->getArray("search"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat(
          "| %d | %d | %d | %.2f | %.1f | %.3f |\n",
          int(num(row, "population")), int(num(row, "generations")),
          int(num(row, "evaluations")), num(row, "seconds_per_generation"),
          num(row, "ms_per_individual"), num(row, "selection_ms"));
    }
  md << "\n";
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Writes BENCHMARKS.md from the benchmarks' "
                                   "figures files.\n",
                                   &llvm::errs()))
    return 2;
  resultsDir = gevo::resolveUserPath(resultsDir);
  std::ostringstream md;
  md << "# Benchmarks\n\nGENERATED by `gevo/bench/run_all.sh` (through "
        "`//gevo/bench:benchmarks_md`) from the JSON the benchmarks wrote; "
        "do not edit by hand.\n\nMachine: "
     << machine() << ".\n\n";
  throughput(md);
  searchVsRandom(md);
  minimizers(md);
  paperClaims(md);
  scaling(md);
  absl::Status written =
      gevo::writeOutput(gevo::resolveUserPath(outputPath), md.str());
  if (!written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  return 0;
}
