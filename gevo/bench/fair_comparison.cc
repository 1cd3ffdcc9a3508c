//===- fair_comparison.cc - Comparing two searches' fronts fairly ---------===//

#include "gevo/bench/fair_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gevo/eval/harness.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/nsga2.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

double regionHypervolume(const std::vector<RatioPoint> &points,
                         const Region &region) {
  std::vector<Objectives> inside;
  for (const RatioPoint &p : points)
    if (p.ratio < region.ratio && p.error < region.error)
      inside.push_back({p.ratio, p.error});
  if (inside.empty())
    return 0;
  return hypervolume(inside, {region.ratio, region.error});
}

double errorStandardError(double error, int64_t rows) {
  if (rows <= 0 || error <= 0 || error >= 1)
    return 0;
  return std::sqrt(error * (1 - error) / static_cast<double>(rows));
}

int pointsInRegion(const std::vector<RatioPoint> &points,
                   const Region &region) {
  int count = 0;
  for (const RatioPoint &p : points)
    count += p.ratio < region.ratio && p.error < region.error;
  return count;
}

bool beatsUnmodified(double runtimeMs, double error, double unmodifiedMs,
                     double unmodifiedError, const NoiseBand &band) {
  double ratio = unmodifiedMs > 0 ? runtimeMs / unmodifiedMs : 1;
  // The same outputs every run, but one more row right out of hundreds is
  // the validation split's sampling noise, not a better model.
  return (ratio <= 1 - band.runtime && error <= unmodifiedError + 1e-9) ||
         (error < unmodifiedError - band.error - 1e-9 &&
          ratio <= 1 + band.runtime);
}

std::vector<TargetCandidate>
targetCandidates(const std::string &runDirectory, double unmodifiedMs,
                 double unmodifiedError, const NoiseBand &band, size_t limit) {
  std::vector<TargetCandidate> out;
  CsvTable history = RunDirectory(runDirectory).readHistory();
  size_t outcome = history.column("outcome"), cached = history.column("cached"),
         runtime = history.column("median_run_ms"),
         error = history.column("error"), key = history.column("key"),
         ratio = history.column("runtime_ratio");
  if (std::max({outcome, cached, runtime, error, key}) >= history.header.size())
    return out; // not a history with run times and errors
  int64_t evaluations = 0;
  for (const std::vector<std::string> &row : history.rows) {
    if (out.size() >= limit)
      break;
    if (row.size() < history.header.size())
      continue;
    if (row[cached] == "1")
      continue;
    ++evaluations;
    if (row[outcome] != "ok")
      continue;
    // A run time measured beside the unmodified program (paired runs) is
    // compared as that ratio, not against another moment's unmodified time.
    double paired = ratio < row.size() ? std::atof(row[ratio].c_str()) : 0;
    double ms = paired > 0 ? paired : std::atof(row[runtime].c_str());
    if (beatsUnmodified(ms, std::atof(row[error].c_str()),
                        paired > 0 ? 1.0 : unmodifiedMs, unmodifiedError, band))
      out.push_back({evaluations, row[key]});
  }
  return out;
}

std::map<std::string, std::vector<Edit>>
archiveEdits(const std::string &runDirectory) {
  std::map<std::string, std::vector<Edit>> out;
  absl::StatusOr<std::string> text =
      RunDirectory(runDirectory).readCheckpoint();
  if (!text.ok())
    return out;
  absl::StatusOr<Checkpoint> checkpoint =
      parseCheckpoint(*text, runDirectory + "/checkpoint.json");
  if (!checkpoint.ok())
    return out;
  for (const Individual &individual : checkpoint->archive)
    out.emplace(individual.key, individual.edits);
  return out;
}

int64_t evaluationsToTarget(const std::string &runDirectory,
                            double unmodifiedMs, double unmodifiedError,
                            const NoiseBand &band) {
  std::vector<TargetCandidate> first =
      targetCandidates(runDirectory, unmodifiedMs, unmodifiedError, band, 1);
  return first.empty() ? 0 : first[0].evaluation;
}

ConfirmedTarget firstConfirmed(const std::vector<TargetCandidate> &candidates,
                               size_t batch, const ConfirmTargets &confirm) {
  ConfirmedTarget result;
  batch = std::max<size_t>(batch, 1);
  for (size_t start = 0; start < candidates.size(); start += batch) {
    std::vector<TargetCandidate> asked(
        candidates.begin() + start,
        candidates.begin() + std::min(candidates.size(), start + batch));
    std::vector<bool> confirmed = confirm(asked);
    result.checked += static_cast<int64_t>(asked.size());
    for (size_t i = 0; i < asked.size(); ++i) {
      if (i < confirmed.size() && confirmed[i]) {
        result.evaluation = asked[i].evaluation;
        return result;
      }
    }
  }
  return result;
}

ScreenSummary summarizeScreen(const std::string &runDirectory) {
  CsvTable table = RunDirectory(runDirectory).readSurrogate();
  ScreenSummary summary;
  size_t screened = table.column("screened"),
         failed = table.column("measured_failure"),
         immigrants = table.column("immigrants"),
         immigrantFailed = table.column("immigrant_failure");
  if (std::max({screened, failed, immigrants, immigrantFailed}) >=
      table.header.size())
    return summary;
  std::vector<size_t> rhoColumns;
  for (size_t c = 0; c < table.header.size(); ++c)
    if (table.header[c].rfind("spearman_", 0) == 0) {
      rhoColumns.push_back(c);
      summary.objectives.push_back(table.header[c].substr(9));
    }
  std::vector<std::vector<double>> rhos(rhoColumns.size());
  double screenedCount = 0, screenedBad = 0, immigrantCount = 0,
         immigrantBad = 0;
  for (const std::vector<std::string> &row : table.rows) {
    if (row.size() < table.header.size())
      continue;
    ++summary.generations;
    double s = std::atof(row[screened].c_str()),
           i = std::atof(row[immigrants].c_str());
    screenedCount += s, immigrantCount += i;
    screenedBad += s * std::atof(row[failed].c_str());
    immigrantBad += i * std::atof(row[immigrantFailed].c_str());
    for (size_t k = 0; k < rhoColumns.size(); ++k)
      rhos[k].push_back(std::atof(row[rhoColumns[k]].c_str()));
  }
  for (std::vector<double> &values : rhos)
    summary.medianSpearman.push_back(values.empty() ? 0 : median(values));
  summary.screenedFailure = screenedCount ? screenedBad / screenedCount : 0;
  summary.immigrantFailure = immigrantCount ? immigrantBad / immigrantCount : 0;
  return summary;
}

} // namespace gevo
