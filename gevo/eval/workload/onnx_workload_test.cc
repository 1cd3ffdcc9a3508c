//===- onnx_workload_test.cc - Workloads that name an .onnx module --------===//
//
// A workload may name an ONNX model: the tools import it on load, with the
// rows of the split its first argument binds as the batch, and a binding's
// "shape" gives each CSV or IDX row as an image. Here a nearest-centroid
// classifier over the digits, written as ONNX taking NCHW [N, 1, 8, 8]
// (transposed inside, so the row order of a pixel matters), scores exactly as
// the same classifier computed here.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/eval/workload/workload_check.h"
#include "gevo/support/tool_paths.h"
#include "onnx/onnx_pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

/// Per class, its mean row over `rows` (64 pixels, row-major 8x8).
std::vector<std::vector<double>> centroids(const Dataset &rows) {
  std::vector<std::vector<double>> sums(10, std::vector<double>(64, 0.0));
  std::vector<int> counts(10, 0);
  for (int64_t r = 0; r < rows.size(); ++r) {
    ++counts[rows.labels[r]];
    for (int p = 0; p < 64; ++p)
      sums[rows.labels[r]][p] += rows.features[r * 64 + p];
  }
  for (int c = 0; c < 10; ++c)
    for (double &v : sums[c])
      v /= counts[c];
  return sums;
}

void addTensor(onnx::GraphProto &graph, const std::string &name,
               std::vector<int64_t> dims, const std::vector<float> &values) {
  onnx::TensorProto *tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    tensor->add_dims(d);
  for (float v : values)
    tensor->add_float_data(v);
}

void addValue(onnx::ValueInfoProto *value, const std::string &name,
              std::vector<int64_t> dims) {
  value->set_name(name);
  auto *type = value->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  type->mutable_shape()->add_dim()->set_dim_param("N");
  for (int64_t d : dims)
    type->mutable_shape()->add_dim()->set_dim_value(d);
}

onnx::NodeProto *addNode(onnx::GraphProto &graph, const std::string &op,
                         std::vector<std::string> inputs,
                         const std::string &output) {
  onnx::NodeProto *node = graph.add_node();
  node->set_op_type(op);
  node->set_name(op);
  for (const std::string &input : inputs)
    node->add_input(input);
  node->add_output(output);
  return node;
}

/// logits = flatten(transpose(x, [0,1,3,2])) * W + b, where W and b make
/// each class's logit x.mu - |mu|^2 / 2 (the nearest centroid wins).
void writeModel(const std::vector<std::vector<double>> &mu) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.set_name("centroids");
  std::vector<float> w(64 * 10), b(10);
  for (int c = 0; c < 10; ++c) {
    double norm = 0;
    for (int r = 0; r < 8; ++r)
      for (int col = 0; col < 8; ++col) {
        double m = mu[c][r * 8 + col];
        w[(col * 8 + r) * 10 + c] = static_cast<float>(m); // transposed
        norm += m * m;
      }
    b[c] = static_cast<float>(-norm / 2);
  }
  addTensor(graph, "W", {64, 10}, w);
  addTensor(graph, "b", {10}, b);
  onnx::AttributeProto *perm =
      addNode(graph, "Transpose", {"x"}, "t")->add_attribute();
  perm->set_name("perm");
  perm->set_type(onnx::AttributeProto::INTS);
  for (int64_t p : {0, 1, 3, 2})
    perm->add_ints(p);
  addNode(graph, "Flatten", {"t"}, "f");
  addNode(graph, "MatMul", {"f", "W"}, "m");
  addNode(graph, "Add", {"m", "b"}, "logits");
  addValue(graph.add_input(), "x", {1, 8, 8});
  addValue(graph.add_output(), "logits", {10});
  std::ofstream(tempPath("centroids.onnx"), std::ios::binary)
      << model.SerializeAsString();
}

/// How many rows of `rows` the nearest centroid classifies right.
int64_t nearestCentroidCorrect(const Dataset &rows,
                               const std::vector<std::vector<double>> &mu) {
  int64_t correct = 0;
  for (int64_t r = 0; r < rows.size(); ++r) {
    int best = 0;
    double bestDistance = 1e300;
    for (int c = 0; c < 10; ++c) {
      double distance = 0;
      for (int p = 0; p < 64; ++p) {
        double d = rows.features[r * 64 + p] - mu[c][p];
        distance += d * d;
      }
      if (distance < bestDistance) {
        bestDistance = distance;
        best = c;
      }
    }
    correct += best == rows.labels[r];
  }
  return correct;
}

/// A spec over the digits' CSV (360 validation and `test` test rows)
/// naming centroids.onnx; `binding` is the eval features' binding.
WorkloadSpec writeSpec(const std::string &binding, int test = 360,
                       const std::string &extra = "") {
  std::string csv =
      std::filesystem::absolute(findRunfile("testdata/digits/digits.csv"))
          .string();
  std::ofstream(tempPath("workload.json")) << R"({
  "name": "digits_centroids_onnx",
  "module": "centroids.onnx",)" + extra + R"(
  "entry": "predict",
  "data": {"path": ")" + csv + R"(", "classes": 10,
           "split": {"seed": 20231018, "validation": 360, "test": )" +
                                                  std::to_string(test) + R"(}},
  "arguments": [)" + binding + R"(],
  "results": ["logits"],
  "timing": {"warmup": 0, "repeats": 1}
})";
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(tempPath("workload.json"));
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : WorkloadSpec();
}

constexpr const char kImageBinding[] =
    R"({"split": "eval", "field": "features", "shape": [1, 8, 8]})";

/// Writes the model from the training rows of the spec's split and returns
/// the data.
DatasetSplit prepare(const WorkloadSpec &spec,
                     std::vector<std::vector<double>> &mu) {
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(spec);
  EXPECT_TRUE(data.ok()) << data.status();
  if (!data.ok())
    return DatasetSplit();
  mu = centroids(data->train);
  writeModel(mu);
  return *data;
}

TEST(OnnxWorkloadTest, ImageRowsFromCsvScoreAsTheSameClassifierHere) {
  WorkloadSpec spec = writeSpec(kImageBinding);
  std::vector<std::vector<double>> mu;
  DatasetSplit data = prepare(spec, mu);
  absl::StatusOr<int64_t> batch = importBatch(spec, data);
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(*batch, 360);

  absl::StatusOr<std::string> check = checkWorkload(spec);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_THAT(*check, HasSubstr("@predict matches its 1 bindings"));

  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->source, "onnx");
  EXPECT_EQ(report->validation.correct,
            nearestCentroidCorrect(data.validation, mu));
  EXPECT_EQ(report->test.correct, nearestCentroidCorrect(data.test, mu));
  EXPECT_GT(report->validation.accuracy(), 0.85); // chance is 0.1
}

TEST(OnnxWorkloadTest, AShapeThatDoesNotHoldARowIsPointedAt) {
  WorkloadSpec spec = writeSpec(
      R"({"split": "eval", "field": "features", "shape": [1, 8, 9]})");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(spec);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("workload.json:7:56: error: at $.arguments[0].shape: "
                        "[1, 8, 9] holds 72 values a row, but the data's rows "
                        "have 64 features"));
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("[1, 8, 9]"));
}

TEST(OnnxWorkloadTest, FlatRowsForAnImageModelSayWhatToGive) {
  std::vector<std::vector<double>> mu;
  prepare(writeSpec(kImageBinding), mu);
  WorkloadSpec spec = writeSpec(R"({"split": "eval", "field": "features"})");
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("argument #0 is tensor<360x1x8x8xf32> but the workload "
                        "binds eval features as tensor<360x64xf32> (a "
                        "binding's \"shape\" gives each row's shape)"));
}

TEST(OnnxWorkloadTest, EvalSplitsOfTwoSizesNeedOneBatch) {
  std::vector<std::vector<double>> mu;
  prepare(writeSpec(kImageBinding), mu);
  WorkloadSpec spec = writeSpec(kImageBinding, 300);
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("workload.json:3:3: error: at $.module: the ONNX "
                        "model is imported once, with one batch, but the "
                        "validation and test splits that `eval` binds differ "
                        "in size (360 vs 300 rows)"));
  // "batch" makes the import; the module then takes 360 rows, which the 300
  // test rows do not fit.
  WorkloadSpec fixed = writeSpec(kImageBinding, 300, R"( "batch": 360,)");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(fixed);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*importBatch(fixed, *data), 360);
  absl::StatusOr<std::string> check = checkWorkload(fixed);
  ASSERT_FALSE(check.ok());
  EXPECT_THAT(std::string(check.status().message()),
              HasSubstr("@predict returns logits of static shape "
                        "tensor<360x10xf32>, but the validation and test "
                        "splits differ in size (360 vs 300)"));
}

TEST(OnnxWorkloadTest, BadShapesAndBatchesAreSpecErrors) {
  auto errorOf = [](const std::string &module, const std::string &binding,
                    const std::string &extra) {
    absl::StatusOr<WorkloadSpec> spec = parseWorkloadSpec(
        R"({"name": "w", "module": ")" + module + "\"," + extra +
            R"( "data": {"path": "d.csv", "split": {"seed": 1, "validation": 1, )"
            R"("test": 1}}, "arguments": [)" +
            binding + R"(], "results": ["logits"]})",
        "w.json");
    EXPECT_FALSE(spec.ok());
    return spec.ok() ? "" : std::string(spec.status().message());
  };
  EXPECT_THAT(
      errorOf("m.onnx", R"({"split": "eval", "field": "labels", "shape": [2]})",
              ""),
      HasSubstr("at $.arguments[0].shape: only a \"features\" binding takes a "
                "shape"));
  EXPECT_THAT(errorOf("m.onnx",
                      R"({"split": "eval", "field": "features", "shape": []})",
                      ""),
              HasSubstr("at $.arguments[0].shape: expected an array of "
                        "positive integers"));
  EXPECT_THAT(
      errorOf("m.onnx",
              R"({"split": "eval", "field": "features", "shape": [1, 0]})", ""),
      HasSubstr("at $.arguments[0].shape[1]: expected a positive integer"));
  EXPECT_THAT(errorOf("m.onnx",
                      R"({"split": "eval", "field": "features", "shape": )"
                      R"([65536, 65536, 2]})",
                      ""),
              HasSubstr("at $.arguments[0].shape[2]: expected a positive "
                        "integer, and at most 4294967296 values a row"));
  EXPECT_THAT(errorOf("m.mlir", R"({"split": "eval", "field": "features"})",
                      R"( "batch": 4,)"),
              HasSubstr("w.json:1:35: error: at $.batch: only an .onnx module "
                        "takes a batch"));
  EXPECT_THAT(errorOf("m.onnx", R"({"split": "eval", "field": "features"})",
                      R"( "batch": 0,)"),
              HasSubstr("at $.batch: expected an integer >= 1"));
}

TEST(OnnxWorkloadTest, AMissingModelIsOneLine) {
  WorkloadSpec spec = writeSpec(kImageBinding);
  spec.modulePath = tempPath("absent.onnx");
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_FALSE(report.ok());
  std::string message(report.status().message());
  EXPECT_THAT(message, HasSubstr("absent.onnx"));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

} // namespace
} // namespace gevo
