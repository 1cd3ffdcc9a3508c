//===- compile_profile_main.cc - Where a variant's compile time goes ------===//
//
//   bazel run //gevo/bench:compile_profile [-- --json=compile_profile.json]
//
// For each digits workload, times the unmodified program's lowering per MLIR
// pass and its codegen split into the LLVM IR pipeline and the rest
// (translation, instruction selection, machine passes), three ways: in a
// forked child of a process that never compiled (what every search child
// paid before the session warmed up), in a forked child of a process that
// compiled once (what it pays now), and in the warm process itself. Then
// compares codegen settings on the warm process: their codegen time and the
// run time of the code they make. Every figure is CPU time (milliseconds),
// which other processes' load on the machine changes little.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

#include "absl/strings/str_format.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/pass_timer.h"
#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/sandbox.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Timer.h"
#include "llvm/Target/TargetMachine.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("compile profile options");
cl::opt<std::string>
    jsonPath("json",
             cl::desc("Write the figures here (default: compile_profile.json)"),
             cl::init("compile_profile.json"), cl::cat(category));
cl::opt<int> repeats("repeats",
                     cl::desc("Compiles per figure, median taken (default 5)"),
                     cl::init(5), cl::cat(category));
cl::opt<bool> llvmTimePasses(
    "llvm-time-passes",
    cl::desc("Also print LLVM's own per-pass timing of the warm compiles"),
    cl::init(false), cl::cat(category));
cl::opt<int> runs("runs",
                  cl::desc("Timed runs per codegen setting (default 20)"),
                  cl::init(20), cl::cat(category));

/// One workload, loaded once.
struct Subject {
  gevo::WorkloadSpec spec;
  std::vector<gevo::HostTensor> arguments;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  gevo::EntrySignature signature;
  std::unique_ptr<gevo::Lowering> lowering;
  std::shared_ptr<gevo::PassTimes> passTimes;
};

absl::StatusOr<Subject> load(const std::string &name) {
  Subject s;
  GEVO_ASSIGN_OR_RETURN(
      s.spec, gevo::loadWorkloadSpec(gevo::findRunfile("testdata/" + name)));
  GEVO_ASSIGN_OR_RETURN(gevo::DatasetSplit data,
                        gevo::loadWorkloadData(s.spec));
  s.arguments = gevo::bindArguments(s.spec, data, gevo::SplitRole::Validation);
  s.context = gevo::createContext();
  GEVO_ASSIGN_OR_RETURN(s.module,
                        gevo::loadLinalgModule(*s.context, s.spec.modulePath));
  GEVO_ASSIGN_OR_RETURN(s.signature,
                        gevo::readEntrySignature(*s.module, s.spec.entry));
  GEVO_ASSIGN_OR_RETURN(s.lowering, gevo::Lowering::create(*s.context, ""));
  s.passTimes = std::make_shared<gevo::PassTimes>();
  s.lowering->addInstrumentation([times = s.passTimes] {
    return std::make_unique<gevo::PassTimer>(times);
  });
  return s;
}

/// Page faults served without I/O so far (in a forked child: mostly
/// copy-on-write copies of the parent's pages).
long minorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// CPU ms to run the IR passes and emit an object file into memory.
double emitObjectMs(llvm::Module &module, const gevo::CodegenOptions &codegen) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return llvm::consumeError(builder.takeError()), -1;
  builder->setCodeGenOptLevel(
      codegen.optLevel == 1   ? llvm::CodeGenOptLevel::Less
      : codegen.optLevel == 0 ? llvm::CodeGenOptLevel::None
                              : llvm::CodeGenOptLevel::Default);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return llvm::consumeError(machine.takeError()), -1;
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  double start = gevo::processCpuMs();
  if (!codegen.llvmPipeline.empty()) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(machine->get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cam, mam);
    llvm::ModulePassManager mpm;
    if (pb.parsePassPipeline(mpm, codegen.llvmPipeline))
      return -1;
    mpm.run(module, mam);
  }
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if ((*machine)->addPassesToEmitFile(pm, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return -1;
  pm.run(module);
  return gevo::processCpuMs() - start;
}

/// Lowers and compiles a copy of the module once: the figures as JSON.
llvm::json::Object compileOnce(Subject &s, const gevo::CodegenOptions &codegen,
                               int timedRuns) {
  s.passTimes->clear();
  long faultsBefore = minorFaults();
  mlir::OwningOpRef<mlir::ModuleOp> copy = s.module->clone();
  gevo::requestCInterface(*copy, s.spec.entry);
  double start = gevo::processCpuMs();
  // As a search's children lower: kernels compiled before are left out.
  absl::Status lowered =
      s.lowering->run(*copy, nullptr, [&codegen](const std::string &name) {
        return gevo::outlinedKernelCompiled(name, codegen);
      });
  double lowerMs = gevo::processCpuMs() - start;
  llvm::json::Object passes;
  for (const auto &[name, ms] : *s.passTimes)
    passes[name] = ms;
  if (!lowered.ok())
    return llvm::json::Object{{"error", std::string(lowered.message())}};
  start = gevo::processCpuMs();
  absl::StatusOr<std::unique_ptr<gevo::JitEntry>> entry =
      gevo::JitEntry::compile(*copy, s.signature, codegen);
  double codegenMs = gevo::processCpuMs() - start;
  double faults = minorFaults() - faultsBefore;
  if (!entry.ok())
    return llvm::json::Object{{"error", std::string(entry.status().message())}};
  double translateMs = 0, objectMs = 0;
  {
    // After the JIT has set up LLVM's target, the same work without it on
    // the whole module (every kernel lowered): translation, then the IR
    // passes and machine code into memory, as llc would.
    mlir::OwningOpRef<mlir::ModuleOp> whole = s.module->clone();
    gevo::requestCInterface(*whole, s.spec.entry);
    if (!s.lowering->run(*whole).ok())
      return llvm::json::Object{{"error", "the module lowers only once"}};
    llvm::LLVMContext llvmContext;
    start = gevo::processCpuMs();
    std::unique_ptr<llvm::Module> llvmModule =
        mlir::translateModuleToLLVMIR(*whole, llvmContext);
    translateMs = gevo::processCpuMs() - start;
    start = gevo::processCpuMs();
    if (llvmModule)
      objectMs = emitObjectMs(*llvmModule, codegen);
  }
  std::vector<double> runMs;
  for (int i = 0; i < timedRuns + 2; ++i) {
    start = gevo::processCpuMs();
    if (!(*entry)->run(gevo::pointersTo(s.arguments)).ok())
      return llvm::json::Object{
          {"error", "the compiled program failed to run"}};
    if (i >= 2)
      runMs.push_back(gevo::processCpuMs() - start);
  }
  return llvm::json::Object{
      {"lower_ms", lowerMs},
      {"codegen_ms", codegenMs},
      {"llvm_opt_ms", (*entry)->optimizeMs()},
      {"machine_codegen_ms", codegenMs - (*entry)->optimizeMs()},
      {"run_ms", gevo::median(runMs)},
      {"translate_only_ms", translateMs},
      {"minor_faults", faults},
      {"object_only_ms", objectMs},
      {"passes", std::move(passes)}};
}

/// compileOnce in a forked child, as a search's variants are.
llvm::json::Object compileInChild(Subject &s) {
  gevo::ChildResult result = gevo::runIsolated(
      [&] {
        llvm::json::Object figures = compileOnce(s, gevo::CodegenOptions(), 0);
        return llvm::formatv("{0}", llvm::json::Value(std::move(figures)))
            .str();
      },
      gevo::SandboxLimits{60, int64_t(4) << 30});
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(result.payload);
  if (!value || !value->getAsObject()) {
    if (!value)
      llvm::consumeError(value.takeError());
    return llvm::json::Object{
        {"error", "the child failed: " + result.describe()}};
  }
  return std::move(*value->getAsObject());
}

/// The median of each number of `samples` (the passes table of the first).
llvm::json::Object medianOf(std::vector<llvm::json::Object> samples) {
  llvm::json::Object out = std::move(samples.front());
  for (auto &[key, value] : out) {
    if (!value.getAsNumber())
      continue;
    std::vector<double> values;
    for (const llvm::json::Object &sample : samples)
      values.push_back(sample.getNumber(key).value_or(0));
    value = gevo::median(values);
  }
  if (llvm::json::Object *passes = out.getObject("passes"))
    for (auto &[key, value] : *passes) {
      std::vector<double> values;
      for (const llvm::json::Object &sample : samples)
        if (const llvm::json::Object *p = sample.getObject("passes"))
          values.push_back(p->getNumber(key).value_or(0));
      value = gevo::median(values);
    }
  return out;
}

template <typename F> llvm::json::Object repeated(F measure) {
  std::vector<llvm::json::Object> samples;
  for (int i = 0; i < std::max(1, repeats.getValue()); ++i)
    samples.push_back(measure());
  return medianOf(std::move(samples));
}

void printStage(const char *label, const llvm::json::Object &o) {
  std::printf("  %-26s lower %6.1f ms, codegen %6.1f ms (LLVM IR passes "
              "%5.1f, translation + machine code %6.1f), run %.2f ms; "
              "without the JIT: translation %.1f ms, IR passes + object "
              "%.1f ms; %.0f page faults\n",
              label, o.getNumber("lower_ms").value_or(0),
              o.getNumber("codegen_ms").value_or(0),
              o.getNumber("llvm_opt_ms").value_or(0),
              o.getNumber("machine_codegen_ms").value_or(0),
              o.getNumber("run_ms").value_or(0),
              o.getNumber("translate_only_ms").value_or(0),
              o.getNumber("object_only_ms").value_or(0),
              o.getNumber("minor_faults").value_or(0));
}

void printPasses(const llvm::json::Object &o) {
  const llvm::json::Object *passes = o.getObject("passes");
  if (!passes)
    return;
  std::vector<std::pair<double, std::string>> sorted;
  for (const auto &[name, ms] : *passes)
    sorted.push_back({ms.getAsNumber().value_or(0), name.str()});
  std::sort(sorted.rbegin(), sorted.rend());
  for (const auto &[ms, name] : sorted)
    if (ms >= 0.5)
      std::printf("      %7.1f ms  %s\n", ms, name.c_str());
}

struct Setting {
  const char *name;
  int optLevel;
  bool irPasses;
  bool kernels = true;
};
constexpr Setting kSettings[] = {
    {"O2 + IR passes", 2, true},
    {"O2 + IR passes, whole module (no kernel cache)", 2, true, false},
    {"O1 + IR passes", 1, true},
    {"O2, no IR passes", 2, false},
    {"O1, no IR passes", 1, false},
    {"O0 + IR passes", 0, true},
    {"O0 + IR passes, whole module (no kernel cache)", 0, true, false},
};

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "Where a variant's compile time goes.\n"))
    return 2;
  llvm::json::Object figures;
  for (const char *name : {"digits_mlp_train", "digits_mlp_predict"}) {
    absl::StatusOr<Subject> subject = load(name);
    if (!subject.ok())
      return gevo::reportFailure(subject.status());
    std::printf("%s (the unmodified program, default pipeline)\n", name);
    llvm::json::Object cold =
        repeated([&] { return compileInChild(*subject); });
    // Warm the process (what EvaluationSession::create now does), then fork.
    compileOnce(*subject, gevo::CodegenOptions(), 0);
    llvm::json::Object warmChild =
        repeated([&] { return compileInChild(*subject); });
    llvm::TimePassesIsEnabled = llvmTimePasses;
    llvm::json::Object warm = repeated(
        [&] { return compileOnce(*subject, gevo::CodegenOptions(), 0); });
    if (llvmTimePasses) {
      llvm::TimePassesIsEnabled = false;
      llvm::reportAndResetTimings(&llvm::outs());
      llvm::outs().flush();
    }
    printStage("child of a cold process:", cold);
    printPasses(cold);
    printStage("child of a warm process:", warmChild);
    printPasses(warmChild);
    printStage("warm process:", warm);
    llvm::json::Array settings;
    for (const Setting &setting : kSettings) {
      gevo::CodegenOptions codegen;
      codegen.optLevel = setting.optLevel;
      codegen.cacheKernels = setting.kernels;
      if (!setting.irPasses)
        codegen.llvmPipeline = "";
      llvm::json::Object o =
          repeated([&] { return compileOnce(*subject, codegen, runs); });
      printStage(setting.name, o);
      o.erase("passes");
      o["setting"] = setting.name;
      settings.push_back(std::move(o));
    }
    figures[name] =
        llvm::json::Object{{"cold_child", std::move(cold)},
                           {"warm_child", std::move(warmChild)},
                           {"warm_process", std::move(warm)},
                           {"codegen_settings", std::move(settings)}};
  }
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  return 0;
}
