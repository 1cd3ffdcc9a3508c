//===- patch_effect.h - Measuring subsets of a patch's edits --------------===//
//
// The oracle side of minimisation and ablation: builds the variant a subset
// of a patch's edits makes (in the patch's order; a subset in which an edit
// no longer applies without the ones removed does not build), measures it
// against the unmodified program (interleaved runs when run time is an
// objective, so ratios are compared, not noisy milliseconds), and says
// whether it keeps the full patch's effect: no objective worse than the full
// patch's by more than its tolerance. Deterministic objectives are compared
// exactly; measurements of deterministic objectives come from and go to the
// fitness cache. An objective known before running (static cost) can decide
// a subset without running it at all.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_PATCH_EFFECT_H
#define ANALYSIS_PATCH_EFFECT_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/ir/edit.h"
#include "gevo/workbench/fitness_cache.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

struct EffectOptions {
  /// Empty: the workload's.
  std::vector<std::string> objectives;
  /// Run-time ratio points a subset may lose against the full patch.
  double runtimeTolerance = 0.03;
  /// Error (1 - accuracy) a subset may lose against the full patch.
  double errorTolerance = 0;
  /// Interleaved run pairs per measurement when run time is an objective.
  int pairs = 10;
};

class PatchEffect {
public:
  /// Measures on `bench`, with deterministic measurements from and to
  /// `cache` (null: the workbench's).
  PatchEffect(Workbench &bench, std::vector<Edit> edits, EffectOptions options,
              FitnessCache *cache = nullptr);

  /// The measurement of the variant `subset` (ascending indices) builds, or
  /// nullopt when one of its edits does not apply without the others.
  std::optional<Measurement> measure(const std::vector<size_t> &subset);
  /// Measures several subsets in parallel (the pool's workers).
  std::vector<std::optional<Measurement>>
  measureAll(const std::vector<std::vector<size_t>> &subsets);

  /// The value of objective `name` as compared: the run-time ratio for
  /// "runtime", the measured value otherwise.
  double value(const Measurement &m, const std::string &name) const;
  /// Whether `m` keeps `reference`'s effect within the tolerances.
  bool keepsEffect(const Measurement &m, const Measurement &reference) const;
  /// Whether `subset` loses `reference`'s effect on what is known before
  /// running it: its edits do not apply, it does not verify, or its static
  /// cost (when an objective) is worse than `reference`'s. Builds the
  /// variant but runs nothing; a true answer counts in `decidedStatically`.
  bool losesEffectStatically(const std::vector<size_t> &subset,
                             const Measurement &reference);

  const std::vector<Edit> &edits() const { return all; }
  /// The edits of `subset`, with their addresses re-recorded as they resolve
  /// without the others (readdress.h); as recorded when that fails.
  std::vector<Edit> readdressed(const std::vector<size_t> &subset) const;
  const EffectOptions &effectOptions() const { return options; }
  int evaluations = 0; // children run
  int cacheHits = 0;
  int decidedStatically = 0; // subsets judged without running them

  /// Whether `name` is one of the objectives the effect keeps.
  bool hasObjective(const std::string &name) const;

private:
  bool measuresRuntime() const;
  /// The edits `subset` names, in order.
  std::vector<Edit> editsOf(const std::vector<size_t> &subset) const;
  Workbench &bench;
  FitnessCache &cache;
  std::vector<Edit> all;
  EffectOptions options;
  /// Interleaved measurements are kept for this run only (run time noise
  /// belongs to the moment), by variant key.
  FitnessCache interleaved;
  /// Static costs by subset (nullopt: does not apply or verify).
  std::map<std::vector<size_t>, std::optional<double>> staticCosts;
};

} // namespace gevo

#endif // ANALYSIS_PATCH_EFFECT_H
