//===- front_ranking.cc - The front ranked on re-measured figures ---------===//

#include "gevo/search/front_ranking.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/search/nsga2.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

std::vector<double>
remeasuredObjectives(const FrontMember &member,
                     const std::vector<std::string> &names) {
  const Measurement &again = member.remeasured;
  std::vector<double> values;
  for (const std::string &name : names) {
    if (name == "runtime")
      values.push_back(again.runtimeRatio);
    else if (name == "error")
      values.push_back(again.error());
    else // Deterministic: the search's figure when the re-run has none.
      values.push_back(
          objectiveValue(again, name) > 0
              ? objectiveValue(again, name)
              : objectiveValue(member.individual.measurement, name));
  }
  return values;
}

void rankRemeasuredFront(SearchResult &result) {
  std::vector<FrontMember> members = std::move(result.front);
  result.front.clear();
  size_t n = members.size();
  std::vector<Objectives> values(n);
  for (size_t k = 0; k < n; ++k)
    if (members[k].remeasured.ok())
      values[k] = remeasuredObjectives(members[k], result.objectives);
  auto beats = [&](size_t j, size_t k) {
    return j != k && members[j].remeasured.ok() && members[k].remeasured.ok() &&
           dominates(values[j], values[k]);
  };
  std::vector<bool> dominated(n, false);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n && !dominated[k]; ++j)
      dominated[k] = beats(j, k);
  std::vector<size_t> kept;
  for (size_t k = 0; k < n; ++k)
    if (!dominated[k])
      kept.push_back(k);
  std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) {
    bool okA = members[a].remeasured.ok(), okB = members[b].remeasured.ok();
    return okA != okB ? okA : okA && values[a] < values[b];
  });
  std::vector<std::string> path(n);
  for (size_t i = 0; i < kept.size(); ++i)
    path[kept[i]] = RunDirectory::frontPatchName(i);
  for (size_t k = 0; k < n; ++k) {
    if (!dominated[k])
      continue;
    // A dominated point is dominated by some point that is not: name it.
    for (size_t j = 0; j < n && members[k].dominatedBy.empty(); ++j)
      if (!dominated[j] && beats(j, k))
        members[k].dominatedBy = path[j];
    members[k].patchPath =
        absl::StrFormat("%s/%02d.gevo", kDominatedAfterRemeasureDir,
                        result.dominatedAfterRemeasure.size() + 1);
    result.dominatedAfterRemeasure.push_back(std::move(members[k]));
  }
  for (size_t k : kept) {
    members[k].patchPath = path[k];
    result.front.push_back(std::move(members[k]));
  }
}

double usefulErrorBound(const SearchResult &result) {
  const Measurement &base =
      result.baselineRemeasured.ok() &&
              result.baselineRemeasured.validation.total > 0
          ? result.baselineRemeasured
          : result.baseline;
  return base.error() + kUsefulErrorMargin;
}

bool inUsefulRegion(const SearchResult &result, const FrontMember &member) {
  return !member.remeasured.ok() ||
         member.remeasured.error() <= usefulErrorBound(result) + 1e-9;
}

std::string indexRanges(const std::vector<size_t> &indices) {
  std::string text;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
      ++j;
    absl::StrAppend(&text, text.empty() ? "" : ",",
                    absl::StrFormat("%02d", indices[i]));
    if (j > i)
      absl::StrAppend(&text, absl::StrFormat("-%02d", indices[j]));
    i = j + 1;
  }
  return text;
}

} // namespace gevo
