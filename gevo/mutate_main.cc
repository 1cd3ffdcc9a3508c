//===- mutate_main.cc - gevo-mutate: random edits as a patch --------------===//
//
//   bazel run //gevo:mutate -- --input=model.mlir --edits=3 --seed=7 -o p.gevo
//
// Draws edits with the mutation operators, each on the module as the
// previous ones left it, and writes them as a patch that //replay:apply
// replays byte for byte. Useful to explore operators and to make test input.
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <random>

#include "absl/strings/str_split.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/patch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

llvm::cl::OptionCategory category("gevo-mutate options");
llvm::cl::opt<std::string>
    inputPath("input",
              llvm::cl::desc("MLIR module to mutate, an ONNX model (.onnx), "
                             "or a workload (.json or its directory): its "
                             "module as a search loads it"),
              llvm::cl::value_desc("model.mlir"), llvm::cl::Required,
              llvm::cl::cat(category));
llvm::cl::opt<int64_t>
    batch("batch",
          llvm::cl::desc("An ONNX input's batch (its symbolic dimension), "
                         "recorded in the patch's `source onnx` line"),
          llvm::cl::init(0), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    outputPath("o", llvm::cl::desc("Patch to write (default: standard output)"),
               llvm::cl::value_desc("p.gevo"), llvm::cl::init("-"),
               llvm::cl::cat(category));
llvm::cl::opt<int> edits("edits", llvm::cl::desc("Number of edits"),
                         llvm::cl::init(1), llvm::cl::cat(category));
llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("Random seed"),
                             llvm::cl::init(1), llvm::cl::cat(category));
/// Every registered operator's name (gevo/ir/operators.def), comma-separated.
const std::string kAllOperators = [] {
  std::string names;
  for (gevo::EditKind kind : gevo::kAllEditKinds)
    names += std::string(names.empty() ? "" : ",") + gevo::toString(kind);
  return names;
}();
const std::string kOperatorsHelp =
    "Comma-separated operators to draw from: " + kAllOperators +
    " (default: all)";
llvm::cl::opt<std::string> operators("operators",
                                     llvm::cl::desc(kOperatorsHelp),
                                     llvm::cl::init(kAllOperators),
                                     llvm::cl::cat(category));
llvm::cl::opt<std::string> functions(
    "functions",
    llvm::cl::desc("Comma-separated functions to mutate (default: all)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string>
    ops("ops",
        llvm::cl::desc("Comma-separated op name prefixes to target, e.g. "
                       "'arith.,linalg.matmul' (default: all)"),
        llvm::cl::cat(category));

llvm::cl::opt<bool> list(
    "list",
    llvm::cl::desc("Print the address of every addressable op (and the op) "
                   "instead of mutating"),
    llvm::cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "gevo-mutate: draw random, resolved edits as a patch.\n",
          &llvm::errs()))
    return 2;
  gevo::MutationOptions options;
  absl::StatusOr<std::vector<gevo::EditKind>> kinds =
      gevo::parseEditKinds(operators);
  if (!kinds.ok())
    return gevo::reportBadInput("--operators: " +
                                std::string(kinds.status().message()));
  options.kinds = *kinds;
  for (absl::string_view f : absl::StrSplit(functions, ',', absl::SkipEmpty()))
    options.functions.emplace_back(f);
  for (absl::string_view o : absl::StrSplit(ops, ',', absl::SkipEmpty()))
    options.opPrefixes.emplace_back(o);
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  // A TOSA input is legalised first: the edits address its linalg form.
  gevo::SourceForm form = gevo::SourceForm::Linalg;
  gevo::ImportSettings import;
  import.batch = batch;
  std::string input = gevo::resolveUserPath(inputPath);
  auto module =
      gevo::isWorkloadPath(input)
          ? gevo::loadWorkloadModuleAt(*context, input, &form, &import)
          : gevo::loadLinalgModule(*context, input, &form, import);
  if (!module.ok())
    return gevo::reportBadInput(std::string(module.status().message()));
  if (list) {
    gevo::printAddressList(**module, gevo::AddressIndex(**module),
                           llvm::outs());
    return 0;
  }
  gevo::Patch patch;
  patch.model = gevo::modelFingerprint(**module);
  patch.source = gevo::sourceLine(form, import);
  patch.metadata.push_back({"seed", std::to_string(seed)});
  std::mt19937_64 rng(seed);
  std::vector<gevo::Edit> drawn;
  for (int i = 0; i < edits; ++i) {
    // Each edit once: replay refuses a patch with the same edit twice.
    absl::StatusOr<gevo::Edit> edit =
        gevo::proposeAnyEdit(**module, options, rng, 50, &drawn);
    if (!edit.ok())
      return gevo::reportBadInput(std::string(edit.status().message()));
    if (absl::Status status = gevo::applyEdit(**module, *edit); !status.ok())
      return gevo::reportBadInput(std::string(status.message()));
    patch.addEdit(*edit);
    drawn.push_back(*edit);
  }
  std::string path =
      outputPath == "-" ? "-" : gevo::resolveUserPath(outputPath);
  if (absl::Status status = gevo::writeOutput(path, gevo::printPatch(patch));
      !status.ok())
    return gevo::reportBadInput(std::string(status.message()));
  return 0;
}
