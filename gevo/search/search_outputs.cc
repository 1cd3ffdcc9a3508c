//===- search_outputs.cc - What a finished search writes and prints -------===//

#include "gevo/search/search_outputs.h"

#include <cctype>
#include <ctime>
#include <fstream>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gevo/search/checkpoint.h"
#include "gevo/support/status_macros.h"
#include "gevo/workbench/history_writer.h"
#include "gevo/workbench/run_directory.h"
#include "replay/patch.h"
#include "llvm/Support/JSON.h"
#include <sys/stat.h>

namespace gevo {
namespace {

/// Whether `m` (re-measured) dominates the unmodified program, with run-time
/// ratios within 1 ± noise counting as equal.
bool dominatesBaseline(const Measurement &m, const Measurement &base,
                       const std::vector<std::string> &names, double noise) {
  bool better = false;
  for (const std::string &name : names) {
    double cmp; // < 0 better, > 0 worse
    if (name == "runtime") {
      double ratio = m.runtimeRatio;
      cmp = ratio < 1 - noise ? -1 : ratio > 1 + noise ? 1 : 0;
    } else {
      double a = objectiveValue(m, name), b = objectiveValue(base, name);
      cmp = a < b ? -1 : a > b ? 1 : 0;
    }
    if (cmp > 0)
      return false;
    better |= cmp < 0;
  }
  return better;
}

/// front/NN.gevo of member `k`: its edits, objectives as metadata, and
/// comments saying where it came from and how it re-measured.
Patch frontPatch(const SearchResult &result, size_t k,
                 const std::string &modelKey) {
  const FrontMember &member = result.front[k];
  const Measurement &search = member.individual.measurement;
  const Measurement &again = member.remeasured;
  Patch patch;
  patch.model = modelKey;
  patch.source = result.source;
  auto add = [&](const std::string &key, double value, const char *format) {
    patch.metadata.push_back({key, absl::StrFormat(format, value)});
  };
  for (const std::string &name : result.objectives)
    add(name, objectiveValue(search, name), "%.6g");
  add("validation_accuracy", search.validation.accuracy(), "%.4f");
  if (again.ok()) {
    add("runtime_ratio", again.runtimeRatio, "%.4f");
    add("test_accuracy", again.test.accuracy(), "%.4f");
  } else {
    patch.metadata.push_back({"remeasured", toString(again.outcome)});
  }
  patch.metadata.push_back(
      {"generation", std::to_string(member.individual.generation)});
  patch.addComment(absl::StrFormat(
      " front member %d of %d from %s on %s (%s, seed %d)", k + 1,
      result.front.size(), toString(result.config.algorithm.kind),
      result.workloadName, absl::StrJoin(result.objectives, "/"),
      result.config.seed));
  if (again.ok())
    patch.addComment(absl::StrFormat(
        " re-measured: run time x%.3f of the unmodified program (%d "
        "interleaved pairs), validation %.4f (unmodified %.4f), test %.4f%s",
        again.runtimeRatio, again.runMs.size(), again.validation.accuracy(),
        result.baselineRemeasured.validation.accuracy(), again.test.accuracy(),
        member.dominatesBaseline ? "; dominates the unmodified program" : ""));
  for (const Edit &edit : member.individual.edits)
    patch.addEdit(edit);
  return patch;
}

/// Whether member `k` is preferred to `result.best` so far (with its
/// re-measured error `bestError`): one that dominates the unmodified program
/// first, then the lowest error.
bool preferred(const SearchResult &result, size_t k, double bestError) {
  const FrontMember &member = result.front[k];
  if (!member.remeasured.ok())
    return false;
  if (result.best < 0)
    return true;
  const FrontMember &best = result.front[result.best];
  return (member.dominatesBaseline && !best.dominatesBaseline) ||
         (member.dominatesBaseline == best.dominatesBaseline &&
          member.remeasured.error() < bestError);
}

/// front.json's entry for one member.
llvm::json::Object frontEntry(const SearchResult &result,
                              const FrontMember &member) {
  const Measurement &search = member.individual.measurement;
  const Measurement &again = member.remeasured;
  llvm::json::Object entry{
      {"patch", member.patchPath},
      {"edits", static_cast<int64_t>(member.individual.edits.size())},
      {"kinds", kindsOf(member.individual.edits)},
      {"key", member.individual.key},
      {"generation", member.individual.generation},
      {"dominates_baseline", member.dominatesBaseline},
  };
  llvm::json::Object objectiveValues;
  for (const std::string &name : result.objectives)
    objectiveValues[name] = objectiveValue(search, name);
  entry["objectives"] = std::move(objectiveValues);
  entry["search"] = measurementJson(search);
  entry["remeasured"] = llvm::json::Object{
      {"outcome", toString(again.outcome)},
      {"runtime_ratio", again.runtimeRatio},
      {"median_run_ms", again.medianRunMs},
      {"baseline_median_run_ms", again.baselineMedianRunMs},
      {"validation_accuracy", again.validation.accuracy()},
      {"test_accuracy", again.test.accuracy()},
      {"detail", again.detail},
  };
  return entry;
}

/// front.json: the run, the unmodified program, the best patch and the
/// members.
llvm::json::Object frontJson(const SearchResult &result,
                             llvm::json::Array members) {
  return llvm::json::Object{
      {"workload", result.workloadName},
      {"algorithm", toString(result.config.algorithm.kind)},
      {"objectives", llvm::json::Array(result.objectives)},
      {"hypervolume", result.hypervolume},
      {"runtime_noise", result.runtimeNoise},
      {"baseline",
       llvm::json::Object{
           {"median_run_ms", result.baseline.medianRunMs},
           {"validation_accuracy", result.baseline.validation.accuracy()},
           {"test_accuracy", result.baselineRemeasured.test.accuracy()},
           {"self_ratio", result.baselineRemeasured.runtimeRatio},
           {"static_cost", result.baseline.staticCost},
           {"lowered_ops", result.baseline.loweredOps}}},
      {"best", result.best < 0
                   ? llvm::json::Value(nullptr)
                   : llvm::json::Value(result.front[result.best].patchPath)},
      {"members", std::move(members)},
  };
}

/// operators.csv: per operator, variants, how they ended, and its edits in
/// the front.
std::string operatorsCsv(const SearchResult &result,
                         const std::map<EditKind, OperatorStats> &operators) {
  const OperatorStats none;
  std::map<EditKind, int64_t> inFront;
  for (const FrontMember &member : result.front)
    for (const Edit &edit : member.individual.edits)
      ++inFront[edit.kind];
  std::string csv = "operator,variants,ok,failed";
  for (Outcome outcome : kAllOutcomes)
    if (outcome != Outcome::Ok)
      absl::StrAppend(&csv, ",", toString(outcome));
  absl::StrAppend(&csv, ",edits_in_front\n");
  for (EditKind kind : kAllEditKinds) {
    const OperatorStats &stats =
        operators.count(kind) ? operators.at(kind) : none;
    int64_t failed = stats.variants - stats.ok;
    absl::StrAppend(&csv, toString(kind), ",", stats.variants, ",", stats.ok,
                    ",", failed);
    for (Outcome outcome : kAllOutcomes)
      if (outcome != Outcome::Ok) {
        auto it = stats.failures.find(outcome);
        absl::StrAppend(&csv, ",", it == stats.failures.end() ? 0 : it->second);
      }
    absl::StrAppend(&csv, ",", inFront[kind], "\n");
  }
  return csv;
}

/// One line of the summary per front member.
std::string memberLine(const SearchResult &r, const FrontMember &m) {
  const Measurement &again = m.remeasured;
  if (!again.ok())
    return absl::StrCat("  ", m.patchPath, "  re-measurement ",
                        toString(again.outcome), ": ", again.detail, "\n");
  std::string objectivesText;
  for (const std::string &name : r.objectives)
    if (name != "runtime" && name != "error")
      absl::StrAppend(
          &objectivesText,
          absl::StrFormat(
              "  %s %.4g", name,
              objectiveValue(again, name) > 0
                  ? objectiveValue(again, name)
                  : objectiveValue(m.individual.measurement, name)));
  return absl::StrFormat(
      "  %s  run x%.3f  validation %.4f (%+.4f)  test "
      "%.4f%s  %d edits (%s)%s\n",
      m.patchPath, again.runtimeRatio, again.validation.accuracy(),
      again.validation.accuracy() - r.baselineRemeasured.validation.accuracy(),
      again.test.accuracy(), objectivesText, m.individual.edits.size(),
      kindsOf(m.individual.edits), m.dominatesBaseline ? "  dominates" : "");
}

/// The summary's first lines: counts, failures, the unmodified program.
std::string runLines(const SearchResult &r) {
  const SearchConfig &c = r.config;
  double rate =
      r.searchSeconds > 0 ? r.counts.evaluations / r.searchSeconds : 0;
  std::string text = absl::StrFormat(
      "%s on %s: %d generations of %d, %d evaluations "
      "(%d cache hits) in %.0f s (%.1f/s), %d workers\n",
      toString(c.algorithm.kind), r.workloadName, r.generationsDone,
      c.algorithm.population, r.counts.evaluations, r.counts.cacheHits,
      r.searchSeconds, rate, c.workbench.workers);
  std::string failures;
  for (const auto &[outcome, count] : r.counts.outcomes)
    if (outcome != Outcome::Ok && count > 0)
      absl::StrAppend(&failures, " ", toString(outcome), "=", count);
  if (!failures.empty())
    absl::StrAppend(&text, "failed variants:", failures, "\n");
  absl::StrAppend(
      &text,
      absl::StrFormat("unmodified: run %.2f ms, validation %.4f, test %.4f\n",
                      r.baseline.medianRunMs, r.baseline.validation.accuracy(),
                      r.baselineRemeasured.test.accuracy()));
  return text;
}

} // namespace

absl::Status
writeFrontFiles(SearchResult &result, const std::string &modelKey,
                const std::map<EditKind, OperatorStats> &operators) {
  RunDirectory dir(result.config.outDir);
  llvm::json::Array members;
  double bestError = std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < result.front.size(); ++k) {
    FrontMember &member = result.front[k];
    const Measurement &again = member.remeasured;
    member.dominatesBaseline =
        again.ok() && dominatesBaseline(again, result.baselineRemeasured,
                                        result.objectives, result.runtimeNoise);
    member.patchPath = RunDirectory::frontPatchName(k);
    GEVO_RETURN_IF_ERROR(
        dir.writeFrontPatch(member.patchPath, frontPatch(result, k, modelKey)));
    if (preferred(result, k, bestError)) {
      result.best = static_cast<int>(k);
      bestError = again.error();
    }
    members.push_back(frontEntry(result, member));
  }
  GEVO_RETURN_IF_ERROR(dir.writeFront(frontJson(result, std::move(members))));
  return dir.writeOperators(operatorsCsv(result, operators));
}

std::string summarize(const SearchResult &r) {
  const SearchConfig &c = r.config;
  std::string text = runLines(r);
  absl::StrAppend(
      &text,
      absl::StrFormat("front: %d variants (hypervolume %.4f), re-measured "
                      "interleaved with the unmodified program; run-time "
                      "ratios within 1 +- %.3f count as equal\n",
                      r.front.size(), r.hypervolume, r.runtimeNoise));
  int dominating = 0;
  for (const FrontMember &m : r.front) {
    dominating += m.remeasured.ok() && m.dominatesBaseline;
    absl::StrAppend(&text, memberLine(r, m));
  }
  if (dominating > 0)
    absl::StrAppend(&text,
                    absl::StrFormat("%d of %d front variants dominate the "
                                    "unmodified program on %s.\n",
                                    dominating, r.front.size(),
                                    absl::StrJoin(r.objectives, " and ")));
  else
    absl::StrAppend(
        &text, "No variant dominates the unmodified program within noise; the "
               "front trades one objective for another.\n");
  absl::StrAppend(&text, "run directory: ", c.outDir, "\n");
  if (r.best >= 0) {
    std::string patch = c.outDir + "/" + r.front[r.best].patchPath;
    absl::StrAppend(
        &text,
        "replay the best patch:\n  bazel run //replay:apply -- --patch=", patch,
        " --input=", r.modulePath, " -o /tmp/variant.mlir\n",
        "  bazel run //gevo:evaluate -- --workload=", c.workloadPath,
        " --module=/tmp/variant.mlir\n");
  }
  return text;
}

absl::Status appendOperatorWeightsRow(const std::string &path,
                                      const std::vector<EditKind> &kinds,
                                      int generation,
                                      const std::vector<double> &weights) {
  if (weights.empty())
    return absl::OkStatus();
  bool fresh = !std::ifstream(path).good();
  std::ofstream out(path, std::ios::app);
  if (fresh) {
    out << "generation";
    for (EditKind kind : kinds)
      out << "," << toString(kind);
    out << "\n";
  }
  out << generation;
  for (double weight : weights)
    out << "," << absl::StrFormat("%.4f", weight);
  out << "\n";
  if (!out)
    return absl::InternalError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

absl::Status appendScreenRow(const std::string &path,
                             const std::vector<std::string> &objectives,
                             const ScreenReport &screen) {
  bool fresh = !std::ifstream(path).good();
  std::ofstream out(path, std::ios::app);
  if (fresh) {
    out << "generation,candidates,screened,predicted_failure,"
           "measured_failure,immigrants,immigrant_failure,ranked";
    for (const std::string &name : objectives)
      out << ",spearman_" << name;
    out << "\n";
  }
  out << screen.generation << "," << screen.candidates << "," << screen.screened
      << ","
      << absl::StrFormat("%.3f,%.3f", screen.predictedFailure,
                         screen.measuredFailure)
      << "," << screen.immigrants << ","
      << absl::StrFormat("%.3f", screen.immigrantFailure) << ","
      << screen.rankedChildren;
  for (double rho : screen.spearman)
    out << "," << absl::StrFormat("%.3f", rho);
  out << "\n";
  if (!out)
    return absl::InternalError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

std::string runDirectoryName(const std::string &workloadName) {
  std::string name;
  for (char c : workloadName) {
    bool kept = std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                c == '_' || (c == '.' && !name.empty());
    name += kept ? c : '_';
    if (name.size() == kMaxRunNameChars)
      break;
  }
  return name.empty() || name.find_first_not_of('_') == std::string::npos
             ? "workload"
             : name;
}

std::string timestampedRunDirectory(const std::string &root,
                                    const std::string &name) {
  ::mkdir(root.c_str(), 0755);
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
  return root + "/" + runDirectoryName(name) + "-" + stamp;
}

} // namespace gevo
