//===- racing_processes.cc - False stops confirmed in fresh processes -----===//
//
// Racing's bench re-measures a flagged variant beside the front in several
// fresh processes of its own binary (racing_main.cc's --measure-* flags run
// measureKeysToFile) and judges the medians: the process a short program is
// timed in moves its ratio by more than a pair's noise.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <map>

#include "gevo/bench/child_process.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/racing_sample.h"
#include "gevo/eval/race.h"
#include "gevo/support/median.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// One variant's readings over the processes.
struct Readings {
  bool member = false;
  double error = 0;
  double staticCost = 0;
  std::vector<double> ratios;
};

/// Runs one fresh process over `keys`; adds its readings to `readings` and
/// returns the unmodified program's error it read (negative: it failed).
double runProcess(const SampleSetup &setup, const std::string &keys,
                  const std::string &outPath,
                  std::map<std::string, Readings> &readings) {
  // This very binary, even if a rebuild has replaced its file since.
  std::string self = "/proc/self/exe";
  std::vector<std::string> args = {self,
                                   "--measure-run=" + setup.outDir,
                                   "--measure-workload=" + setup.workloadPath,
                                   "--measure-keys=" + keys,
                                   "--measure-pairs=" +
                                       std::to_string(setup.pairs),
                                   "--measure-out=" + outPath};
  int rc = runChild(args, nullptr).status;
  absl::StatusOr<llvm::json::Value> value = readFigures(outPath);
  const llvm::json::Object *object =
      value.ok() ? value->getAsObject() : nullptr;
  const llvm::json::Array *variants =
      object ? object->getArray("variants") : nullptr;
  if (rc != 0 || !variants) {
    std::string why =
        value.ok() ? "" : ": " + std::string(value.status().message());
    std::fprintf(stderr, "  a fresh process failed (exit %d%s)\n", rc,
                 why.c_str());
    return -1;
  }
  for (const llvm::json::Value &entry : *variants) {
    const llvm::json::Object *v = entry.getAsObject();
    if (!v)
      continue;
    Readings &r = readings[v->getString("key").value_or("").str()];
    r.member = v->getBoolean("member").value_or(false);
    r.error = v->getNumber("error").value_or(0);
    r.staticCost = v->getNumber("static_cost").value_or(0);
    r.ratios.push_back(v->getNumber("ratio").value_or(0));
  }
  return object->getNumber("baseline_error").value_or(-1);
}

std::string listOf(const std::vector<double> &ratios) {
  std::string text;
  for (double ratio : ratios)
    text += (text.empty() ? "x" : " x") + llvm::formatv("{0:F4}", ratio).str();
  return text;
}

/// How many flagged variants of `readings` the medians call false stops.
int judgeMedians(const std::map<std::string, Readings> &readings,
                 double baselineError) {
  std::vector<FrontPoint> front = {{baselineError, 1.0}};
  for (const auto &[key, r] : readings)
    if (r.member)
      front.push_back({r.error, median(r.ratios)});
  int confirmed = 0;
  for (const auto &[key, r] : readings) {
    if (r.member)
      continue;
    double ratio = median(r.ratios), toBeat = ratioToBeat(front, r.error);
    bool twin = false;
    for (const auto &[otherKey, other] : readings)
      twin |= other.member && other.error == r.error &&
              other.staticCost == r.staticCost;
    StopVerdict verdict = judgeStop(ratio, toBeat, twin);
    confirmed += verdict == StopVerdict::FalseStop;
    std::fprintf(stderr,
                 "  %s error %.4f: x%.4f (%s) in fresh processes, front "
                 "x%.4f: %s\n",
                 key.c_str(), r.error, ratio, listOf(r.ratios).c_str(), toBeat,
                 toString(verdict));
  }
  return confirmed;
}

} // namespace

int confirmInProcesses(const SampleSetup &setup,
                       const std::set<std::string> &keys, int processes) {
  if (keys.empty())
    return 0;
  std::fprintf(stderr,
               "  the %zu false stops measured beside the front in %d fresh "
               "processes:\n",
               keys.size(), processes);
  std::string joined = llvm::join(keys, ",");
  std::string outPath = setup.outDir + "/fresh-process.json";
  std::map<std::string, Readings> readings;
  double baselineError = -1;
  for (int p = 0; p < processes; ++p)
    if (double error = runProcess(setup, joined, outPath, readings); error >= 0)
      baselineError = error;
  if (baselineError < 0) {
    // Nothing measured them again: the search's flag stands.
    std::fprintf(stderr, "  no fresh process measured them: all %zu count\n",
                 keys.size());
    return static_cast<int>(keys.size());
  }
  return judgeMedians(readings, baselineError);
}

} // namespace gevo
