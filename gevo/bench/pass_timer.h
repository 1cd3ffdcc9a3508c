//===- pass_timer.h - Wall time per MLIR pass, for the compile profile ----===//
//
// A pass instrumentation that adds each pass's own CPU time (its nested passes'
// time taken out) to a table keyed by the pass's argument, so that a
// benchmark can write where a lowering spends its time as figures.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_PASS_TIMER_H
#define GEVO_BENCH_PASS_TIMER_H

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gevo/support/stopwatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"

namespace gevo {

/// Milliseconds per pass; shared by the instrumentations of one profile.
using PassTimes = std::map<std::string, double>;

class PassTimer : public mlir::PassInstrumentation {
public:
  explicit PassTimer(std::shared_ptr<PassTimes> times)
      : times(std::move(times)) {}

  void runBeforePass(mlir::Pass *, mlir::Operation *) override {
    open.push_back({processCpuMs(), 0});
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override {
    close(pass);
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *) override {
    close(pass);
  }

private:
  struct Open {
    double start;
    double nestedMs;
  };
  void close(mlir::Pass *pass) {
    if (open.empty())
      return;
    Open top = open.back();
    open.pop_back();
    double total = processCpuMs() - top.start;
    std::string name = pass->getArgument().str();
    if (name.empty())
      name = pass->getName().str();
    (*times)[name] += total - top.nestedMs;
    if (!open.empty())
      open.back().nestedMs += total;
  }
  std::shared_ptr<PassTimes> times;
  std::vector<Open> open;
};

} // namespace gevo

#endif // GEVO_BENCH_PASS_TIMER_H
