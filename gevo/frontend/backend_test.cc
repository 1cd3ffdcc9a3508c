//===- backend_test.cc - Run one test of the ONNX backend test suite ------===//

#include "gevo/frontend/backend_test.h"

#include <cmath>
#include <filesystem>
#include <set>

#include "absl/strings/str_cat.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/target.h"
#include "gevo/frontend/import_state.h"
#include "gevo/frontend/onnx_import.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {
namespace {

namespace fs = std::filesystem;
using Kind = BackendTestResult::Kind;

absl::StatusOr<TensorValue> readTensorFile(const fs::path &path) {
  GEVO_ASSIGN_OR_RETURN(std::string bytes, readFile(path.string(), "tensor"));
  onnx::TensorProto tensor;
  if (!tensor.ParseFromString(bytes))
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), ": not a TensorProto"));
  return decodeTensor(tensor, path.parent_path().string());
}

/// The files `prefix`_0.pb, _1.pb, ... of a data set, read in order.
absl::StatusOr<std::vector<TensorValue>> readSet(const fs::path &set,
                                                 const std::string &prefix) {
  std::vector<TensorValue> tensors;
  for (int i = 0;; ++i) {
    fs::path file = set / absl::StrCat(prefix, "_", i, ".pb");
    if (!fs::exists(file))
      return tensors;
    GEVO_ASSIGN_OR_RETURN(TensorValue tensor, readTensorFile(file));
    tensors.push_back(std::move(tensor));
  }
}

HostTensor toHost(const TensorValue &value) {
  HostTensor host(ElementType::F32, value.shape);
  if (value.floats)
    std::copy(value.floats->begin(), value.floats->end(), host.as<float>());
  return host;
}

/// Compares one output; the largest error goes into `maxError`.
bool matches(const HostTensor &got, const TensorValue &want,
             const Tolerance &tolerance, double &maxError) {
  if (!want.floats || got.shape != want.shape)
    return false;
  bool ok = true;
  const float *values = got.as<float>();
  for (size_t i = 0; i < want.floats->size(); ++i) {
    double a = values[i], b = (*want.floats)[i];
    if (std::isnan(a) && std::isnan(b))
      continue;
    if (std::isinf(a) || std::isinf(b)) {
      ok = ok && a == b;
      continue;
    }
    double error = std::fabs(a - b);
    maxError = std::max(maxError, error);
    ok = ok && error <= tolerance.absolute + tolerance.relative * std::fabs(b);
  }
  return ok;
}

std::vector<std::string> opTypesOf(const std::string &bytes) {
  onnx::ModelProto model;
  std::set<std::string> types;
  if (model.ParseFromString(bytes))
    for (const onnx::NodeProto &node : model.graph().node())
      types.insert(node.op_type());
  return {types.begin(), types.end()};
}

/// The imported module compiled through the evaluator's CPU Target (the
/// context outlives the target, whose lowering holds passes of it).
struct CompiledImport {
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Target> target;
  std::unique_ptr<CompiledVariant> variant;
};

/// Errors are the pipeline's: a module that imports but does not lower or
/// compile is a failure.
absl::StatusOr<CompiledImport> compileImported(const std::string &text,
                                               const std::string &name) {
  CompiledImport compiled;
  GEVO_ASSIGN_OR_RETURN(compiled.target, makeTarget(EvaluationOptions()));
  GEVO_RETURN_IF_ERROR(compiled.target->start());
  compiled.context = createContext();
  GEVO_RETURN_IF_ERROR(compiled.target->prepare(*compiled.context));
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(*compiled.context, text, name));
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, "main"));
  GEVO_RETURN_IF_ERROR(compiled.target->lower(*module, "main", nullptr));
  GEVO_ASSIGN_OR_RETURN(compiled.variant,
                        compiled.target->compile(*module, signature));
  return compiled;
}

/// One run of the compiled module on `inputs`; its results.
absl::StatusOr<std::vector<HostTensor>>
runOnce(const CompiledImport &compiled, const std::vector<HostTensor> &inputs) {
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> placed,
                        compiled.target->place(inputs));
  GEVO_ASSIGN_OR_RETURN(TimedRun run, compiled.variant->run(*placed));
  return std::move(run.results);
}

} // namespace

BackendTestResult runBackendTest(const std::string &directory,
                                 const Tolerance &tolerance) {
  BackendTestResult result;
  fs::path root(directory);
  absl::StatusOr<std::string> bytes =
      readFile((root / "model.onnx").string(), "ONNX model");
  if (!bytes.ok()) {
    result.detail = std::string(bytes.status().message());
    return result;
  }
  result.opTypes = opTypesOf(*bytes);
  absl::StatusOr<std::string> text =
      importOnnx(*bytes, (root / "model.onnx").string(), {});
  if (!text.ok()) {
    result.kind = Kind::OutOfScope;
    result.detail = std::string(text.status().message());
    return result;
  }
  absl::StatusOr<CompiledImport> compiled =
      compileImported(*text, root.string());
  if (!compiled.ok()) {
    result.detail = std::string(compiled.status().message());
    return result;
  }
  bool ok = true;
  for (int set = 0; fs::exists(root / absl::StrCat("test_data_set_", set));
       ++set) {
    fs::path folder = root / absl::StrCat("test_data_set_", set);
    absl::StatusOr<std::vector<TensorValue>> inputs = readSet(folder, "input");
    absl::StatusOr<std::vector<TensorValue>> outputs =
        readSet(folder, "output");
    if (!inputs.ok() || !outputs.ok()) {
      result.detail = std::string(
          (!inputs.ok() ? inputs.status() : outputs.status()).message());
      return result;
    }
    std::vector<HostTensor> hosts;
    for (const TensorValue &input : *inputs)
      hosts.push_back(toHost(input));
    absl::StatusOr<std::vector<HostTensor>> got = runOnce(*compiled, hosts);
    if (!got.ok() || got->size() != outputs->size()) {
      result.detail = got.ok() ? "another number of outputs"
                               : std::string(got.status().message());
      return result;
    }
    for (size_t i = 0; i < outputs->size(); ++i)
      ok = matches((*got)[i], (*outputs)[i], tolerance, result.maxError) && ok;
  }
  result.kind = ok ? Kind::Passed : Kind::Failed;
  if (!ok)
    result.detail = absl::StrCat("largest error ", result.maxError);
  return result;
}

const char *toString(BackendTestResult::Kind kind) {
  switch (kind) {
  case Kind::Passed:
    return "passed";
  case Kind::Failed:
    return "failed";
  case Kind::OutOfScope:
    return "out of scope";
  }
  return "?";
}

} // namespace gevo
