//===- md_stress_section.cc - The parent under hostile variants -----------===//
//
// The stress section of BENCHMARKS.md (see benchmarks_md.h): random variants
// through the sandbox, their outcomes, the parent's memory and children left.
//
//===----------------------------------------------------------------------===//

#include <optional>
#include <sstream>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

void stress(std::ostringstream &md) {
  md << "## 8. Hostile variants (goal: 10 000 random mutants, 0 parent "
        "crashes, 0 children left, flat parent memory)\n\n`bazel run "
        "//gevo/bench:stress -- --json=bench-results/stress.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "stress.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "%d random edit lists (1..4 edits of every kind; the digits workloads "
      "in turn, half each in a complete run), measured through the "
      "workbench's sandbox pool in %.0f s: "
      "**%d parent crashes**, at most **%d children left** after a batch "
      "(zombies included), parent memory **%.1f MiB after the first batch, "
      "%.1f MiB at the end** (peak %.1f).\n\n| outcome | variants |\n|---|---|"
      "\n",
      int(num(o, "variants")), num(o, "seconds"), int(num(o, "parent_crashes")),
      int(num(o, "max_children_left")), num(o, "first_batch_rss_mib"),
      num(o, "last_rss_mib"), num(o, "peak_rss_mib"));
  if (const Object *outcomes = o->getObject("outcomes"))
    for (const auto &[kind, count] : *outcomes)
      md << absl::StrFormat("| %s | %d |\n", kind.str(),
                            int(count.getAsNumber().value_or(0)));
  if (num(o, "variants") < 10000)
    md << absl::StrFormat("\nFewer than the goal's 10 000 variants: a run of "
                          "%d, the full run is still to do.\n",
                          int(num(o, "variants")));
  md << "\n";
}

} // namespace gevo::bench_md
