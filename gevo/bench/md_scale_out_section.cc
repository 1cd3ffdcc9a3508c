//===- md_scale_out_section.cc - Evaluation over MPI ranks ----------------===//
//
// Scale-out over Open MPI ranks, with a projection to 64 and 1024 cores: a
// section of BENCHMARKS.md (see benchmarks_md.h).
//
//===----------------------------------------------------------------------===//

#include <optional>
#include <sstream>
#include <string>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// What rank 0 does per individual, and whether issue #37's goal is met by
/// the figures in `o`.
void goalParagraph(std::ostringstream &md, const Object *o) {
  bool met = num(o, "rank0_serial_ms_per_evaluation") <= 3 &&
             num(o, "bottleneck_cores") >= 200;
  // The projection assumes rank 0's work per evaluation stays flat as the
  // population grows: the row with a larger population checks it.
  std::string larger;
  if (const llvm::json::Array *rows = o->getArray("setups"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      if (row && num(row, "population") > num(o, "population"))
        larger = absl::StrFormat(
            " With population %d (%d evaluations) it was %.2f ms (search and "
            "dispatch), so it does not grow with the population and archive "
            "that far.",
            int(num(row, "population")), int(num(row, "evaluations")),
            num(row, "rank0_search_ms_per_evaluation") +
                num(row, "rank0_dispatch_ms_per_evaluation"));
    }
  md << absl::StrFormat(
      "\nThe evaluating ranks breed the children (the default, "
      "`--breed-on-ranks`): rank 0 draws what needs no module (tournaments, "
      "crossover, whether to mutate, a seed per child) and the ranks mutate, "
      "check, build, key and cost each child from its recipe, in parallel, "
      "then build and measure the chosen ones; rank 0's serial work per "
      "individual is those draws, the recipes and answers as patch text, the "
      "novelty check by key, the pre-screen's predictions, selection and "
      "files.%s Where rank 0 breeds (the rows so marked: the local backend's "
      "draws, each proposal built and checked on rank 0) it took %.2f ms per "
      "evaluation. Issue #37's goal (at most 3 ms per evaluation, the "
      "bottleneck at 200 cores or more; with one evaluation taking %.3f s, "
      "200 cores need at most %.2f ms) is %s.\n\n",
      larger, num(o, "rank0_breeding_serial_ms_per_evaluation"),
      num(o, "evaluation_s"), 1000 * num(o, "evaluation_s") / 200,
      met ? "**met**" : "**not met**");
}

} // namespace

void scaleOut(std::ostringstream &md) {
  md << "## 6. Scale-out over MPI ranks (goal: 2 evaluating ranks at least "
        "1.7x one, rank 0 under 1 ms per evaluation)\n\n`bazel run "
        "//gevo/bench:scale_out -- --json=bench-results/scale_out.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "scale_out.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "The same search (`--backend=mpi`, %s workload, static_cost and error, "
      "seed 1, population %d, %d generations) as an `mpirun` job on this "
      "machine. Evaluations/s over the window from the first variant handed "
      "out to the last result; rank 0's waiting share is the part of that "
      "window it was off its CPU; the ranks' idle share is the part the "
      "evaluating ranks held no job (waiting for rank 0's next generation or "
      "for the other ranks to end a batch); rank 0's CPU per evaluation is "
      "split into handing out (MPI, patch text), polling for results that "
      "had not come yet (idle wakeups and their sleeps, not on the critical "
      "path), and the search itself (draws, recipes, selection, history and "
      "checkpoint files; where rank 0 breeds, also building, checking and "
      "keying each child), which the evaluating ranks wait for between "
      "generations:\n\n| evaluating ranks x workers | "
      "evaluations/s | rank 0 waiting | ranks idle | rank 0 dispatch ms/eval "
      "| polling ms/eval | search ms/eval |\n"
      "|---|---|---|---|---|---|---|\n",
      str(o, "workload"), int(num(o, "population")),
      int(num(o, "generations")));
  if (const llvm::json::Array *rows = o->getArray("setups"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      bool rankZero = row->getBoolean("rank0_breeds").value_or(false);
      int rowPopulation = int(num(row, "population"));
      std::string label = rankZero ? ", rank 0 breeds" : "";
      if (rowPopulation > 0 && rowPopulation != int(num(o, "population")))
        label += absl::StrFormat(", population %d", rowPopulation);
      md << absl::StrFormat("| %d x %d%s | %.2f | %.0f%% | %.1f%% | %.3f | "
                            "%.3f | %.2f |\n",
                            int(num(row, "ranks")), int(num(row, "workers")),
                            label, num(row, "evaluations_per_s"),
                            100 * num(row, "rank0_waiting_share"),
                            100 * num(row, "ranks_idle_share"),
                            num(row, "rank0_dispatch_ms_per_evaluation"),
                            num(row, "rank0_polling_ms_per_evaluation"),
                            num(row, "rank0_search_ms_per_evaluation"));
    }
  md << absl::StrFormat(
      "\n2 evaluating ranks: **%.2fx** one rank's evaluations/s.\n\n",
      num(o, "speedup_2_ranks"));
  md << absl::StrFormat(
      "Projection (paper on paper, from the 1- and 2-rank rows bred on the "
      "ranks; a rank's breeding is part of its time per evaluation): a "
      "generation costs rank 0 %.2f ms of serial work per individual "
      "(search and dispatch) plus one evaluation (%.3f s) per round of C "
      "variants on C cores, with the population grown to the cores. Rank "
      "0's serial work equals the evaluations' time at about **%.0f "
      "cores**; past that, more cores add little:\n\n| cores | population "
      "| evaluations/s | rank 0's share of a generation |\n|---|---|---|---|"
      "\n",
      num(o, "rank0_serial_ms_per_evaluation"), num(o, "evaluation_s"),
      num(o, "bottleneck_cores"));
  if (const llvm::json::Array *rows = o->getArray("projection"))
    for (const llvm::json::Value &r : *rows) {
      const Object *row = r.getAsObject();
      md << absl::StrFormat("| %d | %d | %.1f | %.0f%% |\n",
                            int(num(row, "cores")), int(num(row, "population")),
                            num(row, "evaluations_per_s"),
                            100 * num(row, "rank0_share"));
    }
  goalParagraph(md, o);
}

} // namespace gevo::bench_md
