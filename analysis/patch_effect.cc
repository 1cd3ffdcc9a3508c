//===- patch_effect.cc - Measuring subsets of a patch's edits -------------===//

#include "analysis/patch_effect.h"

#include <algorithm>

#include "gevo/eval/static_cost.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/readdress.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

namespace gevo {

PatchEffect::PatchEffect(EvaluationSession &session, SandboxPool &pool,
                         FitnessCache &cache, std::vector<Edit> edits,
                         EffectOptions options)
    : session(session), pool(pool), cache(cache), all(std::move(edits)),
      options(std::move(options)),
      variation(session.baseline(), MutationOptions()) {
  if (this->options.objectives.empty())
    this->options.objectives = session.spec().objectives;
}

bool PatchEffect::hasObjective(const std::string &name) const {
  return std::find(options.objectives.begin(), options.objectives.end(),
                   name) != options.objectives.end();
}

bool PatchEffect::measuresRuntime() const { return hasObjective("runtime"); }

std::vector<Edit>
PatchEffect::editsOf(const std::vector<size_t> &subset) const {
  std::vector<Edit> edits;
  for (size_t i : subset)
    edits.push_back(all[i]);
  return edits;
}

bool PatchEffect::losesEffectStatically(const std::vector<size_t> &subset,
                                        const Measurement &reference) {
  auto [it, first] = staticCosts.try_emplace(subset);
  if (first) {
    BuiltVariant built = variation.build(editsOf(subset));
    bool valid = built.dropped == 0;
    if (valid) {
      // The session reports verifier errors when it runs a variant; here
      // they are only a no.
      mlir::ScopedDiagnosticHandler quiet(
          built.module->getContext(),
          [](mlir::Diagnostic &) { return mlir::success(); });
      valid = mlir::succeeded(mlir::verify(*built.module));
    }
    if (valid)
      it->second = estimateStaticCost(*built.module, session.spec().entry);
  }
  bool loses = !it->second || (hasObjective("static_cost") &&
                               *it->second > reference.staticCost);
  if (loses && first)
    ++decidedStatically;
  return loses;
}

std::vector<std::optional<Measurement>>
PatchEffect::measureAll(const std::vector<std::vector<size_t>> &subsets) {
  std::vector<std::optional<Measurement>> out(subsets.size());
  RunRequest request;
  if (measuresRuntime())
    request.interleavedPairs = std::max(1, options.pairs);
  std::map<std::string, std::vector<size_t>> waiting;
  for (size_t s = 0; s < subsets.size(); ++s) {
    BuiltVariant built = variation.build(editsOf(subsets[s]));
    if (built.dropped > 0)
      continue; // this subset is not a program of its own
    std::string key = modelFingerprint(*built.module);
    if (measuresRuntime()) {
      if (auto it = interleaved.find(key); it != interleaved.end()) {
        out[s] = it->second;
        ++cacheHits;
        continue;
      }
    } else if (std::optional<Measurement> hit = cache.find(key)) {
      out[s] = *hit;
      ++cacheHits;
      continue;
    }
    auto [it, first] = waiting.try_emplace(key);
    it->second.push_back(s);
    if (!first)
      continue;
    ++evaluations;
    session.submit(pool, std::move(built.module), request,
                   [this, key, &out, &waiting](Measurement m) {
                     if (measuresRuntime())
                       interleaved[key] = m;
                     else
                       cache.insert(key, m);
                     for (size_t index : waiting[key])
                       out[index] = m;
                   });
  }
  pool.wait();
  return out;
}

std::optional<Measurement>
PatchEffect::measure(const std::vector<size_t> &subset) {
  return measureAll({subset})[0];
}

std::vector<Edit>
PatchEffect::readdressed(const std::vector<size_t> &subset) const {
  std::vector<Edit> edits = editsOf(subset);
  absl::StatusOr<std::vector<Edit>> readdressed =
      readdressEdits(session.baseline(), edits);
  return readdressed.ok() ? *std::move(readdressed) : edits;
}

double PatchEffect::value(const Measurement &m, const std::string &name) const {
  return name == "runtime" ? m.runtimeRatio : objectiveValue(m, name);
}

bool PatchEffect::keepsEffect(const Measurement &m,
                              const Measurement &reference) const {
  if (!m.ok())
    return false;
  for (const std::string &name : options.objectives) {
    double tolerance = name == "runtime" ? options.runtimeTolerance
                       : name == "error" ? options.errorTolerance
                                         : 0;
    if (value(m, name) > value(reference, name) + tolerance)
      return false;
  }
  return true;
}

} // namespace gevo
