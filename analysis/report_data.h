//===- report_data.h - What the analyzer found, as plain data -------------===//
//
// The findings a report renders (no MLIR, no rendering): per variant its
// minimal patch, each edit's label, evidence and ablation, pairs of edits
// and the optimized-pipeline check; the evaluated variants in objective
// space; operator statistics. report.h renders them; report_svg.h draws
// their figures.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_REPORT_DATA_H
#define ANALYSIS_REPORT_DATA_H

#include <optional>
#include <string>
#include <vector>

#include "analysis/effect_label.h"
#include "gevo/eval/measurement.h"

namespace gevo {

struct EditFinding {
  std::string line; // the edit as its patch line
  EffectLabel label;
  std::string relation; // from the ablation
  std::optional<Measurement> alone, without;
  std::string before, after; // the ops it touches, printed
};

struct PairFinding {
  size_t first = 0, second = 0; // 1-based edit numbers
  std::string relation;
  std::string together; // what the pair does, in words
};

struct OptimizedCheck {
  bool checked = false;
  bool survives = false;
  double runtimeRatio = 0;
  double accuracy = 0, baselineAccuracy = 0;
  std::string detail;
  /// The pipeline it was checked under, in words (empty in older reports).
  std::string pipeline;
};

struct VariantFinding {
  std::string name;          // e.g. front/03.gevo
  std::string minimizedPath; // where the minimal patch was written
  size_t originalEdits = 0;
  int tests = 0, evaluations = 0;
  std::string minimizer;     // which method kept the edits ("split", "ddmin")
  Measurement full, minimal; // interleaved with the unmodified program
  std::vector<EditFinding> edits;
  std::vector<PairFinding> pairs;
  OptimizedCheck optimized;
  std::string error; // why it could not be analysed, if it could not
};

struct ScatterPoint {
  enum class Kind { Evaluated, Front, Baseline };
  double x = 0, y = 0;
  Kind kind = Kind::Evaluated;
  std::string label; // tooltip
};

struct AnalysisReport {
  std::string workload;
  std::string source; // the run directory or patch analysed
  std::vector<std::string> objectives;
  Measurement baseline;
  std::vector<ScatterPoint> points; // objectives[0] (x) vs objectives[1] (y)
  std::vector<std::string> operatorHeader;
  std::vector<std::vector<std::string>> operatorRows;
  /// operator_weights.csv: "generation" then one column per operator.
  std::vector<std::string> weightHeader;
  std::vector<std::vector<std::string>> weightRows;
  std::vector<VariantFinding> variants;
  /// Empty when every patch was analysed; else says how far it got.
  std::string partial;
};

} // namespace gevo

#endif // ANALYSIS_REPORT_DATA_H
