//===- rank_setup.cc - What an evaluating rank opens its workbench with ---===//

#include "gevo/mpi/rank_setup.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/evaluation_options_json.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

std::string encodeRankSetup(const RankSetup &setup) {
  const WorkbenchOptions &o = setup.options;
  llvm::json::Object object{
      {"workload", setup.workloadPath},
      {"workers", o.workers},
      {"timeout_s", o.timeoutSeconds},
      {"memory_bytes", o.memoryBytes},
  };
  writeEvaluationOptions(o.evaluation, object);
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
  auto workers = o ? o->getInteger("workers") : std::nullopt;
  auto timeout = o ? o->getNumber("timeout_s") : std::nullopt;
  auto memory = o ? o->getInteger("memory_bytes") : std::nullopt;
  if (!workload || !workers || !timeout || !memory)
    return absl::InvalidArgumentError("rank 0's setup: a field is missing");
  RankSetup setup;
  setup.workloadPath = workload->str();
  WorkbenchOptions &options = setup.options;
  if (absl::Status read =
          readEvaluationOptions(*o, options.evaluation, /*strict=*/true);
      !read.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("rank 0's setup: ", read.message()));
  options.workers = static_cast<int>(*workers);
  options.timeoutSeconds = *timeout;
  options.memoryBytes = *memory;
  return setup;
}

} // namespace gevo
