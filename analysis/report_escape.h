//===- report_escape.h - Text made safe for the HTML report ---------------===//
//
// Escaping for text placed in the report's HTML and its SVG figures; shared
// by report.cc and report_svg.cc so that neither includes the other.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_REPORT_ESCAPE_H
#define ANALYSIS_REPORT_ESCAPE_H

#include <string>

namespace gevo {

/// `text` with &, <, >, " escaped for HTML.
std::string escapeHtml(const std::string &text);

} // namespace gevo

#endif // ANALYSIS_REPORT_ESCAPE_H
