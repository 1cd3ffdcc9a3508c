//===- explore.cc - Every single edit of the chosen operators, measured ---===//

#include "gevo/search/explore.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/progress.h"
#include "gevo/support/csv.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/fitness_cache.h"
#include "gevo/workbench/workbench.h"
#include "replay/patch.h"

namespace gevo {
namespace {

/// One proposed edit and the CSV fields that name it.
struct Proposal {
  std::string prefix; // operator,target
  Edit edit;
};

/// One edit per (enabled operator, op the filters allow), proposed on the
/// unmodified program; counts the pairs tried and the edits proposed.
std::vector<Proposal> proposeAll(mlir::ModuleOp module,
                                 const SearchConfig &config,
                                 ExploreSummary &summary) {
  AddressIndex index(module);
  std::mt19937_64 rng(config.seed);
  MutationOptions options;
  options.functions = config.mutation.functions;
  options.opPrefixes = config.mutation.opPrefixes;
  std::vector<Proposal> proposals;
  for (EditKind kind : config.mutation.operators) {
    for (mlir::Operation *op : index.ops()) {
      if (!passesFilters(*index.refOf(op), options))
        continue;
      options.target = op;
      options.kinds = {kind};
      ++summary.targets;
      absl::StatusOr<Edit> edit = proposeAnyEdit(module, options, rng, 3);
      if (!edit.ok())
        continue;
      ++summary.proposed;
      proposals.push_back(
          Proposal{absl::StrCat(toString(kind), ",",
                                csvField(toString(*index.refOf(op)))),
                   *edit});
    }
  }
  return proposals;
}

std::string csvHeader(const std::vector<std::string> &objectives) {
  std::string header = "operator,target,outcome";
  for (const std::string &name : objectives)
    absl::StrAppend(&header, ",", name);
  return header +
         ",validation_accuracy,accuracy_change,runtime_ratio,edit,detail\n";
}

/// The CSV row of `proposal`, measured as `m`.
std::string csvRow(const Proposal &proposal, const Measurement &m,
                   const std::vector<std::string> &objectives,
                   const Measurement &baseline) {
  std::string row = absl::StrCat(proposal.prefix, ",", toString(m.outcome));
  for (const std::string &name : objectives)
    absl::StrAppend(&row, ",",
                    m.ok() ? absl::StrFormat("%.6g", objectiveValue(m, name))
                           : "");
  double ratio = m.ok() && baseline.medianRunMs > 0
                     ? m.medianRunMs / baseline.medianRunMs
                     : 0;
  absl::StrAppend(
      &row, ",", absl::StrFormat("%.4f", m.validation.accuracy()), ",",
      absl::StrFormat("%+.4f",
                      m.validation.accuracy() - baseline.validation.accuracy()),
      ",", absl::StrFormat("%.3f", ratio), ",",
      csvField(printEdit(proposal.edit)), ",", csvField(m.detail), "\n");
  return row;
}

} // namespace

absl::StatusOr<ExploreSummary>
explore(SearchConfig config, const std::string &csvPath, std::FILE *progress) {
  SteadyClock::time_point start = SteadyClock::now();
  GEVO_ASSIGN_OR_RETURN(WorkloadSpec spec,
                        loadWorkloadSpec(config.workloadPath));
  std::vector<std::string> objectives =
      config.objectives.empty() ? spec.objectives : config.objectives;
  GEVO_RETURN_IF_ERROR(checkObjectives(objectives));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        Workbench::create(spec, config.workbench));
  GEVO_RETURN_IF_ERROR(bench->measureBaseline());
  const Measurement &baseline = bench->baseline();

  std::ofstream csv(csvPath);
  if (!csv)
    return absl::PermissionDeniedError(absl::StrCat(csvPath, ": cannot write"));
  csv << csvHeader(objectives);
  ExploreSummary summary;
  std::vector<Proposal> proposals =
      proposeAll(bench->unmodified(), config, summary);
  std::vector<std::vector<Edit>> lists;
  for (const Proposal &proposal : proposals)
    lists.push_back({proposal.edit});
  // Its own cache, holding the unmodified program: a single edit that
  // changes nothing is measured as the unmodified program was.
  FitnessCache cache;
  cache.insert(bench->unmodifiedKey(), baseline);
  BatchRequest request;
  request.skipIncomplete = true;
  request.cache = &cache;
  int64_t measured = 0;
  ProgressLine line(progress, ProgressLine::isTerminal(progress));
  auto write = [&](size_t i, const MeasuredVariant &variant) {
    const Measurement &m = *variant.measurement;
    csv << csvRow(proposals[i], m, objectives, baseline);
    summary.ok += m.ok();
    summary.cacheHits += !variant.ran;
    ++measured;
    line.phase(absl::StrFormat("explore: %d of %d edits measured, %d ok",
                               measured, summary.proposed, summary.ok));
  };
  bench->measure(lists, request, write);
  line.finish();
  summary.seconds = secondsSince(start);
  return summary;
}

std::string summarize(const ExploreSummary &summary,
                      const std::string &csvPath) {
  return absl::StrFormat("explore: %d single edits of %d (operator, op) "
                         "pairs, %d ok, in %.1f s; wrote %s\n",
                         summary.proposed, summary.targets, summary.ok,
                         summary.seconds, csvPath);
}

} // namespace gevo
