//===- evaluation_options_json.cc - EvaluationOptions as settings rows ----===//

#include "gevo/eval/evaluation_options_json.h"

#include "absl/strings/str_cat.h"

namespace gevo {

const SettingsTable<EvaluationOptions> &evaluationSettings() {
  using E = EvaluationOptions;
  static const SettingsTable<E> table = [] {
    SettingsTable<E> rows = {
        setting(&E::pipeline,
                {"pipeline", "pipeline",
                 "MLIR pass pipeline lowering each variant to the LLVM "
                 "dialect (mlir-opt syntax, or vector or plain)",
                 "the CPU pipeline of //gevo:evaluate"}),
        setting(&E::target, {"target", "target",
                             "Where variants run: cpu, or cuda (the GPU "
                             "target, timed with CUDA events; needs a CUDA "
                             "driver)",
                             "", false, /*optional=*/true}),
        settingOf<E>(
            [](auto &o) -> auto & { return o.codegen.llvmPipeline; },
            {"llvm-pipeline", "llvm_pipeline",
             "LLVM IR passes before codegen; empty for none"},
            TextCodec()),
        settingOf<E>(
            [](auto &o) -> auto & { return o.codegen.optLevel; },
            {"opt-level", "opt_level", "Machine codegen level, 0..3"},
            IntCodec<int>()),
        setting(&E::warmup,
                {"warmup", "warmup", "Untimed runs per variant before timing",
                 "the workload's"}),
        setting(&E::repeats,
                {"repeats", "repeats",
                 "Timed runs per variant; the median is the run time",
                 "the workload's"}),
        setting(&E::forkServer,
                {"fork-server", "fork_server",
                 "Start each variant's child from a small copy of the "
                 "evaluator forked at the start (cpu target), not from the "
                 "search process, whose size every fork pays for",
                 "", /*resumable=*/true, /*optional=*/true}),
    };
    return rows;
  }();
  return table;
}

void writeEvaluationOptions(const EvaluationOptions &options,
                            llvm::json::Object &object) {
  writeSettings(evaluationSettings(), options, object);
}

absl::Status readEvaluationOptions(const llvm::json::Object &object,
                                   EvaluationOptions &options, bool strict) {
  if (absl::Status read =
          readSettings(evaluationSettings(), object, options, strict);
      !read.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("the evaluation settings: ", read.message()));
  if (!object.get("target"))
    options.target = "cpu";
  return checkTarget(options.target);
}

} // namespace gevo
