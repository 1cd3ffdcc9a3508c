//===- claim_choice.cc - The front member a user would pick ---------------===//

#include "gevo/bench/claim_choice.h"

namespace gevo {

const FrontMember *chooseOnValidation(const ClaimRule &rule,
                                      const SearchResult &run) {
  double baseline = run.baselineRemeasured.validation.accuracy();
  const FrontMember *chosen = nullptr;
  for (const FrontMember &member : run.front) {
    const Measurement &m = member.remeasured;
    if (!m.ok() || m.runtimeRatio <= 0)
      continue;
    double accuracy = m.validation.accuracy();
    if (rule.prediction) {
      if (accuracy < baseline - rule.maxAccuracyLoss - 1e-9 ||
          m.runtimeRatio >= 1.0 - run.runtimeNoise)
        continue;
      if (!chosen || m.runtimeRatio < chosen->remeasured.runtimeRatio)
        chosen = &member;
    } else {
      if (m.runtimeRatio > rule.maxRuntimeRatio || accuracy <= baseline + 1e-9)
        continue;
      if (!chosen || accuracy > chosen->remeasured.validation.accuracy())
        chosen = &member;
    }
  }
  return chosen;
}

double claimFigure(bool prediction, const FrontMember &member,
                   const SearchResult &run) {
  const Measurement &m = member.remeasured;
  if (prediction)
    return 1.0 / m.runtimeRatio - 1.0;
  return m.test.accuracy() - run.baselineRemeasured.test.accuracy();
}

} // namespace gevo
