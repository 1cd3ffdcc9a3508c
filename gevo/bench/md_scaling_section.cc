//===- md_scaling_section.cc - Scaling beside NumPy/OpenBLAS -----------===//
//
// Scaling beside NumPy/OpenBLAS: a section of BENCHMARKS.md (see
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

} // namespace gevo::bench_md
