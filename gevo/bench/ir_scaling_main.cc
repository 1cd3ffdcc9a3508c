//===- ir_scaling_main.cc - Cost per op of addressing, mutating, applying -===//
//
//   bazel run -c opt //gevo/bench:ir_scaling -- [--sizes=1000,4000,16000,64000]
//       [--depth=500] [--figures=ir_scaling.json]
//
// Generates straight-line chains of arithmetic (constants, adds, muls, subs
// feeding one another) of each size, a chain whose ops all read one constant,
// and a deep nest of scf.execute_region,
// then times what //gevo:mutate and //replay:apply do on them: the address
// list (--list), 4-edit mutations (propose and apply each edit, as the tool
// does; the mean of --mutations seeds) and the replay of each patch on a
// fresh parse. It prints microseconds
// per op: flat columns mean linear time. A program that prints figures, never
// a timed test.
//
//===----------------------------------------------------------------------===//

#include <random>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/figures.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "replay/patch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

llvm::cl::opt<std::string> sizes("sizes",
                                 llvm::cl::desc("Chain lengths, in ops"),
                                 llvm::cl::init("1000,4000,16000,64000"));
llvm::cl::opt<int> depth("depth",
                         llvm::cl::desc("Depth of the nested model (levels of "
                                        "scf.execute_region, 3 ops each)"),
                         llvm::cl::init(500));
llvm::cl::opt<int> fan("fan",
                       llvm::cl::desc("Ops reading one shared constant (a "
                                      "value with that many uses; 0: none)"),
                       llvm::cl::init(16000));
llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("First mutation seed"),
                             llvm::cl::init(7));
llvm::cl::opt<int> mutations(
    "mutations",
    llvm::cl::desc("4-edit mutations per model (seeds seed, seed+1, ...); "
                   "the figures are their mean"),
    llvm::cl::init(3));
llvm::cl::opt<std::string>
    figuresPath("figures", llvm::cl::desc("Write the figures as JSON here"));

/// A function of about `ops` ops: a chain where each op reads the one before
/// it and an earlier value or constant.
std::string chain(int ops) {
  std::string text = "func.func @main(%a: f32, %b: f32) -> f32 {\n"
                     "  %v0 = arith.addf %a, %b : f32\n";
  const char *kinds[] = {"arith.addf", "arith.mulf", "arith.subf"};
  for (int i = 1; i < ops - 1; ++i) {
    if (i % 4 == 0) {
      absl::StrAppend(&text, "  %v", i, " = arith.constant ", i % 7,
                      ".5 : f32\n");
      continue;
    }
    int other = i > 8 ? i - 1 - (i * 7) % 8 : 0;
    absl::StrAppend(&text, "  %v", i, " = ", kinds[i % 3], " %v", i - 1, ", %v",
                    other, " : f32\n");
  }
  absl::StrAppend(&text, "  return %v", ops - 2, " : f32\n}\n");
  return text;
}

/// A chain of `ops` multiplications that all read one constant: deleting or
/// replacing it asks what is visible at each of its uses.
std::string fanOut(int ops) {
  std::string text = "func.func @main(%a: f32) -> f32 {\n"
                     "  %c = arith.constant 2.0 : f32\n"
                     "  %v0 = arith.addf %a, %c : f32\n";
  for (int i = 1; i < ops - 2; ++i)
    absl::StrAppend(&text, "  %v", i, " = arith.mulf %v", i - 1,
                    ", %c : f32\n");
  absl::StrAppend(&text, "  return %v", ops - 3, " : f32\n}\n");
  return text;
}

/// scf.execute_region nested `levels` deep, a few ops at each level.
std::string nest(int levels) {
  std::string text = "func.func @main(%a: f32) -> f32 {\n";
  for (int i = 0; i < levels; ++i)
    absl::StrAppend(&text, "%m", i, " = arith.mulf %a, %a : f32\n%r", i,
                    " = scf.execute_region -> f32 {\n");
  absl::StrAppend(&text, "%c = arith.constant 1.0 : f32\nscf.yield %c : f32\n");
  for (int i = levels - 1; i >= 0; --i)
    absl::StrAppend(&text, "}\n%s", i, " = arith.addf %r", i, ", %m", i,
                    " : f32\n",
                    i > 0 ? absl::StrCat("scf.yield %s", i, " : f32\n")
                          : "return %s0 : f32\n");
  return text + "}\n";
}

struct Row {
  std::string model;
  int ops = 0;
  double parseMs = 0, listMs = 0, mutateMs = 0, applyMs = 0;
};

int measure(mlir::MLIRContext &context, const std::string &name,
            const std::string &text, Row &row) {
  row.model = name;
  gevo::SteadyClock::time_point start = gevo::SteadyClock::now();
  auto module = gevo::parseModule(context, text, name);
  if (!module.ok())
    return gevo::reportBadInput(std::string(module.status().message()));
  row.parseMs = gevo::millisecondsSince(start);

  start = gevo::SteadyClock::now();
  gevo::AddressIndex index(**module);
  std::string listing;
  llvm::raw_string_ostream os(listing);
  gevo::printAddressList(**module, index, os);
  row.listMs = gevo::millisecondsSince(start);
  row.ops = static_cast<int>(index.ops().size());

  // 4-edit mutations, as //gevo:mutate --edits=4 makes them, each replayed
  // on a fresh parse (the parse is not timed).
  for (int m = 0; m < mutations; ++m) {
    mlir::OwningOpRef<mlir::ModuleOp> work((**module).clone());
    gevo::Patch patch;
    patch.model = gevo::modelFingerprint(**module);
    std::mt19937_64 rng(seed + m);
    gevo::MutationOptions options;
    start = gevo::SteadyClock::now();
    for (int i = 0; i < 4; ++i) {
      absl::StatusOr<gevo::Edit> edit =
          gevo::proposeAnyEdit(*work, options, rng);
      if (!edit.ok())
        return gevo::reportBadInput(std::string(edit.status().message()));
      if (absl::Status status = gevo::applyEdit(*work, *edit); !status.ok())
        return gevo::reportBadInput(std::string(status.message()));
      patch.addEdit(*edit);
    }
    row.mutateMs += gevo::millisecondsSince(start) / mutations;
    auto fresh = gevo::parseModule(context, text, name);
    if (!fresh.ok())
      return gevo::reportBadInput(std::string(fresh.status().message()));
    start = gevo::SteadyClock::now();
    absl::StatusOr<gevo::ApplyReport> report =
        gevo::applyPatch(**fresh, patch, "bench.gevo", gevo::OnMismatch::Error);
    if (!report.ok())
      return gevo::reportBadInput(std::string(report.status().message()));
    row.applyMs += gevo::millisecondsSince(start) / mutations;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "ir_scaling: time per op of --list, mutate and apply\n"))
    return 2;
  if (mutations < 1)
    return gevo::reportBadInput("--mutations must be at least 1");
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  std::vector<Row> rows;
  for (absl::string_view size : absl::StrSplit(sizes, ',', absl::SkipEmpty())) {
    int ops = 0;
    if (!absl::SimpleAtoi(size, &ops) || ops < 4)
      return gevo::reportBadInput(
          absl::StrCat("--sizes: bad size '", size, "' (at least 4 ops)"));
    rows.emplace_back();
    if (int code = measure(*context, absl::StrCat("chain", ops), chain(ops),
                           rows.back()))
      return code;
  }
  if (fan > 3) {
    rows.emplace_back();
    if (int code = measure(*context, absl::StrCat("fan", fan.getValue()),
                           fanOut(fan), rows.back()))
      return code;
  }
  if (depth > 0) {
    rows.emplace_back();
    if (int code = measure(*context, absl::StrCat("nest", depth.getValue()),
                           nest(depth), rows.back()))
      return code;
  }
  llvm::outs() << absl::StrFormat("%-10s %7s %9s %12s %12s %12s %12s\n",
                                  "model", "ops", "parse_ms", "list_us/op",
                                  "mutate_us/op", "apply_us/op", "total_ms");
  llvm::json::Array json;
  for (const Row &row : rows) {
    double perOp = 1000.0 / row.ops;
    llvm::outs() << absl::StrFormat(
        "%-10s %7d %9.1f %12.2f %12.2f %12.2f %12.1f\n", row.model, row.ops,
        row.parseMs, row.listMs * perOp, row.mutateMs * perOp,
        row.applyMs * perOp, row.listMs + row.mutateMs + row.applyMs);
    json.push_back(llvm::json::Object{{"model", row.model},
                                      {"ops", row.ops},
                                      {"parse_ms", row.parseMs},
                                      {"list_ms", row.listMs},
                                      {"mutate_ms", row.mutateMs},
                                      {"apply_ms", row.applyMs}});
  }
  if (!figuresPath.empty())
    if (absl::Status status = gevo::writeFigures(
            figuresPath, llvm::json::Object{{"rows", std::move(json)}});
        !status.ok())
      return gevo::reportBadInput(std::string(status.message()));
  return 0;
}
