//===- training_spec.cc - Parse the "training" field of a workload --------===//
//
// Every key is checked: unknown keys, wrong types and out-of-range values are
// errors naming the field (training.optimizer.momentum, ...).
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_spec.h"

#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

class SpecParser {
public:
  explicit SpecParser(std::string where) : where(std::move(where)) {}
  absl::Status parse(const llvm::json::Value &value, TrainingSpec &spec);

private:
  absl::Status error(const std::string &field, const std::string &message) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": training.", field, ": ", message));
  }
  absl::Status keys(const llvm::json::Object &obj, const std::string &at,
                    const std::set<std::string> &allowed);
  absl::Status number(const llvm::json::Object &obj, const std::string &at,
                      const char *key, double min, std::optional<double> &out);
  absl::Status integer(const llvm::json::Object &obj, const char *key,
                       int64_t min, int64_t &out);
  absl::Status optimizer(const llvm::json::Value *value, TrainingSpec &spec);
  absl::Status init(const llvm::json::Value *value, TrainingSpec &spec);
  absl::Status shuffle(const llvm::json::Value *value, TrainingSpec &spec);

  std::string where;
};

absl::Status SpecParser::keys(const llvm::json::Object &obj,
                              const std::string &at,
                              const std::set<std::string> &allowed) {
  for (const auto &entry : obj)
    if (!allowed.count(entry.first.str()))
      return error(absl::StrCat(at, entry.first.str()), "unknown field");
  return absl::OkStatus();
}

absl::Status SpecParser::number(const llvm::json::Object &obj,
                                const std::string &at, const char *key,
                                double min, std::optional<double> &out) {
  const llvm::json::Value *value = obj.get(key);
  if (!value)
    return absl::OkStatus();
  std::optional<double> v = value->getAsNumber();
  if (!v || !std::isfinite(*v) || *v < min)
    return error(absl::StrCat(at, key),
                 absl::StrCat("must be a number >= ", min));
  out = v;
  return absl::OkStatus();
}

absl::Status SpecParser::integer(const llvm::json::Object &obj, const char *key,
                                 int64_t min, int64_t &out) {
  const llvm::json::Value *value = obj.get(key);
  if (!value)
    return absl::OkStatus();
  std::optional<int64_t> v = value->getAsInteger();
  if (!v || *v < min)
    return error(key, absl::StrCat("must be an integer >= ", min));
  out = *v;
  return absl::OkStatus();
}

absl::Status SpecParser::optimizer(const llvm::json::Value *value,
                                   TrainingSpec &spec) {
  if (!value)
    return absl::OkStatus(); // plain SGD at the default rate
  const llvm::json::Object *obj = value->getAsObject();
  if (!obj)
    return error("optimizer", "must be an object {\"kind\": \"sgd\", ...}");
  if (absl::Status s =
          keys(*obj, "optimizer.",
               {"kind", "learning_rate", "momentum", "weight_decay"});
      !s.ok())
    return s;
  std::optional<llvm::StringRef> kind = obj->getString("kind");
  if (!kind || *kind != "sgd")
    return error("optimizer.kind", "must be \"sgd\"");
  if (const llvm::json::Value *lr = obj->get("learning_rate")) {
    spec.learningRates.clear();
    const llvm::json::Array *list = lr->getAsArray();
    for (size_t i = 0; i < (list ? list->size() : 1); ++i) {
      std::optional<double> v =
          list ? (*list)[i].getAsNumber() : lr->getAsNumber();
      if (!v || !std::isfinite(*v) || *v < 0)
        return error("optimizer.learning_rate",
                     "must be a number >= 0 or a list of them");
      spec.learningRates.push_back(*v);
    }
    if (spec.learningRates.empty())
      return error("optimizer.learning_rate", "must not be empty");
  }
  if (absl::Status s = number(*obj, "optimizer.", "momentum", 0, spec.momentum);
      !s.ok())
    return s;
  if (spec.momentum && *spec.momentum >= 1)
    return error("optimizer.momentum", "must be below 1");
  return number(*obj, "optimizer.", "weight_decay", 0, spec.weightDecay);
}

absl::Status SpecParser::init(const llvm::json::Value *value,
                              TrainingSpec &spec) {
  if (!value)
    return absl::OkStatus();
  if (std::optional<llvm::StringRef> text = value->getAsString()) {
    if (*text != "model")
      return error("init", "must be \"model\" or {\"seed\": S}");
    spec.initFromModel = true;
    return absl::OkStatus();
  }
  const llvm::json::Object *obj = value->getAsObject();
  if (!obj || !obj->get("seed"))
    return error("init", "must be \"model\" or {\"seed\": S}");
  if (absl::Status s = keys(*obj, "init.", {"seed", "scale"}); !s.ok())
    return s;
  std::optional<double> seed;
  if (absl::Status s = number(*obj, "init.", "seed", -1e6, seed); !s.ok())
    return s;
  spec.initFromModel = false;
  spec.seed = *seed;
  if (const llvm::json::Value *scale = obj->get("scale")) {
    std::optional<llvm::StringRef> name = scale->getAsString();
    if (!name || (*name != "fan_in" && *name != "he" && *name != "glorot"))
      return error("init.scale", "must be \"fan_in\", \"he\" or \"glorot\"");
    spec.scale = name->str();
  }
  return absl::OkStatus();
}

absl::Status SpecParser::shuffle(const llvm::json::Value *value,
                                 TrainingSpec &spec) {
  if (!value)
    return absl::OkStatus();
  if (std::optional<bool> flag = value->getAsBoolean()) {
    if (*flag)
      spec.shuffleSeed = 1;
    return absl::OkStatus();
  }
  const llvm::json::Object *obj = value->getAsObject();
  std::optional<int64_t> seed =
      obj && obj->size() == 1 ? obj->getInteger("seed") : std::nullopt;
  if (!seed || *seed < 0)
    return error("shuffle", "must be true, false or {\"seed\": S >= 0}");
  spec.shuffleSeed = *seed;
  return absl::OkStatus();
}

absl::Status SpecParser::parse(const llvm::json::Value &value,
                               TrainingSpec &spec) {
  const llvm::json::Object *obj = value.getAsObject();
  if (!obj)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": training: must be an object"));
  if (absl::Status s =
          keys(*obj, "",
               {"loss", "optimizer", "batch", "epochs", "init", "shuffle"});
      !s.ok())
    return s;
  if (const llvm::json::Value *loss = obj->get("loss")) {
    std::optional<llvm::StringRef> name = loss->getAsString();
    if (!name || *name != "cross_entropy")
      return error("loss", "must be \"cross_entropy\"");
  }
  if (absl::Status s = optimizer(obj->get("optimizer"), spec); !s.ok())
    return s;
  if (absl::Status s = integer(*obj, "batch", 1, spec.batch); !s.ok())
    return s;
  if (absl::Status s = integer(*obj, "epochs", 1, spec.epochs); !s.ok())
    return s;
  if (absl::Status s = init(obj->get("init"), spec); !s.ok())
    return s;
  return shuffle(obj->get("shuffle"), spec);
}

} // namespace

absl::StatusOr<TrainingSpec> parseTrainingSpec(const std::string &json,
                                               const std::string &where) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": training: ", llvm::toString(value.takeError())));
  TrainingSpec spec;
  if (absl::Status s = SpecParser(where).parse(*value, spec); !s.ok())
    return s;
  return spec;
}

} // namespace gevo
