//===- mutation_operator.cc - The registry of mutation operators ----------===//

#include "gevo/ir/mutation_operator.h"

#include "absl/strings/str_cat.h"

namespace gevo {

absl::Status MutationOperator::retune(const MutationScope &, Rng &,
                                      Edit &edit) const {
  return absl::InvalidArgumentError(
      absl::StrCat("a ", toString(edit.kind), " edit has nothing to retune"));
}

std::string MutationOperator::describe(const Edit &edit) const {
  return absl::StrCat(word(), " of ", edit.target.opName);
}

const MutationOperator &operatorFor(EditKind kind) {
  switch (kind) {
#define GEVO_OPERATOR(Kind, word, anchored)                                    \
  case EditKind::Kind:                                                         \
    return operatorOf<EditKind::Kind>();
#include "gevo/ir/operators.def"
  }
  // Not an EditKind (a cast of another number): no operator has it.
  return operatorOf<kAllEditKinds[0]>();
}

} // namespace gevo
