//===- workload_data.h - The `data` object of a workload spec -------------===//
//
// Parses `$.data` (one file and a seeded split, or a file and row range per
// split; feature scaling). Internal to the workload parser; loading is
// loadWorkloadData in workload.h.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_WORKLOAD_DATA_H
#define GEVO_EVAL_WORKLOAD_DATA_H

#include "absl/status/status.h"
#include "gevo/eval/spec_reader.h"
#include "gevo/eval/workload.h"

namespace gevo {

absl::Status parseDataSource(const SpecReader &reader,
                             const llvm::json::Value *value, DataSource &data);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_DATA_H
