//===- patch_effect.cc - Measuring subsets of a patch's edits -------------===//

#include "analysis/patch_effect.h"

#include <algorithm>

#include "gevo/eval/static_cost.h"
#include "gevo/ir/readdress.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

namespace gevo {

PatchEffect::PatchEffect(Workbench &bench, std::vector<Edit> edits,
                         EffectOptions options, FitnessCache *cache)
    : bench(bench), cache(cache ? *cache : bench.cache()),
      all(std::move(edits)), options(std::move(options)) {
  if (this->options.objectives.empty())
    this->options.objectives = bench.spec().objectives;
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
    BuiltVariant built = bench.build(editsOf(subset));
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
      it->second = estimateStaticCost(*built.module, bench.spec().entry);
  }
  bool loses = !it->second || (hasObjective("static_cost") &&
                               *it->second > reference.staticCost);
  if (loses && first)
    ++decidedStatically;
  return loses;
}

std::vector<std::optional<Measurement>>
PatchEffect::measureAll(const std::vector<std::vector<size_t>> &subsets) {
  std::vector<std::vector<Edit>> lists;
  for (const std::vector<size_t> &subset : subsets)
    lists.push_back(editsOf(subset));
  BatchRequest request;
  request.skipIncomplete = true;
  request.cache = &cache;
  if (measuresRuntime()) {
    request.run.interleavedPairs = std::max(1, options.pairs);
    request.cache = &interleaved;
  }
  std::vector<std::optional<Measurement>> out;
  for (MeasuredVariant &variant : bench.measure(lists, request)) {
    cacheHits += variant.fromCache;
    evaluations += variant.ran;
    out.push_back(std::move(variant.measurement));
  }
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
      readdressEdits(bench.unmodified(), edits);
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
