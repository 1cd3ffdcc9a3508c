//===- patch_fuzzer.cc - libFuzzer target: patch parser and replay --------===//
//
// Feeds arbitrary bytes to the patch parser and, when they parse, replays the
// patch onto a small model (gevo/ir/testdata/ops.mlir) with both mismatch
// policies. What must hold for any input: no crash; an error is one line
// that names the patch and holds no control byte; a parsed patch prints to
// text that parses again and prints the same (the printer's fixpoint).
// Built as a fuzzer with `--config=fuzz` (clang-22, libFuzzer); the normal
// build links it with corpus_main.cc, which replays the seed corpus.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gevo/ir/mlir_support.h"
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
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Model() {
    auto parsed = gevo::parseModule(*context, gevo::kFuzzModel, "ops.mlir");
    if (!parsed.ok())
      violated("the fuzz model does not parse",
               std::string(parsed.status().message()));
    module = std::move(*parsed);
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return 0;
  static Model *model = new Model();
  std::string text(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<gevo::Patch> patch = gevo::parsePatch(text, kName);
  if (!patch.ok()) {
    checkMessage(patch.status());
    return 0;
  }
  std::string printed = gevo::printPatch(*patch);
  absl::StatusOr<gevo::Patch> again = gevo::parsePatch(printed, kName);
  if (!again.ok())
    violated("a printed patch does not parse",
             std::string(again.status().message()) + "\n" + printed);
  if (gevo::printPatch(*again) != printed)
    violated("printing is not a fixpoint", printed);
  for (gevo::OnMismatch policy :
       {gevo::OnMismatch::Skip, gevo::OnMismatch::Error}) {
    mlir::OwningOpRef<mlir::ModuleOp> work(model->module->clone());
    absl::StatusOr<gevo::ApplyReport> report =
        gevo::applyPatch(*work, *patch, kName, policy);
    if (!report.ok())
      checkMessage(report.status());
  }
  return 0;
}
