//===- md_safety_section.cc - Patches from others: the static check -------===//
//
// The safety section of BENCHMARKS.md (see benchmarks_md.h): what replay's
// static check refuses of random mutants and what the sandbox says of them
// (//gevo/bench:safety_refusals), and the long patch fuzz run
// (gevo/bench/patch_fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include <optional>
#include <sstream>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// "ok 725, out_of_bounds 3, ..." from an outcome-count object.
std::string outcomeList(const Object *counts) {
  std::string text;
  if (counts)
    for (const auto &[outcome, count] : *counts)
      text +=
          absl::StrFormat("%s%s %d", text.empty() ? "" : ", ", outcome.str(),
                          int(count.getAsNumber().value_or(0)));
  return text.empty() ? "none" : text;
}

int outcomeCount(const Object *counts, const char *outcome) {
  return counts ? int(num(counts, outcome)) : 0;
}

/// The goal as issue #33 states it, from safety_refusals' refused_ok list:
/// each refused mutant the sandbox ran ok is (a) unsafe by the rules, which
/// the sandbox did not see, or (b) a false refusal.
void classifiedRefusals(std::ostringstream &md, const llvm::json::Array &all,
                        int acceptedOob) {
  int unsafe = 0, falseOnes = 0;
  std::ostringstream list;
  for (const llvm::json::Value &entry : all) {
    const Object *r = entry.getAsObject();
    if (!r)
      continue;
    bool isUnsafe = r->getBoolean("unsafe").value_or(false);
    (isUnsafe ? unsafe : falseOnes) += 1;
    std::string why =
        r->getString("refusal").value_or("").split('\n').first.str();
    if (isUnsafe)
      list << absl::StrFormat("- (a) unsafe, %s; the sandbox ran it ok as %s: "
                              "%s\n",
                              r->getString("rule").value_or("").str(),
                              r->getString("sandbox_missed").value_or("").str(),
                              why);
    else
      list << "- (b) false refusal: " << why << "\n";
  }
  md << absl::StrFormat(
      "%s: %d accepted mutants the sandbox calls out_of_bounds (goal 0); of "
      "the %d refused that the sandbox runs ok, %d are (a) unsafe by the "
      "issue's rules, which the sandbox did not see, and %d are (b) false "
      "refusals (goal 0).\n\n",
      acceptedOob == 0 && falseOnes == 0 ? "**Goal met**" : "**Goal missed**",
      acceptedOob, unsafe + falseOnes, unsafe, falseOnes);
  if (unsafe + falseOnes > 0)
    md << "Refused mutants the sandbox ran ok, and why the check refused "
          "them:\n\n"
       << list.str() << "\n";
}

void refusals(std::ostringstream &md, const Object *o) {
  const Object *refused = o->getObject("refused_outcomes");
  const Object *accepted = o->getObject("accepted_outcomes");
  md << absl::StrFormat(
      "`bazel run //gevo/bench:safety_refusals -- "
      "--measure=all --json=bench-results/safety_refusals.json`: %d random "
      "mutants of the "
      "digits workloads, drawn with the check off, each replayed with it on "
      "and run in the sandbox. The check refused %d and applied %d unproven. "
      "Refused, the sandbox says: %s. Accepted, the sandbox says: %s. "
      "Replaying one edit: %.0f us with the check, %.0f us without.\n\n",
      int(num(o, "variants")), int(num(o, "refused")), int(num(o, "unproven")),
      outcomeList(refused), outcomeList(accepted),
      num(o, "checked_us_per_edit"), num(o, "unchecked_us_per_edit"));
  int acceptedOob = outcomeCount(accepted, "out_of_bounds");
  if (const llvm::json::Array *sorted = o->getArray("refused_ok"))
    return classifiedRefusals(md, *sorted, acceptedOob);
  int refusedOk = outcomeCount(refused, "ok");
  md << absl::StrFormat(
      "%s: %d accepted mutants the sandbox calls out_of_bounds (goal 0); %d "
      "refused that the sandbox runs ok (goal: none beyond what the sandbox "
      "calls out_of_bounds; see the reasons below).\n\n",
      acceptedOob == 0 && refusedOk == 0 ? "**Goal met**" : "**Goal missed**",
      acceptedOob, refusedOk);
  if (const llvm::json::Array *reasons = o->getArray("false_refusals")) {
    md << "Refused mutants the sandbox ran ok, and why the check refused "
          "them:\n\n";
    for (const llvm::json::Value &why : *reasons)
      if (auto text = why.getAsString())
        md << "- " << text->split('\n').first.str() << "\n";
    md << "\n";
  }
}

void fuzzRun(std::ostringstream &md, const Object *f) {
  md << absl::StrFormat(
      "`gevo/bench/patch_fuzz.sh` (libFuzzer, AddressSanitizer): %d fuzzed "
      "patches in %d s from %d seed patches; %d parsed, %d replays accepted "
      "(%d onto a shipped digits workload), %d refused by the static check. "
      "%s: %d accepted patches that the check, run on the whole patched "
      "module, refuses (goal 0).\n\n",
      int(num(f, "runs")), int(num(f, "seconds")), int(num(f, "seeds")),
      int(num(f, "patches_parsed")), int(num(f, "replays_accepted")),
      int(num(f, "accepted_onto_workloads")), int(num(f, "refused_by_check")),
      num(f, "findings") == 0 && num(f, "seconds") >= 600 ? "**Goal met**"
                                                          : "**Goal missed**",
      int(num(f, "findings")));
}

} // namespace

void safety(std::ostringstream &md) {
  md << "## 12. Patches from others: replay's static check (goal: no patch "
        "apply accepts is out of bounds in the sandbox, no false refusals, "
        "a 10-minute fuzz run with no finding)\n\n";
  std::optional<llvm::json::Value> v, w;
  if (const Object *o = figuresOf(md, "safety_refusals.json", v))
    refusals(md, o);
  if (const Object *f = figuresOf(md, "patch_fuzz.json", w))
    fuzzRun(md, f);
}

} // namespace gevo::bench_md
