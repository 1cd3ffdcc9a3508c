//===- search_config.cc - Everything a search run is told, and its JSON ---===//

#include "gevo/search/search_config.h"

#include <cctype>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/evaluation_options_json.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

llvm::json::Array strings(const std::vector<std::string> &items) {
  llvm::json::Array array;
  for (const std::string &item : items)
    array.push_back(item);
  return array;
}

std::vector<std::string> readStrings(const llvm::json::Object &object,
                                     const char *key) {
  std::vector<std::string> out;
  if (const llvm::json::Array *array = object.getArray(key))
    for (const llvm::json::Value &item : *array)
      if (auto text = item.getAsString())
        out.push_back(text->str());
  return out;
}

} // namespace

const char *toString(Algorithm algorithm) {
  return algorithm == Algorithm::Nsga2 ? "nsga2" : "random";
}

absl::Status checkSettings(const SearchConfig &c) {
  if (c.population < 2)
    return absl::InvalidArgumentError("--population must be at least 2");
  if (c.screen < 1)
    return absl::InvalidArgumentError("--screen must be at least 1");
  if (c.pairedRuns < 0)
    return absl::InvalidArgumentError("--paired-runs must not be negative");
  if (c.evaluation.codegen.optLevel < 0 || c.evaluation.codegen.optLevel > 3)
    return absl::InvalidArgumentError("--opt-level must be 0, 1, 2 or 3");
  if (absl::Status target = checkTarget(c.evaluation.target); !target.ok())
    return target;
  for (double rate : {c.crossoverRate, c.mutationRate, c.removeRate,
                      c.retuneRate, c.immigrantRate})
    if (rate < 0 || rate > 1)
      return absl::InvalidArgumentError("rates must lie in [0, 1]");
  if (c.removeRate + c.retuneRate > 1)
    return absl::InvalidArgumentError(
        "--remove-rate plus --retune-rate must not exceed 1 (they share a "
        "mutation's chances)");
  return absl::OkStatus();
}

absl::StatusOr<double> parseDuration(const std::string &text) {
  if (text.empty())
    return absl::InvalidArgumentError("empty duration");
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (
        i < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    if (start == i)
      return absl::InvalidArgumentError(absl::StrCat(
          "bad duration '", text, "' (expected e.g. 30m, 90s, 2h, 1h30m)"));
    double number = std::stod(text.substr(start, i - start));
    char unit = i < text.size() ? text[i++] : 's';
    switch (unit) {
    case 's':
      total += number;
      break;
    case 'm':
      total += number * 60;
      break;
    case 'h':
      total += number * 3600;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("bad duration '", text, "': unit '",
                       std::string(1, unit), "' (expected s, m or h)"));
    }
  }
  return total;
}

bool parseByteSize(const std::string &text, int64_t &bytes) {
  if (text.empty())
    return false;
  char *end = nullptr;
  double number = std::strtod(text.c_str(), &end);
  std::string unit(end);
  double scale = unit.empty() || unit == "B"   ? 1
                 : unit == "K" || unit == "KB" ? 1024.0
                 : unit == "M" || unit == "MB" ? 1024.0 * 1024
                 : unit == "G" || unit == "GB" ? 1024.0 * 1024 * 1024
                                               : -1;
  if (scale < 0 || number < 0)
    return false;
  bytes = static_cast<int64_t>(number * scale);
  return true;
}

llvm::json::Value toJson(const SearchConfig &c) {
  llvm::json::Array operators;
  for (EditKind kind : c.operators)
    operators.push_back(toString(kind));
  llvm::json::Object object{
      {"workload", c.workloadPath},
      {"out", c.outDir},
      {"objectives", strings(c.objectives)},
      {"algorithm", toString(c.algorithm)},
      {"population", c.population},
      {"generations", c.generations},
      {"budget_s", c.budgetSeconds},
      {"crossover_rate", c.crossoverRate},
      {"mutation_rate", c.mutationRate},
      {"remove_rate", c.removeRate},
      {"retune_rate", c.retuneRate},
      {"immigrant_rate", c.immigrantRate},
      {"max_error_increase", c.maxErrorIncrease},
      {"screen", c.screen},
      {"paired_runs", c.pairedRuns},
      {"prune_seeds", c.pruneSeeds},
      {"rate_seeds", c.rateSeeds},
      {"initial_edits", c.initialEdits},
      {"max_random_edits", c.maxRandomEdits},
      {"seed", static_cast<int64_t>(c.seed)},
      {"workers", c.workers},
      {"timeout_s", c.timeoutSeconds},
      {"memory_bytes", c.memoryBytes},
      {"operators", std::move(operators)},
      {"functions", strings(c.functions)},
      {"op_prefixes", strings(c.opPrefixes)},
      {"front_repeats", c.frontRepeats},
      {"front_children", c.frontChildren},
      {"front_limit", c.frontLimit},
      {"import_cache", c.importCache},
  };
  writeEvaluationOptions(c.evaluation, object);
  return object;
}

absl::StatusOr<SearchConfig> configFromJson(const llvm::json::Value &value,
                                            const std::string &source) {
  const llvm::json::Object *o = value.getAsObject();
  if (!o)
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": the config is not a JSON object"));
  SearchConfig c;
  auto str = [&](const char *key, std::string &out) {
    if (auto v = o->getString(key))
      out = v->str();
  };
  auto num = [&](const char *key, double &out) {
    if (auto v = o->getNumber(key))
      out = *v;
  };
  auto integer = [&](const char *key, auto &out) {
    if (auto v = o->getInteger(key))
      out = static_cast<std::remove_reference_t<decltype(out)>>(*v);
  };
  str("workload", c.workloadPath);
  str("out", c.outDir);
  c.objectives = readStrings(*o, "objectives");
  std::string algorithm = "nsga2";
  str("algorithm", algorithm);
  if (algorithm != "nsga2" && algorithm != "random")
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": unknown algorithm '", algorithm, "'"));
  c.algorithm = algorithm == "nsga2" ? Algorithm::Nsga2 : Algorithm::Random;
  integer("population", c.population);
  integer("generations", c.generations);
  num("budget_s", c.budgetSeconds);
  num("crossover_rate", c.crossoverRate);
  num("mutation_rate", c.mutationRate);
  num("remove_rate", c.removeRate);
  num("retune_rate", c.retuneRate);
  num("immigrant_rate", c.immigrantRate);
  num("max_error_increase", c.maxErrorIncrease);
  integer("screen", c.screen);
  integer("paired_runs", c.pairedRuns);
  if (auto v = o->getBoolean("prune_seeds"))
    c.pruneSeeds = *v;
  if (auto v = o->getBoolean("rate_seeds"))
    c.rateSeeds = *v;
  integer("initial_edits", c.initialEdits);
  integer("max_random_edits", c.maxRandomEdits);
  integer("seed", c.seed);
  integer("workers", c.workers);
  num("timeout_s", c.timeoutSeconds);
  integer("memory_bytes", c.memoryBytes);
  if (o->getArray("operators")) {
    c.operators.clear();
    for (const std::string &name : readStrings(*o, "operators")) {
      std::optional<EditKind> kind = parseEditKind(name);
      if (!kind)
        return absl::InvalidArgumentError(
            absl::StrCat(source, ": unknown operator '", name, "'"));
      c.operators.push_back(*kind);
    }
  }
  c.functions = readStrings(*o, "functions");
  c.opPrefixes = readStrings(*o, "op_prefixes");
  if (absl::Status read =
          readEvaluationOptions(*o, c.evaluation, /*strict=*/false);
      !read.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", read.message()));
  integer("front_repeats", c.frontRepeats);
  integer("front_children", c.frontChildren);
  integer("front_limit", c.frontLimit);
  str("import_cache", c.importCache);
  return c;
}

} // namespace gevo
