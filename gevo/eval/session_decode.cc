//===- session_decode.cc - A sandboxed child's report as a Measurement ----===//
//
// EvaluationSession::decode: how a child ended (signal, timeout, memory, exit
// code) and the report it sent back (its stage, timings and logits) become
// the variant's outcome and fitness, scored here in the parent from the
// logits, never by the variant's own code.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/variant_session.h"

#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "gevo/eval/child_payload.h"
#include "gevo/eval/guarded_memory.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/race.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/support/message_lines.h"
#include "llvm/Support/JSON.h"

namespace gevo {

namespace {

/// The measurement of a child that did not end by sending a report; none
/// when it exited normally.
std::optional<Measurement> endingFailure(const ChildResult &result) {
  std::string stderrLine = lastLine(result.stderrTail);
  auto withStderr = [&](std::string what) {
    return stderrLine.empty() ? what : absl::StrCat(what, ": ", stderrLine);
  };
  switch (result.ending) {
  case ChildResult::Ending::Signaled:
    return failedMeasurement(Outcome::Crash, withStderr(result.describe()));
  case ChildResult::Ending::TimedOut:
    return failedMeasurement(Outcome::Timeout, result.describe());
  case ChildResult::Ending::OutOfMemory:
    return failedMeasurement(Outcome::OutOfMemory, result.describe());
  case ChildResult::Ending::ForkFailed:
    return failedMeasurement(Outcome::Crash, result.describe());
  case ChildResult::Ending::Exited:
    if (result.exitCode == kRunLimitExitCode) {
      Measurement m = failedMeasurement(
          Outcome::Timeout, "stopped by racing: its first run went past the "
                            "run limit (twice the unmodified program's time "
                            "or more, from the front)");
      m.raced = kRacedAtRunLimit;
      return m;
    }
    if (result.exitCode == kOutOfBoundsExitCode)
      return failedMeasurement(Outcome::OutOfBounds,
                               withStderr("out of bounds"));
    if (result.exitCode != 0)
      return failedMeasurement(Outcome::Crash, withStderr(result.describe()));
    break;
  }
  return std::nullopt;
}

/// The measurement of a child that reported a failed stage; none for "ok".
std::optional<Measurement> stageFailure(const llvm::json::Object &header) {
  std::string stage = header.getString("stage").value_or("").str();
  std::string message = header.getString("message").value_or("").str();
  if (stage == "lowering" || stage == "codegen")
    return failedMeasurement(Outcome::LoweringFailed, message);
  if (stage == "run")
    return failedMeasurement(Outcome::WrongShape, message);
  if (stage == "corrupts")
    return failedMeasurement(Outcome::OutOfBounds,
                             "wrote memory it does not own: " + message);
  if (stage == "uninitialized")
    return failedMeasurement(Outcome::ReadsUninitialized, message);
  if (stage == "baseline")
    return failedMeasurement(Outcome::Crash,
                             "the unmodified program failed: " + message);
  if (stage == "device")
    return failedMeasurement(Outcome::Crash, "device fault: " + message);
  if (stage != "ok")
    return failedMeasurement(Outcome::Crash,
                             "the child sent back an unknown stage");
  return std::nullopt;
}

std::vector<double> numbersOf(const llvm::json::Array &array) {
  std::vector<double> numbers;
  for (const llvm::json::Value &value : array)
    numbers.push_back(value.getAsNumber().value_or(0));
  return numbers;
}

/// The timings a successful child reported.
Measurement readTimings(const llvm::json::Object &header) {
  Measurement m;
  m.lowerMs = header.getNumber("lower_ms").value_or(0);
  m.codegenMs = header.getNumber("codegen_ms").value_or(0);
  m.loweredOps = header.getNumber("lowered_ops").value_or(0);
  m.loweringFallback = header.getString("lowering_fallback").value_or("").str();
  m.raced = header.getString("raced").value_or("").str();
  m.wouldRace = header.getString("would_race").value_or("").str();
  if (const llvm::json::Array *runs = header.getArray("run_ms"))
    m.runMs = numbersOf(*runs);
  m.medianRunMs = median(m.runMs);
  if (const llvm::json::Array *runs = header.getArray("baseline_run_ms");
      runs && !runs->empty()) {
    std::vector<double> baselineMs = numbersOf(*runs);
    std::vector<double> ratios = pairRatios(m.runMs, baselineMs);
    m.baselineMedianRunMs = median(baselineMs);
    m.baselineRuns = static_cast<int>(baselineMs.size());
    m.runtimeRatio = median(ratios);
    if (ratios.size() >= 2 && m.runtimeRatio > 0) {
      std::vector<double> deviations;
      for (double ratio : ratios)
        deviations.push_back(std::abs(ratio - m.runtimeRatio));
      m.pairSpread = median(deviations) / m.runtimeRatio;
    }
  }
  // Stopped by racing after pairs with the member to beat: its ratio is
  // theirs times the member's (no reading of the unmodified program).
  if (const llvm::json::Array *runs = header.getArray("member_run_ms"))
    m.runtimeRatio = median(pairRatios(m.runMs, numbersOf(*runs))) *
                     header.getNumber("member_ratio").value_or(0);
  // Stopped by racing after its first run, before any pair: its ratio is
  // that run's against the parent's reading of the unmodified program.
  if (m.runtimeRatio == 0 &&
      (m.raced == kRacedAfterFirstRun || m.raced == kRacedAtRunLimit))
    m.runtimeRatio = header.getNumber("first_ratio").value_or(0);
  return m;
}

/// Scores the logits the child sent (validation, then test if sent) into
/// `m`; a failed measurement when they cannot be scored.
Measurement scoreLogitsSent(const DatasetSplit &data,
                            const std::vector<HostTensor> &tensors,
                            Measurement m) {
  if (tensors.empty())
    return failedMeasurement(Outcome::Crash, "the child sent back no logits");
  absl::StatusOr<ClassificationScore> score =
      scoreSplit(data, SplitRole::Validation, tensors[0]);
  if (!score.ok())
    return failedMeasurement(Outcome::WrongShape,
                             std::string(score.status().message()));
  m.validation = *score;
  if (tensors.size() > 1) {
    absl::StatusOr<ClassificationScore> testScore =
        scoreSplit(data, SplitRole::Test, tensors[1]);
    if (!testScore.ok())
      return failedMeasurement(Outcome::WrongShape,
                               std::string(testScore.status().message()));
    m.test = *testScore;
  }
  if (m.validation.nonFiniteRows > 0 || m.test.nonFiniteRows > 0) {
    m.outcome = Outcome::NonFinite;
    m.detail = absl::StrCat(m.validation.nonFiniteRows + m.test.nonFiniteRows,
                            " rows of logits hold NaN or infinity");
  }
  return m;
}

} // namespace

Measurement EvaluationSession::decode(const ChildResult &result) const {
  if (std::optional<Measurement> ended = endingFailure(result))
    return *ended;
  size_t newline = result.payload.find('\n');
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse(llvm::StringRef(result.payload).substr(0, newline));
  if (newline == std::string::npos || !value) {
    if (!value)
      llvm::consumeError(value.takeError());
    return failedMeasurement(Outcome::Crash,
                             "the child sent back a malformed report");
  }
  const llvm::json::Object &header = *value->getAsObject();
  if (std::optional<Measurement> failed = stageFailure(header))
    return *failed;
  // Rebuild the tensors the child sent.
  absl::StatusOr<std::vector<HostTensor>> decoded =
      decodePayloadTensors(header, result.payload, newline + 1);
  if (!decoded.ok())
    return failedMeasurement(Outcome::Crash,
                             std::string(decoded.status().message()));
  return scoreLogitsSent(data, *decoded, readTimings(header));
}

} // namespace gevo
