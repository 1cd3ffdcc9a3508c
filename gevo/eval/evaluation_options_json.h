//===- evaluation_options_json.h - EvaluationOptions as settings rows -----===//
//
// The evaluation settings' table (settings_table.h): their flags
// (--pipeline, --target, --llvm-pipeline, --opt-level, --warmup,
// --repeats) and their JSON fields ("pipeline", "target", "llvm_pipeline",
// "opt_level", "warmup", "repeats"). The search's run.json, its flags and
// the setup rank 0 sends to MPI evaluating ranks all use this one table.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_EVALUATION_OPTIONS_JSON_H
#define GEVO_EVAL_EVALUATION_OPTIONS_JSON_H

#include "absl/status/status.h"
#include "gevo/eval/evaluator.h"
#include "gevo/support/settings_table.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// One row per evaluation setting.
const SettingsTable<EvaluationOptions> &evaluationSettings();

/// Adds the fields of `options` to `object`.
void writeEvaluationOptions(const EvaluationOptions &options,
                            llvm::json::Object &object);

/// Reads the fields into `options`. Lenient (a run.json written by an older
/// version): a missing field keeps its value. Strict: every field but
/// "target" (absent: "cpu") must be present. Either way a target other than
/// cpu or cuda is an error.
absl::Status readEvaluationOptions(const llvm::json::Object &object,
                                   EvaluationOptions &options, bool strict);

} // namespace gevo

#endif // GEVO_EVAL_EVALUATION_OPTIONS_JSON_H
