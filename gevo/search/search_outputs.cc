//===- search_outputs.cc - What a finished search writes ------------------===//

#include "gevo/search/search_outputs.h"

#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/front_ranking.h"
#include "gevo/support/file_io.h"
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

/// A front member's patch: its edits, objectives as metadata, and comments
/// saying where it came from (`origin`) and how it re-measured.
Patch frontPatch(const SearchResult &result, const FrontMember &member,
                 const std::string &origin, const std::string &modelKey) {
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
      " %s from %s on %s (%s, seed %d)", origin,
      toString(result.config.algorithm.kind), result.workloadName,
      absl::StrJoin(result.objectives, "/"), result.config.seed));
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
  if (member.secondLook)
    entry["second_look"] = true; // not on the search's front (secondLook)
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

/// Removes the NN.gevo files an earlier report of this run (a resumed run)
/// left in front/ and its dominated-after-remeasure/ folder, and that
/// folder when it is left empty.
void removeOldPatches(const RunDirectory &dir) {
  for (const char *folder : {kDominatedAfterRemeasureDir, "front"}) {
    std::error_code error;
    std::filesystem::path path = dir.file(folder);
    for (const auto &entry : std::filesystem::directory_iterator(path, error)) {
      std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.size() == 7 &&
          std::isdigit(static_cast<unsigned char>(name[0])) &&
          std::isdigit(static_cast<unsigned char>(name[1])) &&
          name.substr(2) == ".gevo")
        std::filesystem::remove(entry.path(), error);
    }
    if (std::string(folder) != "front")
      std::filesystem::remove(path, error); // Only when empty.
  }
}

} // namespace

absl::Status
writeFrontFiles(SearchResult &result, const std::string &modelKey,
                const std::map<EditKind, OperatorStats> &operators) {
  rankRemeasuredFront(result);
  RunDirectory dir(result.config.outDir);
  removeOldPatches(dir);
  llvm::json::Array members;
  double bestError = std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < result.front.size(); ++k) {
    FrontMember &member = result.front[k];
    const Measurement &again = member.remeasured;
    member.dominatesBaseline =
        again.ok() && dominatesBaseline(again, result.baselineRemeasured,
                                        result.objectives, result.runtimeNoise);
    std::string origin =
        absl::StrFormat("front member %d of %d", k + 1, result.front.size());
    GEVO_RETURN_IF_ERROR(dir.writeFrontPatch(
        member.patchPath, frontPatch(result, member, origin, modelKey)));
    if (preferred(result, k, bestError)) {
      result.best = static_cast<int>(k);
      bestError = again.error();
    }
    members.push_back(frontEntry(result, member));
  }
  llvm::json::Array dominated;
  if (!result.dominatedAfterRemeasure.empty())
    GEVO_RETURN_IF_ERROR(makeDirectory(dir.file(kDominatedAfterRemeasureDir)));
  for (const FrontMember &member : result.dominatedAfterRemeasure) {
    std::string origin = absl::StrCat(
        member.secondLook ? "variant of the end's second look"
                          : "member of the search's front",
        ", dominated after re-measurement by ", member.dominatedBy);
    GEVO_RETURN_IF_ERROR(
        writeOutput(dir.file(member.patchPath),
                    printPatch(frontPatch(result, member, origin, modelKey))));
    llvm::json::Object entry = frontEntry(result, member);
    entry["dominated_by"] = member.dominatedBy;
    dominated.push_back(std::move(entry));
  }
  llvm::json::Object front = frontJson(result, std::move(members));
  front["dominated_after_remeasure"] = std::move(dominated);
  front["second_look"] = result.secondLook;
  GEVO_RETURN_IF_ERROR(dir.writeFront(std::move(front)));
  return dir.writeOperators(operatorsCsv(result, operators));
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
