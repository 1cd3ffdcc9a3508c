//===- md_claims_section.cc - The paper claims and their check ---------===//
//
// The paper claims and their check: a section of BENCHMARKS.md (see
// benchmarks_md.h).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// A seed's patch cell: the copy kept in the repository (paper_claims
/// --keep), or, for figures from before copies were kept, the patch's name
/// in its run directory, which is not in the repository.
std::string patchCell(const Object *row) {
  if (!str(row, "kept_patch").empty())
    return absl::StrCat("`", relative(str(row, "kept_patch")), "`");
  std::string run = str(row, "patch");
  if (run.empty())
    return "-";
  size_t front = run.rfind("front/");
  return absl::StrCat("`", front == std::string::npos ? run : run.substr(front),
                      "` of the seed's run (not kept)");
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
          "| %d | %.2f%% | %s | %s | +-%.3f | %s%s | %d | %s |\n",
          int(num(row, "seed")), 100 * num(row, "baseline_test_accuracy"),
          found ? absl::StrFormat("%.2f%%", 100 * num(row, "test_accuracy"))
                : "-",
          found ? absl::StrFormat("%.3f", num(row, "runtime_ratio")) : "-",
          num(row, "noise"), figure,
          found && prediction && inNoise ? " (within noise)" : "",
          int(num(row, "front_size")), patchCell(row));
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
  if (!str(c, "kept_minimal_patch").empty())
    md << "\n`" << relative(str(c, "kept_minimal_patch")) << "`:\n";
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

/// The checked run-time ratio of `seed`, when the check has one.
std::optional<double> checkedRatio(const Object *check, const char *claimName,
                                   int seed) {
  const llvm::json::Array *rows = check ? check->getArray(claimName) : nullptr;
  if (rows)
    for (const llvm::json::Value &r : *rows)
      if (int(num(r.getAsObject(), "seed")) == seed)
        return num(r.getAsObject(), "checked_ratio");
  return std::nullopt;
}

/// Issue #13's goal for the claim, met or missed, on the checked run times
/// where there are some: prediction >= 1.9x (+90% speed) at <= 2.0 test
/// points lost in a seed and a median over seeds (each seed's variant as
/// chosen on validation) >= 1.5x; training >= +4.9 test points at run
/// x <= 1.00 in a seed.
void goalLine(std::ostringstream &md, const Object *c, const Object *check,
              bool prediction) {
  const llvm::json::Array *seeds = c ? c->getArray("seeds") : nullptr;
  if (!seeds || seeds->empty())
    return;
  const char *name = prediction ? "prediction" : "training";
  std::vector<double> figures;
  double best = 0;
  for (const llvm::json::Value &s : *seeds) {
    const Object *row = s.getAsObject();
    if (!row->get("figure")) {
      figures.push_back(0);
      continue;
    }
    double ratio = checkedRatio(check, name, int(num(row, "seed")))
                       .value_or(num(row, "runtime_ratio"));
    double figure = num(row, "figure");
    if (prediction) {
      figure = ratio < 1 ? 1 / ratio - 1 : 0;
      figures.push_back(figure); // chosen within the bound on validation
      // The seed that meets the goal must also hold it on test.
      if (-num(row, "test_accuracy_change") <= 0.02)
        best = std::max(best, figure);
      continue;
    }
    if (ratio > 1.0)
      figure = 0;
    figures.push_back(figure);
    best = std::max(best, figure);
  }
  std::sort(figures.begin(), figures.end());
  double median = figures[figures.size() / 2];
  bool met = prediction ? best >= 0.9 && median >= 0.5 : best >= 0.049;
  md << absl::StrFormat(
      "**Goal %s** (%s): %s.\n\n", met ? "met" : "missed",
      prediction ? ">= 1.9x speed at <= 2.0 test points lost in a seed, "
                   "median over seeds >= 1.5x"
                 : ">= +4.9 test points at run x <= 1.00 in a seed",
      prediction
          ? absl::StrFormat("best seed %.2fx, median %.2fx%s", 1 + best,
                            1 + median, check ? " (checked run times)" : "")
          : absl::StrFormat("best seed %+.2f points%s", 100 * best,
                            check ? " (run time as checked)" : ""));
}

/// How far hyper-parameters alone take the training workload
/// (train_ceiling.py), when it ran.
void trainCeiling(std::ostringstream &md) {
  std::optional<llvm::json::Value> parsed = load("train_ceiling.json");
  const Object *o = parsed ? parsed->getAsObject() : nullptr;
  const Object *chosen = o ? o->getObject("chosen") : nullptr;
  if (!chosen)
    return;
  int rows = int(num(o, "rows"));
  md << absl::StrFormat(
      "What hyper-parameters alone reach (`gevo/bench/train_ceiling.py`: %d "
      "configurations of the training IR set by hand at the unmodified "
      "5-epoch schedule, so at the same run time: a learning rate per layer, "
      "layer 2's initial scale, the initialisation's seeds; chosen on "
      "validation, scored on test): the chosen one (layer 1 at %s, layer 2 "
      "at %s) scores %d/%d validation and **%d/%d test (%+.2f points)**; the "
      "best test score of any configuration is %d/%d. +4.9 points needs "
      "%d/%d. The chosen configuration trained longer:",
      int(num(o, "configurations")), str(chosen, "layer1_rate"),
      str(chosen, "layer2_rate"), int(num(chosen, "validation_correct")), rows,
      int(num(chosen, "test_correct")), rows,
      100.0 * (num(chosen, "test_correct") - num(o, "baseline_test_correct")) /
          rows,
      int(num(o, "best_test_correct_any")), rows,
      int(num(o, "needed_test_correct")), rows);
  if (const llvm::json::Array *epochs = o->getArray("epochs"))
    for (const llvm::json::Value &e : *epochs) {
      const Object *row = e.getAsObject();
      md << absl::StrFormat(" %d epochs %d/%d test;", int(num(row, "epochs")),
                            int(num(row, "test_correct")), rows);
    }
  md << " each epoch beyond 5 adds a fifth of the training loop's run "
        "time.\n\n";
}

} // namespace

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
  std::optional<llvm::json::Value> checkValue = load("claims_check.json");
  const Object *check = checkValue ? checkValue->getAsObject() : nullptr;
  claim(md, o->getObject("prediction"), true);
  claimsCheck(md, check, "prediction", true);
  goalLine(md, o->getObject("prediction"), check, true);
  claim(md, o->getObject("training"), false);
  claimsCheck(md, check, "training", false);
  goalLine(md, o->getObject("training"), check, false);
  trainCeiling(md);
}

namespace {

/// One imported or generated workload's claim (paper_claims --claims):
/// its table and a goal line with the goal.
void importedClaim(std::ostringstream &md, const std::string &file,
                   bool prediction) {
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, file, v);
  if (!o)
    return;
  const Object *c = o->getObject(prediction ? "prediction" : "training");
  md << absl::StrFormat(
      "`%s`, %.0f s budget, %s, seeds 1..%d, chosen on validation (%s), "
      "read on test.\n\n",
      c ? str(c, "workload") : "-", num(o, "budget_seconds"),
      num(o, "workers") > 0
          ? absl::StrFormat("%d worker(s)", int(num(o, "workers")))
          : std::string("a worker per core"),
      int(num(o, "seeds")),
      prediction ? absl::StrFormat("within %.1f points of validation accuracy",
                                   100 * num(o, "max_accuracy_loss"))
                 : absl::StrFormat("run-time ratio at most %.2f",
                                   num(o, "max_runtime_ratio")));
  claim(md, c, prediction);
  double best = c ? num(c, "best_figure") : 0;
  double loss =
      c ? num(c, "baseline_test_accuracy") - num(c, "test_accuracy") : 0;
  bool found = c && c->get("best_figure");
  bool met =
      found && (prediction ? best >= 0.5 && loss <= 0.01 + 1e-9 : best >= 0.10);
  md << absl::StrFormat(
      "%s: %s.\n\n", met ? "**Goal met**" : "**Goal missed**",
      !found ? std::string(prediction
                               ? "no variant faster beyond noise within the "
                                 "bound (goal: at least 1.5x within 1 test "
                                 "point)"
                               : "no variant gained on validation within the "
                                 "bound (goal: at least +10 test points)")
      : prediction
          ? absl::StrFormat("%.2fx faster at %+.1f test points (goal: at least "
                            "1.5x within 1 test point)",
                            1 + best, -100 * loss)
          : absl::StrFormat("%+.1f test points (goal: at least +10 at a run "
                            "time no worse than the unmodified program's)",
                            100 * best));
}

} // namespace

void importedClaims(std::ostringstream &md) {
  md << "## 13. Searches on models we did not write (goals: the imported "
        "Fashion CNN at least 1.5x faster within 1 test point in 20 minutes; "
        "the generated Fashion MLP training at least +10 test points at no "
        "more run time in 30 minutes)\n\n`bazel run //gevo/bench:paper_claims "
        "-- --claims=testdata/fashion_cnn_onnx:prediction --budget=20m "
        "--seeds=1 --max-accuracy-loss=0.01 --workers=N --json=bench-results/"
        "fashion_cnn_claims.json` and `... --claims=testdata/"
        "fashion_mlp_train:training --budget=30m --seeds=1 "
        "--workers=N --json=bench-results/fashion_train_claims.json`, each "
        "with the workers its line below names (the CNN's with 2 on a machine "
        "shared with builds; the training's with 1, beside another search)"
        "\n\n";
  importedClaim(md, "fashion_cnn_claims.json", true);
  importedClaim(md, "fashion_train_claims.json", false);
}

} // namespace gevo::bench_md
