//===- measurement.cc - What evaluating one variant found out -------------===//

#include "gevo/eval/measurement.h"

#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

const char *const kObjectives[] = {"runtime", "error", "static_cost",
                                   "lowered_ops"};

llvm::json::Object scoreJson(const ClassificationScore &score) {
  return llvm::json::Object{{"correct", score.correct},
                            {"total", score.total},
                            {"non_finite_rows", score.nonFiniteRows}};
}

bool readScore(const llvm::json::Object *object, ClassificationScore &score) {
  if (!object)
    return false;
  auto correct = object->getInteger("correct");
  auto total = object->getInteger("total");
  auto nonFinite = object->getInteger("non_finite_rows");
  if (!correct || !total || !nonFinite)
    return false;
  score.correct = *correct;
  score.total = *total;
  score.nonFiniteRows = *nonFinite;
  return true;
}

} // namespace

const char *toString(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok:
    return "ok";
  case Outcome::InvalidIr:
    return "invalid_ir";
  case Outcome::LoweringFailed:
    return "lowering_failed";
  case Outcome::Crash:
    return "crash";
  case Outcome::Timeout:
    return "timeout";
  case Outcome::OutOfMemory:
    return "out_of_memory";
  case Outcome::NonFinite:
    return "non_finite";
  case Outcome::WrongShape:
    return "wrong_shape";
  case Outcome::ReadsUninitialized:
    return "reads_uninitialized";
  case Outcome::OutOfBounds:
    return "out_of_bounds";
  }
  return "?";
}

std::optional<Outcome> parseOutcome(const std::string &name) {
  for (Outcome outcome : kAllOutcomes)
    if (name == toString(outcome))
      return outcome;
  return std::nullopt;
}

bool isKnownObjective(const std::string &name) {
  for (const char *known : kObjectives)
    if (name == known)
      return true;
  return false;
}

bool isDeterministicObjective(const std::string &name) {
  return name != "runtime";
}

absl::Status checkObjectives(const std::vector<std::string> &names) {
  std::set<std::string> seen;
  for (const std::string &name : names) {
    if (!isKnownObjective(name))
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown objective '", name,
          "' (expected runtime, error, static_cost, lowered_ops)"));
    if (!seen.insert(name).second)
      return absl::InvalidArgumentError(
          absl::StrCat("objective '", name, "' named twice"));
  }
  if (names.size() < 2)
    return absl::InvalidArgumentError("a search needs at least two objectives");
  return absl::OkStatus();
}

double objectiveValue(const Measurement &m, const std::string &name) {
  if (name == "runtime")
    return m.medianRunMs;
  if (name == "error")
    return m.error();
  if (name == "static_cost")
    return m.staticCost;
  if (name == "lowered_ops")
    return m.loweredOps;
  return 0;
}

std::vector<double> objectiveValues(const Measurement &m,
                                    const std::vector<std::string> &names) {
  std::vector<double> values;
  for (const std::string &name : names)
    values.push_back(objectiveValue(m, name));
  return values;
}

std::string toJsonLine(const Measurement &m) {
  llvm::json::Object object{
      {"outcome", toString(m.outcome)},
      {"detail", m.detail},
      {"validation", scoreJson(m.validation)},
      {"test", scoreJson(m.test)},
      {"run_ms", llvm::json::Array(m.runMs)},
      {"median_run_ms", m.medianRunMs},
      {"parse_ms", m.parseMs},
      {"lower_ms", m.lowerMs},
      {"codegen_ms", m.codegenMs},
      {"static_cost", m.staticCost},
      {"lowered_ops", m.loweredOps},
  };
  if (!m.loweringFallback.empty())
    object["lowering_fallback"] = m.loweringFallback;
  if (m.childMs > 0)
    object["child_ms"] = m.childMs;
  if (m.childCpuMs > 0) {
    object["child_cpu_ms"] = m.childCpuMs;
    object["child_system_ms"] = m.childSystemMs;
  }
  if (m.runtimeRatio > 0) {
    object["runtime_ratio"] = m.runtimeRatio;
    object["baseline_median_run_ms"] = m.baselineMedianRunMs;
    object["baseline_runs"] = m.baselineRuns;
  }
  if (!m.raced.empty())
    object["raced"] = m.raced;
  if (!m.wouldRace.empty())
    object["would_race"] = m.wouldRace;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

absl::StatusOr<Measurement> parseMeasurementJson(const std::string &text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(
        "malformed measurement: ", llvm::toString(value.takeError())));
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return absl::InvalidArgumentError("measurement is not an object");
  Measurement m;
  auto outcomeName = object->getString("outcome");
  std::optional<Outcome> outcome =
      outcomeName ? parseOutcome(outcomeName->str()) : std::nullopt;
  if (!outcome)
    return absl::InvalidArgumentError("measurement has no valid outcome");
  m.outcome = *outcome;
  if (auto detail = object->getString("detail"))
    m.detail = detail->str();
  if (auto fallback = object->getString("lowering_fallback"))
    m.loweringFallback = fallback->str();
  if (auto raced = object->getString("raced"))
    m.raced = raced->str();
  if (auto would = object->getString("would_race"))
    m.wouldRace = would->str();
  if (!readScore(object->getObject("validation"), m.validation) ||
      !readScore(object->getObject("test"), m.test))
    return absl::InvalidArgumentError("measurement has no valid scores");
  if (const llvm::json::Array *runs = object->getArray("run_ms"))
    for (const llvm::json::Value &run : *runs)
      if (auto ms = run.getAsNumber())
        m.runMs.push_back(*ms);
  auto number = [&](const char *key, double &out) {
    if (auto v = object->getNumber(key))
      out = *v;
  };
  number("median_run_ms", m.medianRunMs);
  number("parse_ms", m.parseMs);
  number("lower_ms", m.lowerMs);
  number("codegen_ms", m.codegenMs);
  number("child_ms", m.childMs);
  number("child_cpu_ms", m.childCpuMs);
  number("child_system_ms", m.childSystemMs);
  number("static_cost", m.staticCost);
  number("lowered_ops", m.loweredOps);
  number("runtime_ratio", m.runtimeRatio);
  number("baseline_median_run_ms", m.baselineMedianRunMs);
  if (auto runs = object->getInteger("baseline_runs"))
    m.baselineRuns = static_cast<int>(*runs);
  return m;
}

} // namespace gevo
