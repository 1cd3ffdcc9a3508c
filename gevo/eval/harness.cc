//===- harness.cc - Fitness from a variant's outputs ----------------------===//

#include "gevo/eval/harness.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gevo {

absl::StatusOr<ClassificationScore>
scoreLogits(const HostTensor &logits, const std::vector<int32_t> &labels,
            int64_t numClasses) {
  int64_t rows = static_cast<int64_t>(labels.size());
  if ((logits.type != ElementType::F32 && logits.type != ElementType::F64) ||
      logits.shape.size() != 2 || logits.shape[0] != rows ||
      logits.shape[1] != numClasses)
    return absl::InvalidArgumentError(absl::StrCat(
        "logits are ", logits.typeString(), ", expected tensor<", rows, "x",
        numClasses, "xf32> (one row of class scores per example)"));
  ClassificationScore score;
  score.total = rows;
  for (int64_t row = 0; row < rows; ++row) {
    int64_t best = 0;
    bool finite = true;
    for (int64_t c = 0; c < numClasses; ++c) {
      double value = logits.at(row * numClasses + c);
      finite &= std::isfinite(value);
      if (value > logits.at(row * numClasses + best))
        best = c;
    }
    if (!finite)
      ++score.nonFiniteRows;
    else if (best == labels[row])
      ++score.correct;
  }
  return score;
}

} // namespace gevo
