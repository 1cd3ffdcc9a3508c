//===- surrogate.h - A cheap guess of a variant's fate, to pre-screen -----===//
//
// NSGA-II breeds several candidates per child slot and runs only the one this
// predictor rates best (nsga2_search.cc). It learns from the run's own
// measurements, all of which the checkpoint holds (the archive and the
// failures), so a resumed run predicts exactly as the uninterrupted one:
//  - the chance a variant fails or leaves the objectives' bounds: per edit,
//    how often measured variants holding that very edit did, pulled towards
//    its kind's rate when the edit was seen rarely, combined as independent
//    risks over the edits that the nearest variant that did not fail lacks;
//  - each objective: the value of the measured variant nearest in edits
//    (Jaccard over exact edits), shifted by the mean effect of the edits the
//    two do not share; objectives other than error also scale with the
//    variant's static cost (computed in the parent without running) by a
//    power fitted on the measured ones.
// No MLIR here: static costs come from the caller.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SURROGATE_H
#define GEVO_SEARCH_SURROGATE_H

#include <map>
#include <string>
#include <vector>

#include "gevo/search/individual.h"

namespace gevo {

struct Prediction {
  /// Chance of failing or of an objective outside its bound, 0..1.
  double failure = 0;
  /// Per objective, the expected value (of a variant that does not fail).
  std::vector<double> objectives;
};

class Surrogate {
public:
  /// `bounds` as in AlgorithmContext (empty or one per objective).
  Surrogate(std::vector<std::string> objectives, std::vector<double> bounds)
      : names(std::move(objectives)), bounds(std::move(bounds)) {}

  /// Learns from every variant measured so far (ok or not).
  void fit(const std::vector<const Individual *> &measured);
  /// The guess for a variant of `edits` with static cost `staticCost`.
  Prediction predict(const std::vector<Edit> &edits, double staticCost) const;
  /// Whether fit() saw anything to learn from.
  bool trained() const { return !samples.empty(); }

private:
  struct Sample {
    std::vector<std::string> edits; // editKey()s, sorted
    std::vector<int> ids;           // their EditStats::id, sorted
    std::vector<double> objectives;
    double staticCost = 0;
    bool bad = false;
  };
  struct EditStats {
    int count = 0, bad = 0;
    /// Per objective: sum of (value - the objective's mean) over the ok
    /// variants holding the edit, and how many those were.
    std::vector<double> excess;
    int okCount = 0;
    /// The key's number in this fit: similarities compare numbers, not
    /// strings (predict() runs over every sample for every candidate).
    int id = 0;
  };
  double failureRate(const std::string &key, EditKind kind) const;
  double effect(const std::string &key, size_t objective) const;

  std::vector<std::string> names;
  std::vector<double> bounds;
  std::vector<Sample> samples;
  std::map<std::string, EditStats> edits;
  std::map<EditKind, std::pair<int, int>> kinds; // (variants, bad)
  std::vector<double> means;
  /// Per objective: the exponent of static cost (0 for error).
  std::vector<double> costPower;
};

/// Spearman's rank correlation of two equally long series (average ranks
/// for ties); 0 when either is constant or shorter than 3.
double spearman(const std::vector<double> &a, const std::vector<double> &b);

} // namespace gevo

#endif // GEVO_SEARCH_SURROGATE_H
