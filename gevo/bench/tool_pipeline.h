//===- tool_pipeline.h - A variant run as mlir-opt | mlir-runner -*- C++
//-*-===//
//
// The throughput benchmark's reference: a variant evaluated as a naive tool
// pipeline would, printed with its data as constants and a wrapper that
// prints the logits, lowered by `mlir-opt` and run by `mlir-runner`, its
// printed logits scored by the same harness.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_TOOL_PIPELINE_H
#define GEVO_BENCH_TOOL_PIPELINE_H

#include <string>
#include <vector>

#include "gevo/eval/host_tensor.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"

namespace gevo {

struct ToolPaths {
  std::string mlirOpt, mlirRunner;
};

/// The variant with a no-argument entry that builds the data as constants,
/// calls the workload's entry and prints the logits.
std::string naiveProgram(const std::string &variantText,
                         const WorkloadSpec &spec,
                         const std::vector<HostTensor> &arguments,
                         const std::string &resultType);

struct NaiveResult {
  bool ok = false;
  double ms = 0;
  double accuracy = 0;
};

/// Writes `program` under `dir`, runs it through the tools with `pipeline`
/// and scores what it prints against `validation`; `ms` is the wall time.
NaiveResult runNaive(const ToolPaths &tools, const std::string &program,
                     const std::string &dir, const std::string &pipeline,
                     const Dataset &validation);

} // namespace gevo

#endif // GEVO_BENCH_TOOL_PIPELINE_H
