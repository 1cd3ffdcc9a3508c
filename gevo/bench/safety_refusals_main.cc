//===- safety_refusals_main.cc - What the static check refuses, measured --===//
//
//   bazel run //gevo/bench:safety_refusals -- [--mutants=1000]
//       [--measure=refused|all] [--json=safety_refusals.json]
//
// Draws random edit lists (1..4 edits of every kind) with the static check
// off, replays each with it on as //replay:apply would, and runs the refused
// variants (or all of them) in the sandbox: a refused variant the sandbox
// calls ok is a false refusal, an accepted one it calls out_of_bounds a miss.
// Also times an edit's replay with the check and without. A program that
// prints figures, never a timed test.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <map>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/bench_workbench.h"
#include "gevo/bench/figures.h"
#include "gevo/eval/sandbox.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/static_safety.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "gevo/workbench/workbench.h"
#include "replay/patch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("safety refusal benchmark options");
cl::opt<std::string>
    workloads("workloads",
              cl::desc("Comma-separated workloads (default: both digits)"),
              cl::init("testdata/digits_mlp_train,testdata/digits_mlp_predict"),
              cl::cat(category));
cl::opt<int> mutants("mutants",
                     cl::desc("Random variants in all, split over the "
                              "workloads (default 1000)"),
                     cl::init(1000), cl::cat(category));
cl::opt<std::string>
    measure("measure",
            cl::desc("Which variants run in the sandbox: 'refused' "
                     "(default) or 'all' (also counts misses)"),
            cl::init("refused"), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers (default 2)"), cl::init(2),
                     cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Random seed (default 1)"), cl::init(1),
                       cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default "
                                       "safety_refusals.json)"),
                              cl::init("safety_refusals.json"),
                              cl::cat(category));
cl::opt<std::string> keepDir(
    "keep",
    cl::desc("Folder to write each refused variant the sandbox runs ok to "
             "(N.mlir, the variant as run, and N.txt, the refusal and edits)"),
    cl::init(""), cl::cat(category));

/// A refused variant the sandbox ran ok: (a) really unsafe by issue #33's
/// rules, which the sandbox did not see, or (b) a false refusal.
struct RefusedOk {
  std::string refusal; // the check's message and the edits
  bool unsafe = false;
  std::string rule;   // the rule it breaks (unsafe only)
  std::string missed; // why the sandbox ran it ok (unsafe only)
};

struct Figures {
  int64_t variants = 0, refused = 0, unproven = 0, edits = 0;
  double checkedSeconds = 0, uncheckedSeconds = 0;
  std::map<std::string, int64_t> refusedOutcomes, acceptedOutcomes;
  std::vector<RefusedOk> refusedOk;
};

/// Sorts a refusal the sandbox ran ok by what the check found
/// (static_safety.cc's messages): a loop step that is not positive, a
/// write into the caller's tensor, an index certainly outside its
/// dimension, or one computed from data read at run time are unsafe by the
/// rules; anything else is an access the check could not bound though
/// nothing it depends on is read at run time: a false refusal.
/// `laterEditsClear`: the whole mutant has no finding the check refuses (a
/// later edit removed the hazard or left nothing that uses it).
RefusedOk classify(const std::string &text, bool laterEditsClear) {
  RefusedOk out{text};
  llvm::StringRef why = llvm::StringRef(text).split('\n').first;
  out.unsafe = true;
  if (why.contains("a loop's step must be positive")) {
    out.rule = "a loop's step must be positive";
    out.missed = "canonicalize folds an scf.for whose step is 0 away as if "
                 "it ran no iteration: nothing hangs, the program computes "
                 "something else";
  } else if (why.contains("(the caller's tensor)")) {
    out.rule = "no write into a function argument";
    out.missed = "the compiled program never writes the input (bufferization "
                 "copies the argument, or canonicalize folds the write), so "
                 "the sandbox's read-only inputs never fault";
  } else if (size_t at = why.find("; it is computed from ");
             at != llvm::StringRef::npos) {
    out.rule = "every access in bounds for every input";
    out.missed = absl::StrCat(
        "the index depends on ", why.substr(at + 22).str(),
        ", which nothing static bounds: in the sandbox's run it landed in "
        "bounds, or the compiled program never made the read (canonicalize "
        "folded its use away, or LLVM a load of fresh memory)");
  } else if (!why.contains("unbounded") && why.contains("is in [")) {
    out.rule = "every access in bounds";
    out.missed = "the index is outside its dimension whatever the input, but "
                 "the read lands in memory the sandbox does not guard (a "
                 "constant's neighbour: only the inputs have guard pages)";
  } else {
    out.unsafe = false;
  }
  if (out.unsafe && laterEditsClear)
    out.missed = "a later edit of the mutant removes the hazard or leaves "
                 "nothing that uses it (the check refuses the edit that makes "
                 "it; the sandbox runs the whole mutant)";
  return out;
}

/// Writes a refused variant the sandbox ran ok to --keep's folder.
void keep(size_t number, const std::string &module, const std::string &why) {
  for (auto [suffix, content] : {std::pair{".mlir", &module}, {".txt", &why}}) {
    std::string path = absl::StrCat(keepDir.getValue(), "/", number, suffix);
    if (absl::Status written = gevo::writeOutput(path, *content); !written.ok())
      std::fprintf(stderr, "%s\n", std::string(written.message()).c_str());
  }
}

/// A random edit list drawn with the check off, applied to `module`.
std::vector<gevo::Edit> drawUnchecked(mlir::ModuleOp module,
                                      std::mt19937_64 &rng) {
  gevo::MutationOptions options;
  options.safety.check = false;
  std::vector<gevo::Edit> edits;
  int length = 1 + rng() % 4;
  for (int i = 0; i < length; ++i) {
    absl::StatusOr<gevo::Edit> edit =
        gevo::proposeAnyEdit(module, options, rng);
    if (!edit.ok() || !gevo::applyEdit(module, *edit, nullptr,
                                       gevo::kDefaultMaxFuzz, options.safety)
                           .ok())
      break;
    edits.push_back(*edit);
  }
  return edits;
}

/// Replays `edits` onto a clone of `base` as apply does (the check on),
/// timing it against a replay without the check; the refusal, if any.
std::optional<std::string> replayChecked(mlir::ModuleOp base,
                                         const std::vector<gevo::Edit> &edits,
                                         Figures &figures, bool &unproven) {
  gevo::SafetyOptions off;
  off.check = false;
  mlir::OwningOpRef<mlir::ModuleOp> plain(base.clone());
  gevo::SteadyClock::time_point start = gevo::SteadyClock::now();
  for (const gevo::Edit &edit : edits)
    (void)gevo::applyEdit(*plain, edit, nullptr, gevo::kDefaultMaxFuzz, off);
  figures.uncheckedSeconds += gevo::secondsSince(start);
  mlir::OwningOpRef<mlir::ModuleOp> checked(base.clone());
  start = gevo::SteadyClock::now();
  std::optional<std::string> refusal;
  for (const gevo::Edit &edit : edits) {
    gevo::EditOutcome outcome;
    absl::Status status = gevo::applyEdit(*checked, edit, &outcome);
    unproven |= !outcome.unproven.empty();
    if (!status.ok()) {
      refusal = std::string(status.message());
      break;
    }
  }
  figures.checkedSeconds += gevo::secondsSince(start);
  figures.edits += edits.size();
  return refusal;
}

absl::Status measureWorkload(const std::string &workload, int share,
                             std::mt19937_64 &rng, Figures &figures) {
  gevo::WorkbenchOptions options;
  options.workers = workers;
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<gevo::Workbench> bench,
                        gevo::openMeasuredWorkbench(workload, options));
  gevo::EvaluationSession &session = bench->evaluation();
  gevo::SandboxPool pool(workers, bench->limitsFor(gevo::BatchRequest()));
  for (int i = 0; i < share; ++i) {
    mlir::OwningOpRef<mlir::ModuleOp> variant(session.baseline().clone());
    std::vector<gevo::Edit> edits = drawUnchecked(*variant, rng);
    bool unproven = false;
    std::optional<std::string> refusal =
        replayChecked(session.baseline(), edits, figures, unproven);
    ++figures.variants;
    figures.unproven += unproven && !refusal;
    figures.refused += refusal.has_value();
    if (!refusal && measure != "all")
      continue;
    std::string lines;
    for (const gevo::Edit &edit : edits)
      lines += "\n    " + gevo::printEdit(edit);
    bool laterEditsClear =
        refusal && llvm::none_of(gevo::findSafetyProblems(*variant, {}),
                                 [](const gevo::SafetyFinding &finding) {
                                   return finding.level ==
                                          gevo::SafetyFinding::Level::Unsafe;
                                 });
    std::string text;
    if (refusal && !keepDir.empty()) {
      llvm::raw_string_ostream os(text);
      variant->print(os);
    }
    session.submit(
        pool, std::move(variant), gevo::RunRequest(),
        [&figures, refusal, lines, text, laterEditsClear](gevo::Measurement m) {
          std::string outcome = gevo::toString(m.outcome);
          if (!refusal) {
            ++figures.acceptedOutcomes[outcome];
            return;
          }
          ++figures.refusedOutcomes[outcome];
          if (!m.ok())
            return;
          figures.refusedOk.push_back(
              classify(*refusal + lines, laterEditsClear));
          if (!keepDir.empty())
            keep(figures.refusedOk.size(), text, *refusal + lines);
        });
    std::fprintf(stderr, "\r%s: %d/%d, %lld refused   ", workload.c_str(),
                 i + 1, share, static_cast<long long>(figures.refused));
  }
  pool.wait();
  return absl::OkStatus();
}

llvm::json::Object byOutcome(const std::map<std::string, int64_t> &counts) {
  llvm::json::Object object;
  for (const auto &[kind, count] : counts)
    object[kind] = count;
  return object;
}

void printFigures(const Figures &f) {
  std::printf("%lld variants, %lld refused by the static check, %lld "
              "applied unproven\n",
              static_cast<long long>(f.variants),
              static_cast<long long>(f.refused),
              static_cast<long long>(f.unproven));
  for (const auto &[kind, count] : f.refusedOutcomes)
    std::printf("  refused, sandbox says %-20s %lld\n", kind.c_str(),
                static_cast<long long>(count));
  for (const auto &[kind, count] : f.acceptedOutcomes)
    std::printf("  accepted, sandbox says %-19s %lld\n", kind.c_str(),
                static_cast<long long>(count));
  for (const RefusedOk &r : f.refusedOk)
    std::printf(
        "  refused, ran ok, %s: %s\n",
        r.unsafe ? absl::StrCat("unsafe (", r.rule, "; ", r.missed, ")").c_str()
                 : "false refusal",
        r.refusal.c_str());
  std::printf("replay: %.1f us per edit with the check, %.1f without\n",
              1e6 * f.checkedSeconds / std::max<int64_t>(1, f.edits),
              1e6 * f.uncheckedSeconds / std::max<int64_t>(1, f.edits));
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "Random variants the static check refuses, "
                             "run in the sandbox.\n"))
    return 2;
  if (measure != "refused" && measure != "all")
    return gevo::reportBadInput("--measure must be 'refused' or 'all'");
  if (!keepDir.empty())
    if (absl::Status made = gevo::makeDirectory(keepDir); !made.ok())
      return gevo::reportFailure(made);
  std::vector<std::string> names =
      absl::StrSplit(workloads.getValue(), ',', absl::SkipEmpty());
  Figures figures;
  std::mt19937_64 rng(seed);
  for (const std::string &name : names)
    if (absl::Status status = measureWorkload(
            name, mutants / static_cast<int>(names.size()), rng, figures);
        !status.ok())
      return gevo::reportFailure(status);
  std::fprintf(stderr, "\n");
  printFigures(figures);
  // false_refusals: the refusals of kind (b) only, as before there was a
  // refused_ok list (BENCHMARKS.md's generator reads either).
  llvm::json::Array reasons, refusedOk;
  int64_t unsafe = 0;
  for (const RefusedOk &r : figures.refusedOk) {
    unsafe += r.unsafe;
    if (!r.unsafe)
      reasons.push_back(r.refusal);
    refusedOk.push_back(llvm::json::Object{{"refusal", r.refusal},
                                           {"unsafe", r.unsafe},
                                           {"rule", r.rule},
                                           {"sandbox_missed", r.missed}});
  }
  if (absl::Status written = gevo::writeFigures(
          jsonPath,
          llvm::json::Object{
              {"variants", figures.variants},
              {"refused", figures.refused},
              {"unproven", figures.unproven},
              {"refused_outcomes", byOutcome(figures.refusedOutcomes)},
              {"accepted_outcomes", byOutcome(figures.acceptedOutcomes)},
              {"false_refusals", std::move(reasons)},
              {"refused_ok", std::move(refusedOk)},
              {"refused_ok_unsafe", unsafe},
              {"checked_us_per_edit", 1e6 * figures.checkedSeconds /
                                          std::max<int64_t>(1, figures.edits)},
              {"unchecked_us_per_edit",
               1e6 * figures.uncheckedSeconds /
                   std::max<int64_t>(1, figures.edits)}});
      !written.ok())
    return gevo::reportFailure(written);
  return 0;
}
