//===- bindings.cc - Data splits turned into the entry's argument tensors -===//

#include "gevo/eval/workload/bindings.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gevo {
namespace {

const Dataset &splitFor(const DatasetSplit &data, SplitRole role,
                        SplitRole evalSplit) {
  switch (role == SplitRole::Eval ? evalSplit : role) {
  case SplitRole::Train:
    return data.train;
  case SplitRole::Test:
    return data.test;
  default:
    return data.validation;
  }
}

/// [rows, features], or [rows, shape...] when the binding gives each row's
/// shape and it holds the row (loadWorkloadData checked it; a shape that
/// does not is left flat, for checkSignature to report).
std::vector<int64_t> featureShape(const Dataset &rows,
                                  const std::vector<int64_t> &rowShape) {
  int64_t values = 1;
  for (int64_t size : rowShape)
    values *= size;
  if (rowShape.empty() || values != rows.numFeatures)
    return {rows.size(), rows.numFeatures};
  std::vector<int64_t> shape = {rows.size()};
  shape.insert(shape.end(), rowShape.begin(), rowShape.end());
  return shape;
}

HostTensor makeTensor(const Dataset &rows, const ArgumentBinding &binding) {
  switch (binding.field) {
  case DataField::Features: {
    HostTensor tensor(ElementType::F32, featureShape(rows, binding.shape));
    std::copy(rows.features.begin(), rows.features.end(), tensor.as<float>());
    return tensor;
  }
  case DataField::Labels: {
    HostTensor tensor(ElementType::I32, {rows.size()});
    std::copy(rows.labels.begin(), rows.labels.end(), tensor.as<int32_t>());
    return tensor;
  }
  case DataField::LabelsOneHot: {
    HostTensor tensor(ElementType::F32, {rows.size(), rows.numClasses});
    for (int64_t i = 0; i < rows.size(); ++i)
      tensor.as<float>()[i * rows.numClasses + rows.labels[i]] = 1.0f;
    return tensor;
  }
  }
  return HostTensor();
}

} // namespace

std::vector<HostTensor> bindArguments(const WorkloadSpec &spec,
                                      const DatasetSplit &data,
                                      SplitRole evalSplit) {
  std::vector<HostTensor> tensors;
  for (const ArgumentBinding &binding : spec.arguments)
    tensors.push_back(
        makeTensor(splitFor(data, binding.split, evalSplit), binding));
  return tensors;
}

const Dataset &evalData(const DatasetSplit &data, SplitRole evalSplit) {
  return splitFor(data, SplitRole::Eval, evalSplit);
}

absl::StatusOr<ClassificationScore> scoreSplit(const DatasetSplit &data,
                                               SplitRole evalSplit,
                                               const HostTensor &logits) {
  const Dataset &split = evalData(data, evalSplit);
  return scoreLogits(logits, split.labels, split.numClasses);
}

absl::Status checkSignature(const WorkloadSpec &spec,
                            const EntrySignature &signature,
                            const std::vector<HostTensor> &arguments,
                            const DatasetSplit &data) {
  auto fail = [&](const std::string &message) {
    return absl::InvalidArgumentError(
        absl::StrCat(signature.location, ": error: @", signature.name, " ",
                     message, " (workload ", spec.specPath, ")"));
  };
  if (signature.arguments.size() != arguments.size())
    return fail(absl::StrCat("takes ", signature.arguments.size(),
                             " arguments but the workload binds ",
                             arguments.size()));
  for (size_t i = 0; i < arguments.size(); ++i)
    if (!arguments[i].matches(signature.arguments[i]))
      return fail(absl::StrCat(
          "argument #", i, " is ", signature.arguments[i].toString(),
          " but the workload binds ", toString(spec.arguments[i].split), " ",
          toString(spec.arguments[i].field), " as ", arguments[i].typeString(),
          spec.arguments[i].field == DataField::Features &&
                  signature.arguments[i].shape.size() > 2
              ? " (a binding's \"shape\" gives each row's shape)"
              : ""));
  if (signature.results.size() != spec.results.size())
    return fail(absl::StrCat("returns ", signature.results.size(),
                             " results but the workload describes ",
                             spec.results.size()));
  const TensorSpec &logits = signature.results[spec.logitsResult()];
  TensorSpec expected{logits.type,
                      {data.validation.size(), data.validation.numClasses}};
  if (logits.type != ElementType::F32 && logits.type != ElementType::F64)
    expected.type = ElementType::F32;
  if (data.validation.size() != data.test.size() && logits.shape.size() == 2 &&
      logits.shape[0] != TensorSpec::kDynamic)
    return fail(
        absl::StrCat("returns logits of static shape ", logits.toString(),
                     ", but the validation and test splits differ in size (",
                     data.validation.size(), " vs ", data.test.size(),
                     "): use a dynamic first dimension or equal splits"));
  if (!logits.accepts(expected.type, expected.shape))
    return fail(absl::StrCat("result #", spec.logitsResult(), " (logits) is ",
                             logits.toString(), ", expected ",
                             expected.toString()));
  return absl::OkStatus();
}

} // namespace gevo
