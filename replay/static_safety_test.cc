//===- static_safety_test.cc - Replay refuses what it cannot prove safe ---===//
//
// Issue #33's hand-written patches on the shipped workloads: each is an error
// naming its line (out-of-bounds reads, loop bounds past the data, a step of
// 0, a loop of 2^63-1 trips, a write into the caller's input, a new call to
// an external function); the same edits kept in bounds still apply; edits on
// dynamic shapes apply as unproven; the shipped models have no finding, and
// random mutations never add one the check refuses.
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <random>
#include <sstream>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/static_safety.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "replay/parsing_fixture.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kPredict[] = "testdata/digits_mlp_predict/model.mlir";
constexpr char kTrain[] = "testdata/digits_mlp_train/model.mlir";
constexpr char kPredictModel[] = "model cde60b2ac6f8466a\n";
constexpr char kTrainModel[] = "model 925d89644e457032\n";

// A declared (external) function, called once, and a function it is not
// called from.
constexpr char kExternalCall[] = R"mlir(
func.func private @host_log(i64)
func.func @scale(%v: tensor<4xf32>) -> tensor<4xf32> {
  return %v : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %code = arith.constant 1 : i64
  func.call @host_log(%code) : (i64) -> ()
  %y = func.call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir";

// Indices converted from floats: an element of a constant (WEIGHTS), of a
// fill, of a linalg.generic's constant input, or of the caller's tensor.
constexpr char kConverted[] = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<360x64xf32>) -> (f32, f32, f32, tensor<3xf32>) {
  %w = arith.constant WEIGHTS : tensor<3xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %w[%c2] : tensor<3xf32>
  %i = arith.fptosi %e : f32 to i64
  %j = arith.index_cast %i : i64 to index
  %a = tensor.extract %x[%j, %c0] : tensor<360x64xf32>
  %half = arith.constant 2.5 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %fill = linalg.fill ins(%half : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %f = tensor.extract %fill[%c0] : tensor<8xf32>
  %fi = arith.fptosi %f : f32 to i32
  %fj = arith.index_cast %fi : i32 to index
  %b = tensor.extract %x[%c0, %fj] : tensor<360x64xf32>
  %data = tensor.extract %x[%c0, %c0] : tensor<360x64xf32>
  %di = arith.fptosi %data : f32 to i64
  %dj = arith.index_cast %di : i64 to index
  %c = tensor.extract %x[%c0, DATA_INDEX] : tensor<360x64xf32>
  %out = tensor.empty() : tensor<3xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<3xf32>) outs(%out : tensor<3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %k = arith.fptosi %in : f32 to i64
    %kk = arith.index_cast %k : i64 to index
    %v = tensor.extract %x[%kk, %c0] : tensor<360x64xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %a, %b, %c, %g : f32, f32, f32, tensor<3xf32>
}
)mlir";

// Reads, writes and a loop whose results nothing uses, or the caller gets.
constexpr char kDead[] = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<8xf32>) -> RESULT_TYPE {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %past = tensor.extract %x[%c9] : tensor<8xf32>
  %write = linalg.fill ins(%zero : f32) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  %loop = scf.for %i = %c0 to %c9 step %c0 iter_args(%acc = %zero) -> (f32) {
    %s = arith.addf %acc, %zero : f32
    scf.yield %s : f32
  }
  return RESULT : RESULT_TYPE
}
)mlir";

// A loop over a dynamic number of rows, up to a caller's scalar.
constexpr char kDynamic[] = R"mlir(
func.func @main(%x: tensor<?x4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = tensor.extract %x[%i, %c3] : tensor<?x4xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %sum : f32
}
)mlir";

class StaticSafetyTest : public ParsingFixture<> {
protected:
  /// Applies `edits` (header added) to `source` with the error policy.
  absl::StatusOr<ApplyReport> apply(const std::string &source,
                                    const std::string &model,
                                    const std::string &edits,
                                    const SafetyOptions &safety = {}) {
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(source);
    absl::StatusOr<Patch> patch =
        parsePatch("gevo-patch 1\n" + model + edits, "p.gevo");
    if (!patch.ok())
      return patch.status();
    return applyPatch(*module, *patch, "p.gevo", OnMismatch::Error,
                      kDefaultMaxFuzz, safety);
  }

  /// The error of `edits` on the training workload.
  std::string trainError(const std::string &edits) {
    absl::StatusOr<ApplyReport> report =
        apply(readRunfile(kTrain), kTrainModel, edits);
    EXPECT_FALSE(report.ok()) << edits;
    return report.ok() ? "" : std::string(report.status().message());
  }
};

TEST_F(StaticSafetyTest, ShippedModelsHaveNoFinding) {
  for (const char *path : {kPredict, kTrain}) {
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(readRunfile(path));
    EXPECT_THAT(findSafetyProblems(*module, SafetyOptions()),
                ::testing::IsEmpty())
        << path;
  }
}

TEST_F(StaticSafetyTest, ReadPastTheInputIsRefusedAtItsLine) {
  const std::string rewire = "operand @main/linalg.fill#0~72b98bd2 ; "
                             "@main/linalg.fill#0~72b98bd2[0] <- @main^0 "
                             "via extract\n";
  for (const char *index : {"361", "100000000"}) {
    absl::StatusOr<ApplyReport> report = apply(
        readRunfile(kPredict), kPredictModel,
        rewire + "constant @main/arith.constant#8~3a8d3f45 = " + index + "\n");
    ASSERT_FALSE(report.ok()) << index;
    std::string message(report.status().message());
    EXPECT_THAT(message, StartsWith("p.gevo:4: error: edit 2 (constant"));
    EXPECT_THAT(message, HasSubstr("@main/tensor.extract#0"));
    EXPECT_THAT(message, HasSubstr(std::string("index 0 is in [") + index));
    EXPECT_THAT(message, HasSubstr("outside [0, 359] of tensor<360x64xf32>"));
  }
  // x[63, 63] is inside the 360x64 input.
  absl::StatusOr<ApplyReport> inside =
      apply(readRunfile(kPredict), kPredictModel,
            rewire + "constant @main/arith.constant#8~3a8d3f45 = 63\n");
  ASSERT_TRUE(inside.ok()) << inside.status();
  EXPECT_EQ(inside->unprovenEdits(), 0);
}

TEST_F(StaticSafetyTest, TrainingLoopBoundsPastTheDataAreRefused) {
  // The batch count (33) or the batch size (32) raised to 40 reads rows past
  // the 1077 of train_x; 0 moved to -32 starts before row 0; the batch size
  // -32 reads rows -1024 ... 0.
  for (const char *edit : {"constant @main/arith.constant#6~19fcc208 = 40",
                           "constant @main/arith.constant#4~2467593c = 40",
                           "constant @main/arith.constant#2~3a8d3f45 = -32",
                           "constant @main/arith.constant#4~2467593c = -32"}) {
    std::string message = trainError(std::string(edit) + "\n");
    EXPECT_THAT(message, StartsWith("p.gevo:3: error: edit 1 (constant"));
    EXPECT_THAT(message, HasSubstr("@main/tensor.extract_slice#0"));
    EXPECT_THAT(message, HasSubstr("of tensor<1077x64xf32>"));
  }
}

TEST_F(StaticSafetyTest, StepZeroAndEndlessLoopsAreRefused) {
  std::string step =
      trainError("constant @main/arith.constant#3~5b471f57 = 0\n");
  EXPECT_THAT(step, StartsWith("p.gevo:3: error:"));
  EXPECT_THAT(step, HasSubstr("the step is in [0, 0]"));
  std::string trips = trainError(
      "constant @main/arith.constant#5~23e58424 = 9223372036854775807\n");
  EXPECT_THAT(trips, StartsWith("p.gevo:3: error:"));
  EXPECT_THAT(trips, HasSubstr("@main/scf.for#0"));
  EXPECT_THAT(trips, HasSubstr("more than the limit of 16777216"));
  // A raised limit lets 2^30 epochs through.
  SafetyOptions raised;
  raised.maxLoopIterations = int64_t(1) << 40;
  EXPECT_TRUE(apply(readRunfile(kTrain), kTrainModel,
                    "constant @main/arith.constant#5~23e58424 = 1073741824\n",
                    raised)
                  .ok());
}

TEST_F(StaticSafetyTest, TrainingEditsThatStayInBoundsApply) {
  // 40 epochs, 20 batches, batches of 30 rows, no batch or no epoch at all.
  for (const char *edit : {"constant @main/arith.constant#5~23e58424 = 40",
                           "constant @main/arith.constant#6~19fcc208 = 20",
                           "constant @main/arith.constant#4~2467593c = 30",
                           "constant @main/arith.constant#6~19fcc208 = -32",
                           "constant @main/arith.constant#5~23e58424 = -32"}) {
    absl::StatusOr<ApplyReport> report =
        apply(readRunfile(kTrain), kTrainModel, std::string(edit) + "\n");
    ASSERT_TRUE(report.ok()) << edit << ": " << report.status();
    EXPECT_EQ(report->unprovenEdits(), 0) << edit;
  }
}

TEST_F(StaticSafetyTest, WriteIntoTheCallersInputIsRefused) {
  absl::StatusOr<ApplyReport> report =
      apply(readRunfile(kPredict), kPredictModel,
            "operand @main/linalg.generic#0~947b5831 ; "
            "@main/linalg.generic#0~947b5831[1] <- @main^0\n");
  ASSERT_FALSE(report.ok());
  std::string message(report.status().message());
  EXPECT_THAT(message, StartsWith("p.gevo:3: error:"));
  EXPECT_THAT(message, HasSubstr("operand 1 writes into argument 0 of @main"));
}

TEST_F(StaticSafetyTest, NewCallsToExternalFunctionsNeedTheFlag) {
  const std::string copy = "copy @main/func.call#0~cd1dc355 before "
                           "@scale/func.return#0~f365b8d7 ; new[0] <- "
                           "const(7)\n";
  const std::string model = "model baeb524b75be0cfe\n";
  absl::StatusOr<ApplyReport> refused = apply(kExternalCall, model, copy);
  ASSERT_FALSE(refused.ok());
  std::string message(refused.status().message());
  EXPECT_THAT(message, StartsWith("p.gevo:3: error:"));
  EXPECT_THAT(message,
              HasSubstr("calls @host_log, a function declared without a body"));
  SafetyOptions allowed;
  allowed.allowExternalCalls = true;
  EXPECT_TRUE(apply(kExternalCall, model, copy, allowed).ok());
  // A copied call to a function with a body is no new external call.
  EXPECT_TRUE(apply(kExternalCall, model,
                    "copy @main/func.call#1~8f991322 before "
                    "@main/func.return#0~e4de1f01\n")
                  .ok());
}

TEST_F(StaticSafetyTest, DynamicShapesApplyUnproven) {
  const std::string model = "model ee238105d9341c4e\n";
  // A step of 2 up to a caller's %n: the trip count is the caller's.
  absl::StatusOr<ApplyReport> report =
      apply(kDynamic, model, "constant @main/arith.constant#1~5b471f57 = 2\n");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->unprovenEdits(), 1);
  EXPECT_THAT(report->summary("p.gevo"),
              HasSubstr("p.gevo:3: warning: unproven: @main/scf.for#0"));
  EXPECT_THAT(report->summary("p.gevo"), HasSubstr("1 unproven"));
  // The static column is still checked: column 4 of a ?x4 tensor is not.
  absl::StatusOr<ApplyReport> column =
      apply(kDynamic, model, "constant @main/arith.constant#2~52bcc46a = 4\n");
  ASSERT_FALSE(column.ok());
  EXPECT_THAT(std::string(column.status().message()),
              HasSubstr("index 1 is in [4, 4], outside [0, 3]"));
}

/// `text` with each `from` replaced by `to`.
std::string with(std::string text, const std::string &from,
                 const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::vector<std::string> messagesOf(mlir::ModuleOp module) {
  std::vector<std::string> messages;
  for (const SafetyFinding &finding : findSafetyProblems(module, {}))
    messages.push_back(finding.message);
  return messages;
}

TEST_F(StaticSafetyTest, IndicesConvertedFromConstantsAreBounded) {
  // 2.9 -> 2, 2.5 -> 2 and every weight converted stay inside 360x64.
  std::string safe = with(with(kConverted, "WEIGHTS", "dense<[0.5, 1.9, 2.9]>"),
                          "DATA_INDEX", "%c2");
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(safe);
  ASSERT_TRUE(module);
  EXPECT_THAT(messagesOf(*module), ::testing::IsEmpty());
  // A weight of 400.5 reaches row 400, both as the extracted element and as
  // the generic's input: the range is every element's, not unbounded.
  module = parse(with(safe, "2.9]", "400.5]"));
  ASSERT_TRUE(module);
  EXPECT_THAT(
      messagesOf(*module),
      ::testing::ElementsAre("index 0 is in [0, 400], outside [0, 359] of "
                             "tensor<360x64xf32>",
                             "index 0 is in [0, 400], outside [0, 359] of "
                             "tensor<360x64xf32>"));
  // NaN converts to poison: nothing bounds it.
  module = parse(with(safe, "2.9]", "0x7FC00000]"));
  ASSERT_TRUE(module);
  EXPECT_THAT(messagesOf(*module),
              ::testing::Contains(StartsWith("index 0 is in unbounded")));
  // An index from the caller's data stays refused, and says where from.
  module = parse(with(safe, "[%c0, %c2]", "[%c0, %dj]"));
  ASSERT_TRUE(module);
  std::vector<SafetyFinding> found = findSafetyProblems(*module, {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].level, SafetyFinding::Level::Unsafe);
  EXPECT_EQ(found[0].message,
            "index 1 is in unbounded, outside [0, 63] of tensor<360x64xf32>; "
            "it is computed from the caller's argument 0 of @main");
}

TEST_F(StaticSafetyTest, WhatNothingUsesIsNotChecked) {
  // Unused, the read past the end, the write into %x and the step-0 loop
  // are removed before anything runs.
  auto returning = [&](const std::string &values, const std::string &types,
                       const std::string &signature) {
    return parse(
        with(with(kDead, "RESULT : RESULT_TYPE", values + " : " + types),
             "RESULT_TYPE", signature));
  };
  mlir::OwningOpRef<mlir::ModuleOp> module = returning("%zero", "f32", "f32");
  ASSERT_TRUE(module);
  EXPECT_THAT(messagesOf(*module), ::testing::IsEmpty());
  // Returned, each is refused.
  module = returning("%past, %write, %loop", "f32, tensor<8xf32>, f32",
                     "(f32, tensor<8xf32>, f32)");
  ASSERT_TRUE(module);
  EXPECT_THAT(
      messagesOf(*module),
      ::testing::ElementsAre(
          HasSubstr("index 0 is in [9, 9], outside [0, 7]"),
          HasSubstr("operand 1 writes into argument 0 of @main"),
          HasSubstr("the step is in [0, 0]: a loop's step must be positive")));
}

TEST_F(StaticSafetyTest, RandomMutationsAddNothingTheCheckRefuses) {
  for (const char *path : {kPredict, kTrain}) {
    mlir::OwningOpRef<mlir::ModuleOp> base = parse(readRunfile(path));
    Rng rng(33);
    for (int i = 0; i < 40; ++i) {
      mlir::OwningOpRef<mlir::ModuleOp> module(base->clone());
      for (int edits = 0; edits < 3; ++edits) {
        absl::StatusOr<Edit> edit =
            proposeAnyEdit(*module, MutationOptions(), rng);
        ASSERT_TRUE(edit.ok()) << edit.status();
        ASSERT_TRUE(applyEdit(*module, *edit).ok());
      }
      for (const SafetyFinding &finding :
           findSafetyProblems(*module, SafetyOptions()))
        EXPECT_EQ(finding.level, SafetyFinding::Level::Unproven)
            << path << ": " << finding.message;
    }
  }
}

} // namespace
} // namespace gevo
