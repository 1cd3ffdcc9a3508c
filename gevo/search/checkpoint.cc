//===- checkpoint.cc - The search's checkpoint, as JSON -------------------===//

#include "gevo/search/checkpoint.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "replay/patch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

llvm::json::Value individualJson(const Individual &individual) {
  llvm::json::Array edits;
  for (const Edit &edit : individual.edits)
    edits.push_back(printEdit(edit));
  llvm::json::Object object{
      {"edits", std::move(edits)},
      {"key", individual.key},
      {"generation", individual.generation},
      {"cached", individual.cached},
      {"measurement", measurementJson(individual.measurement)},
  };
  if (individual.newestKind)
    object["newest"] = toString(*individual.newestKind);
  return object;
}

absl::StatusOr<Individual> parseIndividual(const llvm::json::Value &value,
                                           const std::string &name) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return absl::InvalidArgumentError(name +
                                      ": an individual is not an object");
  Individual individual;
  if (const llvm::json::Array *edits = object->getArray("edits"))
    for (const llvm::json::Value &line : *edits) {
      absl::StatusOr<Edit> edit =
          parseEdit(line.getAsString().value_or("").str());
      if (!edit.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(name, ": bad edit: ", edit.status().message()));
      individual.edits.push_back(*edit);
    }
  individual.key = object->getString("key").value_or("").str();
  individual.generation =
      static_cast<int>(object->getInteger("generation").value_or(0));
  individual.cached = object->getBoolean("cached").value_or(false);
  if (auto newest = object->getString("newest"))
    individual.newestKind = parseEditKind(newest->str());
  const llvm::json::Value *measurement = object->get("measurement");
  if (!measurement)
    return absl::InvalidArgumentError(name +
                                      ": an individual has no measurement");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *measurement;
  os.flush();
  absl::StatusOr<Measurement> parsed = parseMeasurementJson(text);
  if (!parsed.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", parsed.status().message()));
  individual.measurement = *parsed;
  return individual;
}

llvm::json::Object outcomeCounts(const std::map<Outcome, int64_t> &counts) {
  llvm::json::Object object;
  for (const auto &[outcome, count] : counts)
    object[toString(outcome)] = count;
  return object;
}

std::map<Outcome, int64_t> readOutcomeCounts(const llvm::json::Object *object) {
  std::map<Outcome, int64_t> counts;
  if (!object)
    return counts;
  for (const auto &[key, value] : *object)
    if (std::optional<Outcome> outcome = parseOutcome(key.str()))
      counts[*outcome] = value.getAsInteger().value_or(0);
  return counts;
}

} // namespace

llvm::json::Value measurementJson(const Measurement &m) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(toJsonLine(m));
  if (!value) {
    llvm::consumeError(value.takeError());
    return nullptr;
  }
  return std::move(*value);
}

std::string toJsonText(const Checkpoint &c) {
  llvm::json::Array population, archive, failed, pending;
  for (const Individual &individual : c.population)
    population.push_back(individualJson(individual));
  for (const Individual &individual : c.archive)
    archive.push_back(individualJson(individual));
  for (const Individual &individual : c.failed)
    failed.push_back(individualJson(individual));
  for (const Individual &individual : c.pending)
    pending.push_back(individualJson(individual));
  llvm::json::Object operators;
  for (const auto &[kind, stats] : c.operators)
    operators[toString(kind)] =
        llvm::json::Object{{"variants", stats.variants},
                           {"ok", stats.ok},
                           {"failures", outcomeCounts(stats.failures)}};
  llvm::json::Object object{
      {"version", 1},
      {"generation", c.generation},
      {"rng", c.rngState},
      {"elapsed_s", c.elapsedSeconds},
      {"evaluations", c.counts.evaluations},
      {"cache_hits", c.counts.cacheHits},
      {"remeasured", c.counts.remeasured},
      {"raced", c.counts.raced},
      {"outcomes", outcomeCounts(c.counts.outcomes)},
      {"operators", std::move(operators)},
      {"population", std::move(population)},
      {"archive", std::move(archive)},
      {"failed", std::move(failed)},
      {"pending", std::move(pending)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

absl::StatusOr<Checkpoint> parseCheckpoint(const std::string &text,
                                           const std::string &name) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": malformed checkpoint: ", llvm::toString(value.takeError())));
  const llvm::json::Object *object = value->getAsObject();
  if (!object || object->getInteger("version").value_or(0) != 1)
    return absl::InvalidArgumentError(name + ": not a version-1 checkpoint");
  Checkpoint c;
  c.generation = static_cast<int>(object->getInteger("generation").value_or(0));
  c.rngState = object->getString("rng").value_or("").str();
  c.elapsedSeconds = object->getNumber("elapsed_s").value_or(0);
  c.counts.evaluations = object->getInteger("evaluations").value_or(0);
  c.counts.cacheHits = object->getInteger("cache_hits").value_or(0);
  c.counts.remeasured = object->getInteger("remeasured").value_or(0);
  c.counts.raced = object->getInteger("raced").value_or(0);
  c.counts.outcomes = readOutcomeCounts(object->getObject("outcomes"));
  if (const llvm::json::Object *operators = object->getObject("operators"))
    for (const auto &[key, stats] : *operators) {
      std::optional<EditKind> kind = parseEditKind(key.str());
      const llvm::json::Object *s = stats.getAsObject();
      if (!kind || !s)
        continue;
      OperatorStats &out = c.operators[*kind];
      out.variants = s->getInteger("variants").value_or(0);
      out.ok = s->getInteger("ok").value_or(0);
      out.failures = readOutcomeCounts(s->getObject("failures"));
    }
  for (auto [key, list] :
       {std::pair{"population", &c.population},
        std::pair{"archive", &c.archive}, std::pair{"failed", &c.failed},
        std::pair{"pending", &c.pending}}) {
    if (const llvm::json::Array *array = object->getArray(key))
      for (const llvm::json::Value &item : *array) {
        absl::StatusOr<Individual> individual = parseIndividual(item, name);
        if (!individual.ok())
          return individual.status();
        list->push_back(std::move(*individual));
      }
  }
  return c;
}

} // namespace gevo
