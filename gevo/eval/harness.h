//===- harness.h - Fitness from a variant's outputs, outside the variant --===//
//
// The harness owns the metric: whatever a mutated module does, its accuracy
// is computed here from the logits it returned and labels it never saw.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_HARNESS_H
#define GEVO_EVAL_HARNESS_H

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/host_tensor.h"
#include "gevo/support/median.h"

namespace gevo {

struct ClassificationScore {
  int64_t correct = 0;
  int64_t total = 0;
  /// Rows holding a NaN or infinity; they count as wrong.
  int64_t nonFiniteRows = 0;
  double accuracy() const {
    return total == 0 ? 0.0 : static_cast<double>(correct) / total;
  }
};

/// Scores `logits` ([rows, numClasses], f32 or f64) against `labels` by
/// argmax; ties go to the lowest class.
absl::StatusOr<ClassificationScore>
scoreLogits(const HostTensor &logits, const std::vector<int32_t> &labels,
            int64_t numClasses);

} // namespace gevo

#endif // GEVO_EVAL_HARNESS_H
