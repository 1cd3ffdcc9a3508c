//===- report_svg.h - The report's figures as inline SVG ------------------===//
//
// The two figures of the HTML report, drawn as self-contained SVG: every
// evaluated variant in the space of the first two objectives (the front and
// the unmodified program marked), and per variant the ablation bars (each
// edit's accuracy change alone, and what the patch loses without it).
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_REPORT_SVG_H
#define ANALYSIS_REPORT_SVG_H

#include <string>

#include "analysis/report_data.h"

namespace gevo {

/// The scatter plot of `report.points` over the first two objectives.
std::string scatterSvg(const AnalysisReport &report);

/// Horizontal bars: each edit's accuracy change alone and without it.
std::string ablationSvg(const VariantFinding &variant,
                        const Measurement &baseline);

/// A line per operator: the chance NSGA-II gave it, generation by
/// generation (report.weightRows), with a legend.
std::string operatorWeightsSvg(const AnalysisReport &report);

} // namespace gevo

#endif // ANALYSIS_REPORT_SVG_H
