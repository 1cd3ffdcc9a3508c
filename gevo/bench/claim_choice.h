//===- claim_choice.h - The front member a user would pick ----------------===//
//
// For the claims benchmark (paper_claims_main.cc): which member of a
// search's re-measured front a user would choose, on the validation split and
// the re-measured run time alone, and the figure it gives on the test split.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_CLAIM_CHOICE_H
#define GEVO_BENCH_CLAIM_CHOICE_H

#include "gevo/search/search_result.h"

namespace gevo {

struct ClaimRule {
  bool prediction = true; // else training
  /// Prediction: validation accuracy a member may lose.
  double maxAccuracyLoss = 0.02;
  /// Training: the run-time ratio a member may reach.
  double maxRuntimeRatio = 1.0;
};

/// The member a user would pick (the test split is only read afterwards):
///   prediction: the fastest member beyond the noise band (run-time ratio
///     below 1 - noise) whose validation accuracy is at most
///     maxAccuracyLoss below the unmodified program's;
///   training: the member with the best validation accuracy above the
///     unmodified program's at a run-time ratio of at most maxRuntimeRatio.
/// nullptr when no member qualifies.
const FrontMember *chooseOnValidation(const ClaimRule &rule,
                                      const SearchResult &run);

/// The figure of the chosen member, read on the test split: prediction:
/// speed-up (unmodified run time / variant's - 1); training: test-accuracy
/// gain (points of 1).
double claimFigure(bool prediction, const FrontMember &member,
                   const SearchResult &run);

} // namespace gevo

#endif // GEVO_BENCH_CLAIM_CHOICE_H
