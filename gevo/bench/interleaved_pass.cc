//===- interleaved_pass.cc - Each variant by gevo-ml, then by the tools ---===//

#include "gevo/bench/interleaved_pass.h"

#include <cmath>
#include <fstream>

#include "absl/strings/str_format.h"
#include "gevo/eval/cpu/vector_schedule.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

std::string printed(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  os.flush();
  return text;
}

} // namespace

const Dataset &ThroughputWorkload::validation() const {
  return evalData(data, SplitRole::Validation);
}

absl::StatusOr<ThroughputWorkload>
openThroughputWorkload(const std::string &path) {
  ThroughputWorkload workload;
  GEVO_ASSIGN_OR_RETURN(workload.spec, loadWorkloadSpec(path));
  EvaluationOptions once;
  once.warmup = 0;
  once.repeats = 1;
  GEVO_ASSIGN_OR_RETURN(workload.session,
                        EvaluationSession::create(workload.spec, once));
  GEVO_ASSIGN_OR_RETURN(workload.data, loadWorkloadData(workload.spec));
  workload.arguments =
      bindArguments(workload.spec, workload.data, SplitRole::Validation);
  const Dataset &validation = workload.validation();
  workload.resultType = absl::StrFormat("tensor<%dx%dxf32>", validation.size(),
                                        validation.numClasses);
  return workload;
}

InterleavedPass::InterleavedPass(ThroughputWorkload &workload,
                                 const Variation &variation, ToolSide toolSide)
    : workload(workload), variation(variation), tool(std::move(toolSide)) {}

void InterleavedPass::measure(int index, const std::vector<Edit> &edits) {
  std::string text;
  mlir::OwningOpRef<mlir::ModuleOp> copy;
  Measurement m = gevoSide(edits, text, copy);
  NaiveResult naive = toolSide(index, text, *copy);
  compare(index, m, naive);
}

/// Builds and evaluates the variant as gevo-ml does; its text and a copy
/// of it for the tool side.
Measurement InterleavedPass::gevoSide(const std::vector<Edit> &edits,
                                      std::string &text,
                                      mlir::OwningOpRef<mlir::ModuleOp> &copy) {
  auto start = SteadyClock::now();
  BuiltVariant built = variation.build(edits);
  // Keyed as a search keys it: part of what building a variant costs.
  std::string key = modelFingerprint(*built.module);
  double build = millisecondsSince(start);
  text = printed(*built.module);
  copy = built.module->clone();
  start = SteadyClock::now();
  Measurement m =
      workload.session->evaluate(one, std::move(built.module), RunRequest());
  results.gevoMs.push_back(build + millisecondsSince(start));
  results.buildMs.push_back(build);
  if (m.ok()) {
    ++results.gevoOk;
    results.lowerMs.push_back(m.lowerMs);
    results.codegenMs.push_back(m.codegenMs);
    results.runMs.push_back(m.medianRunMs);
  }
  return m;
}

/// The tool side lowers with the same pipeline: gevo-ml's own passes
/// become transform-interpreter runs of the schedule planned for this
/// variant (its ops tagged in the text the tools read).
NaiveResult InterleavedPass::toolSide(int index, const std::string &text,
                                      mlir::ModuleOp variant) {
  std::string toolPipeline = workload.session->pipeline();
  std::string toolText = text;
  if (toolPipeline.find("gevo-") != std::string::npos) {
    mlir::OwningOpRef<mlir::ModuleOp> tagged = variant.clone();
    std::string schedulePath = tool.dir + "/naive_schedule.mlir";
    std::ofstream(schedulePath) << standaloneSchedule(*tagged);
    toolText = printed(*tagged);
    toolPipeline = standalonePipeline(toolPipeline, schedulePath);
  }
  std::string program = naiveProgram(toolText, workload.spec,
                                     workload.arguments, workload.resultType);
  if (index == tool.dumpVariant) {
    std::ofstream(tool.dir + "/gevo_bench_variant.mlir") << text;
    std::ofstream(tool.dir + "/gevo_bench_naive.mlir") << program;
  }
  NaiveResult naive = runNaive(tool.tools, program, tool.dir, toolPipeline,
                               workload.validation());
  results.naiveMs.push_back(naive.ms);
  results.naiveOk += naive.ok;
  return naive;
}

/// Whether both sides agree on the variant's validation accuracy.
void InterleavedPass::compare(int index, const Measurement &m,
                              const NaiveResult &naive) {
  bool same = std::abs(m.validation.accuracy() - naive.accuracy) < 1e-9;
  if (m.ok() && naive.ok) {
    ++results.bothOk;
    results.agree += same;
  }
  if (m.ok() != naive.ok || !same)
    results.disagreements.push_back(absl::StrFormat(
        "variant %d (%s): gevo-ml %s %.4f, tool pipeline %s %.4f", index,
        toString(m.outcome) + std::string(m.detail.empty() ? "" : ": ") +
            m.detail.substr(0, 80),
        m.ok() ? "ok" : "failed", m.validation.accuracy(),
        naive.ok ? "ok" : "failed", naive.accuracy));
}

} // namespace gevo
