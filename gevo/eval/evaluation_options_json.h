//===- evaluation_options_json.h - EvaluationOptions as JSON fields -------===//
//
// How a run's evaluation settings are written to and read from JSON: the
// search's run.json and the setup rank 0 sends to MPI evaluating ranks use
// the same fields ("pipeline", "llvm_pipeline", "opt_level", "warmup",
// "repeats", "target").
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_EVALUATION_OPTIONS_JSON_H
#define GEVO_EVAL_EVALUATION_OPTIONS_JSON_H

#include "absl/status/status.h"
#include "gevo/eval/evaluator.h"
#include "llvm/Support/JSON.h"

namespace gevo {

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
