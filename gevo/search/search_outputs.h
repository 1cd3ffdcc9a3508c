//===- search_outputs.h - What a finished search writes -------------------===//
//
// After the front is re-measured: its ranking on the re-measured figures,
// which members dominate the unmodified program, which patch to try first,
// the files front/NN.gevo, front.json and operators.csv (the summary a
// person reads is search_summary.h). No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_OUTPUTS_H
#define GEVO_SEARCH_SEARCH_OUTPUTS_H

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/search/algorithm.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/search_result.h"

namespace gevo {

/// Ranks the front again on its re-measured figures (rankRemeasuredFront),
/// marks the members that dominate the unmodified program, picks
/// `result.best`, and writes the front files into `result.config.outDir`:
/// front/NN.gevo, the members the re-measurement dominates under
/// front/dominated-after-remeasure/, front.json and operators.csv.
/// `modelKey` is the unmodified model's fingerprint (the patches' header).
absl::Status
writeFrontFiles(SearchResult &result, const std::string &modelKey,
                const std::map<EditKind, OperatorStats> &operators);

/// Appends one generation's mutation-operator weights to `path` (a CSV with
/// a header naming `kinds`, written when the file is new); no weights, no row.
absl::Status appendOperatorWeightsRow(const std::string &path,
                                      const std::vector<EditKind> &kinds,
                                      int generation,
                                      const std::vector<double> &weights);

/// Appends one generation's pre-screen figures to `path` (surrogate.csv; a
/// header when the file is new).
absl::Status appendScreenRow(const std::string &path,
                             const std::vector<std::string> &objectives,
                             const ScreenReport &screen);

/// The longest name runDirectoryName gives.
inline constexpr size_t kMaxRunNameChars = 64;

/// A workload's name as one safe path component: letters, digits, '-', '_'
/// and '.' (not first) kept, anything else ('/' included) as '_', at most
/// kMaxRunNameChars characters; "workload" when nothing is left. A workload
/// named `../../../x` cannot put its run outside the runs' root.
std::string runDirectoryName(const std::string &workloadName);

/// `root`/`name`-YYYYmmdd-HHMMSS (the name through runDirectoryName), the
/// directory a run writes when the user names none; creates `root` when
/// missing.
std::string timestampedRunDirectory(const std::string &root,
                                    const std::string &name);

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_OUTPUTS_H
