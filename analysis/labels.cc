//===- labels.cc - What one edit of a minimal patch does to the model -----===//

#include "analysis/labels.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "gevo/workbench/build_variant.h"
#include "mlir/IR/IRMapping.h"

namespace gevo {
namespace {

std::string change(const Measurement &m, const Measurement &base) {
  std::string text =
      absl::StrFormat("accuracy %.4f -> %.4f (%+.4f)",
                      base.validation.accuracy(), m.validation.accuracy(),
                      m.validation.accuracy() - base.validation.accuracy());
  if (m.runtimeRatio > 0 && base.runtimeRatio > 0)
    absl::StrAppend(&text, absl::StrFormat(", run x%.3f",
                                           m.runtimeRatio / base.runtimeRatio));
  if (base.staticCost > 0 && m.staticCost != base.staticCost)
    absl::StrAppend(&text, absl::StrFormat(", static cost x%.3f",
                                           m.staticCost / base.staticCost));
  return text;
}

std::string outcomeOrChange(const Measurement &m, const Measurement &base) {
  if (!m.ok())
    return absl::StrCat(toString(m.outcome),
                        m.detail.empty() ? "" : ": " + m.detail.substr(0, 80));
  return change(m, base);
}

} // namespace

std::string describeEvidence(const EditEvidence &e) {
  std::vector<std::string> parts;
  if (e.baseline && e.alone)
    parts.push_back("alone: " + outcomeOrChange(*e.alone, *e.baseline));
  else if (e.baseline)
    parts.push_back("alone: does not apply without the edits before it");
  if (e.full && e.without)
    parts.push_back(
        "the patch without it: " + outcomeOrChange(*e.without, *e.full) +
        " against the whole patch");
  return absl::StrJoin(parts, "; ");
}

namespace {

/// A rewire's user and values, resolved in the module before the edit.
ResolvedRewire resolveRewire(const AddressIndex &addresses,
                             const Rewire &rewire) {
  ResolvedRewire resolved;
  resolved.rewire = &rewire;
  if (!rewire.userIsNew)
    if (auto user = addresses.resolve(rewire.user); user.ok()) {
      resolved.user = user->op;
      if (rewire.operand < static_cast<int>(user->op->getNumOperands()))
        resolved.oldValue = user->op->getOperand(rewire.operand);
    }
  if (rewire.value.kind != ValueRef::Kind::NewResult &&
      rewire.value.kind != ValueRef::Kind::Constant) {
    int fuzz = 0;
    if (auto value = addresses.resolve(rewire.value, &fuzz); value.ok())
      resolved.newValue = *value;
  }
  return resolved;
}

/// The ops the edit names and its rewires, resolved.
void resolveView(const AddressIndex &addresses, EditView &view) {
  const Edit &edit = view.edit;
  if (absl::StatusOr<AddressIndex::Resolved> t = addresses.resolve(edit.target);
      t.ok())
    view.target = t->op;
  if (hasAnchor(edit.kind))
    if (auto a = addresses.resolve(edit.anchor); a.ok())
      view.anchor = a->op;
  for (const Rewire &rewire : edit.rewires)
    view.rewires.push_back(resolveRewire(addresses, rewire));
}

/// A replaced op's uses take the clone's results: rewires in all but name,
/// kept in `implied` (which the view points into).
void addImpliedRewires(const AddressIndex &addresses, EditView &view,
                       std::vector<Rewire> &implied) {
  if (view.edit.kind != EditKind::Replace || !view.target)
    return;
  for (mlir::OpOperand &use : view.target->getUses())
    if (std::optional<OpRef> user = addresses.refOf(use.getOwner())) {
      Rewire rewire;
      rewire.user = *user;
      rewire.operand = static_cast<int>(use.getOperandNumber());
      rewire.value.kind = ValueRef::Kind::NewResult;
      implied.push_back(rewire);
    }
  for (const Rewire &rewire : implied) {
    ResolvedRewire resolved;
    resolved.rewire = &rewire;
    if (auto user = addresses.resolve(rewire.user); user.ok()) {
      resolved.user = user->op;
      resolved.oldValue = user->op->getOperand(rewire.operand);
    }
    view.rewires.push_back(resolved);
  }
}

/// What operands and loop bounds become: the edit applied to a clone of the
/// module before it (ops map one to one until the edit changes them).
void readAfter(EditView &view) {
  mlir::IRMapping mapping;
  mlir::OwningOpRef<mlir::ModuleOp> after(
      llvm::cast<mlir::ModuleOp>(view.before->clone(mapping)));
  if (!applyEdit(*after, view.edit).ok())
    return;
  bool targetErased = operatorFor(view.edit.kind).erasesTarget();
  for (ResolvedRewire &r : view.rewires)
    if (r.user && !(targetErased && r.user == view.target)) {
      mlir::Operation *user = mapping.lookupOrNull(r.user);
      if (user && r.rewire->operand < static_cast<int>(user->getNumOperands()))
        r.constantAfter = foldScalar(user->getOperand(r.rewire->operand));
    }
  view.before->walk([&](mlir::Operation *loop) {
    if (!view.roles.isTrainingLoop(loop))
      return;
    mlir::Operation *mapped = mapping.lookupOrNull(loop);
    std::optional<int64_t> was = foldTripCount(loop);
    std::optional<int64_t> now = mapped ? foldTripCount(mapped) : std::nullopt;
    if (was && now && *was != *now)
      view.tripChanges.push_back(TripChange{loop, *was, *now});
  });
}

/// The first rule's label, or "other".
EffectLabel firstMatch(const EditView &view) {
  for (LabelRule rule : kLabelRules)
    if (std::optional<EffectLabel> matched = rule(view))
      return *matched;
  EffectLabel label;
  label.kind = "other";
  label.summary = absl::StrCat("other: ", view.describeEdit());
  // No rule: say where the edited values end up instead.
  if (std::string sinks = describeSinks(view, &label.path); !sinks.empty())
    absl::StrAppend(&label.summary, " reaching ", sinks);
  return label;
}

/// The roles of the ops the edit touches and the evidence, static then
/// dynamic.
void addContext(const EditView &view, EffectLabel &label) {
  std::set<std::string> touched;
  if (view.target)
    touched.insert(toString(view.roleOf(view.target)));
  for (const ResolvedRewire &r : view.rewires)
    if (r.user)
      touched.insert(toString(view.roleOf(r.user)));
  // A rule that found the role by data flow (flow_rules.cc) keeps it.
  if (label.roles.empty())
    label.roles = absl::StrJoin(touched, ", ");
  // An op edit's path: from the first op it changes to where that op's
  // values end up.
  std::vector<mlir::Operation *> changed = {view.target};
  for (const ResolvedRewire &r : view.rewires)
    changed.push_back(r.user);
  if (label.path.empty() && view.edit.kind != EditKind::Constant)
    for (mlir::Operation *op : changed)
      if (std::vector<FlowSink> sinks = sinksOf(view, op); !sinks.empty()) {
        label.path = describePath(sinks.front().path);
        break;
      }
  std::string dynamic = describeEvidence(view.evidence);
  label.evidence =
      absl::StrCat(label.evidence.empty() ? "" : label.evidence + "; ",
                   "touches ", toString(view.edit.target), " (", label.roles,
                   ")", dynamic.empty() ? "" : "; " + dynamic);
}

} // namespace

EffectLabel labelEdit(mlir::ModuleOp baseline, const WorkloadSpec &spec,
                      const std::vector<Edit> &edits, size_t index,
                      const EditEvidence &evidence) {
  // The module the edits before it make (those that apply).
  mlir::OwningOpRef<mlir::ModuleOp> before =
      buildVariant(baseline, std::vector<Edit>(
                                 edits.begin(),
                                 edits.begin() + std::min(index, edits.size())))
          .module;
  RoleMap roles(*before, spec);
  AddressIndex addresses(*before);
  ValueFlow flow(*before, spec);
  EditView view{edits[index], *before, roles, evidence};
  view.flow = &flow;
  // An op edit's roles come from where its values go; a constant edit keeps
  // the shape-based ones (its flow rule finds its own role).
  FlowRoles flowRoles(flow, roles);
  if (edits[index].kind != EditKind::Constant)
    view.flowRoles = &flowRoles;
  resolveView(addresses, view);
  std::vector<Rewire> implied;
  addImpliedRewires(addresses, view, implied);
  readAfter(view);
  EffectLabel label = firstMatch(view);
  addContext(view, label);
  return label;
}

} // namespace gevo
