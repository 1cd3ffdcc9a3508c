//===- interleaved_pass.h - Each variant by gevo-ml, then by the tools ----===//
//
// The throughput benchmark's interleaved pass: every random variant
// evaluated once as gevo-ml does (in-process edit, sandboxed lowering + JIT
// + one run, scored by the harness) and then once as a naive tool pipeline
// does (tool_pipeline.h), one variant at a time; the per-variant split of
// gevo-ml's time and whether both sides agree on each variant's accuracy.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_INTERLEAVED_PASS_H
#define GEVO_BENCH_INTERLEAVED_PASS_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/bench/tool_pipeline.h"
#include "gevo/eval/host_tensor.h"
#include "gevo/eval/sandbox.h"
#include "gevo/eval/variant_session.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/edit.h"
#include "gevo/search/variation.h"

namespace gevo {

/// The workload as both sides evaluate it: the session (one untimed-free
/// run per variant, equal work on both sides) and the validation data the
/// tool pipeline's program carries as constants.
struct ThroughputWorkload {
  WorkloadSpec spec;
  std::unique_ptr<EvaluationSession> session;
  DatasetSplit data;
  std::vector<HostTensor> arguments;
  std::string resultType;

  const Dataset &validation() const;
};

/// The workload at `path`, loaded for both sides.
absl::StatusOr<ThroughputWorkload>
openThroughputWorkload(const std::string &path);

/// What the interleaved pass measured, per side.
struct InterleavedFigures {
  std::vector<double> gevoMs, naiveMs, buildMs, lowerMs, codegenMs, runMs;
  int agree = 0, bothOk = 0, gevoOk = 0, naiveOk = 0;
  std::vector<std::string> disagreements;
};

/// How the tool side runs: the tools, where its files go, and which
/// variant's program to keep for a look (-1: none).
struct ToolSide {
  ToolPaths tools;
  std::string dir;
  int dumpVariant = -1;
};

/// Each variant evaluated by gevo-ml and then by the tool pipeline, one at
/// a time.
class InterleavedPass {
public:
  InterleavedPass(ThroughputWorkload &workload, const Variation &variation,
                  ToolSide toolSide);

  /// Variant `index` (from 0), the edits `edits`, measured both ways.
  void measure(int index, const std::vector<Edit> &edits);

  InterleavedFigures results;

private:
  Measurement gevoSide(const std::vector<Edit> &edits, std::string &text,
                       mlir::OwningOpRef<mlir::ModuleOp> &copy);
  NaiveResult toolSide(int index, const std::string &text,
                       mlir::ModuleOp variant);
  void compare(int index, const Measurement &m, const NaiveResult &naive);

  ThroughputWorkload &workload;
  const Variation &variation;
  ToolSide tool;
  SandboxPool one{1, SandboxLimits{20, int64_t(4) << 30}};
};

} // namespace gevo

#endif // GEVO_BENCH_INTERLEAVED_PASS_H
