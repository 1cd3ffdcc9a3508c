//===- batch_evaluator.cc - A generation's individuals, measured ----------===//

#include "gevo/search/batch_evaluator.h"

namespace gevo {

Measurement onReferenceScale(Measurement m, double referenceMs) {
  if (m.ok() && m.runtimeRatio > 0 && referenceMs > 0)
    m.medianRunMs = m.runtimeRatio * referenceMs;
  return m;
}

void BatchEvaluator::evaluate(std::vector<Individual> &batch,
                              const std::function<void()> &onMeasured) {
  std::vector<std::vector<Edit>> lists;
  lists.reserve(batch.size());
  for (const Individual &individual : batch)
    lists.push_back(individual.edits);
  BatchRequest request;
  request.run.interleavedPairs = pairedRuns;
  std::vector<MeasuredVariant> measured = bench.measure(
      lists, request, [&](size_t, const MeasuredVariant &variant) {
        ++counts.outcomes[variant.measurement->outcome];
        // Equal variants of one batch share a run: all but the first count
        // as cache hits.
        if (variant.ran)
          ++counts.evaluations;
        else
          ++counts.cacheHits;
        if (onMeasured)
          onMeasured();
      });
  for (size_t i = 0; i < batch.size(); ++i) {
    batch[i].edits = std::move(measured[i].edits);
    batch[i].key = std::move(measured[i].key);
    batch[i].measurement = pairedRuns > 0
                               ? onReferenceScale(*measured[i].measurement,
                                                  bench.baseline().medianRunMs)
                               : *measured[i].measurement;
    batch[i].cached = !measured[i].ran;
  }
}

} // namespace gevo
