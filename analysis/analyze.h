//===- analyze.h - From a search run or a patch to a labelled report ------===//
//
// For each patch (every front member of a run, or one given patch): a
// minimiser (binary splitting unless told otherwise) shrinks it to the edits
// that matter (the minimal patch is written beside the report), the minimal
// patch is ablated (each edit alone, each removed, pairs), every edit is
// labelled with evidence, the ops it touches are printed before and after, and
// the gain is checked again under the other CPU pipeline (GEVO's -O2 check,
// here: a gain found on the vectorising pipeline must survive the plain one
// after canonicalize, cse and LLVM -O3, and a gain found on the plain one must
// survive the vectorising one).
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_ANALYZE_H
#define ANALYSIS_ANALYZE_H

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/minimize.h"
#include "analysis/patch_effect.h"
#include "analysis/report.h"
#include "replay/patch.h"

namespace gevo {

class RemoteRunner;
struct WorkbenchOptions;

struct AnalyzeOptions {
  EffectOptions effect; // objectives empty: the workload's
  int workers = 0;      // 0: one per core
  Minimizer minimizer = Minimizer::Split;
  bool checkOptimized = true;
  /// The pipeline variants are measured with (--pipeline's values; empty:
  /// the default, "vector"); the check uses the other one.
  std::string pipeline;
  /// Where variants run, as //gevo:search's --target (empty: the run's, else
  /// cpu); on cuda the check measures the CPU target.
  std::string target;
  /// Most front members analysed (0: all).
  int maxVariants = 0;
  /// Where the report and the minimal patches go.
  std::string outDir;
  /// A fitness cache to read (a run's cache.jsonl); used for deterministic
  /// objectives only, and never written.
  std::string importCache;
  /// Per-patch progress lines (at least every 10 s), or null.
  std::FILE *progress = nullptr;
  /// What the report names as its source (the run directory or patch).
  std::string source;
  /// Set (--backend=mpi): called once with the workload and the options of
  /// the analysis's workbench; the plain measurements of that workbench run
  /// on the runner it returns (the -O3 check's stay here).
  std::function<RemoteRunner *(const std::string &workloadPath,
                               const WorkbenchOptions &options)>
      connectRemote;
};

/// Analyses every front member of a search run directory.
absl::StatusOr<AnalysisReport> analyzeRun(const std::string &runDir,
                                          AnalyzeOptions options);

/// Analyses patches of one workload (name, patch). The report of the patches
/// finished so far is written into `outDir` after each one, so a stopped
/// analysis leaves a valid (partial) report.
absl::StatusOr<AnalysisReport>
analyzePatches(const std::string &workloadPath,
               const std::vector<std::pair<std::string, Patch>> &patches,
               AnalyzeOptions options);

/// Writes report.html, report.md and report.json into `dir`, each whole
/// (written aside, then renamed).
absl::Status writeReport(const AnalysisReport &report, const std::string &dir);

} // namespace gevo

#endif // ANALYSIS_ANALYZE_H
