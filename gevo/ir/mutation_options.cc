//===- mutation_options.cc - Which operators and ops a mutation may use ---===//

#include "gevo/ir/mutation_options.h"

#include <algorithm>

namespace gevo {

bool passesFilters(const OpRef &ref, const MutationOptions &options) {
  if (!options.functions.empty() &&
      std::find(options.functions.begin(), options.functions.end(),
                ref.function) == options.functions.end())
    return false;
  return options.opPrefixes.empty() ||
         std::any_of(options.opPrefixes.begin(), options.opPrefixes.end(),
                     [&](const std::string &prefix) {
                       return ref.opName.rfind(prefix, 0) == 0;
                     });
}

bool allowsKind(const MutationOptions &options, EditKind kind) {
  return std::find(options.kinds.begin(), options.kinds.end(), kind) !=
         options.kinds.end();
}

} // namespace gevo
