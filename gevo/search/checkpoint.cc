//===- checkpoint.cc - The search's checkpoint, as JSON -------------------===//

#include "gevo/search/checkpoint.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "replay/patch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

/// One individual into `out`, its keys in the order a json::Object prints
/// them; the measurement is the cache's line for it, as it is.
void writeIndividual(llvm::json::OStream &out, const Individual &individual) {
  out.object([&] {
    out.attribute("cached", individual.cached);
    out.attributeArray("edits", [&] {
      for (const Edit &edit : individual.edits)
        out.value(printEdit(edit));
    });
    out.attribute("generation", individual.generation);
    out.attribute("key", individual.key);
    out.attributeBegin("measurement");
    out.rawValue(toJsonLine(individual.measurement));
    out.attributeEnd();
    if (individual.newestKind)
      out.attribute("newest", toString(*individual.newestKind));
  });
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
  // Streamed one individual at a time: the archive holds every variant
  // measured, and a whole tree of it (some 18 bytes of tree per byte of
  // text) grew a 30-minute search's heap by ~270 MB at every checkpoint,
  // memory each forked child then inherited. The keys go in the order a
  // json::Object prints them (sorted), so the text is the same.
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream out(os);
  auto individuals = [&](llvm::StringRef key,
                         const std::vector<Individual> &list) {
    out.attributeArray(key, [&] {
      for (const Individual &individual : list)
        writeIndividual(out, individual);
    });
  };
  out.object([&] {
    individuals("archive", c.archive);
    out.attribute("cache_hits", c.counts.cacheHits);
    out.attribute("elapsed_s", c.elapsedSeconds);
    out.attribute("evaluations", c.counts.evaluations);
    individuals("failed", c.failed);
    out.attribute("generation", c.generation);
    llvm::json::Object operators;
    for (const auto &[kind, stats] : c.operators)
      operators[toString(kind)] =
          llvm::json::Object{{"variants", stats.variants},
                             {"ok", stats.ok},
                             {"failures", outcomeCounts(stats.failures)}};
    out.attribute("operators", std::move(operators));
    out.attribute("outcomes", outcomeCounts(c.counts.outcomes));
    individuals("pending", c.pending);
    individuals("population", c.population);
    out.attribute("raced", c.counts.raced);
    out.attribute("remeasured", c.counts.remeasured);
    out.attribute("reread", c.counts.reread);
    out.attribute("rng", c.rngState);
    out.attribute("version", 1);
  });
  os.flush();
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
  c.counts.reread = object->getInteger("reread").value_or(0);
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
