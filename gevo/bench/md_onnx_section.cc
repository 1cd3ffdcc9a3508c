//===- md_onnx_section.cc - The ONNX importer against the backend suite ---===//
//
// The ONNX section of BENCHMARKS.md (see benchmarks_md.h): Debian's ONNX
// backend test suite through the importer and the evaluator's compile path,
// per op type, and why the rest of the suite is out of scope.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

void goalLine(std::ostringstream &md, const Object *o) {
  // An op type counts once a test of it passes, not for having a handler.
  int types = 0;
  if (const llvm::json::Array *ops = o->getArray("ops"))
    for (const llvm::json::Value &row : *ops)
      types += num(row.getAsObject(), "passed") > 0;
  double share = num(o, "passed_percent");
  int crashes = num(o, "crashed") + num(o, "timeout");
  bool met = types >= 45 && share >= 98 && crashes == 0;
  md << absl::StrFormat(
      "%s: %d op types pass at least one test (goal 45; the importer has "
      "handlers for %d), %.1f%% of the in-scope tests pass (goal 98%%), %d "
      "tests crashed or hung (goal 0).\n\n",
      met ? "**Goal met**" : "**Goal missed**", types,
      int(num(o, "supported_op_types")), share, crashes);
}

void opTable(std::ostringstream &md, const Object *o) {
  md << "| op | tests in scope | passed | failed | largest error |\n"
        "|---|---|---|---|---|\n";
  if (const llvm::json::Array *ops = o->getArray("ops"))
    for (const llvm::json::Value &row : *ops) {
      const Object *r = row.getAsObject();
      md << absl::StrFormat("| %s | %d | %d | %d | %.3g |\n", str(r, "op"),
                            int(num(r, "in_scope")), int(num(r, "passed")),
                            int(num(r, "failed")), num(r, "max_error"));
    }
  md << "\n";
}

void reasonTable(std::ostringstream &md, const Object *o) {
  const Object *reasons = o->getObject("out_of_scope_reasons");
  if (!reasons)
    return;
  std::vector<std::pair<int, std::string>> rows;
  for (const auto &[reason, count] : *reasons)
    rows.push_back({int(count.getAsNumber().value_or(0)), reason.str()});
  std::sort(rows.begin(), rows.end(),
            [](const auto &a, const auto &b) { return a.first > b.first; });
  md << "Why the other tests are out of scope (the importer's one-line error, "
        "the 15 most frequent):\n\n| tests | reason |\n|---|---|\n";
  for (size_t i = 0; i < rows.size() && i < 15; ++i)
    md << absl::StrFormat("| %d | %s |\n", rows[i].first, rows[i].second);
  md << "\n";
}

} // namespace

void onnxConformance(std::ostringstream &md) {
  md << "## 10. ONNX import against the backend test suite (goal: at least 45 "
        "op types, at least 98% of the in-scope tests pass, no crash on any "
        "test model)\n\n`bazel run //gevo/bench:onnx_conformance -- "
        "--json=bench-results/onnx_conformance.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "onnx_conformance.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "Every test of Debian's ONNX backend test suite (libonnx-testdata: "
      "node, pytorch-converted, pytorch-operator, simple and real tests) in a "
      "forked child: imported, lowered and compiled with the evaluator's "
      "default pipeline, run on each of its data sets and compared with the "
      "reference outputs (|got - want| <= 1e-5 + 1e-3 |want|). Of %d tests, "
      "%d are in scope (the importer takes them), %d out of scope; in scope "
      "%d pass and %d fail, %d crashed and %d hung.\n\n",
      int(num(o, "tests")), int(num(o, "in_scope")),
      int(num(o, "out_of_scope")), int(num(o, "passed")), int(num(o, "failed")),
      int(num(o, "crashed")), int(num(o, "timeout")));
  goalLine(md, o);
  opTable(md, o);
  reasonTable(md, o);
}

} // namespace gevo::bench_md
