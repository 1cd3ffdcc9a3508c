//===- onnx_import_test.cc - The ONNX importer on the backend suite and bad
// input
//
// A CI-sized part of Debian's ONNX backend test suite (the bench
// //gevo/bench:onnx_conformance runs all of it) must import, compile and
// match the reference outputs; bad files are one-line errors naming what is
// wrong; the same file gives the same bytes.
//
//===----------------------------------------------------------------------===//

#include <filesystem>

#include "gevo/frontend/backend_test.h"
#include "gevo/frontend/onnx_import.h"
#include "gevo/support/file_io.h"
#include "onnx/onnx_pb.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

const char kSuite[] = "/usr/share/libonnx-testdata/data";

std::string suitePath(const std::string &test) {
  return std::string(kSuite) + "/" + test;
}

TEST(OnnxImportTest, BackendTestsOfEachFamilyMatchTheirReferences) {
  ASSERT_TRUE(std::filesystem::exists(kSuite))
      << "libonnx-testdata is not installed (bazel/setup.sh installs it)";
  const char *tests[] = {
      "node/test_gemm_all_attributes",
      "node/test_gemm_transposeA",
      "node/test_matmul_2d",
      "node/test_matmul_4d",
      "node/test_add_bcast",
      "node/test_relu",
      "node/test_sigmoid",
      "node/test_leakyrelu",
      "node/test_erf",
      "node/test_softmax_axis_1",
      "node/test_logsoftmax_default_axis",
      "node/test_conv_with_strides_and_asymmetric_padding",
      "node/test_conv_with_autopad_same",
      "node/test_maxpool_2d_ceil",
      "node/test_maxpool_2d_pads",
      "node/test_averagepool_2d_pads",
      "node/test_globalaveragepool",
      "node/test_flatten_axis0",
      "pytorch-operator/test_operator_view",
      "node/test_transpose_all_permutations_3",
      "node/test_concat_2d_axis_1",
      "pytorch-converted/test_ConstantPad2d",
      "node/test_unsqueeze_axis_3",
      "node/test_reduce_l2_keep_dims_random",
      "node/test_reduce_prod_keepdims_random",
      "node/test_pow_bcast_array",
      "pytorch-converted/test_BatchNorm2d_eval",
      "node/test_reduce_mean_keepdims_example",
      "node/test_layer_normalization_4d_axis1",
      "pytorch-converted/test_Conv2d_groups",
      "pytorch-converted/test_Linear",
      "pytorch-operator/test_operator_flatten",
      "simple/test_single_relu_model",
  };
  for (const char *test : tests) {
    SCOPED_TRACE(test);
    if (!std::filesystem::exists(suitePath(test) + "/model.onnx")) {
      ADD_FAILURE() << "missing from the suite";
      continue;
    }
    BackendTestResult result = runBackendTest(suitePath(test));
    EXPECT_EQ(toString(result.kind), std::string("passed")) << result.detail;
  }
}

TEST(OnnxImportTest, TheSameFileGivesTheSameBytesWithNodeLocations) {
  std::string path =
      suitePath("node/test_conv_with_strides_padding/model.onnx");
  absl::StatusOr<std::string> first = importOnnxFile(path, {});
  absl::StatusOr<std::string> second = importOnnxFile(path, {});
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_NE(first->find("linalg.conv_2d_nchw_fchw"), std::string::npos);
  EXPECT_NE(first->find("func.func @main("), std::string::npos);
  EXPECT_NE(first->find("loc(\""), std::string::npos);
  EXPECT_GE(supportedOnnxOpCount(), 45u);
}

onnx::ModelProto twoNodeModel(const std::string &firstInput,
                              const std::string &opType = "Relu") {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto *graph = model.mutable_graph();
  onnx::ValueInfoProto *input = graph->add_input();
  input->set_name("x");
  onnx::TypeProto::Tensor *type = input->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  type->mutable_shape()->add_dim()->set_dim_value(4);
  onnx::NodeProto *a = graph->add_node();
  a->set_name("first");
  a->set_op_type(opType);
  a->add_input(firstInput);
  a->add_output("a");
  onnx::NodeProto *b = graph->add_node();
  b->set_name("second");
  b->set_op_type("Relu");
  b->add_input("a");
  b->add_output("b");
  graph->add_output()->set_name("b");
  return model;
}

std::string importError(const std::string &bytes) {
  absl::StatusOr<std::string> text = importOnnx(bytes, "m.onnx", {});
  EXPECT_FALSE(text.ok());
  if (text.ok())
    return "";
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  std::string message(text.status().message());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

TEST(OnnxImportTest, BadModelsAreOneLineErrorsNamingTheProblem) {
  std::string good = twoNodeModel("x").SerializeAsString();
  ASSERT_TRUE(importOnnx(good, "m.onnx", {}).ok());
  EXPECT_NE(importError(good.substr(0, good.size() / 2)).find("m.onnx: "),
            std::string::npos);
  EXPECT_NE(importError("this is not a protobuf").find("not an ONNX model"),
            std::string::npos);
  EXPECT_NE(importError(twoNodeModel("b").SerializeAsString()).find("cycle"),
            std::string::npos);
  std::string undefined = importError(twoNodeModel("y").SerializeAsString());
  EXPECT_NE(undefined.find("'y', which nothing defines"), std::string::npos)
      << undefined;
  std::string unsupported =
      importError(twoNodeModel("x", "NonMaxSuppression").SerializeAsString());
  EXPECT_NE(unsupported.find("node 'first' (NonMaxSuppression, opset 13): "
                             "unsupported ONNX op"),
            std::string::npos)
      << unsupported;
}

void addInts(onnx::GraphProto *graph, const std::string &name,
             std::vector<int64_t> values) {
  onnx::TensorProto *tensor = graph->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::INT64);
  tensor->add_dims(values.size());
  for (int64_t value : values)
    tensor->add_int64_data(value);
}

TEST(OnnxImportTest, SliceAndPadTakeTheirBoundsFromInitializers) {
  onnx::ModelProto model = twoNodeModel("x", "Slice");
  onnx::NodeProto *slice = model.mutable_graph()->mutable_node(0);
  for (const char *name : {"starts", "ends", "axes", "steps"})
    slice->add_input(name);
  addInts(model.mutable_graph(), "starts", {-3});
  addInts(model.mutable_graph(), "ends", {100});
  addInts(model.mutable_graph(), "axes", {0});
  addInts(model.mutable_graph(), "steps", {2});
  absl::StatusOr<std::string> text =
      importOnnx(model.SerializeAsString(), "m.onnx", {});
  ASSERT_TRUE(text.ok()) << text.status();
  // Elements 1 and 3 of 4: start -3 is 1, end 100 clamps to 4, step 2.
  EXPECT_NE(text->find("tensor.extract_slice %arg0[1] [2] [2] : "
                       "tensor<4xf32> to tensor<2xf32>"),
            std::string::npos)
      << *text;

  model = twoNodeModel("x", "Pad");
  model.mutable_graph()->mutable_node(0)->add_input("pads");
  addInts(model.mutable_graph(), "pads", {1, 2});
  text = importOnnx(model.SerializeAsString(), "m.onnx", {});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("tensor.pad %arg0 low[1] high[2]"), std::string::npos)
      << *text;
  EXPECT_NE(text->find("tensor<4xf32> to tensor<7xf32>"), std::string::npos);
}

TEST(OnnxImportTest, AMissingExternalDataFileIsAnError) {
  onnx::ModelProto model = twoNodeModel("x", "Add");
  model.mutable_graph()->mutable_node(0)->add_input("w");
  onnx::TensorProto *w = model.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(4);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  onnx::StringStringEntryProto *location = w->add_external_data();
  location->set_key("location");
  location->set_value("weights_that_are_not_there.bin");
  std::string message = importError(model.SerializeAsString());
  EXPECT_NE(message.find("weights_that_are_not_there.bin"), std::string::npos)
      << message;
}

} // namespace
} // namespace gevo
