//===- messages.cc - What rank 0 and the evaluating ranks say -------------===//

#include "gevo/mpi/messages.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "replay/patch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

absl::StatusOr<llvm::json::Object> parseObject(const std::string &text,
                                               const char *what) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(
        "malformed ", what, ": ", llvm::toString(value.takeError())));
  if (!value->getAsObject())
    return absl::InvalidArgumentError(absl::StrCat(what, " is not an object"));
  return std::move(*value->getAsObject());
}

std::string printJson(llvm::json::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  os.flush();
  return text;
}

} // namespace

std::string encodeRace(const RacePlan &plan) {
  // margin,noise,z,band,max-error,run-limit,flags (1: dry run, 2: stop
  // undecided, 4: evict short), then
  // ,error:ratio:pairs per front member (a metadata value holds no space).
  std::string text =
      absl::StrFormat("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d",
                      plan.firstReadingMargin, plan.pairNoise, plan.confidenceZ,
                      plan.band, plan.maxError, plan.runLimitRatio,
                      (plan.dryRun ? 1 : 0) | (plan.stopUndecided ? 2 : 0) |
                          (plan.evictShort ? 4 : 0));
  for (const FrontPoint &point : plan.front)
    absl::StrAppend(&text, absl::StrFormat(",%.17g:%.17g:%d", point.error,
                                           point.ratio, point.pairs));
  return text;
}

bool decodeRace(const std::string &text, RacePlan &plan) {
  std::vector<std::string> words = absl::StrSplit(text, ',');
  int flags = 0;
  if (words.size() < 7 ||
      !absl::SimpleAtod(words[0], &plan.firstReadingMargin) ||
      !absl::SimpleAtod(words[1], &plan.pairNoise) ||
      !absl::SimpleAtod(words[2], &plan.confidenceZ) ||
      !absl::SimpleAtod(words[3], &plan.band) ||
      !absl::SimpleAtod(words[4], &plan.maxError) ||
      !absl::SimpleAtod(words[5], &plan.runLimitRatio) ||
      !absl::SimpleAtoi(words[6], &flags))
    return false;
  plan.dryRun = (flags & 1) != 0;
  plan.stopUndecided = (flags & 2) != 0;
  plan.evictShort = (flags & 4) != 0;
  plan.front.clear();
  for (size_t i = 7; i < words.size(); ++i) {
    std::vector<std::string> parts = absl::StrSplit(words[i], ':');
    FrontPoint point;
    if (parts.size() != 3 || !absl::SimpleAtod(parts[0], &point.error) ||
        !absl::SimpleAtod(parts[1], &point.ratio) ||
        !absl::SimpleAtoi(parts[2], &point.pairs))
      return false;
    plan.front.push_back(point);
  }
  return !plan.front.empty();
}

std::string encodeJob(uint64_t id, const RemoteJob &job) {
  Patch patch;
  // A patch names a model: a job rank 0 did not build names none (zeros)
  // and says so, and the rank keys the variant itself.
  patch.model = job.key.empty() ? std::string(16, '0') : job.key;
  if (job.key.empty())
    patch.metadata.push_back({"keyed", "0"});
  patch.metadata.insert(
      patch.metadata.end(),
      {{"job", absl::StrCat(id)},
       {"score_test", job.scoreTest ? "1" : "0"},
       {"max_seconds", absl::StrFormat("%.17g", job.maxSeconds)},
       {"reference_run_ms", absl::StrFormat("%.17g", job.referenceRunMs)},
       {"pairs", absl::StrCat(job.interleavedPairs)}});
  if (job.race.enabled())
    patch.metadata.push_back({"race", encodeRace(job.race)});
  for (const Edit &edit : job.edits)
    patch.addEdit(edit);
  return printPatch(patch);
}

absl::StatusOr<std::pair<uint64_t, RemoteJob>>
decodeJob(const std::string &text) {
  absl::StatusOr<Patch> patch = parsePatch(text, "job");
  if (!patch.ok())
    return patch.status();
  RemoteJob job;
  job.key = patch->model;
  job.edits = patch->edits();
  uint64_t id = 0;
  bool haveId = false;
  for (const auto &[key, value] : patch->metadata) {
    bool ok = true;
    if (key == "job")
      ok = haveId = absl::SimpleAtoi(value, &id);
    else if (key == "keyed" && value == "0")
      job.key.clear();
    else if (key == "score_test")
      job.scoreTest = value == "1";
    else if (key == "max_seconds")
      ok = absl::SimpleAtod(value, &job.maxSeconds);
    else if (key == "reference_run_ms")
      ok = absl::SimpleAtod(value, &job.referenceRunMs);
    else if (key == "pairs")
      ok = absl::SimpleAtoi(value, &job.interleavedPairs) &&
           job.interleavedPairs >= 0;
    else if (key == "race")
      ok = decodeRace(value, job.race);
    if (!ok)
      return absl::InvalidArgumentError(
          absl::StrCat("job: bad ", key, "=", value));
  }
  if (!haveId)
    return absl::InvalidArgumentError("job: no job id");
  return std::make_pair(id, std::move(job));
}

void appendToBatch(std::string &batch, const std::string &jobText) {
  absl::StrAppend(&batch, jobText.size(), "\n", jobText);
}

absl::StatusOr<std::vector<std::string>> splitBatch(const std::string &batch) {
  std::vector<std::string> texts;
  size_t at = 0;
  while (at < batch.size()) {
    size_t newline = batch.find('\n', at);
    uint64_t bytes = 0;
    if (newline == std::string::npos ||
        !absl::SimpleAtoi(absl::string_view(batch).substr(at, newline - at),
                          &bytes) ||
        bytes > batch.size() - newline - 1)
      return absl::InvalidArgumentError(
          absl::StrCat("jobs: bad frame at byte ", at));
    texts.push_back(batch.substr(newline + 1, bytes));
    at = newline + 1 + bytes;
  }
  return texts;
}

std::string
encodeNumbered(const std::vector<std::pair<uint64_t, std::string>> &texts) {
  std::string message;
  for (const auto &[number, text] : texts)
    appendToBatch(message, absl::StrCat(number, "\n", text));
  return message;
}

absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>>
decodeNumbered(const std::string &message) {
  absl::StatusOr<std::vector<std::string>> frames = splitBatch(message);
  if (!frames.ok())
    return frames.status();
  std::vector<std::pair<uint64_t, std::string>> texts;
  for (const std::string &frame : *frames) {
    size_t newline = frame.find('\n');
    uint64_t number = 0;
    if (newline == std::string::npos ||
        !absl::SimpleAtoi(absl::string_view(frame).substr(0, newline), &number))
      return absl::InvalidArgumentError("breeding: a text without a number");
    texts.emplace_back(number, frame.substr(newline + 1));
  }
  return texts;
}

std::string encodeBred(const absl::StatusOr<std::string> &answer) {
  return answer.ok() ? "+" + *answer
                     : absl::StrCat("-", answer.status().message());
}

std::optional<std::string> decodeBred(const std::string &text,
                                      std::string *why) {
  if (!text.empty() && text[0] == '+')
    return text.substr(1);
  if (why)
    *why = text.empty() ? "an empty answer" : text.substr(1);
  return std::nullopt;
}

std::string encodeResult(uint64_t id, const RemoteResult &result) {
  std::string text = absl::StrCat(id, " ");
  if (!result.key.empty())
    absl::StrAppend(&text, "key=", result.key, " ");
  if (!result.dropped.empty())
    absl::StrAppend(&text, "dropped=", absl::StrJoin(result.dropped, ","), " ");
  if (result.fromCache)
    absl::StrAppend(&text, "cached ");
  return absl::StrCat(text, toJsonLine(result.measurement));
}

namespace {

/// One `word` of a result's header into `result`; false when unknown.
bool readResultWord(absl::string_view word, RemoteResult &result) {
  if (absl::ConsumePrefix(&word, "key=")) {
    result.key = std::string(word);
    return !word.empty();
  }
  if (absl::ConsumePrefix(&word, "dropped=")) {
    for (absl::string_view index : absl::StrSplit(word, ',')) {
      int i = 0;
      if (!absl::SimpleAtoi(index, &i) || i < 0)
        return false;
      result.dropped.push_back(i);
    }
    return true;
  }
  result.fromCache = word == "cached";
  return result.fromCache;
}

} // namespace

absl::StatusOr<std::pair<uint64_t, RemoteResult>>
decodeResult(const std::string &text) {
  size_t space = text.find(' ');
  uint64_t id = 0;
  if (space == std::string::npos ||
      !absl::SimpleAtoi(absl::string_view(text).substr(0, space), &id))
    return absl::InvalidArgumentError("result: no job id");
  RemoteResult result;
  size_t json = text.find('{', space);
  if (json == std::string::npos)
    return absl::InvalidArgumentError(
        absl::StrCat("result of job ", id, ": no measurement"));
  for (absl::string_view word : absl::StrSplit(
           absl::string_view(text).substr(space + 1, json - space - 1), ' ',
           absl::SkipEmpty()))
    if (!readResultWord(word, result))
      return absl::InvalidArgumentError(
          absl::StrCat("result of job ", id, ": unknown field '", word, "'"));
  absl::StatusOr<Measurement> parsed = parseMeasurementJson(text.substr(json));
  if (!parsed.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("result of job ", id, ": ", parsed.status().message()));
  result.measurement = std::move(*parsed);
  return std::make_pair(id, std::move(result));
}

std::string encodeHello(const RankHello &hello) {
  return printJson(llvm::json::Object{
      {"host", hello.host},
      {"pid", hello.pid},
      {"workers", hello.workers},
      {"unmodified_key", hello.unmodifiedKey},
      {"baseline_run_ms", hello.baselineRunMs},
  });
}

absl::StatusOr<RankHello> decodeHello(const std::string &text) {
  absl::StatusOr<llvm::json::Object> object = parseObject(text, "hello");
  if (!object.ok())
    return object.status();
  RankHello hello;
  auto host = object->getString("host");
  auto key = object->getString("unmodified_key");
  auto pid = object->getInteger("pid");
  auto workers = object->getInteger("workers");
  auto baseline = object->getNumber("baseline_run_ms");
  if (!host || !key || !pid || !workers || *workers < 1 || !baseline)
    return absl::InvalidArgumentError("hello: a field is missing");
  hello.host = host->str();
  hello.unmodifiedKey = key->str();
  hello.pid = *pid;
  hello.workers = static_cast<int>(*workers);
  hello.baselineRunMs = *baseline;
  return hello;
}

void scaleRunTimes(Measurement &measurement, double referenceRunMs,
                   double ownRunMs) {
  if (referenceRunMs <= 0 || ownRunMs <= 0)
    return;
  double factor = referenceRunMs / ownRunMs;
  for (double &ms : measurement.runMs)
    ms *= factor;
  measurement.medianRunMs *= factor;
}

} // namespace gevo
