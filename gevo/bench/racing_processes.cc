//===- racing_processes.cc - False stops confirmed in fresh processes -----===//
//
// Racing's bench re-measures a flagged variant beside the front in several
// fresh processes of its own binary (racing_main.cc's --measure-* flags run
// measureKeysToFile) and judges the readings of each process (against the
// members it measured) and their medians: the process a short program is
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

/// Runs one fresh process over `keys`; adds its readings to `readings` and
/// returns the unmodified program's error it read (negative: it failed).
double runProcess(const SampleSetup &setup, const std::string &keys,
                  const std::string &outPath, int process,
                  std::map<std::string, ProcessReadings> &readings) {
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
    ProcessReadings &r = readings[v->getString("key").value_or("").str()];
    r.member = v->getBoolean("member").value_or(false);
    r.figures.error = v->getNumber("error").value_or(0);
    r.figures.staticCost = v->getNumber("static_cost").value_or(0);
    r.ratios[process] = v->getNumber("ratio").value_or(0);
  }
  return object->getNumber("baseline_error").value_or(-1);
}

std::string listOf(const std::map<int, double> &ratios) {
  std::string text;
  for (const auto &[process, ratio] : ratios)
    text += (text.empty() ? "x" : " x") + llvm::formatv("{0:F4}", ratio).str();
  return text;
}

std::vector<double> valuesOf(const std::map<int, double> &ratios) {
  std::vector<double> values;
  for (const auto &[process, ratio] : ratios)
    values.push_back(ratio);
  return values;
}

/// The members' figures with their ratio in process `process` (or their
/// median over the processes, for -1); those it did not measure are left
/// out.
std::vector<FullReading>
membersIn(const std::map<std::string, ProcessReadings> &readings, int process) {
  std::vector<FullReading> members;
  for (const auto &[key, r] : readings) {
    if (!r.member)
      continue;
    FullReading reading = r.figures;
    if (process < 0) {
      reading.ratio = median(valuesOf(r.ratios));
    } else if (auto it = r.ratios.find(process); it != r.ratios.end()) {
      reading.ratio = it->second;
    } else {
      continue;
    }
    members.push_back(reading);
  }
  return members;
}

} // namespace

Confirmed judgeProcesses(const std::map<std::string, ProcessReadings> &readings,
                         double baselineError) {
  // The members' medians, and their readings in each process, once.
  std::vector<FullReading> medians = membersIn(readings, -1);
  std::map<int, std::vector<FullReading>> inProcess;
  for (const auto &[key, r] : readings)
    for (const auto &[process, ratio] : r.ratios)
      if (!inProcess.count(process))
        inProcess[process] = membersIn(readings, process);
  Confirmed confirmed;
  for (const auto &[key, r] : readings) {
    if (r.member || r.ratios.empty())
      continue;
    FullReading stopped = r.figures;
    stopped.ratio = median(valuesOf(r.ratios));
    double toBeat = 0;
    StopVerdict verdict =
        judgeAgainst(stopped, medians, baselineError, &toBeat);
    // Paired within each process: its reading there against the members'.
    int faster = 0;
    for (const auto &[process, ratio] : r.ratios) {
      stopped.ratio = ratio;
      faster += judgeAgainst(stopped, inProcess[process], baselineError) ==
                StopVerdict::FalseStop;
    }
    bool every = faster == static_cast<int>(r.ratios.size());
    confirmed.byMedian += verdict == StopVerdict::FalseStop;
    confirmed.everyProcess += every;
    std::fprintf(stderr,
                 "  %s error %.4f: x%.4f (%s) in fresh processes, front "
                 "x%.4f: %s by the median, faster beyond the band in %d of "
                 "%zu processes%s\n",
                 key.c_str(), r.figures.error, median(valuesOf(r.ratios)),
                 listOf(r.ratios).c_str(), toBeat, toString(verdict), faster,
                 r.ratios.size(), every ? ": FALSE STOP" : "");
  }
  return confirmed;
}

Confirmed confirmInProcesses(const SampleSetup &setup,
                             const std::set<std::string> &keys, int processes) {
  if (keys.empty())
    return {};
  std::fprintf(stderr,
               "  the %zu false stops measured beside the front in %d fresh "
               "processes:\n",
               keys.size(), processes);
  std::string joined = llvm::join(keys, ",");
  std::string outPath = setup.outDir + "/fresh-process.json";
  std::map<std::string, ProcessReadings> readings;
  double baselineError = -1;
  for (int p = 0; p < processes; ++p)
    if (double error = runProcess(setup, joined, outPath, p, readings);
        error >= 0)
      baselineError = error;
  if (baselineError < 0) {
    // Nothing measured them again: the search's flag stands.
    std::fprintf(stderr, "  no fresh process measured them: all %zu count\n",
                 keys.size());
    int all = static_cast<int>(keys.size());
    return {all, all};
  }
  return judgeProcesses(readings, baselineError);
}

} // namespace gevo
