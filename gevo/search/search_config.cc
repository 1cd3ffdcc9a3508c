//===- search_config.cc - Everything a search run is told -----------------===//

#include "gevo/search/search_config.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/support/json_position.h"
#include "llvm/Support/JSON.h"

namespace gevo {

const char *toString(Algorithm algorithm) {
  return algorithm == Algorithm::Nsga2 ? "nsga2" : "random";
}

const char *toString(Schedule schedule) {
  return schedule == Schedule::Steady ? "steady" : "generational";
}

absl::Status checkSettings(const SearchConfig &config) {
  const AlgorithmSettings &a = config.algorithm;
  const EvaluationOptions &evaluation = config.workbench.evaluation;
  if (a.population < 2)
    return absl::InvalidArgumentError("--population must be at least 2");
  if (a.screen < 1)
    return absl::InvalidArgumentError("--screen must be at least 1");
  if (config.pairedRuns < 0)
    return absl::InvalidArgumentError("--paired-runs must not be negative");
  if (evaluation.codegen.optLevel < 0 || evaluation.codegen.optLevel > 3)
    return absl::InvalidArgumentError("--opt-level must be 0, 1, 2 or 3");
  if (absl::Status target = checkTarget(evaluation.target); !target.ok())
    return target;
  for (double rate : {a.crossoverRate, a.mutationRate, a.removeRate,
                      a.retuneRate, a.immigrantRate})
    if (rate < 0 || rate > 1)
      return absl::InvalidArgumentError("rates must lie in [0, 1]");
  if (a.removeRate + a.retuneRate > 1)
    return absl::InvalidArgumentError(
        "--remove-rate plus --retune-rate must not exceed 1 (they share a "
        "mutation's chances)");
  return absl::OkStatus();
}

llvm::json::Value toJson(const SearchConfig &config) {
  llvm::json::Object object;
  writeSettings(searchSettings(), config, object);
  return object;
}

absl::StatusOr<SearchConfig> configFromJson(const llvm::json::Value &value,
                                            const std::string &source,
                                            const std::string &text) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": the config is not a JSON object"));
  SearchConfig config;
  std::string badKey;
  if (absl::Status read = readSettings(searchSettings(), *object, config,
                                       /*strict=*/false, &badKey);
      !read.ok()) {
    std::optional<TextPosition> at =
        text.empty() ? std::nullopt : findJsonPath(text, "$.config." + badKey);
    std::string where =
        at ? absl::StrCat(source, ":", at->line, ":", at->column) : source;
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": config: ", read.message()));
  }
  if (absl::Status target = checkTarget(config.workbench.evaluation.target);
      !target.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", target.message()));
  return config;
}

} // namespace gevo
