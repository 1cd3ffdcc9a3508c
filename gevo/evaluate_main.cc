//===- evaluate_main.cc - gevo-evaluate: score a workload's module as is --===//
//
// Parses flags and calls gevo/eval. Exit codes: 0 ok, 3 a module that ran but
// whose outcome is not ok (out of bounds, a timeout, a crash, ...), 2 bad
// input (a file, a module, a spec or a flag), 1 an internal failure.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/eval/evaluator.h"
#include "gevo/eval/target.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/eval/workload/workload_check.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/sandboxed_evaluation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

llvm::cl::OptionCategory category("gevo-evaluate options");

llvm::cl::list<std::string> workloads(
    "workload",
    llvm::cl::desc("Workload to evaluate: a directory holding workload.json, "
                   "or the JSON file itself. Repeatable. Default: the two "
                   "embedded digits workloads (training and prediction)"),
    llvm::cl::value_desc("path"), llvm::cl::cat(category));

llvm::cl::opt<std::string> modulePath(
    "module",
    llvm::cl::desc("Evaluate this MLIR file instead of the workload's own "
                   "module (e.g. a variant written by //replay:apply); needs "
                   "exactly one --workload"),
    llvm::cl::value_desc("variant.mlir"), llvm::cl::cat(category));

llvm::cl::opt<std::string> pipeline(
    "pipeline",
    llvm::cl::desc("How the module is lowered to the LLVM dialect: "
                   "'vector' (default: linalg tiled and vectorised for the "
                   "host CPU, falling back to 'plain' for a module it cannot "
                   "lower), 'plain' (linalg to scalar loops), or a pass "
                   "pipeline in mlir-opt syntax (with or without a "
                   "builtin.module(...) wrapper). --json prints the passes "
                   "that ran"),
    llvm::cl::value_desc("passes"), llvm::cl::cat(category));

llvm::cl::opt<std::string> target(
    "target",
    llvm::cl::desc("Where variants run: 'cpu' (default) or 'cuda' (the GPU "
                   "pipeline for sm_90 and the CUDA driver; --pipeline and "
                   "--llvm-pipeline do not apply)"),
    llvm::cl::init("cpu"), llvm::cl::value_desc("cpu|cuda"),
    llvm::cl::cat(category));

llvm::cl::opt<std::string> llvmPipeline(
    "llvm-pipeline",
    llvm::cl::desc("LLVM IR pass pipeline (opt -passes= syntax) run before "
                   "codegen; empty for none"),
    llvm::cl::init(gevo::kDefaultLlvmPipeline), llvm::cl::value_desc("passes"),
    llvm::cl::cat(category));

llvm::cl::opt<int> optLevel("opt-level",
                            llvm::cl::desc("Machine codegen level, 0..3"),
                            llvm::cl::init(2), llvm::cl::cat(category));

llvm::cl::opt<int> warmup(
    "warmup",
    llvm::cl::desc("Untimed runs before timing (default: the workload's)"),
    llvm::cl::init(-1), llvm::cl::cat(category));

llvm::cl::opt<int>
    repeats("repeats",
            llvm::cl::desc("Timed runs; the median is reported (default: the "
                           "workload's)"),
            llvm::cl::init(-1), llvm::cl::cat(category));

llvm::cl::opt<bool> json("json",
                         llvm::cl::desc("Print one JSON object per workload "
                                        "(one per line) instead of text"),
                         llvm::cl::cat(category));

llvm::cl::opt<bool> check(
    "check",
    llvm::cl::desc("Validate each workload without running it: read the "
                   "spec, load its data, parse the module and check its "
                   "entry against the bindings; print one line per workload"),
    llvm::cl::cat(category));

llvm::cl::opt<bool> inProcess(
    "in-process",
    llvm::cl::desc("Run the module in this process, without the sandbox "
                   "(for debugging: a module that reads out of bounds or "
                   "never ends takes this process with it). Default: run it "
                   "once as the search runs variants, in a forked child with "
                   "guard pages, fresh memory filled twice, the input-write "
                   "check and the time limit derived from the workload's own "
                   "module, and report its outcome; an outcome other than "
                   "'ok' exits with code 3"),
    llvm::cl::cat(category));

/// Exit code of a module that ran and whose outcome is not ok.
constexpr int kNotOkExitCode = 3;

const char *const kDefaultWorkloads[] = {"testdata/digits_mlp_train",
                                         "testdata/digits_mlp_predict"};

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-evaluate: lower, JIT-compile and run a workload's MLIR module, "
          "then score its logits on the validation and test splits.\n"
          "Exit codes: 0 every outcome ok, 3 a module ran and its outcome is "
          "not ok (out_of_bounds, timeout, crash, ...), 2 bad input, 1 an "
          "internal failure.\n",
          &llvm::errs()))
    return 2;
  if (optLevel < 0 || optLevel > 3) {
    return gevo::reportBadInput("--opt-level must be 0, 1, 2 or 3");
  }
  gevo::EvaluationOptions options;
  options.pipeline = pipeline;
  options.codegen.llvmPipeline = llvmPipeline;
  options.codegen.optLevel = optLevel;
  options.warmup = warmup;
  options.repeats = repeats;
  options.target = target;
  // The target's name and what it needs (a GPU's driver), before any work.
  absl::StatusOr<std::unique_ptr<gevo::Target>> made =
      gevo::makeTarget(options);
  if (!made.ok())
    return gevo::reportBadInput(std::string(made.status().message()));
  if (absl::Status ready = (*made)->start(); !ready.ok())
    return gevo::reportBadInput("--target=" + target + ": " +
                                std::string(ready.message()));
  std::vector<std::string> paths;
  for (const std::string &path : workloads)
    paths.push_back(gevo::resolveUserPath(path));
  if (paths.empty())
    for (const char *path : kDefaultWorkloads)
      paths.push_back(gevo::findRunfile(path));

  if (!modulePath.empty() && workloads.size() != 1)
    return gevo::reportBadInput("--module needs exactly one --workload");
  int exitCode = 0;
  for (const std::string &path : paths) {
    absl::StatusOr<gevo::WorkloadSpec> spec = gevo::loadWorkloadSpec(path);
    if (!spec.ok()) {
      return gevo::reportBadInput(std::string(spec.status().message()));
    }
    // In process the module replaces the workload's; in the sandbox the
    // workload's own runs first and sets the time limit.
    std::string variantPath =
        modulePath.empty() ? "" : gevo::resolveUserPath(modulePath);
    if (!variantPath.empty() && (inProcess || check)) {
      spec->modulePath = variantPath; // the whole program, not a forward one
      spec->training.reset();
    }
    if (check) {
      absl::StatusOr<std::string> summary = gevo::checkWorkload(*spec);
      if (!summary.ok()) {
        int code =
            gevo::reportBadInput(std::string(summary.status().message()));
        return absl::IsInternal(summary.status()) ? 1 : code;
      }
      llvm::outs() << *summary << "\n";
      continue;
    }
    absl::StatusOr<gevo::EvaluationReport> result =
        inProcess ? gevo::evaluateWorkload(*spec, options)
                  : gevo::evaluateSandboxed(*spec, variantPath, options);
    if (!result.ok()) {
      int code = gevo::reportBadInput(std::string(result.status().message()));
      return absl::IsInternal(result.status()) ? 1 : code;
    }
    if (json)
      llvm::outs() << gevo::toJson(*result) << "\n";
    else
      llvm::outs() << gevo::toText(*result);
    llvm::outs().flush();
    if (result->outcome != "ok")
      exitCode = kNotOkExitCode;
  }
  return exitCode;
}
