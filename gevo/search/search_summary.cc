//===- search_summary.cc - What a person reads at the end of a search -----===//

#include "gevo/search/search_summary.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gevo/search/front_ranking.h"
#include "gevo/workbench/history_writer.h"

namespace gevo {
namespace {

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
      "%.4f%s  %d edit%s (%s)%s\n",
      m.patchPath, again.runtimeRatio, again.validation.accuracy(),
      again.validation.accuracy() - r.baselineRemeasured.validation.accuracy(),
      again.test.accuracy(), objectivesText, m.individual.edits.size(),
      m.individual.edits.size() == 1 ? "" : "s", kindsOf(m.individual.edits),
      m.dominatesBaseline ? "  dominates" : "");
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
  if (r.counts.raced > 0)
    absl::StrAppend(&text, "racing: ", r.counts.raced, " of ",
                    r.counts.evaluations,
                    " evaluations stopped early (could not enter the front)\n");
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

/// The front: the members within the useful region one per line, then one
/// line for the rest, one for the members the re-measurement put off it and
/// one for the second look (SearchResult::secondLook).
std::string frontLines(const SearchResult &r) {
  std::string text = absl::StrFormat(
      "front: %d variants (hypervolume %.4f), re-measured interleaved with "
      "the unmodified program; run-time ratios within 1 +- %.3f count as "
      "equal\n",
      r.front.size(), r.hypervolume, r.runtimeNoise);
  std::vector<size_t> rest;
  double lowest = 1;
  std::string useful;
  for (size_t k = 0; k < r.front.size(); ++k) {
    const FrontMember &m = r.front[k];
    if (inUsefulRegion(r, m)) {
      absl::StrAppend(&useful, memberLine(r, m));
      continue;
    }
    rest.push_back(k + 1);
    lowest = std::min(lowest, m.remeasured.validation.accuracy());
  }
  absl::StrAppend(
      &text,
      absl::StrFormat("%d within %.0f points of the unmodified program's "
                      "validation accuracy (%.1f%% or more):\n",
                      r.front.size() - rest.size(), 100 * kUsefulErrorMargin,
                      100 * (1 - usefulErrorBound(r))),
      useful);
  if (!rest.empty())
    absl::StrAppend(&text, absl::StrFormat("%d more, down to %.1f%% "
                                           "validation accuracy: front/%s\n",
                                           rest.size(), 100 * lowest,
                                           indexRanges(rest)));
  size_t dropped = r.dominatedAfterRemeasure.size();
  if (dropped > 0) {
    std::vector<size_t> all(dropped);
    for (size_t i = 0; i < dropped; ++i)
      all[i] = i + 1;
    absl::StrAppend(&text,
                    absl::StrFormat("%d left the front, dominated by another "
                                    "member once re-measured: %s/%s\n",
                                    dropped, kDominatedAfterRemeasureDir,
                                    indexRanges(all)));
  }
  if (r.secondLook > 0) {
    int joined = static_cast<int>(
        std::count_if(r.front.begin(), r.front.end(),
                      [](const FrontMember &m) { return m.secondLook; }));
    absl::StrAppend(&text,
                    absl::StrFormat("second look: %d variant%s hidden behind "
                                    "members that read slower re-measured, "
                                    "re-measured too; %d joined the front\n",
                                    r.secondLook, r.secondLook == 1 ? "" : "s",
                                    joined));
  }
  return text;
}

} // namespace

std::string summarize(const SearchResult &r) {
  const SearchConfig &c = r.config;
  std::string text = runLines(r);
  absl::StrAppend(&text, frontLines(r));
  int dominating = 0;
  for (const FrontMember &m : r.front)
    dominating += m.remeasured.ok() && m.dominatesBaseline;
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
        // A generated training program is generated again from its workload.
        " --input=",
        absl::StartsWith(r.source, "training ") ? c.workloadPath : r.modulePath,
        " -o /tmp/variant.mlir\n",
        "  bazel run //gevo:evaluate -- --workload=", c.workloadPath,
        " --module=/tmp/variant.mlir\n");
  }
  return text;
}

} // namespace gevo
