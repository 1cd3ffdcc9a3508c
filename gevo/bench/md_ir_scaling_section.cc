//===- md_ir_scaling_section.cc - Cost per op of the IR tools -------------===//
//
// The IR-scaling section of BENCHMARKS.md (see benchmarks_md.h): time per op
// of --list, a 4-edit mutation and an apply over generated chains of 1k-64k
// ops, a fan-out and a deep nest, and whether it stays within 2x per op.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <optional>
#include <sstream>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

void irScaling(std::ostringstream &md) {
  md << "## 7. IR tools at scale (goal: time per op within 2x from 1k to 64k "
        "ops)\n\n`bazel run //gevo/bench:ir_scaling -- "
        "--figures=bench-results/ir_scaling.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "ir_scaling.json", v);
  const llvm::json::Array *rows = o ? o->getArray("rows") : nullptr;
  if (!rows)
    return;
  md << "Generated straight-line chains of arithmetic, a fan-out (one "
        "constant read by every op) and a deep nest of regions; microseconds "
        "per op of the address list (`//gevo:mutate --list`), a 4-edit "
        "mutation (proposed and applied as the tool does) and its replay "
        "(`//replay:apply` on a fresh parse).\n\n| model | ops | parse ms | "
        "list us/op | mutate us/op | apply us/op |\n|---|---|---|---|---|---|"
        "\n";
  // Per-op cost of the chains only: the largest over the smallest.
  double minCost[3] = {0, 0, 0}, maxCost[3] = {0, 0, 0};
  bool anyChain = false;
  for (const llvm::json::Value &r : *rows) {
    const Object *row = r.getAsObject();
    double ops = std::max(1.0, num(row, "ops"));
    double perOp[3] = {1000 * num(row, "list_ms") / ops,
                       1000 * num(row, "mutate_ms") / ops,
                       1000 * num(row, "apply_ms") / ops};
    md << absl::StrFormat("| %s | %d | %.1f | %.2f | %.2f | %.2f |\n",
                          str(row, "model"), int(ops), num(row, "parse_ms"),
                          perOp[0], perOp[1], perOp[2]);
    if (str(row, "model").rfind("chain", 0) != 0)
      continue;
    for (int k = 0; k < 3; ++k) {
      minCost[k] = anyChain ? std::min(minCost[k], perOp[k]) : perOp[k];
      maxCost[k] = anyChain ? std::max(maxCost[k], perOp[k]) : perOp[k];
    }
    anyChain = true;
  }
  if (anyChain) {
    const char *names[3] = {"list", "mutate", "apply"};
    md << "\nLargest over smallest time per op across the chains:";
    for (int k = 0; k < 3; ++k)
      md << absl::StrFormat(" %s **%.2fx**%s", names[k],
                            minCost[k] > 0 ? maxCost[k] / minCost[k] : 0,
                            k < 2 ? "," : "");
    md << " (within 2x: linear).\n";
  }
  md << "\n";
}

} // namespace gevo::bench_md
