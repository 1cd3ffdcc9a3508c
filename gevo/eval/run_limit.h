//===- run_limit.h - Racing's run limit inside a sandboxed child ----------===//
//
// A variant's first run ends its child once it has used racing's run limit
// of CPU time (race.h, RacePlan::runLimitMs): the sandbox sees the child
// exit with kRunLimitExitCode. Only a forked child may arm it.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_RUN_LIMIT_H
#define GEVO_EVAL_RUN_LIMIT_H

namespace gevo {

/// The CPU time (ms) this process has used.
double processCpuMs();

/// Over the code run while this is alive: once it has used `limitMs` of CPU
/// the process ends (kRunLimitExitCode), unless `stop` is false (a dry
/// run), when `passed()` says so afterwards. CPU time, not wall time: load
/// from other processes does not end a variant. `limitMs` <= 0: no limit.
class RunLimit {
public:
  RunLimit(double limitMs, bool stop);
  ~RunLimit();
  RunLimit(const RunLimit &) = delete;
  RunLimit &operator=(const RunLimit &) = delete;
  bool passed() const;

private:
  double limitMs;
  double startMs;
  bool armed = false;
};

} // namespace gevo

#endif // GEVO_EVAL_RUN_LIMIT_H
