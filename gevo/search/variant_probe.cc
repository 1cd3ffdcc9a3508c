//===- variant_probe.cc - What the parent learns of a variant without running
//===//

#include "gevo/search/variant_probe.h"

#include "gevo/eval/static_cost.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/surrogate.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

const VariantProbe::Built &VariantProbe::probe(const std::vector<Edit> &edits) {
  std::string id;
  for (const Edit &edit : edits)
    id += editKey(edit) + "\n";
  auto found = built.find(id);
  if (found != built.end())
    return found->second;
  BuiltVariant variant = bench.build(edits);
  Built result;
  result.key = modelFingerprint(*variant.module);
  result.staticCost = estimateStaticCost(*variant.module, entry);
  return built.emplace(std::move(id), std::move(result)).first->second;
}

bool VariantProbe::isNew(const std::vector<Edit> &edits) {
  const std::string &key = probe(edits).key;
  return !measuredKeys.count(key) && proposed.insert(key).second;
}

double VariantProbe::staticCost(const std::vector<Edit> &edits) {
  return probe(edits).staticCost;
}

} // namespace gevo
