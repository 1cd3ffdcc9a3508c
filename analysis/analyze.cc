//===- analyze.cc - From a search run or a patch to a labelled report -----===//

#include "analysis/analyze.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "analysis/ablation.h"
#include "analysis/ddmin.h"
#include "analysis/labels.h"
#include "analysis/minimize.h"
#include "analysis/patch_progress.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/build_variant.h"
#include "gevo/workbench/run_directory.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

std::string printOp(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, mlir::OpPrintingFlags().skipRegions());
  os.flush();
  return text;
}

/// The ops edit `index` touches, printed before and after it.
std::pair<std::string, std::string> touchedOps(mlir::ModuleOp baseline,
                                               const std::vector<Edit> &edits,
                                               size_t index) {
  // The edits before it, as the minimal patch applies them.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildVariant(baseline,
                   std::vector<Edit>(edits.begin(), edits.begin() + index))
          .module;
  const Edit &edit = edits[index];
  AddressIndex addresses(*module);
  std::vector<mlir::Operation *> shown;
  mlir::Operation *target = nullptr;
  if (auto t = addresses.resolve(edit.target); t.ok())
    shown.push_back(target = t->op);
  if (hasAnchor(edit.kind))
    if (auto a = addresses.resolve(edit.anchor); a.ok())
      shown.push_back(a->op);
  for (const Rewire &rewire : edit.rewires)
    if (!rewire.userIsNew)
      if (auto u = addresses.resolve(rewire.user);
          u.ok() && std::find(shown.begin(), shown.end(), u->op) == shown.end())
        shown.push_back(u->op);
  std::string before, after;
  for (mlir::Operation *op : shown)
    absl::StrAppend(&before, before.empty() ? "" : "\n", printOp(op));
  bool targetGoes =
      edit.kind == EditKind::Delete || edit.kind == EditKind::Replace;
  if (!applyEdit(*module, edit).ok())
    return {before, "(the edit does not apply here)"};
  for (mlir::Operation *op : shown) {
    if (targetGoes && op == target) {
      absl::StrAppend(&after, after.empty() ? "" : "\n", "// (",
                      edit.kind == EditKind::Delete ? "deleted" : "replaced",
                      ") ", edit.target.opName);
      continue;
    }
    absl::StrAppend(&after, after.empty() ? "" : "\n", printOp(op));
  }
  return {before, after};
}

std::string describe(const std::optional<Measurement> &m) {
  if (!m)
    return "does not build";
  if (!m->ok())
    return toString(m->outcome);
  return absl::StrFormat("accuracy %.4f, run x%.3f", m->validation.accuracy(),
                         m->runtimeRatio);
}

/// One analysis over one workload: workbenches (as built for the search, and
/// optimized) shared by every patch analysed.
class Analyzer {
public:
  static absl::StatusOr<std::unique_ptr<Analyzer>>
  create(const std::string &workloadPath, AnalyzeOptions options) {
    std::unique_ptr<Analyzer> a(new Analyzer());
    a->options = std::move(options);
    GEVO_ASSIGN_OR_RETURN(a->spec, loadWorkloadSpec(workloadPath));
    if (a->options.effect.objectives.empty())
      a->options.effect.objectives = a->spec.objectives;
    WorkbenchOptions benchOptions;
    benchOptions.workers = a->options.workers;
    benchOptions.evaluation.pipeline = a->options.pipeline;
    if (!a->options.target.empty())
      benchOptions.evaluation.target = a->options.target;
    GEVO_ASSIGN_OR_RETURN(a->bench, Workbench::create(a->spec, benchOptions));
    if (a->options.connectRemote)
      a->bench->setRemote(a->options.connectRemote(workloadPath, benchOptions));
    if (a->options.checkOptimized) {
      WorkbenchOptions other = benchOptions;
      a->otherPipeline =
          useOtherPipeline(a->options.pipeline, other.evaluation);
      GEVO_ASSIGN_OR_RETURN(a->optimizedBench,
                            Workbench::create(a->spec, other));
    }
    if (!a->options.importCache.empty())
      GEVO_RETURN_IF_ERROR(a->bench->cache().import(a->options.importCache));
    return a;
  }

  const WorkloadSpec &workload() const { return spec; }
  Workbench &workbench() { return *bench; }
  const AnalyzeOptions &settings() const { return options; }

  VariantFinding analyze(const std::string &name, const Patch &patch,
                         PatchProgress &progress) {
    VariantFinding v;
    v.name = name;
    std::vector<Edit> edits = patch.edits();
    v.originalEdits = edits.size();
    PatchEffect effect(*bench, edits, options.effect);
    absl::StatusOr<MinimizeResult> minimized =
        minimizePatch(effect, options.minimizer);
    if (!minimized.ok()) { // the full patch is not ok: say how, never ok
      v.error = std::string(minimized.status().message());
      std::optional<Measurement> full = effect.measure(allItems(edits.size()));
      v.full = v.minimal = full ? *full
                                : failedMeasurement(Outcome::InvalidIr,
                                                    "its edits do not apply");
      return v;
    }
    v.minimizer = minimizerName(options.minimizer);
    v.tests = minimized->tests;
    v.evaluations = minimized->evaluations;
    v.full = minimized->full;
    std::vector<Edit> minimal = minimized->keptEdits;
    // Write the minimal patch beside the report.
    std::string stem = name;
    for (char &c : stem)
      if (c == '/')
        c = '_';
    if (stem.size() > 5 && stem.substr(stem.size() - 5) == ".gevo")
      stem.resize(stem.size() - 5);
    v.minimizedPath = stem + ".min.gevo";
    Patch minimalPatch =
        minimizedPatch(patch, name, *minimized, options.effect.objectives);
    std::ofstream(options.outDir + "/" + v.minimizedPath)
        << printPatch(minimalPatch);

    progress.step(absl::StrCat("ablating the minimal patch (",
                               editCount(minimal.size()), ")"));
    PatchEffect minimalEffect(*bench, minimal, options.effect);
    Ablation ablation = ablate(minimalEffect);
    v.minimal = ablation.full;
    for (size_t i = 0; i < minimal.size(); ++i) {
      EditEvidence evidence;
      evidence.baseline = ablation.baseline;
      evidence.alone = ablation.alone[i];
      evidence.without = ablation.without[i];
      evidence.full = ablation.full;
      evidence.noise = options.effect.runtimeTolerance;
      EditFinding finding;
      finding.line = printEdit(minimal[i]);
      finding.label =
          labelEdit(bench->unmodified(), spec, minimal, i, evidence);
      finding.relation = ablation.relations[i];
      finding.alone = ablation.alone[i];
      finding.without = ablation.without[i];
      std::tie(finding.before, finding.after) =
          touchedOps(bench->unmodified(), minimal, i);
      v.edits.push_back(std::move(finding));
    }
    for (const PairEffect &pair : ablation.pairs)
      v.pairs.push_back(PairFinding{pair.first + 1, pair.second + 1,
                                    pair.relation, describe(pair.together)});
    if (optimizedBench) {
      progress.step("the -O3 check");
      v.optimized = checkOptimized(minimal, ablation);
    }
    return v;
  }

private:
  Analyzer() = default;

  /// GEVO's -O2 check, as "does the gain survive the other pipeline": does
  /// the minimal patch still pay off when both programs are compiled by the
  /// other CPU pipeline (useOtherPipeline())?
  OptimizedCheck checkOptimized(const std::vector<Edit> &minimal,
                                const Ablation &ablation) {
    OptimizedCheck check;
    check.checked = true;
    // Both measured afresh, each interleaved with the unmodified program.
    auto measureOnce = [&](const std::vector<Edit> &edits, double maxSeconds) {
      FitnessCache fresh;
      BatchRequest request;
      request.run.interleavedPairs = std::max(1, options.effect.pairs);
      request.cache = &fresh;
      request.maxSeconds = maxSeconds;
      return *optimizedBench->measure({edits}, request)[0].measurement;
    };
    if (!optimizedBaseline) {
      SteadyClock::time_point start = SteadyClock::now();
      optimizedBaseline = measureOnce({}, 0);
      optimizedSeconds = secondsSince(start);
    }
    if (!optimizedBaseline->ok()) {
      check.detail = absl::StrCat("the unmodified program's optimized build: ",
                                  toString(optimizedBaseline->outcome), " (",
                                  optimizedBaseline->detail, ")");
      return check;
    }
    // The same evaluation of a variant (the unmodified program compiled and
    // run beside it) gets five times as long as the unmodified program's
    // took, as in the search, and never less than 5 s: an optimized variant
    // that hangs is reported in seconds, not after the pool's limit.
    Measurement variant =
        measureOnce(minimal, std::max(5.0, 5 * optimizedSeconds));
    if (!variant.ok()) {
      check.detail =
          absl::StrCat("optimized build: ", toString(variant.outcome), " (",
                       variant.detail, ")");
      return check;
    }
    check.pipeline = otherPipeline;
    check.runtimeRatio = variant.runtimeRatio;
    check.accuracy = variant.validation.accuracy();
    check.baselineAccuracy = optimizedBaseline->validation.accuracy();
    double tol = options.effect.runtimeTolerance;
    bool fasterBefore =
        ablation.full.runtimeRatio > 0 && ablation.full.runtimeRatio < 1 - tol;
    bool betterBefore = ablation.full.validation.accuracy() >
                        ablation.baseline.validation.accuracy();
    bool fasterAfter = variant.runtimeRatio < 1 - tol;
    bool betterAfter = check.accuracy > check.baselineAccuracy;
    check.survives = (fasterBefore || betterBefore) &&
                     (!fasterBefore || fasterAfter) &&
                     (!betterBefore || betterAfter);
    check.detail = absl::StrCat(
        fasterBefore ? (fasterAfter ? "still faster" : "no longer faster")
        : ablation.full.runtimeRatio > 0
            ? "was not faster"
            : "run time was not an objective (not compared before)",
        "; ",
        betterBefore
            ? (betterAfter ? "still more accurate" : "no longer more accurate")
            : "was not more accurate");
    return check;
  }

  AnalyzeOptions options;
  WorkloadSpec spec;
  std::unique_ptr<Workbench> bench, optimizedBench;
  std::string otherPipeline; // in words, for the report
  std::optional<Measurement> optimizedBaseline;
  double optimizedSeconds = 0; // its evaluation's wall time
};

} // namespace

absl::StatusOr<AnalysisReport>
analyzePatches(const std::string &workloadPath,
               const std::vector<std::pair<std::string, Patch>> &patches,
               AnalyzeOptions options) {
  GEVO_RETURN_IF_ERROR(makeDirectory(options.outDir));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> analyzer,
                        Analyzer::create(workloadPath, options));
  AnalysisReport report;
  report.source = options.source;
  report.workload = analyzer->workload().name;
  report.objectives = analyzer->settings().effect.objectives;
  GEVO_RETURN_IF_ERROR(analyzer->workbench().measureBaseline());
  report.baseline = analyzer->workbench().baseline();
  size_t limit = std::min<size_t>(patches.size(), options.maxVariants > 0
                                                      ? options.maxVariants
                                                      : patches.size());
  std::vector<size_t> edits;
  for (size_t i = 0; i < limit; ++i)
    edits.push_back(patches[i].second.edits().size());
  // Without a run, the plot shows the unmodified program, each full patch,
  // its minimal form and its edits alone.
  auto point = [&](const Measurement &m, ScatterPoint::Kind kind,
                   const std::string &label) {
    if (!m.ok() || report.objectives.size() < 2)
      return;
    report.points.push_back(
        ScatterPoint{objectiveValue(m, report.objectives[0]),
                     objectiveValue(m, report.objectives[1]), kind, label});
  };
  point(report.baseline, ScatterPoint::Kind::Baseline, "unmodified");
  PatchProgress progress(options.progress, "analyze", edits,
                         secondsPerEvaluation(report.baseline));
  for (size_t i = 0; i < limit; ++i) {
    progress.begin(i, patches[i].first);
    const VariantFinding &v = report.variants.emplace_back(
        analyzer->analyze(patches[i].first, patches[i].second, progress));
    progress.finished(i);
    point(v.full, ScatterPoint::Kind::Front, v.name);
    for (const EditFinding &e : v.edits)
      if (e.alone)
        point(*e.alone, ScatterPoint::Kind::Evaluated, e.line);
    // Each finished patch is in the report at once: a stopped analysis
    // leaves a valid report of the patches it finished.
    if (i + 1 < limit) {
      report.partial = absl::StrCat(i + 1, " of ", limit,
                                    " patches analysed; the analysis was "
                                    "still running");
      GEVO_RETURN_IF_ERROR(writeReport(report, options.outDir));
    }
  }
  report.partial.clear();
  return report;
}

absl::StatusOr<AnalysisReport> analyzeRun(const std::string &runDir,
                                          AnalyzeOptions options) {
  RunDirectory run(runDir);
  GEVO_ASSIGN_OR_RETURN(RunInfo info, run.readRun());
  if (options.effect.objectives.empty())
    options.effect.objectives = info.objectives;
  if (options.importCache.empty())
    options.importCache = run.cachePath();
  if (const llvm::json::Object *config = info.config.getAsObject()) {
    if (options.pipeline.empty())
      options.pipeline = config->getString("pipeline").value_or("").str();
    if (options.target.empty())
      options.target = config->getString("target").value_or("").str();
  }
  options.source = runDir;
  GEVO_ASSIGN_OR_RETURN(std::vector<FrontEntry> front, run.readFront());
  std::vector<std::pair<std::string, Patch>> patches;
  std::set<std::string> frontKeys;
  for (const FrontEntry &member : front) {
    if (!member.key.empty())
      frontKeys.insert(member.key);
    GEVO_ASSIGN_OR_RETURN(Patch patch, run.readPatch(member.patchPath));
    patches.push_back({member.patchPath, std::move(patch)});
  }
  GEVO_ASSIGN_OR_RETURN(AnalysisReport report,
                        analyzePatches(info.workloadPath, patches, options));

  // Every evaluated variant from history.csv.
  report.points.erase(std::remove_if(report.points.begin(), report.points.end(),
                                     [](const ScatterPoint &p) {
                                       return p.kind !=
                                              ScatterPoint::Kind::Baseline;
                                     }),
                      report.points.end());
  CsvTable history = run.readHistory();
  size_t keyColumn = history.column("key");
  size_t outcomeColumn = history.column("outcome");
  size_t xColumn = report.objectives.size() >= 2
                       ? history.column(report.objectives[0])
                       : history.header.size();
  size_t yColumn = report.objectives.size() >= 2
                       ? history.column(report.objectives[1])
                       : history.header.size();
  std::set<std::string> seen;
  for (const std::vector<std::string> &cells : history.rows) {
    if (xColumn >= cells.size() || yColumn >= cells.size() ||
        outcomeColumn >= cells.size() || cells[outcomeColumn] != "ok" ||
        !seen.insert(cells[keyColumn]).second)
      continue;
    ScatterPoint p;
    p.x = std::atof(cells[xColumn].c_str());
    p.y = std::atof(cells[yColumn].c_str());
    p.kind = frontKeys.count(cells[keyColumn]) ? ScatterPoint::Kind::Front
                                               : ScatterPoint::Kind::Evaluated;
    p.label = absl::StrCat("generation ", cells[0], ": ", cells[keyColumn]);
    report.points.push_back(p);
  }
  CsvTable operators = run.readOperators();
  report.operatorHeader = operators.header;
  report.operatorRows = operators.rows;
  CsvTable weights = run.readOperatorWeights();
  report.weightHeader = weights.header;
  report.weightRows = weights.rows;
  return report;
}

} // namespace gevo
