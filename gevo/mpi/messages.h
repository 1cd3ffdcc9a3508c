//===- messages.h - What rank 0 and the evaluating ranks say to each other ===//
//
// The MPI backend's messages as text, without MPI: a job is a patch (the
// replay/ format) whose header names the job (and the variant's key, when
// rank 0 built it), several jobs travel in one message as length-framed
// patches, a result is the job id, the key the rank built, the edits that did
// not apply and the measurement's JSON line, and a rank introduces itself with
// its host, pid, workers and its own baseline. Edit lists only, never MLIR or
// binaries, so ranks on other machines rebuild each variant.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_MPI_MESSAGES_H
#define GEVO_MPI_MESSAGES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/measurement.h"
#include "gevo/workbench/remote_runner.h"

namespace gevo {

/// MPI tags of the backend's messages.
enum MpiTag : int {
  kTagStart = 1,     // 0 -> r: the search's config (JSON)
  kTagStop = 2,      // 0 -> r: no more work; end
  kTagJobs = 3,      // 0 -> r: encodeJob texts, framed by appendToBatch
  kTagHello = 4,     // r -> 0: encodeHello, once its baseline is measured
  kTagResult = 5,    // r -> 0: encodeResult
  kTagHeartbeat = 6, // r -> 0: still alive (empty), while it holds jobs
  kTagFailed = 7,    // r -> 0: it cannot evaluate (one line why)
  kTagCancel = 8,    // 0 -> r: drop job N (decimal) if not yet started
  kTagBreed = 9,     // 0 -> r: numbered breeding recipes (encodeNumbered)
  kTagBred = 10,     // r -> 0: numbered answers (encodeBred)
};

/// A job as patch text: `meta job=N score_test=0|1 max_seconds=S
/// reference_run_ms=R` over the edits, the key as the patch's model.
/// A race plan (gevo/eval/race.h) as one line of a job's metadata, and
/// back (false: malformed). The reference run time is left out: each rank
/// reads a first run against its own unmodified program.
std::string encodeRace(const RacePlan &plan);
bool decodeRace(const std::string &text, RacePlan &plan);

std::string encodeJob(uint64_t id, const RemoteJob &job);
absl::StatusOr<std::pair<uint64_t, RemoteJob>>
decodeJob(const std::string &text);

/// Adds one job's text to a message of several: `<bytes>\n<text>`.
void appendToBatch(std::string &batch, const std::string &jobText);
/// The job texts of a message built by appendToBatch, in order.
absl::StatusOr<std::vector<std::string>> splitBatch(const std::string &batch);

/// `N [key=K] [dropped=I,J] [cached] {...}`: the job id, what the rank
/// built (the key, the indices of the edits that did not apply) and whether
/// its own cache answered, then the fitness cache's measurement JSON line
/// (parsed once on arrival).
std::string encodeResult(uint64_t id, const RemoteResult &result);
absl::StatusOr<std::pair<uint64_t, RemoteResult>>
decodeResult(const std::string &text);

/// Breeding (RemoteRunner::breed): texts each with its number, in one
/// message (appendToBatch frames of `<n>\n<text>`), and back.
std::string
encodeNumbered(const std::vector<std::pair<uint64_t, std::string>> &texts);
absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>>
decodeNumbered(const std::string &message);
/// One answer to a recipe as a numbered text: the Breeder's text, or why it
/// failed; and back (nullopt for a failure, `why` set).
std::string encodeBred(const absl::StatusOr<std::string> &answer);
std::optional<std::string> decodeBred(const std::string &text,
                                      std::string *why = nullptr);

/// An evaluating rank, as it introduces itself.
struct RankHello {
  std::string host;
  int64_t pid = 0;
  int workers = 1;
  /// modelFingerprint() of its unmodified module: it must be rank 0's.
  std::string unmodifiedKey;
  double baselineRunMs = 0;
};
std::string encodeHello(const RankHello &hello);
absl::StatusOr<RankHello> decodeHello(const std::string &text);

/// A measurement taken where the unmodified program runs in `ownRunMs`,
/// expressed against `referenceRunMs`: run times scaled by their ratio
/// (unchanged when either is 0).
void scaleRunTimes(Measurement &measurement, double referenceRunMs,
                   double ownRunMs);

} // namespace gevo

#endif // GEVO_MPI_MESSAGES_H
