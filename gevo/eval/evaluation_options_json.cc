//===- evaluation_options_json.cc - EvaluationOptions as JSON fields ------===//

#include "gevo/eval/evaluation_options_json.h"

#include "absl/strings/str_cat.h"

namespace gevo {

void writeEvaluationOptions(const EvaluationOptions &options,
                            llvm::json::Object &object) {
  object["pipeline"] = options.pipeline;
  object["llvm_pipeline"] = options.codegen.llvmPipeline;
  object["opt_level"] = options.codegen.optLevel;
  object["warmup"] = options.warmup;
  object["repeats"] = options.repeats;
  object["target"] = options.target;
}

absl::Status readEvaluationOptions(const llvm::json::Object &object,
                                   EvaluationOptions &options, bool strict) {
  const char *missing = nullptr;
  auto text = [&](const char *key, std::string &out) {
    if (std::optional<llvm::StringRef> v = object.getString(key))
      out = v->str();
    else if (!missing)
      missing = key;
  };
  auto integer = [&](const char *key, int &out) {
    if (std::optional<int64_t> v = object.getInteger(key))
      out = static_cast<int>(*v);
    else if (!missing)
      missing = key;
  };
  text("pipeline", options.pipeline);
  text("llvm_pipeline", options.codegen.llvmPipeline);
  integer("opt_level", options.codegen.optLevel);
  integer("warmup", options.warmup);
  integer("repeats", options.repeats);
  if (strict && missing)
    return absl::InvalidArgumentError(
        absl::StrCat("the evaluation settings lack \"", missing, "\""));
  options.target = object.getString("target").value_or("cpu").str();
  return checkTarget(options.target);
}

} // namespace gevo
