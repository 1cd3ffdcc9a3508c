//===- report_svg.cc - The report's figures as inline SVG -----------------===//

#include "analysis/report_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/report_escape.h"

namespace gevo {

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

std::string operatorWeightsSvg(const AnalysisReport &r) {
  static const char *const colours[] = {
      "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  const double width = 640, height = 300, left = 50, right = 130, top = 15,
               bottom = 40;
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
      "class=\"weights\">",
      width, height);
  if (r.weightRows.empty() || r.weightHeader.size() < 2)
    return svg + "<text x=\"20\" y=\"40\">no operator weights</text></svg>";
  double firstGeneration = std::atof(r.weightRows.front()[0].c_str());
  double lastGeneration = std::atof(r.weightRows.back()[0].c_str());
  double maxWeight = 0;
  for (const std::vector<std::string> &row : r.weightRows)
    for (size_t c = 1; c < row.size(); ++c)
      maxWeight = std::max(maxWeight, std::atof(row[c].c_str()));
  if (lastGeneration <= firstGeneration)
    lastGeneration = firstGeneration + 1;
  if (maxWeight <= 0)
    maxWeight = 1;
  auto sx = [&](double g) {
    return left + (g - firstGeneration) / (lastGeneration - firstGeneration) *
                      (width - left - right);
  };
  auto sy = [&](double w) {
    return height - bottom - w / maxWeight * (height - top - bottom);
  };
  absl::StrAppend(
      &svg,
      absl::StrFormat("<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
                      "fill=\"none\" stroke=\"#999\"/>"
                      "<text x=\"%g\" y=\"%g\" font-size=\"12\" "
                      "text-anchor=\"middle\">generation %g .. %g</text>"
                      "<text x=\"%g\" y=\"%g\" font-size=\"11\" "
                      "text-anchor=\"end\">%.2f</text>",
                      left, top, width - left - right, height - top - bottom,
                      (left + width - right) / 2, height - 12, firstGeneration,
                      lastGeneration, left - 4, top + 10, maxWeight));
  for (size_t c = 1; c < r.weightHeader.size(); ++c) {
    const char *colour = colours[(c - 1) % (sizeof colours / sizeof *colours)];
    std::string points;
    for (const std::vector<std::string> &row : r.weightRows)
      if (c < row.size())
        absl::StrAppend(&points,
                        absl::StrFormat("%.1f,%.1f ",
                                        sx(std::atof(row[0].c_str())),
                                        sy(std::atof(row[c].c_str()))));
    double legendY = top + 14 * c;
    absl::StrAppend(
        &svg,
        absl::StrFormat("<polyline class=\"weight\" fill=\"none\" "
                        "stroke=\"%s\" stroke-width=\"2\" points=\"%s\">"
                        "<title>%s</title></polyline>",
                        colour, points, escapeHtml(r.weightHeader[c])),
        absl::StrFormat("<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" "
                        "stroke=\"%s\" stroke-width=\"3\"/><text x=\"%g\" "
                        "y=\"%g\" font-size=\"11\">%s</text>",
                        width - right + 10, legendY - 4, width - right + 28,
                        legendY - 4, colour, width - right + 32, legendY,
                        escapeHtml(r.weightHeader[c])));
  }
  return svg + "</svg>";
}

} // namespace gevo
