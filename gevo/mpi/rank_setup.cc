//===- rank_setup.cc - What an evaluating rank opens its workbench with ---===//

#include "gevo/mpi/rank_setup.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/evaluator.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

std::string encodeRankSetup(const RankSetup &setup) {
  llvm::json::Object object{{"workload", setup.workloadPath}};
  writeSettings(workbenchSettings(), setup.options, object);
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
  const llvm::json::Object *object = value->getAsObject();
  auto workload = object ? object->getString("workload") : std::nullopt;
  if (!workload)
    return absl::InvalidArgumentError("rank 0's setup: a field is missing");
  RankSetup setup;
  setup.workloadPath = workload->str();
  if (absl::Status read = readSettings(workbenchSettings(), *object,
                                       setup.options, /*strict=*/true);
      !read.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("rank 0's setup: ", read.message()));
  if (!object->get("target"))
    setup.options.evaluation.target = "cpu";
  if (absl::Status target = checkTarget(setup.options.evaluation.target);
      !target.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("rank 0's setup: ", target.message()));
  return setup;
}

} // namespace gevo
