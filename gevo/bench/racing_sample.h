//===- racing_sample.h - Racing's stopped variants measured fully --------===//
//
// The check issue #37 asks of every racing path: a sample of the variants a
// racing search stopped as dominated, measured fully (interleaved pairs with
// the unmodified program) beside the search's front measured again in the
// same batch. The sample is the stopped variants the search kept in its
// archive whose reading came nearest to its front, the likeliest false
// stops; the front is every non-dominated variant of the archive (the
// search's reported front may be thinned to --front-limit members).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_RACING_SAMPLE_H
#define GEVO_BENCH_RACING_SAMPLE_H

#include <string>

#include "gevo/workbench/workbench_options.h"

namespace gevo {

struct StoppedSample {
  /// Stopped variants measured fully.
  int measured = 0;
  /// Measured fully, faster beyond the noise band than every front member
  /// at least as accurate (and the unmodified program): would have entered
  /// the front.
  int falseStops = 0;
  /// Faster than every such member, but within the band.
  int withinBand = 0;
  /// Faster, but with the error and static cost of a member (the same
  /// computation, read at another moment).
  int twins = 0;
};

struct SampleSetup {
  /// A finished racing search's run directory (its checkpoint's archive).
  std::string outDir;
  std::string workloadPath;
  WorkbenchOptions workbench;
  /// The search's error bound over the unmodified program's error.
  double maxErrorIncrease = 0.25;
  /// Stopped variants to measure, and the pairs each.
  int size = 30;
  int pairs = 10;
};

StoppedSample checkStoppedSample(const SampleSetup &setup);

} // namespace gevo

#endif // GEVO_BENCH_RACING_SAMPLE_H
