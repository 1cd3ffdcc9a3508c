//===- patch_fuzzer.cc - libFuzzer target: patch parser and replay --------===//
//
// Feeds arbitrary bytes to the patch parser and, when they parse, replays the
// patch with both mismatch policies onto the model its `model` line names
// (digits_mlp_train or digits_mlp_predict), else a small model
// (gevo/ir/testdata/ops.mlir). What must hold for any input: no crash; an
// error is one line that names the patch and holds no control byte; a parsed
// patch prints to text that parses again and prints the same (the printer's
// fixpoint); a patch apply accepts leaves no access, loop, call or write that
// the static check, run on the whole patched module, refuses (the models
// have none: apply's edit-by-edit check must not let one through).
// Built as a fuzzer with `--config=fuzz` (clang-22, libFuzzer); the normal
// build links it with corpus_main.cc, which replays the seed corpus.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/static_safety.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "replay/fuzz/fuzz_model.h"
#include "replay/patch.h"

namespace {

constexpr size_t kMaxInput = 1 << 14;
constexpr const char kName[] = "fuzz.gevo";

[[noreturn]] void violated(const char *what, const std::string &detail) {
  std::fprintf(stderr, "patch_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// An error message must be one line, name the patch, and quote no raw
/// control byte.
void checkMessage(const absl::Status &status) {
  std::string message(status.message());
  if (message.find(kName) == std::string::npos)
    violated("error does not name the patch", message);
  for (char c : message)
    if (static_cast<unsigned char>(c) < 0x20 ||
        static_cast<unsigned char>(c) == 0x7f)
      violated("error holds a control byte", message);
}

struct Model {
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  mlir::OwningOpRef<mlir::ModuleOp> small, train, predict;
  std::string trainPrint, predictPrint;

  mlir::OwningOpRef<mlir::ModuleOp> load(const char *text, const char *name) {
    auto parsed = gevo::parseModule(*context, text, name);
    if (!parsed.ok())
      violated("a fuzz model does not parse",
               std::string(parsed.status().message()));
    for (const gevo::SafetyFinding &finding :
         gevo::findSafetyProblems(**parsed, gevo::SafetyOptions()))
      if (finding.level == gevo::SafetyFinding::Level::Unsafe)
        violated("a fuzz model fails the static check", finding.message);
    return std::move(*parsed);
  }

  Model()
      : small(load(gevo::kFuzzModel, "ops.mlir")),
        train(load(gevo::kTrainModel, "digits_mlp_train.mlir")),
        predict(load(gevo::kPredictModel, "digits_mlp_predict.mlir")),
        trainPrint(gevo::modelFingerprint(*train)),
        predictPrint(gevo::modelFingerprint(*predict)) {}

  /// The model a patch was made for, else the small one.
  mlir::ModuleOp forPatch(const gevo::Patch &patch) {
    if (patch.model == trainPrint)
      return *train;
    if (patch.model == predictPrint)
      return *predict;
    return *small;
  }
};

/// What the run did, printed at exit when GEVO_FUZZ_STATS is set.
struct Stats {
  long parsed = 0, accepted = 0, onWorkloads = 0, refusedUnsafe = 0;
  static void print();
} stats;

void Stats::print() {
  std::fprintf(stderr,
               "patch_fuzzer: %ld patches parsed, %ld replays accepted (%ld "
               "onto a digits workload), %ld refused by the static check, 0 "
               "accepted that it refuses\n",
               stats.parsed, stats.accepted, stats.onWorkloads,
               stats.refusedUnsafe);
}

/// What apply accepted must pass the static check as a whole.
void checkAccepted(mlir::ModuleOp patched, const std::string &printed) {
  for (const gevo::SafetyFinding &finding :
       gevo::findSafetyProblems(patched, gevo::SafetyOptions()))
    if (finding.level == gevo::SafetyFinding::Level::Unsafe)
      violated("apply accepted a patch the static check refuses",
               finding.message + "\n" + printed);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return 0;
  static Model *model = new Model();
  static const bool counting = [] {
    if (std::getenv("GEVO_FUZZ_STATS"))
      std::atexit(Stats::print);
    return true;
  }();
  (void)counting;
  std::string text(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<gevo::Patch> patch = gevo::parsePatch(text, kName);
  if (!patch.ok()) {
    checkMessage(patch.status());
    return 0;
  }
  ++stats.parsed;
  std::string printed = gevo::printPatch(*patch);
  absl::StatusOr<gevo::Patch> again = gevo::parsePatch(printed, kName);
  if (!again.ok())
    violated("a printed patch does not parse",
             std::string(again.status().message()) + "\n" + printed);
  if (gevo::printPatch(*again) != printed)
    violated("printing is not a fixpoint", printed);
  for (gevo::OnMismatch policy :
       {gevo::OnMismatch::Skip, gevo::OnMismatch::Error}) {
    mlir::ModuleOp base = model->forPatch(*patch);
    mlir::OwningOpRef<mlir::ModuleOp> work(base.clone());
    absl::StatusOr<gevo::ApplyReport> report =
        gevo::applyPatch(*work, *patch, kName, policy);
    if (!report.ok()) {
      checkMessage(report.status());
      stats.refusedUnsafe +=
          std::string(report.status().message()).find("not proven safe") !=
          std::string::npos;
      continue;
    }
    checkAccepted(*work, printed);
    ++stats.accepted;
    stats.onWorkloads += base != *model->small;
    for (const gevo::EditResult &edit : report->edits)
      stats.refusedUnsafe +=
          edit.reason.find("not proven safe") != std::string::npos;
  }
  return 0;
}
