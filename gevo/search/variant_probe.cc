//===- variant_probe.cc - What the search learns of a variant unrun -----===//

#include "gevo/search/variant_probe.h"

#include "gevo/eval/static_cost.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/surrogate.h"
#include "gevo/workbench/variant_context.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

VariantProbe::Built &VariantProbe::probe(const std::vector<Edit> &edits,
                                         bool withCost) {
  std::string id;
  for (const Edit &edit : edits)
    id += editKey(edit) + "\n";
  Built &known = built[id];
  if (!known.key.empty() && (!withCost || known.staticCost >= 0))
    return known;
  // The build the context remembers, read where it lies: a copy would only
  // be printed and costed.
  bench.variantContext().inspect(edits, [&](const BuiltVariant &built) {
    known.key = built.key;
    if (withCost)
      known.staticCost = estimateStaticCost(*built.module, entry);
  });
  return known;
}

bool VariantProbe::isNew(const std::vector<Edit> &edits) {
  return isNewKey(probe(edits, false).key);
}

double VariantProbe::staticCost(const std::vector<Edit> &edits) {
  return probe(edits, true).staticCost;
}

} // namespace gevo
