//===- report.cc - A patch's or a run's analysis: HTML, Markdown, JSON ----===//

#include "analysis/report.h"

#include "analysis/report_svg.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// The label's summary without the kind it starts with ("training schedule
/// change: epochs 5 -> 2" -> "epochs 5 -> 2"), for cells that show the kind.
std::string labelDetail(const EffectLabel &label) {
  absl::string_view summary = label.summary;
  if (absl::ConsumePrefix(&summary, label.kind))
    absl::ConsumePrefix(&summary, ":");
  return std::string(absl::StripLeadingAsciiWhitespace(summary));
}

std::string pct(double accuracy) { return absl::StrFormat("%.4f", accuracy); }

/// The pipeline a gain was checked under (older reports: GEVO's check).
std::string checkedUnder(const OptimizedCheck &check) {
  return check.pipeline.empty() ? "canonicalize, cse and LLVM -O3"
                                : check.pipeline;
}

std::string measured(const std::optional<Measurement> &m,
                     const Measurement &base) {
  if (!m)
    return "does not apply alone";
  if (!m->ok())
    return toString(m->outcome);
  std::string text =
      absl::StrFormat("acc %s (%+.4f)", pct(m->validation.accuracy()),
                      m->validation.accuracy() - base.validation.accuracy());
  if (m->runtimeRatio > 0)
    absl::StrAppend(&text, absl::StrFormat(", run x%.3f", m->runtimeRatio));
  return text;
}

const char *kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1100px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;"
    "font-size:13px}th{background:#f3f3f3}"
    "pre{margin:0;font-size:11px;white-space:pre-wrap;max-width:420px}"
    ".label{font-weight:bold}.yes{color:#2ca02c}.no{color:#d62728}";

} // namespace

namespace {

/// The page's head, the run's summary and the scatter plot.
std::string htmlHeader(const AnalysisReport &r) {
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
      "<title>gevo-ml analysis: ",
      escapeHtml(r.workload), "</title><style>", kStyle,
      "</style></head><body>\n<h1>gevo-ml analysis: ", escapeHtml(r.workload),
      "</h1>\n<p>Source: <code>", escapeHtml(r.source),
      "</code>. Objectives: ", escapeHtml(absl::StrJoin(r.objectives, ", ")),
      ". Unmodified program: validation accuracy ",
      pct(r.baseline.validation.accuracy()),
      absl::StrFormat(", run %.2f ms", r.baseline.medianRunMs), ".</p>\n",
      r.partial.empty() ? ""
                        : absl::StrCat("<p><strong>Partial report:</strong> ",
                                       escapeHtml(r.partial), ".</p>\n"),
      "<h2>Every evaluated variant</h2>\n<p>Grey: evaluated; red: the Pareto "
      "front; black square: the unmodified program.</p>\n",
      scatterSvg(r), "\n");
}

/// What was kept of the variant and whether its gain survives the other
/// pipeline.
std::string variantSummaryHtml(const VariantFinding &v,
                               const Measurement &baseline) {
  std::string h = absl::StrFormat(
      "<p>%d of %d edits kept (minimiser %s: %d subsets tested, %d "
      "evaluated); minimal patch <code>%s</code>: validation accuracy "
      "%s (unmodified %s), run x%.3f of the unmodified program.</p>\n",
      v.edits.size(), v.originalEdits, escapeHtml(v.minimizer), v.tests,
      v.evaluations, escapeHtml(v.minimizedPath),
      pct(v.minimal.validation.accuracy()), pct(baseline.validation.accuracy()),
      v.minimal.runtimeRatio);
  if (v.optimized.checked)
    absl::StrAppend(
        &h, "<p>Under ", escapeHtml(checkedUnder(v.optimized)), ": ",
        v.optimized.survives ? "<span class=\"yes\">the gain survives</span>"
                             : "<span class=\"no\">the gain does not "
                               "survive</span>",
        absl::StrFormat(" (run x%.3f, accuracy %s vs %s). ",
                        v.optimized.runtimeRatio, pct(v.optimized.accuracy),
                        pct(v.optimized.baselineAccuracy)),
        escapeHtml(v.optimized.detail), "</p>\n");
  return h;
}

/// The table of the variant's edits and the table of its pairs.
std::string editTablesHtml(const VariantFinding &v,
                           const Measurement &baseline) {
  std::string h = "<table><tr><th>#</th><th>label</th><th>evidence</th>"
                  "<th>alone</th><th>relation</th><th>MLIR before</th>"
                  "<th>MLIR after</th></tr>\n";
  for (size_t i = 0; i < v.edits.size(); ++i) {
    const EditFinding &e = v.edits[i];
    absl::StrAppend(
        &h, "<tr><td>", i + 1, "</td><td><span class=\"label\">",
        escapeHtml(e.label.kind), "</span><br/>",
        escapeHtml(labelDetail(e.label)), "<br/><code>", escapeHtml(e.line),
        "</code></td><td>", escapeHtml(e.label.evidence),
        e.label.path.empty()
            ? std::string()
            : absl::StrCat("<br/>data flow: <code class=\"path\">",
                           escapeHtml(e.label.path), "</code>"),
        "</td><td>", escapeHtml(measured(e.alone, baseline)), "</td><td>",
        escapeHtml(e.relation), "</td><td><pre>", escapeHtml(e.before),
        "</pre></td><td><pre>", escapeHtml(e.after), "</pre></td></tr>\n");
  }
  absl::StrAppend(&h, "</table>\n", ablationSvg(v, baseline), "\n");
  if (!v.pairs.empty()) {
    absl::StrAppend(&h, "<table><tr><th>pair</th><th>relation</th>"
                        "<th>together</th></tr>\n");
    for (const PairFinding &p : v.pairs)
      absl::StrAppend(&h, "<tr><td>", p.first, " + ", p.second, "</td><td>",
                      escapeHtml(p.relation), "</td><td>",
                      escapeHtml(p.together), "</td></tr>\n");
    absl::StrAppend(&h, "</table>\n");
  }
  return h;
}

/// One variant's section.
std::string variantHtml(const VariantFinding &v, const Measurement &baseline) {
  std::string h = absl::StrCat("<h2>", escapeHtml(v.name), "</h2>\n");
  if (!v.error.empty())
    return absl::StrCat(
        h, "<p class=\"no\">Not analysed: ", escapeHtml(v.error), "</p>\n");
  return absl::StrCat(h, variantSummaryHtml(v, baseline),
                      editTablesHtml(v, baseline));
}

/// The operator statistics and the learned weights, when the run has them.
std::string operatorsHtml(const AnalysisReport &r) {
  std::string h;
  if (!r.operatorRows.empty()) {
    absl::StrAppend(&h, "<h2>Mutation operators</h2>\n<table><tr>");
    for (const std::string &column : r.operatorHeader)
      absl::StrAppend(&h, "<th>", escapeHtml(column), "</th>");
    absl::StrAppend(&h, "</tr>\n");
    for (const std::vector<std::string> &row : r.operatorRows) {
      absl::StrAppend(&h, "<tr>");
      for (const std::string &cell : row)
        absl::StrAppend(&h, "<td>", escapeHtml(cell), "</td>");
      absl::StrAppend(&h, "</tr>\n");
    }
    absl::StrAppend(&h, "</table>\n");
  }
  if (!r.weightRows.empty())
    absl::StrAppend(&h,
                    "<h3>Learned operator weights</h3>\n<p>The chance "
                    "NSGA-II gave each operator when breeding the next "
                    "generation (operator_weights.csv).</p>\n",
                    operatorWeightsSvg(r), "\n");
  return h;
}

} // namespace

std::string toHtml(const AnalysisReport &r) {
  std::string h = htmlHeader(r);
  for (const VariantFinding &v : r.variants)
    absl::StrAppend(&h, variantHtml(v, r.baseline));
  absl::StrAppend(&h, operatorsHtml(r), "</body></html>\n");
  return h;
}

namespace {

/// `text` fit for a Markdown table cell.
std::string cell(const std::string &text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

/// One variant's section in Markdown.
std::string variantMarkdown(const VariantFinding &v,
                            const Measurement &baseline) {
  std::string md = absl::StrCat("\n## ", v.name, "\n\n");
  if (!v.error.empty())
    return absl::StrCat(md, "Not analysed: ", v.error, "\n");
  absl::StrAppend(
      &md,
      absl::StrFormat(
          "%d of %d edits kept (minimiser %s: %d subsets tested, %d "
          "evaluated); minimal patch `%s`: validation accuracy "
          "%s (unmodified %s), run x%.3f.\n",
          v.edits.size(), v.originalEdits, v.minimizer, v.tests, v.evaluations,
          v.minimizedPath, pct(v.minimal.validation.accuracy()),
          pct(baseline.validation.accuracy()), v.minimal.runtimeRatio));
  if (v.optimized.checked)
    absl::StrAppend(
        &md,
        absl::StrFormat("\nUnder %s: the gain %s (run x%.3f, accuracy %s vs "
                        "%s). %s\n",
                        checkedUnder(v.optimized),
                        v.optimized.survives ? "survives" : "does not survive",
                        v.optimized.runtimeRatio, pct(v.optimized.accuracy),
                        pct(v.optimized.baselineAccuracy), v.optimized.detail));
  absl::StrAppend(&md, "\n| # | label | evidence | alone | relation | edit |\n"
                       "|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < v.edits.size(); ++i) {
    const EditFinding &e = v.edits[i];
    std::string detail = labelDetail(e.label);
    absl::StrAppend(
        &md, "| ", i + 1, " | **", cell(e.label.kind), "**",
        detail.empty() ? "" : ": " + cell(detail), " | ",
        cell(e.label.evidence),
        e.label.path.empty() ? "" : "; data flow: `" + cell(e.label.path) + "`",
        " | ", cell(measured(e.alone, baseline)), " | ", cell(e.relation),
        " | `", cell(e.line), "` |\n");
  }
  for (size_t i = 0; i < v.edits.size(); ++i)
    absl::StrAppend(&md, "\nEdit ", i + 1, " before:\n\n```mlir\n",
                    v.edits[i].before, "\n```\n\nafter:\n\n```mlir\n",
                    v.edits[i].after, "\n```\n");
  if (!v.pairs.empty()) {
    absl::StrAppend(&md, "\n| pair | relation | together |\n|---|---|---|\n");
    for (const PairFinding &p : v.pairs)
      absl::StrAppend(&md, "| ", p.first, " + ", p.second, " | ",
                      cell(p.relation), " | ", cell(p.together), " |\n");
  }
  return md;
}

} // namespace

std::string toMarkdown(const AnalysisReport &r) {
  std::string md = absl::StrCat(
      "# gevo-ml analysis: ", r.workload, "\n\nSource: `", r.source,
      "`. Objectives: ", absl::StrJoin(r.objectives, ", "),
      ". Unmodified program: validation accuracy ",
      pct(r.baseline.validation.accuracy()),
      absl::StrFormat(", run %.2f ms", r.baseline.medianRunMs), ".\n\n",
      r.partial.empty()
          ? ""
          : absl::StrCat("**Partial report:** ", r.partial, ".\n\n"));
  size_t front = std::count_if(r.points.begin(), r.points.end(), [](auto &p) {
    return p.kind == ScatterPoint::Kind::Front;
  });
  absl::StrAppend(&md, r.points.size(), " variants in objective space, ", front,
                  " on the front (the HTML report plots them).\n");
  for (const VariantFinding &v : r.variants)
    absl::StrAppend(&md, variantMarkdown(v, r.baseline));
  if (!r.operatorRows.empty()) {
    absl::StrAppend(&md, "\n## Mutation operators\n\n| ",
                    absl::StrJoin(r.operatorHeader, " | "), " |\n|");
    for (size_t i = 0; i < r.operatorHeader.size(); ++i)
      absl::StrAppend(&md, "---|");
    absl::StrAppend(&md, "\n");
    for (const std::vector<std::string> &row : r.operatorRows)
      absl::StrAppend(&md, "| ", absl::StrJoin(row, " | "), " |\n");
  }
  return md;
}

namespace {

llvm::json::Value measurementJson(const std::optional<Measurement> &m) {
  if (!m)
    return nullptr;
  return llvm::json::Object{{"outcome", toString(m->outcome)},
                            {"validation_accuracy", m->validation.accuracy()},
                            {"runtime_ratio", m->runtimeRatio},
                            {"static_cost", m->staticCost},
                            {"detail", m->detail}};
}

llvm::json::Object editJson(const EditFinding &e) {
  return llvm::json::Object{{"edit", e.line},
                            {"label", e.label.kind},
                            {"summary", e.label.summary},
                            {"evidence", e.label.evidence},
                            {"roles", e.label.roles},
                            {"path", e.label.path},
                            {"factor", e.label.factor},
                            {"pruned", e.label.pruned},
                            {"total", e.label.total},
                            {"relation", e.relation},
                            {"alone", measurementJson(e.alone)},
                            {"without", measurementJson(e.without)},
                            {"before", e.before},
                            {"after", e.after}};
}

llvm::json::Object variantJson(const VariantFinding &v) {
  llvm::json::Array edits;
  for (const EditFinding &e : v.edits)
    edits.push_back(editJson(e));
  llvm::json::Array pairs;
  for (const PairFinding &p : v.pairs)
    pairs.push_back(
        llvm::json::Object{{"first", static_cast<int64_t>(p.first)},
                           {"second", static_cast<int64_t>(p.second)},
                           {"relation", p.relation},
                           {"together", p.together}});
  return llvm::json::Object{
      {"name", v.name},
      {"minimized", v.minimizedPath},
      {"error", v.error},
      {"original_edits", static_cast<int64_t>(v.originalEdits)},
      {"minimizer", v.minimizer},
      {"tests", v.tests},
      {"evaluations", v.evaluations},
      {"full", measurementJson(v.full)},
      {"minimal", measurementJson(v.minimal)},
      {"edits", std::move(edits)},
      {"pairs", std::move(pairs)},
      {"optimized",
       llvm::json::Object{{"checked", v.optimized.checked},
                          {"survives", v.optimized.survives},
                          {"pipeline", checkedUnder(v.optimized)},
                          {"runtime_ratio", v.optimized.runtimeRatio},
                          {"accuracy", v.optimized.accuracy},
                          {"baseline_accuracy", v.optimized.baselineAccuracy},
                          {"detail", v.optimized.detail}}},
  };
}

} // namespace

std::string toJson(const AnalysisReport &r) {
  llvm::json::Array variants;
  for (const VariantFinding &v : r.variants)
    variants.push_back(variantJson(v));
  llvm::json::Array points;
  for (const ScatterPoint &p : r.points)
    points.push_back(llvm::json::Object{
        {"x", p.x},
        {"y", p.y},
        {"kind", p.kind == ScatterPoint::Kind::Front      ? "front"
                 : p.kind == ScatterPoint::Kind::Baseline ? "baseline"
                                                          : "evaluated"}});
  llvm::json::Object object{
      {"workload", r.workload},
      {"source", r.source},
      {"objectives", llvm::json::Array(r.objectives)},
      {"baseline_accuracy", r.baseline.validation.accuracy()},
      {"points", std::move(points)},
      {"variants", std::move(variants)},
  };
  if (!r.partial.empty())
    object["partial"] = r.partial;
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(object))).str() +
         "\n";
}

} // namespace gevo
