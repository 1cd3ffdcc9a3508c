//===- apply_main.cc - gevo-apply: replay a patch onto fresh MLIR ---------===//
//
//   bazel run //replay:apply -- --patch=P.gevo --input=model.mlir -o out.mlir
//   (--input may also be a workload: its module as the search loads it)
//
// Exit codes: 0 applied, 2 bad input, an edit that does not apply (the
// static check's refusals included: static_safety.h), or a limit passed
// (--max-edits, --max-growth).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

llvm::cl::OptionCategory category("gevo-apply options");
llvm::cl::opt<std::string> patchPath("patch", llvm::cl::desc("Patch to apply"),
                                     llvm::cl::value_desc("file.gevo"),
                                     llvm::cl::Required,
                                     llvm::cl::cat(category));
llvm::cl::opt<std::string> inputPath(
    "input",
    llvm::cl::desc("MLIR module to patch, an ONNX model (.onnx), imported "
                   "as the patch's `source onnx batch=N` line says, or a "
                   "workload (.json or its directory), its module loaded as "
                   "a search loads it (a `training` field's program "
                   "generated)"),
    llvm::cl::value_desc("model.mlir"), llvm::cl::Required,
    llvm::cl::cat(category));
llvm::cl::opt<std::string>
    outputPath("o",
               llvm::cl::desc("Where to write the patched module "
                              "(default: standard output)"),
               llvm::cl::value_desc("out.mlir"), llvm::cl::init("-"),
               llvm::cl::cat(category));
llvm::cl::opt<std::string> onMismatch(
    "on-mismatch",
    llvm::cl::desc("What to do with an edit that does not apply: 'error' "
                   "(default: stop, write nothing; a build must never "
                   "silently get a different program) or 'skip' (leave it "
                   "out and say so)"),
    llvm::cl::init("error"), llvm::cl::cat(category));
llvm::cl::opt<int> maxFuzz(
    "max-fuzz",
    llvm::cl::desc("How many ordinals away an address may re-anchor to an op "
                   "with its fingerprint; further is an error (default 100)"),
    llvm::cl::init(gevo::kDefaultMaxFuzz), llvm::cl::cat(category));
llvm::cl::opt<bool> exact(
    "exact",
    llvm::cl::desc("The input must be the very model the patch was made for "
                   "(its fingerprint, the patch's `model` line) and every "
                   "edit must apply where it points: a re-anchored edit is "
                   "an error (gevo_patch's default)"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> inPlace(
    "in-place",
    llvm::cl::desc("Allow -o to name the input itself (it is replaced whole "
                   "once the patch applied)"),
    llvm::cl::cat(category));
llvm::cl::opt<unsigned> maxEdits(
    "max-edits",
    llvm::cl::desc("Most edits a patch may hold; more is an error at the "
                   "first edit past it (default 10000)"),
    llvm::cl::init(gevo::kDefaultMaxEdits), llvm::cl::cat(category));
llvm::cl::opt<double> maxGrowth(
    "max-growth",
    llvm::cl::desc("The patched module may be at most this many times the "
                   "input's size, counted in ops and in printed bytes; more "
                   "is an error and nothing is written (default 8; 0: no "
                   "limit)"),
    llvm::cl::init(8), llvm::cl::cat(category));
llvm::cl::opt<bool> allowExternalCalls(
    "allow-external-calls",
    llvm::cl::desc("Let edits add calls to functions declared without a body "
                   "(code outside the module); refused by default"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> unproven(
    "unproven",
    llvm::cl::desc("What to do with an edit whose accesses or loops the "
                   "static check cannot decide (they depend on a dynamic "
                   "shape or a caller's scalar): 'warn' (default: apply it, "
                   "say so) or 'error' (a build that must be proven safe)"),
    llvm::cl::init("warn"), llvm::cl::cat(category));
llvm::cl::opt<int64_t> maxLoopIterations(
    "max-loop-iterations",
    llvm::cl::desc("The most times an edited loop nest's body may run "
                   "(default 2^24 = 16777216)"),
    llvm::cl::init(gevo::kDefaultMaxLoopIterations), llvm::cl::cat(category));
llvm::cl::opt<bool>
    quiet("quiet",
          llvm::cl::desc("Print the summary only on failure or when an "
                         "edit applied unproven"),
          llvm::cl::cat(category));

/// The input module's size, in ops and in bytes (its file's).
struct ModuleSize {
  int64_t ops = 0;
  size_t bytes = 0;
};

int64_t countOps(mlir::ModuleOp module) {
  int64_t ops = 0;
  module->walk([&](mlir::Operation *) { ++ops; });
  return ops;
}

ModuleSize sizeOf(mlir::ModuleOp module, const std::string &path) {
  std::error_code ignored;
  uintmax_t bytes = std::filesystem::file_size(path, ignored);
  return {countOps(module), bytes == uintmax_t(-1) ? 0 : size_t(bytes)};
}

/// `what` of the patched module against the input's, under --max-growth:
/// what is wrong, without where.
absl::Status checkGrowth(double before, double after, const char *what) {
  if (maxGrowth <= 0 || after <= maxGrowth * std::max(before, 1.0))
    return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("the patched module would have ", after, " ", what,
                   ", more than ", double(maxGrowth), "x the input's ", before,
                   " (--max-growth raises the limit)"));
}

/// The input, legalised to linalg: what the patch's edits address.
struct Input {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ModuleSize size;
};

/// A workload's module as the search loaded it (an ONNX model imported, a
/// training program generated), which must be the one the patch's `source`
/// line names; or a module file: TOSA legalised, ONNX imported as the
/// patch's `source onnx` line says.
absl::StatusOr<Input> loadInput(mlir::MLIRContext &context,
                                const gevo::Patch &patch,
                                const std::string &patchFile) {
  std::string input = gevo::resolveUserPath(inputPath);
  gevo::SourceForm form = gevo::SourceForm::Linalg;
  gevo::ImportSettings import;
  if (std::optional<gevo::OnnxSource> onnx = gevo::onnxSource(patch)) {
    import.batch = onnx->batch;
    import.entry = onnx->entry;
  }
  bool workload = gevo::isWorkloadPath(input);
  if (!workload && gevo::isOnnxPath(input))
    if (absl::Status status =
            gevo::checkPatchSource(patch, patchFile, gevo::SourceForm::Onnx);
        !status.ok())
      return status;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      workload ? gevo::loadWorkloadModuleAt(context, input, &form, &import)
               : gevo::loadLinalgModule(context, input, &form, import);
  if (!module.ok())
    return module.status();
  if (absl::Status status = gevo::checkPatchSource(patch, patchFile, form);
      !status.ok())
    return status;
  std::string source = gevo::sourceLine(form, import);
  if (form == gevo::SourceForm::Training && patch.source != source)
    return absl::InvalidArgumentError(
        absl::StrCat(patchFile, ":2: error: the patch was made for `source ",
                     patch.source, "`, the workload generates `source ", source,
                     "` (another forward module or training spec)"));
  Input result;
  result.module = std::move(*module);
  result.size = sizeOf(*result.module, input);
  if (workload) { // the program's printed size, not the spec file's
    std::string text;
    llvm::raw_string_ostream(text) << *result.module;
    result.size.bytes = text.size();
  }
  return result;
}

/// The first flag out of range, in words; none when all are fine.
std::optional<std::string> badFlag() {
  if (onMismatch != "error" && onMismatch != "skip")
    return "--on-mismatch must be 'error' or 'skip'";
  if (maxFuzz < 0)
    return "--max-fuzz must be 0 or more";
  if (!(maxGrowth >= 0))
    return "--max-growth must be 0 or more";
  if (unproven != "warn" && unproven != "error")
    return "--unproven must be 'warn' or 'error'";
  if (maxLoopIterations < 1)
    return "--max-loop-iterations must be 1 or more";
  return std::nullopt;
}

/// An applied edit the flags refuse (re-anchored under --exact, unproven
/// under --unproven=error), as its error line; none when none is.
std::optional<std::string> refusedEdit(const gevo::ApplyReport &report) {
  for (const gevo::EditResult &edit : report.edits) {
    if (exact && edit.fate == gevo::EditResult::Fate::Reanchored)
      return absl::StrCat(patchPath.getValue(), ":", edit.line,
                          ": error: the edit re-anchored to another op "
                          "(--exact)");
    if (unproven == "error" && !edit.unproven.empty())
      return absl::StrCat(
          patchPath.getValue(), ":", edit.line,
          ": error: unproven (--unproven=error): ", edit.unproven.front());
  }
  return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(argc, argv,
                                         "gevo-apply: apply a gevo-ml patch "
                                         "(edit script) to an MLIR module.\n",
                                         &llvm::errs()))
    return 2;
  if (std::optional<std::string> bad = badFlag())
    return gevo::reportBadInput(*bad);
  gevo::SafetyOptions safety;
  safety.allowExternalCalls = allowExternalCalls;
  safety.maxLoopIterations = maxLoopIterations;
  if (outputPath != "-" && !inPlace) {
    std::error_code ignored;
    if (std::filesystem::equivalent(gevo::resolveUserPath(outputPath),
                                    gevo::resolveUserPath(inputPath), ignored))
      return gevo::reportBadInput(
          "-o names the input itself: give --in-place to replace it");
  }
  std::string patchFile = gevo::resolveUserPath(patchPath);
  absl::StatusOr<gevo::Patch> patch = gevo::loadPatch(patchFile, maxEdits);
  if (!patch.ok())
    return gevo::reportBadInput(std::string(patch.status().message()));
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  absl::StatusOr<Input> loaded = loadInput(*context, *patch, patchFile);
  if (!loaded.ok())
    return gevo::reportBadInput(std::string(loaded.status().message()));
  mlir::OwningOpRef<mlir::ModuleOp> &module = loaded->module;
  ModuleSize before = loaded->size;
  if (exact && gevo::modelFingerprint(*module) != patch->model)
    return gevo::reportBadInput(absl::StrCat(
        patchPath.getValue(), ":2: error: the patch was made for model ",
        patch->model, ", the input is model ", gevo::modelFingerprint(*module),
        " (--exact; a build rule takes allow_reanchor = True to replay it "
        "anyway)"));
  // Ops are counted after every edit, so a patch that multiplies the module
  // stops at the edit that passes the limit, before the work grows with it.
  auto opsWithin = [&](mlir::ModuleOp edited) {
    return checkGrowth(before.ops, countOps(edited), "ops");
  };
  absl::StatusOr<gevo::ApplyReport> report = gevo::applyPatch(
      *module, *patch, patchPath,
      onMismatch == "skip" ? gevo::OnMismatch::Skip : gevo::OnMismatch::Error,
      exact ? 0 : int(maxFuzz), safety, opsWithin);
  if (!report.ok())
    return gevo::reportBadInput(std::string(report.status().message()));
  if (std::optional<std::string> refused = refusedEdit(*report))
    return gevo::reportBadInput(*refused);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  os.flush();
  if (absl::Status status = checkGrowth(before.bytes, text.size(), "bytes");
      !status.ok())
    return gevo::reportBadInput(
        absl::StrCat(patchPath.getValue(), ": error: ", status.message()));
  std::string path =
      outputPath == "-" ? "-" : gevo::resolveUserPath(outputPath);
  if (absl::Status status = gevo::writeOutput(path, text); !status.ok())
    return gevo::reportBadInput(std::string(status.message()));
  // Unproven edits are never quiet: a build shows what nothing proved.
  if (!quiet || report->unprovenEdits() > 0)
    llvm::errs() << report->summary(patchPath);
  return 0;
}
