//===- fair_comparison.cc - Comparing two searches' fronts fairly ---------===//

#include "gevo/bench/fair_comparison.h"

#include <algorithm>
#include <cstdlib>

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

bool beatsUnmodified(double runtimeMs, double error, double unmodifiedMs,
                     double unmodifiedError, double band) {
  double ratio = unmodifiedMs > 0 ? runtimeMs / unmodifiedMs : 1;
  // Error is deterministic (the same outputs every run): any drop is real.
  return (ratio <= 1 - band && error <= unmodifiedError) ||
         (error < unmodifiedError - 1e-9 && ratio <= 1 + band);
}

int64_t evaluationsToTarget(const std::string &runDirectory,
                            double unmodifiedMs, double unmodifiedError,
                            double band) {
  CsvTable history = RunDirectory(runDirectory).readHistory();
  size_t outcome = history.column("outcome"), cached = history.column("cached"),
         runtime = history.column("median_run_ms"),
         error = history.column("error");
  if (std::max({outcome, cached, runtime, error}) >= history.header.size())
    return 0; // not a history with run times and errors
  int64_t evaluations = 0;
  for (const std::vector<std::string> &row : history.rows) {
    if (row.size() < history.header.size())
      continue;
    if (row[cached] == "1")
      continue;
    ++evaluations;
    if (row[outcome] != "ok")
      continue;
    if (beatsUnmodified(std::atof(row[runtime].c_str()),
                        std::atof(row[error].c_str()), unmodifiedMs,
                        unmodifiedError, band))
      return evaluations;
  }
  return 0;
}

} // namespace gevo
