//===- report.h - A patch's or a run's analysis: HTML, Markdown, JSON -----===//
//
// Three renderings of what the analyzer found (report_data.h): a
// self-contained HTML page (inline SVG from report_svg.h: every evaluated
// variant in objective space with the front and the unmodified program
// marked, and ablation bars; tables of edits with label, evidence and MLIR
// before and after; operator statistics), the same content as Markdown, and
// JSON.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_REPORT_H
#define ANALYSIS_REPORT_H

#include <string>

#include "analysis/report_data.h"
#include "analysis/report_escape.h"

namespace gevo {

std::string toHtml(const AnalysisReport &report);
std::string toMarkdown(const AnalysisReport &report);
std::string toJson(const AnalysisReport &report);

} // namespace gevo

#endif // ANALYSIS_REPORT_H
