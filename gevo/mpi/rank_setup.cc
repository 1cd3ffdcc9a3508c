//===- rank_setup.cc - What an evaluating rank opens its workbench with ---===//

#include "gevo/mpi/rank_setup.h"

#include "absl/strings/str_cat.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

std::string encodeRankSetup(const RankSetup &setup) {
  const WorkbenchOptions &o = setup.options;
  llvm::json::Object object{
      {"workload", setup.workloadPath},
      {"pipeline", o.evaluation.pipeline},
      {"llvm_pipeline", o.evaluation.codegen.llvmPipeline},
      {"opt_level", o.evaluation.codegen.optLevel},
      {"warmup", o.evaluation.warmup},
      {"repeats", o.evaluation.repeats},
      {"workers", o.workers},
      {"timeout_s", o.timeoutSeconds},
      {"memory_bytes", o.memoryBytes},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  os.flush();
  return text;
}

absl::StatusOr<RankSetup> decodeRankSetup(const std::string &text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return absl::InvalidArgumentError(
        absl::StrCat("rank 0's setup: ", llvm::toString(value.takeError())));
  const llvm::json::Object *o = value->getAsObject();
  auto workload = o ? o->getString("workload") : std::nullopt;
  auto pipeline = o ? o->getString("pipeline") : std::nullopt;
  auto llvmPipeline = o ? o->getString("llvm_pipeline") : std::nullopt;
  auto optLevel = o ? o->getInteger("opt_level") : std::nullopt;
  auto warmup = o ? o->getInteger("warmup") : std::nullopt;
  auto repeats = o ? o->getInteger("repeats") : std::nullopt;
  auto workers = o ? o->getInteger("workers") : std::nullopt;
  auto timeout = o ? o->getNumber("timeout_s") : std::nullopt;
  auto memory = o ? o->getInteger("memory_bytes") : std::nullopt;
  if (!workload || !pipeline || !llvmPipeline || !optLevel || !warmup ||
      !repeats || !workers || !timeout || !memory)
    return absl::InvalidArgumentError("rank 0's setup: a field is missing");
  RankSetup setup;
  setup.workloadPath = workload->str();
  WorkbenchOptions &options = setup.options;
  options.evaluation.pipeline = pipeline->str();
  options.evaluation.codegen.llvmPipeline = llvmPipeline->str();
  options.evaluation.codegen.optLevel = static_cast<int>(*optLevel);
  options.evaluation.warmup = static_cast<int>(*warmup);
  options.evaluation.repeats = static_cast<int>(*repeats);
  options.workers = static_cast<int>(*workers);
  options.timeoutSeconds = *timeout;
  options.memoryBytes = *memory;
  return setup;
}

} // namespace gevo
