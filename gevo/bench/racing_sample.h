//===- racing_sample.h - Racing's stopped variants measured fully --------===//
//
// The check issue #37 asks of every racing path: a sample of the variants a
// racing search stopped as dominated, measured fully (interleaved pairs with
// the unmodified program) beside the search's front measured again. The
// sample is the stopped variants the search kept in its archive whose
// reading came nearest to the front, the likeliest false stops.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_RACING_SAMPLE_H
#define GEVO_BENCH_RACING_SAMPLE_H

#include <string>

#include "gevo/search/search_result.h"

namespace gevo {

struct StoppedSample {
  /// Stopped variants measured fully.
  int measured = 0;
  /// Measured fully, faster beyond the noise band than every re-measured
  /// front member at least as accurate (and the unmodified program): would
  /// have entered the front.
  int falseStops = 0;
  /// Faster than every such member, but within the band.
  int withinBand = 0;
  /// Faster, but with the error and static cost of a member (the same
  /// computation, read at another moment).
  int twins = 0;
};

/// Measures fully up to `size` of the stopped variants of the racing search
/// `result` whose run directory is `outDir` (its checkpoint's archive),
/// `pairs` interleaved pairs each, beside the search's front members
/// measured again in the same batch.
StoppedSample checkStoppedSample(const SearchResult &result,
                                 const std::string &outDir, int size,
                                 int pairs);

} // namespace gevo

#endif // GEVO_BENCH_RACING_SAMPLE_H
