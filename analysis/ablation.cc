//===- ablation.cc - Each edit alone, each edit removed, and pairs --------===//

#include "analysis/ablation.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace gevo {
namespace {

double tolerance(const PatchEffect &effect, const std::string &name) {
  const EffectOptions &o = effect.effectOptions();
  if (name == "runtime")
    return std::max(o.runtimeTolerance, 1e-9);
  if (name == "error")
    return std::max(o.errorTolerance, 1e-9);
  return 1e-9;
}

/// The change an objective sees, comparable across edits: run-time ratios
/// as logarithms (so that x0.9 and x0.9 add to x0.81), the rest as
/// differences.
double delta(const PatchEffect &effect, const Measurement &m,
             const Measurement &base, const std::string &name) {
  double a = effect.value(m, name), b = effect.value(base, name);
  if (name == "runtime")
    return a > 0 && b > 0 ? std::log(a / b) : 0;
  if (name == "error")
    return a - b;
  return b != 0 ? (a - b) / std::fabs(b) : a - b; // costs: relative
}

} // namespace

bool improves(const PatchEffect &effect, const Measurement &m,
              const Measurement &base) {
  if (!m.ok())
    return false;
  bool better = false;
  for (const std::string &name : effect.effectOptions().objectives) {
    double d = delta(effect, m, base, name);
    double tol = tolerance(effect, name);
    if (name == "runtime")
      tol = std::log1p(tol);
    if (d > tol)
      return false;
    better |= d < -tol;
  }
  return better;
}

namespace {

/// The subsets ablation measures, in this order: none, all, then per edit
/// the edit alone and all but it, then (with `withPairs`) every pair.
std::vector<std::vector<size_t>> ablationSubsets(size_t n, bool withPairs) {
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<std::vector<size_t>> subsets = {{}, all};
  for (size_t i = 0; i < n; ++i) {
    subsets.push_back({i});
    std::vector<size_t> rest;
    for (size_t j : all)
      if (j != i)
        rest.push_back(j);
    subsets.push_back(rest);
  }
  if (withPairs)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j)
        subsets.push_back({i, j});
  return subsets;
}

/// Whether two edits' effects, both measured ok, add up to what they do
/// together on every objective (within twice its tolerance).
bool additive(const PatchEffect &effect, const Measurement &a,
              const Measurement &b, const Measurement &together,
              const Measurement &baseline) {
  if (!a.ok() || !b.ok())
    return false;
  bool additive = true;
  for (const std::string &name : effect.effectOptions().objectives) {
    double sum =
        delta(effect, a, baseline, name) + delta(effect, b, baseline, name);
    double both = delta(effect, together, baseline, name);
    double tol = tolerance(effect, name);
    if (name == "runtime")
      tol = std::log1p(tol);
    additive &= std::fabs(both - sum) <= 2 * tol + 1e-9;
  }
  return additive;
}

/// Names `pair`'s relation from what each edit does alone and both do
/// together, and adds what it says about each edit to `notes`.
void relatePair(const PatchEffect &effect, const Ablation &result,
                PairEffect &pair,
                std::vector<std::vector<std::string>> &notes) {
  size_t i = pair.first, j = pair.second;
  const std::optional<Measurement> &a = result.alone[i], &b = result.alone[j];
  if (!pair.together) {
    pair.relation = "does not build";
  } else if (!b && a) {
    pair.relation = absl::StrCat(j + 1, " needs ", i + 1);
    notes[j].push_back(absl::StrCat("needs ", i + 1));
  } else if (a && b && pair.together->ok()) {
    bool helpsTogether = improves(effect, *pair.together, result.baseline);
    bool aHelps = improves(effect, *a, result.baseline);
    bool bHelps = improves(effect, *b, result.baseline);
    if (helpsTogether && !aHelps && !bHelps) {
      pair.relation = "helps only together";
      notes[i].push_back(absl::StrCat("helps only with ", j + 1));
      notes[j].push_back(absl::StrCat("helps only with ", i + 1));
    } else if (!additive(effect, *a, *b, *pair.together, result.baseline)) {
      pair.relation = "interacts";
      notes[i].push_back(absl::StrCat("interacts with ", j + 1));
      notes[j].push_back(absl::StrCat("interacts with ", i + 1));
    } else {
      pair.relation = "independent";
    }
  } else {
    pair.relation = "fails together";
  }
}

} // namespace

Ablation ablate(PatchEffect &effect, size_t maxPairEdits) {
  size_t n = effect.edits().size();
  bool withPairs = n >= 2 && n <= maxPairEdits;
  std::vector<std::optional<Measurement>> measured =
      effect.measureAll(ablationSubsets(n, withPairs));

  Ablation result;
  if (measured[0])
    result.baseline = *measured[0];
  if (measured[1])
    result.full = *measured[1];
  for (size_t i = 0; i < n; ++i) {
    result.alone.push_back(measured[2 + 2 * i]);
    result.without.push_back(measured[3 + 2 * i]);
  }
  std::vector<std::vector<std::string>> notes(n);
  if (withPairs) {
    size_t k = 2 + 2 * n;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j, ++k) {
        PairEffect pair{i, j, measured[k], ""};
        relatePair(effect, result, pair, notes);
        result.pairs.push_back(pair);
      }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!result.alone[i] && notes[i].empty())
      notes[i].push_back("needs an earlier edit");
    result.relations.push_back(
        notes[i].empty() ? "independent" : absl::StrJoin(notes[i], ", "));
  }
  return result;
}

} // namespace gevo
