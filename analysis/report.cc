//===- report.cc - The analysis of a patch or a run, as HTML, Markdown, JSON
//===//

#include "analysis/report.h"

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

// ---- SVG ------------------------------------------------------------------

std::string scatterSvg(const AnalysisReport &r) {
  const double width = 640, height = 400, left = 70, right = 20, top = 20,
               bottom = 50;
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
      "viewBox=\"0 0 %g %g\" class=\"scatter\">",
      width, height, width, height);
  if (r.points.empty() || r.objectives.size() < 2)
    return svg + "<text x=\"20\" y=\"40\">no evaluated variants</text></svg>";
  double minX = r.points[0].x, maxX = minX, minY = r.points[0].y, maxY = minY;
  for (const ScatterPoint &p : r.points) {
    minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
    minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
  }
  if (maxX == minX)
    maxX = minX + 1;
  if (maxY == minY)
    maxY = minY + 1;
  auto sx = [&](double x) {
    return left + (x - minX) / (maxX - minX) * (width - left - right);
  };
  auto sy = [&](double y) {
    return height - bottom -
           (y - minY) / (maxY - minY) * (height - top - bottom);
  };
  absl::StrAppend(
      &svg,
      absl::StrFormat("<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
                      "fill=\"none\" stroke=\"#999\"/>",
                      left, top, width - left - right, height - top - bottom));
  for (int i = 0; i <= 4; ++i) {
    double fx = minX + (maxX - minX) * i / 4, fy = minY + (maxY - minY) * i / 4;
    absl::StrAppend(&svg,
                    absl::StrFormat("<text x=\"%g\" y=\"%g\" font-size=\"11\" "
                                    "text-anchor=\"middle\">%.4g</text>",
                                    sx(fx), height - bottom + 16, fx),
                    absl::StrFormat("<text x=\"%g\" y=\"%g\" font-size=\"11\" "
                                    "text-anchor=\"end\">%.4g</text>",
                                    left - 6, sy(fy) + 4, fy));
  }
  absl::StrAppend(
      &svg,
      absl::StrFormat("<text x=\"%g\" y=\"%g\" font-size=\"13\" "
                      "text-anchor=\"middle\">%s</text>",
                      (left + width - right) / 2, height - 12,
                      escapeHtml(r.objectives[0])),
      absl::StrFormat("<text x=\"16\" y=\"%g\" font-size=\"13\" "
                      "text-anchor=\"middle\" transform=\"rotate(-90 16 %g)\">"
                      "%s</text>",
                      (top + height - bottom) / 2, (top + height - bottom) / 2,
                      escapeHtml(r.objectives[1])));
  for (ScatterPoint::Kind kind :
       {ScatterPoint::Kind::Evaluated, ScatterPoint::Kind::Front,
        ScatterPoint::Kind::Baseline})
    for (const ScatterPoint &p : r.points) {
      if (p.kind != kind)
        continue;
      std::string title =
          absl::StrCat("<title>", escapeHtml(p.label), "</title>");
      if (kind == ScatterPoint::Kind::Baseline)
        absl::StrAppend(&svg,
                        absl::StrFormat("<rect class=\"baseline\" x=\"%g\" "
                                        "y=\"%g\" width=\"10\" height=\"10\" "
                                        "fill=\"#000\">%s</rect>",
                                        sx(p.x) - 5, sy(p.y) - 5, title));
      else
        absl::StrAppend(
            &svg,
            absl::StrFormat(
                "<circle class=\"%s\" cx=\"%g\" cy=\"%g\" r=\"%g\" "
                "fill=\"%s\" fill-opacity=\"%g\">%s</circle>",
                kind == ScatterPoint::Kind::Front ? "front" : "evaluated",
                sx(p.x), sy(p.y), kind == ScatterPoint::Kind::Front ? 5.0 : 3.0,
                kind == ScatterPoint::Kind::Front ? "#d62728" : "#7f7f7f",
                kind == ScatterPoint::Kind::Front ? 1.0 : 0.4, title));
    }
  absl::StrAppend(&svg, "</svg>");
  return svg;
}

/// Horizontal bars: each edit's accuracy change alone and without it.
std::string ablationSvg(const VariantFinding &v, const Measurement &base) {
  const double rowHeight = 22, width = 640, middle = 320, scale = 2400;
  double height = 30 + rowHeight * v.edits.size();
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
      "class=\"ablation\"><line x1=\"%g\" y1=\"0\" x2=\"%g\" y2=\"%g\" "
      "stroke=\"#444\"/><text x=\"4\" y=\"14\" font-size=\"11\">accuracy "
      "change alone (green/red) and lost without it (blue); 1 point = 24 "
      "px</text>",
      width, height, middle, middle, height);
  for (size_t i = 0; i < v.edits.size(); ++i) {
    double y = 22 + rowHeight * i;
    auto bar = [&](double change, double offset, const char *colour) {
      double w = std::min(std::fabs(change) * scale, middle - 40);
      double x = change >= 0 ? middle : middle - w;
      return absl::StrFormat("<rect x=\"%g\" y=\"%g\" width=\"%g\" "
                             "height=\"8\" fill=\"%s\"/>",
                             x, y + offset, std::max(w, 1.0), colour);
    };
    const EditFinding &e = v.edits[i];
    if (e.alone && e.alone->ok()) {
      double change =
          e.alone->validation.accuracy() - base.validation.accuracy();
      absl::StrAppend(&svg,
                      bar(change, 0, change >= 0 ? "#2ca02c" : "#d62728"));
    }
    if (e.without && e.without->ok())
      absl::StrAppend(&svg, bar(v.minimal.validation.accuracy() -
                                    e.without->validation.accuracy(),
                                9, "#1f77b4"));
    absl::StrAppend(&svg, absl::StrFormat("<text x=\"4\" y=\"%g\" "
                                          "font-size=\"11\">%d</text>",
                                          y + 12, i + 1));
  }
  return svg + "</svg>";
}

const char *kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1100px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;"
    "font-size:13px}th{background:#f3f3f3}"
    "pre{margin:0;font-size:11px;white-space:pre-wrap;max-width:420px}"
    ".label{font-weight:bold}.yes{color:#2ca02c}.no{color:#d62728}";

} // namespace

std::string escapeHtml(const std::string &text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

std::string toHtml(const AnalysisReport &r) {
  std::string h = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
      "<title>gevo-ml analysis: ",
      escapeHtml(r.workload), "</title><style>", kStyle,
      "</style></head><body>\n<h1>gevo-ml analysis: ", escapeHtml(r.workload),
      "</h1>\n<p>Source: <code>", escapeHtml(r.source),
      "</code>. Objectives: ", escapeHtml(absl::StrJoin(r.objectives, ", ")),
      ". Unmodified program: validation accuracy ",
      pct(r.baseline.validation.accuracy()),
      absl::StrFormat(", run %.2f ms", r.baseline.medianRunMs), ".</p>\n",
      "<h2>Every evaluated variant</h2>\n<p>Grey: evaluated; red: the Pareto "
      "front; black square: the unmodified program.</p>\n",
      scatterSvg(r), "\n");
  for (const VariantFinding &v : r.variants) {
    absl::StrAppend(&h, "<h2>", escapeHtml(v.name), "</h2>\n");
    if (!v.error.empty()) {
      absl::StrAppend(&h, "<p class=\"no\">Not analysed: ", escapeHtml(v.error),
                      "</p>\n");
      continue;
    }
    absl::StrAppend(
        &h,
        absl::StrFormat(
            "<p>%d of %d edits kept (minimiser %s: %d subsets tested, %d "
            "evaluated); minimal patch <code>%s</code>: validation accuracy "
            "%s (unmodified %s), run x%.3f of the unmodified program.</p>\n",
            v.edits.size(), v.originalEdits, escapeHtml(v.minimizer), v.tests,
            v.evaluations, escapeHtml(v.minimizedPath),
            pct(v.minimal.validation.accuracy()),
            pct(r.baseline.validation.accuracy()), v.minimal.runtimeRatio));
    if (v.optimized.checked)
      absl::StrAppend(
          &h, "<p>After canonicalize, cse and LLVM -O3: ",
          v.optimized.survives ? "<span class=\"yes\">the gain survives</span>"
                               : "<span class=\"no\">the gain does not "
                                 "survive</span>",
          absl::StrFormat(" (run x%.3f, accuracy %s vs %s). ",
                          v.optimized.runtimeRatio, pct(v.optimized.accuracy),
                          pct(v.optimized.baselineAccuracy)),
          escapeHtml(v.optimized.detail), "</p>\n");
    absl::StrAppend(&h, "<table><tr><th>#</th><th>label</th><th>evidence</th>"
                        "<th>alone</th><th>relation</th><th>MLIR before</th>"
                        "<th>MLIR after</th></tr>\n");
    for (size_t i = 0; i < v.edits.size(); ++i) {
      const EditFinding &e = v.edits[i];
      absl::StrAppend(
          &h, "<tr><td>", i + 1, "</td><td><span class=\"label\">",
          escapeHtml(e.label.kind), "</span><br/>",
          escapeHtml(labelDetail(e.label)), "<br/><code>", escapeHtml(e.line),
          "</code></td><td>", escapeHtml(e.label.evidence), "</td><td>",
          escapeHtml(measured(e.alone, r.baseline)), "</td><td>",
          escapeHtml(e.relation), "</td><td><pre>", escapeHtml(e.before),
          "</pre></td><td><pre>", escapeHtml(e.after), "</pre></td></tr>\n");
    }
    absl::StrAppend(&h, "</table>\n", ablationSvg(v, r.baseline), "\n");
    if (!v.pairs.empty()) {
      absl::StrAppend(&h, "<table><tr><th>pair</th><th>relation</th>"
                          "<th>together</th></tr>\n");
      for (const PairFinding &p : v.pairs)
        absl::StrAppend(&h, "<tr><td>", p.first, " + ", p.second, "</td><td>",
                        escapeHtml(p.relation), "</td><td>",
                        escapeHtml(p.together), "</td></tr>\n");
      absl::StrAppend(&h, "</table>\n");
    }
  }
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
  absl::StrAppend(&h, "</body></html>\n");
  return h;
}

std::string toMarkdown(const AnalysisReport &r) {
  auto cell = [](const std::string &text) {
    return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
  };
  std::string md = absl::StrCat(
      "# gevo-ml analysis: ", r.workload, "\n\nSource: `", r.source,
      "`. Objectives: ", absl::StrJoin(r.objectives, ", "),
      ". Unmodified program: validation accuracy ",
      pct(r.baseline.validation.accuracy()),
      absl::StrFormat(", run %.2f ms", r.baseline.medianRunMs), ".\n\n");
  size_t front = std::count_if(r.points.begin(), r.points.end(), [](auto &p) {
    return p.kind == ScatterPoint::Kind::Front;
  });
  absl::StrAppend(&md, r.points.size(), " variants in objective space, ", front,
                  " on the front (the HTML report plots them).\n");
  for (const VariantFinding &v : r.variants) {
    absl::StrAppend(&md, "\n## ", v.name, "\n\n");
    if (!v.error.empty()) {
      absl::StrAppend(&md, "Not analysed: ", v.error, "\n");
      continue;
    }
    absl::StrAppend(
        &md,
        absl::StrFormat(
            "%d of %d edits kept (minimiser %s: %d subsets tested, %d "
            "evaluated); minimal patch `%s`: validation accuracy "
            "%s (unmodified %s), run x%.3f.\n",
            v.edits.size(), v.originalEdits, v.minimizer, v.tests,
            v.evaluations, v.minimizedPath,
            pct(v.minimal.validation.accuracy()),
            pct(r.baseline.validation.accuracy()), v.minimal.runtimeRatio));
    if (v.optimized.checked)
      absl::StrAppend(
          &md, absl::StrFormat(
                   "\nAfter canonicalize, cse and LLVM -O3: the gain %s "
                   "(run x%.3f, accuracy %s vs %s). %s\n",
                   v.optimized.survives ? "survives" : "does not survive",
                   v.optimized.runtimeRatio, pct(v.optimized.accuracy),
                   pct(v.optimized.baselineAccuracy), v.optimized.detail));
    absl::StrAppend(&md,
                    "\n| # | label | evidence | alone | relation | edit |\n"
                    "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < v.edits.size(); ++i) {
      const EditFinding &e = v.edits[i];
      std::string detail = labelDetail(e.label);
      absl::StrAppend(&md, "| ", i + 1, " | **", cell(e.label.kind), "**",
                      detail.empty() ? "" : ": " + cell(detail), " | ",
                      cell(e.label.evidence), " | ",
                      cell(measured(e.alone, r.baseline)), " | ",
                      cell(e.relation), " | `", cell(e.line), "` |\n");
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
  }
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

std::string toJson(const AnalysisReport &r) {
  auto measurement =
      [](const std::optional<Measurement> &m) -> llvm::json::Value {
    if (!m)
      return nullptr;
    return llvm::json::Object{{"outcome", toString(m->outcome)},
                              {"validation_accuracy", m->validation.accuracy()},
                              {"runtime_ratio", m->runtimeRatio},
                              {"static_cost", m->staticCost},
                              {"detail", m->detail}};
  };
  llvm::json::Array variants;
  for (const VariantFinding &v : r.variants) {
    llvm::json::Array edits;
    for (const EditFinding &e : v.edits)
      edits.push_back(llvm::json::Object{{"edit", e.line},
                                         {"label", e.label.kind},
                                         {"summary", e.label.summary},
                                         {"evidence", e.label.evidence},
                                         {"roles", e.label.roles},
                                         {"factor", e.label.factor},
                                         {"pruned", e.label.pruned},
                                         {"total", e.label.total},
                                         {"relation", e.relation},
                                         {"alone", measurement(e.alone)},
                                         {"without", measurement(e.without)},
                                         {"before", e.before},
                                         {"after", e.after}});
    llvm::json::Array pairs;
    for (const PairFinding &p : v.pairs)
      pairs.push_back(
          llvm::json::Object{{"first", static_cast<int64_t>(p.first)},
                             {"second", static_cast<int64_t>(p.second)},
                             {"relation", p.relation},
                             {"together", p.together}});
    variants.push_back(llvm::json::Object{
        {"name", v.name},
        {"minimized", v.minimizedPath},
        {"error", v.error},
        {"original_edits", static_cast<int64_t>(v.originalEdits)},
        {"minimizer", v.minimizer},
        {"tests", v.tests},
        {"evaluations", v.evaluations},
        {"full", measurement(v.full)},
        {"minimal", measurement(v.minimal)},
        {"edits", std::move(edits)},
        {"pairs", std::move(pairs)},
        {"optimized",
         llvm::json::Object{{"checked", v.optimized.checked},
                            {"survives", v.optimized.survives},
                            {"runtime_ratio", v.optimized.runtimeRatio},
                            {"accuracy", v.optimized.accuracy},
                            {"baseline_accuracy", v.optimized.baselineAccuracy},
                            {"detail", v.optimized.detail}}},
    });
  }
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
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(object))).str() +
         "\n";
}

} // namespace gevo
