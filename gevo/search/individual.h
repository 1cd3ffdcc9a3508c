//===- individual.h - One member of a search: its edits and its fitness ---===//
#ifndef GEVO_SEARCH_INDIVIDUAL_H
#define GEVO_SEARCH_INDIVIDUAL_H

#include <optional>
#include <string>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/ir/edit.h"

namespace gevo {

struct Individual {
  std::vector<Edit> edits;
  /// modelFingerprint() of the variant the edits build.
  std::string key;
  Measurement measurement;
  /// The generation that first produced it (0: the initial population).
  int generation = 0;
  /// The kind of the edit its last mutation added, for operator statistics.
  std::optional<EditKind> newestKind;
  bool cached = false;

  bool feasible() const { return measurement.ok(); }
};

} // namespace gevo

#endif // GEVO_SEARCH_INDIVIDUAL_H
