//===- md_racing_section.cc - Racing: evaluations/s and what it stopped ---===//
//
// The racing section of BENCHMARKS.md (see benchmarks_md.h): evaluations/s of
// a default search with racing off and on, per workload and seed, their
// hypervolumes, and the dry run's check that racing stops no variant that
// would enter the front.
//
//===----------------------------------------------------------------------===//

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// One workload and seed: the run with racing off and the one with it on.
struct RacingPair {
  const Object *off = nullptr, *on = nullptr;
};

std::map<std::string, RacingPair> pairsOf(const Object *o) {
  std::map<std::string, RacingPair> pairs;
  if (const llvm::json::Array *runs = o->getArray("runs"))
    for (const llvm::json::Value &run : *runs) {
      const Object *r = run.getAsObject();
      std::string key = absl::StrFormat("%s seed %d", str(r, "workload"),
                                        int(num(r, "seed")));
      (r->getBoolean("racing").value_or(false) ? pairs[key].on
                                               : pairs[key].off) = r;
    }
  return pairs;
}

} // namespace

void racing(std::ostringstream &md) {
  md << "## 11. Racing (goal: at least 5x the evaluations/s of the default "
        "search on a heavy workload, a front at least as good, and no "
        "variant stopped that would have entered the front)\n\n`bazel run "
        "//gevo/bench:racing -- --json=bench-results/racing.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "racing.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "Two default searches per workload and seed, %s each, one after the "
      "other (which goes first alternates by seed): racing off, as a dry run "
      "that times every variant fully and records where racing would have "
      "stopped it, and racing on (`--race-margin=0.25`; off is the search's "
      "default). A "
      "false stop is a variant racing would have stopped that is on the "
      "front of everything the dry run measured fully. Hypervolume: the "
      "search's own, on its readings.\n\n",
      str(o, "budget"));
  md << "| workload, seed | evaluations/s off | on | ratio | stopped early "
        "(on) | hypervolume off | on | would stop (off) | false stops |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  double bestRatio = 0;
  int falseStops = 0;
  bool frontAsGood = true;
  for (const auto &[key, pair] : pairsOf(o)) {
    if (!pair.off || !pair.on)
      continue;
    double off = num(pair.off, "evaluations_per_s");
    double on = num(pair.on, "evaluations_per_s");
    double ratio = off > 0 ? on / off : 0;
    bestRatio = std::max(bestRatio, ratio);
    falseStops += int(num(pair.off, "false_stops"));
    frontAsGood &= num(pair.on, "hypervolume") >= num(pair.off, "hypervolume");
    md << absl::StrFormat(
        "| %s | %.2f | %.2f | %.2fx | %d of %d | %.4f | %.4f | %d | %d |\n",
        key, off, on, ratio, int(num(pair.on, "raced")),
        int(num(pair.on, "evaluations")), num(pair.off, "hypervolume"),
        num(pair.on, "hypervolume"), int(num(pair.off, "would_stop")),
        int(num(pair.off, "false_stops")));
  }
  bool met = bestRatio >= 5 && frontAsGood && falseStops == 0;
  md << absl::StrFormat(
      "\n%s: at most %.2fx the evaluations/s (goal 5x), the front with "
      "racing %s as good on every run, %d false stops (goal 0).\n\n",
      met ? "**Goal met**" : "**Goal missed**", bestRatio,
      frontAsGood ? "at least" : "not", falseStops);
}

} // namespace gevo::bench_md
