//===- variant_probe.h - What the search learns of a variant unrun ------===//
//
// A child is built in the search process before it is run: to know whether
// it repeats a variant measured before (NSGA-II mutates it again then) and,
// for the surrogate's pre-screen, its static cost. This keeps the keys of
// every variant measured, the ones proposed in the generation in flight (so
// that a resumed run, which knows only the measured ones, decides alike), and
// each candidate's key (and static cost, once asked) once per generation.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_VARIANT_PROBE_H
#define GEVO_SEARCH_VARIANT_PROBE_H

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gevo/ir/edit.h"

namespace gevo {

class Workbench;

class VariantProbe {
public:
  VariantProbe(Workbench &bench, std::string entry)
      : bench(bench), entry(std::move(entry)) {}

  /// Whether `edits` build a variant neither measured nor proposed in this
  /// generation; when so, it counts as proposed from now on.
  bool isNew(const std::vector<Edit> &edits);
  /// The same for a variant already keyed (bred elsewhere).
  bool isNewKey(const std::string &key) {
    return !measuredKeys.count(key) && proposed.insert(key).second;
  }
  /// The static cost (static_cost.h) of the variant `edits` build.
  double staticCost(const std::vector<Edit> &edits);
  /// A variant of this key was measured.
  void measured(const std::string &key) { measuredKeys.insert(key); }
  /// The generation's children were measured: proposals and builds end.
  void endGeneration() {
    proposed.clear();
    built.clear();
  }

private:
  struct Built {
    std::string key;
    /// Negative until staticCost() asks (only a pre-screening search does).
    double staticCost = -1;
  };
  Built &probe(const std::vector<Edit> &edits, bool withCost);

  Workbench &bench;
  std::string entry;
  std::set<std::string> measuredKeys, proposed;
  std::map<std::string, Built> built; // by the edits' editKey()s
};

} // namespace gevo

#endif // GEVO_SEARCH_VARIANT_PROBE_H
