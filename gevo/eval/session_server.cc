//===- session_server.cc - A session's children started by its fork server ===//
//
// EvaluationSession's side of fork_server.h: what a variant's child is sent
// (its RunRequest, field by field, and the module as bytecode, read into the
// server's copy of the session's context), and the front members the server
// compiles for head-to-head pairs (control messages), so that its children
// find them as children of the parent found the parent's.
//
//===----------------------------------------------------------------------===//

#include <cstring>

#include "gevo/eval/fork_server.h"
#include "gevo/eval/variant_session.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

namespace gevo {
namespace {

/// Fixed-width fields, bit for bit (a double comes back exactly).
struct Writer {
  std::string out;
  template <typename T> void field(const T &value) {
    out.append(reinterpret_cast<const char *>(&value), sizeof(value));
  }
  void field(const std::string &text) {
    field(static_cast<uint64_t>(text.size()));
    out += text;
  }
  template <typename T> void count(const std::vector<T> &items) {
    field(static_cast<uint64_t>(items.size()));
  }
};

struct Reader {
  llvm::StringRef in;
  bool ok = true;
  template <typename T> void field(T &value) {
    if (in.size() < sizeof(value)) {
      ok = false;
      return;
    }
    std::memcpy(&value, in.data(), sizeof(value));
    in = in.drop_front(sizeof(value));
  }
  void field(std::string &text) {
    uint64_t size = 0;
    field(size);
    if (!ok || in.size() < size) {
      ok = false;
      return;
    }
    text = in.take_front(size).str();
    in = in.drop_front(size);
  }
  template <typename T> void count(std::vector<T> &items) {
    uint64_t size = 0;
    field(size);
    if (!ok || size > in.size()) {
      ok = false;
      return;
    }
    items.resize(size);
  }
};

/// Every field of a RunRequest, in one order for both directions: a field
/// added to RunRequest or RacePlan must be added here.
template <typename IO, typename Request>
void requestFields(IO &io, Request &request) {
  io.field(request.scoreTest);
  io.field(request.interleavedPairs);
  auto &race = request.race;
  io.count(race.front);
  for (auto &point : race.front) {
    io.field(point.error);
    io.field(point.ratio);
    io.field(point.pairs);
    io.field(point.key);
    io.field(point.derived);
  }
  io.field(race.firstReadingMargin);
  io.field(race.band);
  io.field(race.pairNoise);
  io.field(race.confidenceZ);
  io.field(race.minPairs);
  io.field(race.minPairsDominated);
  io.field(race.referenceMs);
  io.field(race.unmodifiedError);
  io.field(race.maxError);
  io.field(race.runLimitRatio);
  io.field(race.minDerivingMs);
  io.field(race.dryRun);
  io.field(race.stopUndecided);
  io.field(race.evictShort);
  io.field(race.sharedBaselineNoise);
}

constexpr char kHold = 'H', kKeep = 'K';

} // namespace

void EvaluationSession::startForkServer() {
  if (!options.forkServer || options.target != kCpuTargetName)
    return;
  absl::StatusOr<std::unique_ptr<ForkServer>> started = ForkServer::start(
      [this](const std::string &bytes) { return runServedChild(bytes); },
      [this](const std::string &bytes) { return serveControl(bytes); });
  if (started.ok())
    server = std::move(*started);
}

absl::StatusOr<std::string>
EvaluationSession::serverRequest(mlir::ModuleOp variant,
                                 const RunRequest &request) const {
  Writer writer;
  requestFields(writer, request);
  if (!writeModuleBytecode(variant, writer.out))
    return absl::InternalError("the variant could not be written as bytecode");
  return std::move(writer.out);
}

std::string EvaluationSession::runServedChild(const std::string &bytes) {
  auto start = SteadyClock::now();
  Reader reader{bytes};
  RunRequest request;
  requestFields(reader, request);
  mlir::OwningOpRef<mlir::ModuleOp> variant;
  if (reader.ok)
    variant = readModuleBytecode(reader.in, *mlirContext);
  if (!variant) {
    // Nothing the parent can decode as a measurement: the child fails as
    // one that threw (sandbox.h), with the reason in its stderr.
    std::fputs("gevo fork server: the request does not read\n", stderr);
    std::fflush(stderr);
    _exit(3);
  }
  return runInChild(*variant, request, millisecondsSince(start));
}

absl::Status EvaluationSession::serveControl(const std::string &bytes) {
  Reader reader{bytes};
  char kind = 0;
  reader.field(kind);
  if (kind == kHold) {
    std::string key;
    reader.field(key);
    mlir::OwningOpRef<mlir::ModuleOp> member;
    if (reader.ok)
      member = readModuleBytecode(reader.in, *mlirContext);
    if (!member)
      return absl::InvalidArgumentError("a member that does not read");
    return holdOpponentHere(key, *member);
  }
  std::set<std::string> keys;
  uint64_t count = 0;
  reader.field(count);
  for (uint64_t i = 0; reader.ok && i < count; ++i) {
    std::string key;
    reader.field(key);
    keys.insert(std::move(key));
  }
  if (kind != kKeep || !reader.ok)
    return absl::InvalidArgumentError("a control message that does not read");
  keepOpponentsHere(keys);
  return absl::OkStatus();
}

absl::Status EvaluationSession::holdOpponent(const std::string &key,
                                             mlir::ModuleOp member) {
  if (!holdsOpponents() || key.empty() || holdsOpponent(key))
    return absl::OkStatus();
  if (!serving())
    return holdOpponentHere(key, member);
  Writer writer;
  writer.field(kHold);
  writer.field(key);
  if (!writeModuleBytecode(member, writer.out))
    return absl::InternalError("the member could not be written as bytecode");
  absl::Status held = server->control(writer.out);
  if (held.ok())
    served.insert(key);
  return held;
}

void EvaluationSession::keepOpponents(const std::set<std::string> &keys) {
  keepOpponentsHere(keys);
  if (!serving())
    return;
  // The server holds exactly `served`: tell it only when some must go.
  size_t before = served.size();
  for (auto it = served.begin(); it != served.end();)
    it = keys.count(*it) ? std::next(it) : served.erase(it);
  if (served.size() == before)
    return;
  Writer writer;
  writer.field(kKeep);
  writer.field(static_cast<uint64_t>(keys.size()));
  for (const std::string &key : keys)
    writer.field(key);
  server->control(writer.out).IgnoreError();
}

bool EvaluationSession::holdsOpponent(const std::string &key) const {
  if (serving())
    return served.count(key) > 0;
  return opponents.count(key) > 0;
}

} // namespace gevo
