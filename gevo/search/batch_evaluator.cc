//===- batch_evaluator.cc - Evaluate a generation: build, cache, sandbox --===//

#include "gevo/search/batch_evaluator.h"

#include "gevo/ir/op_address.h"

namespace gevo {

void BatchEvaluator::evaluate(std::vector<Individual> &batch,
                              const std::function<void()> &onMeasured) {
  // Individuals waiting for a child, by key: equal variants share one run.
  std::map<std::string, std::vector<size_t>> waiting;
  auto finish = [&](size_t i, const Measurement &m, bool cached) {
    batch[i].measurement = m;
    batch[i].cached = cached;
    ++counts.outcomes[m.outcome];
    if (cached)
      ++counts.cacheHits;
    if (onMeasured)
      onMeasured();
  };
  for (size_t i = 0; i < batch.size(); ++i) {
    BuiltVariant built = variation.build(batch[i].edits);
    batch[i].edits = std::move(built.edits);
    batch[i].key = modelFingerprint(*built.module);
    if (std::optional<Measurement> hit = cache.find(batch[i].key)) {
      finish(i, *hit, /*cached=*/true);
      continue;
    }
    auto [it, first] = waiting.try_emplace(batch[i].key);
    it->second.push_back(i);
    if (!first)
      continue;
    std::string key = batch[i].key;
    ++counts.evaluations;
    session.submit(pool, std::move(built.module), RunRequest(),
                   [&, key](Measurement m) {
                     cache.insert(key, m);
                     std::vector<size_t> &members = waiting[key];
                     for (size_t k = 0; k < members.size(); ++k)
                       finish(members[k], m, /*cached=*/k > 0);
                     members.clear();
                   });
  }
  pool.wait();
}

} // namespace gevo
