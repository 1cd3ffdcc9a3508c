//===- md_search_sections.cc - Search vs random, minimisers ---------------===//
//
// Search vs random, minimisers: sections of BENCHMARKS.md (see
// benchmarks_md.h).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

/// NSGA-II's pre-screen per seed, when the runs had one.
void screenTable(std::ostringstream &md, const Object &o) {
  const llvm::json::Array *runs = o.getArray("runs");
  const llvm::json::Array *names = nullptr;
  if (!runs)
    return;
  // (Over the array itself: a copy would leave `names` dangling.)
  for (const llvm::json::Value &r : *runs) {
    const Object *row = r.getAsObject();
    if (row && num(row, "screen_generations") > 0)
      names = row->getArray("screen_objectives");
  }
  if (!names)
    return;
  md << absl::StrFormat(
      "NSGA-II's pre-screen (`--screen=%d`: that many candidates bred per "
      "child slot, built in the search process, one run): per seed, the "
      "median over generations of Spearman's rank correlation between the "
      "surrogate's predictions and the measured values of the children it "
      "chose, and the share of those children that failed or left the "
      "bounds, beside the share of the generation's immigrants (random "
      "lists, not screened).\n\n| workload | seed |",
      int(num(&o, "screen")));
  for (const llvm::json::Value &name : *names)
    md << " rank correlation, " << name.getAsString().value_or("").str()
       << " |";
  md << " failed: screened | failed: immigrants |\n|---|---|";
  for (size_t k = 0; k < names->size(); ++k)
    md << "---|";
  md << "---|---|\n";
  for (const llvm::json::Value &r : *runs) {
    const Object *row = r.getAsObject();
    if (!row || num(row, "screen_generations") <= 0)
      continue;
    md << absl::StrFormat("| %s | %d |", str(row, "workload"),
                          int(num(row, "seed")));
    if (const llvm::json::Array *rho = row->getArray("screen_spearman"))
      for (const llvm::json::Value &value : *rho)
        md << absl::StrFormat(" %.2f |", value.getAsNumber().value_or(0));
    md << absl::StrFormat(" %.0f%% | %.0f%% |\n",
                          100 * num(row, "screened_failure"),
                          100 * num(row, "immigrant_failure"));
  }
  md << "\n";
}

/// The paired children run again because their unmodified side was
/// disturbed, summed over the seeds; empty for runs from before that.
std::string remeasuredText(const Object &figures) {
  const llvm::json::Array *runs = figures.getArray("runs");
  double nsga2 = 0, random = 0;
  bool any = false;
  for (const llvm::json::Value &r : runs ? *runs : llvm::json::Array()) {
    const Object *row = r.getAsObject();
    std::optional<double> n =
        row ? row->getNumber("remeasured_nsga2") : std::nullopt;
    if (!n)
      continue;
    any = true;
    nsga2 += *n;
    random += row->getNumber("remeasured_random").value_or(0);
  }
  if (!any)
    return "";
  return absl::StrFormat(
      "; a child whose unmodified side read over %.1fx the run's "
      "start-of-run reference ran once more, the steadier reading kept (%d "
      "NSGA-II and %d random-search children over all seeds, not counted as "
      "evaluations)",
      figures.getNumber("disturbed_factor").value_or(0), int(nsga2),
      int(random));
}

/// How many evaluations racing cut short, over all rows (rows from before
/// the count say nothing).
void racedText(std::ostringstream &md, const Object &o) {
  int64_t raced[2] = {0, 0}, evaluations[2] = {0, 0};
  bool counted = false;
  if (const llvm::json::Array *runs = o.getArray("runs"))
    for (const llvm::json::Value &r : *runs) {
      const Object *row = r.getAsObject();
      counted |= row->getNumber("raced_nsga2").has_value();
      raced[0] += int64_t(num(row, "raced_nsga2"));
      raced[1] += int64_t(num(row, "raced_random"));
      evaluations[0] += int64_t(num(row, "evaluations_nsga2"));
      evaluations[1] += int64_t(num(row, "evaluations_random"));
    }
  if (!counted)
    return;
  md << absl::StrFormat(
      "Racing cut the timing of %d of NSGA-II's %d evaluations short "
      "(stopped as dominated, or entered the front after three pairs) and %d "
      "of random search's %d, all seeds and workloads together.\n\n",
      raced[0], evaluations[0], raced[1], evaluations[1]);
}

void searchVsRandom(std::ostringstream &md) {
  md << "## 2. NSGA-II vs random search (goal: at least 1.2x random's "
        "hypervolume, median over seeds, and fewer evaluations to target in "
        "4 of 5 seeds, on both workloads)\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "search_vs_random.json", v);
  if (!o)
    return;
  md << absl::StrFormat("`bazel run //gevo/bench:search_vs_random -- "
                        "--first-seed=%d "
                        "--json=bench-results/search_vs_random.json`\n\n",
                        int(o->getNumber("first_seed").value_or(1)));
  if (!o->getArray("workloads")) {
    md << "Figures from the old measure (each run's own fronts and baseline); "
          "re-run the bench.\n\n";
    return;
  }
  md << absl::StrFormat(
      "Population %d, %d generations (%d individuals per run for both), "
      "objectives %s, seeds %d..%d, NSGA-II's pre-screen %s%s%s%s%s. %s%s. "
      "After both "
      "searches of a seed, both final "
      "fronts are re-measured in one batch, each variant interleaved with the "
      "unmodified program in %d separate children of %d pairs (run time as "
      "the median of the children's ratios). Hypervolume counts only the "
      "region a user could want: the reference point is a run-time ratio of "
      "%.2f and the unmodified program's validation error + %.2f (a deleted "
      "layer at 11%% accuracy counts for nothing). Evaluations to target: "
      "variants run until the first one, as measured during the search, beat "
      "the unmodified program by more than %.0f%% in run time at no more "
      "error, or had less error, by more than the error band, at no more than "
      "%.0f%% more run time, and still did when re-measured interleaved with "
      "it as the fronts are; 0: never. The unmodified program's run time is "
      "the median of %s children of its own run after both searches of a "
      "seed (the single measurement each search takes at its start, which "
      "this measure used before, can be far slower, as the last column "
      "shows, and then neutral variants look fast). The error band is the "
      "validation error's sampling noise: one "
      "standard error of the unmodified program's validation error over the "
      "validation rows (a variant one row better is not a better model).\n\n",
      int(num(o, "population")), int(num(o, "generations")),
      int(num(o, "population") * (num(o, "generations") + 1)),
      str(o, "objectives"), int(o->getNumber("first_seed").value_or(1)),
      int(o->getNumber("first_seed").value_or(1) + num(o, "seeds") - 1),
      num(o, "screen") > 1 ? absl::StrFormat("%d candidates per child slot",
                                             int(num(o, "screen")))
                           : std::string("off"),
      // Runs from before the flag used the search's default, 0.25.
      o->getNumber("max_error_increase").value_or(0.25) != 0.25
          ? absl::StrFormat(", NSGA-II's error bound the unmodified "
                            "program's + %.2f",
                            num(o, "max_error_increase"))
          : std::string(),
      // Runs from before retuning existed had none.
      o->getNumber("retune_rate").value_or(0) > 0
          ? absl::StrFormat(", %.0f%% of its mutations retuning a shrink or "
                            "constant edit already in the list",
                            100 * num(o, "retune_rate"))
          : std::string(", no retuning"),
      o->getBoolean("prune_seeds").value_or(false)
          ? ", its generation 0 starting with magnitude pruning (one shrink "
            "per prunable dimension keeping its heaviest three quarters)"
          : "",
      o->getBoolean("rate_seeds").value_or(false)
          ? ", and with each learning rate of a gradient-descent loop doubled "
            "and halved"
          : "",
      // Runs from before paired runs timed plainly.
      o->getNumber("paired_runs").value_or(0) > 0
          ? absl::StrFormat(
                "Both searches time %s in %d pairs interleaved with the "
                "unmodified program in its own child; their run-time "
                "objective is that ratio, and evaluations to target judge "
                "the search-time reading by it too",
                o->getNumber("race_margin").value_or(0) > 0
                    ? "each variant with racing on (margin " +
                          absl::StrFormat("%.2g", num(o, "race_margin")) +
                          ", section 11: a variant the front dominates stops "
                          "early), at most"
                    : std::string("every variant"),
                int(num(o, "paired_runs")))
          : std::string("Both searches time each variant on its own in its "
                        "child"),
      remeasuredText(*o), int(num(o, "children")), int(num(o, "pairs")),
      num(o, "ref_ratio"), num(o, "ref_error"), 100 * num(o, "band"),
      100 * num(o, "band"),
      o->getNumber("unmodified_children")
          ? absl::StrFormat("%d", int(num(o, "unmodified_children")))
          : std::string("several"));
  auto ratioText = [](const Object *row, llvm::StringRef key) {
    std::optional<double> r = row ? row->getNumber(key) : std::nullopt;
    return r ? absl::StrFormat("%.3f", *r) : std::string("inf");
  };
  md << "| workload | median hv ratio | range | seeds with fewer evaluations "
        "to target | error band |\n|---|---|---|---|---|\n";
  for (const llvm::json::Value &w : *o->getArray("workloads")) {
    const Object *row = w.getAsObject();
    std::optional<double> errorBand = row->getNumber("error_band");
    md << absl::StrFormat(
        "| %s | **%s** | %s - %s | %d of %d | %s |\n", str(row, "workload"),
        ratioText(row, "median_ratio"), ratioText(row, "min_ratio"),
        ratioText(row, "max_ratio"), int(num(row, "seeds_fewer_to_target")),
        int(num(o, "seeds")),
        errorBand ? absl::StrFormat("%.4f", *errorBand)
                  : std::string("0 (any drop)"));
  }
  // The goal, per workload, in words.
  md << "\n";
  for (const llvm::json::Value &w : *o->getArray("workloads")) {
    const Object *row = w.getAsObject();
    double median = row->getNumber("median_ratio").value_or(0);
    int fewer = int(num(row, "seeds_fewer_to_target"));
    int seeds = int(num(o, "seeds"));
    int needed = (4 * seeds + 4) / 5; // 4 of 5
    md << absl::StrFormat(
        "- %s: hypervolume goal %s (median %.3f, goal 1.2); evaluations-to-"
        "target goal %s (%d of %d seeds, goal %d)\n",
        str(row, "workload"), median >= 1.2 ? "met" : "missed", median,
        fewer >= needed ? "met" : "missed", fewer, seeds, needed);
  }
  md << "\n| workload | seed | hv NSGA-II | hv random | ratio | points in "
        "region (NSGA-II / random) | evaluations to target (NSGA-II / "
        "random) | before re-measuring | re-measured | unmodified vs itself "
        "| unmodified ms (children / searches' starts) |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n";
  if (const llvm::json::Array *runs = o->getArray("runs"))
    for (const llvm::json::Value &r : *runs) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat(
          "| %s | %d | %.5f | %.5f | %s | %d / %d | %d / %d | %d / %d | %d / "
          "%d | %.3f | %.2f / %.2f, %.2f |\n",
          str(row, "workload"), int(num(row, "seed")), num(row, "hv_nsga2"),
          num(row, "hv_random"), ratioText(row, "ratio"),
          int(num(row, "region_points_nsga2")),
          int(num(row, "region_points_random")),
          int(num(row, "to_target_nsga2")), int(num(row, "to_target_random")),
          int(num(row, "to_target_search_nsga2")),
          int(num(row, "to_target_search_random")),
          int(num(row, "confirmations_nsga2")),
          int(num(row, "confirmations_random")),
          num(row, "unmodified_remeasured_ratio"), num(row, "unmodified_ms"),
          num(row, "start_ms_nsga2"), num(row, "start_ms_random"));
    }
  md << "\n";
  racedText(md, *o);
  screenTable(md, *o);
}

void minimizers(std::ostringstream &md) {
  md << "## 3. Minimisers (goal: fewer evaluations and smaller results than "
        "GEVO's greedy pass and exhaustive search)\n\n"
        "`bazel run //gevo/bench:minimizers -- --run=RUN "
        "--json=bench-results/minimizers.json` (RUN: the run directory of "
        "`bazel run //gevo:search -- --seed=1 --objectives=static_cost,error "
        "--budget=0 --generations=24`, deterministic: the same front and "
        "figures on any machine)\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "minimizers.json", v);
  if (!o)
    return;
  const char *methods[] = {"split", "ddmin", "greedy", "exhaustive"};
  md << absl::StrFormat(
      "Every front patch of RUN (a run directory is not kept in the "
      "repository; the search above makes the same one again), objectives "
      "%s, each method with its own "
      "empty cache; totals over the %d patches every method finished. "
      "Evaluations are variants run; subsets decided without running "
      "(their edits do not apply, or their static cost already loses the "
      "effect) are counted apart; a referee checks each result for "
      "1-minimality.\n\n| method | evaluations | subsets asked | decided "
      "without running | edits kept | results not 1-minimal "
      "|\n|---|---|---|---|---|---|\n",
      str(o, "objectives"), int(num(o, "patches_compared")));
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

} // namespace gevo::bench_md
