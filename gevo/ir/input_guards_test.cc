//===- input_guards_test.cc - Hostile model text gives errors, not crashes ===//
//
// Deep nesting is refused before MLIR's recursive parser sees it, and text
// quoted in messages has its control bytes escaped.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/escape.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/nesting_guard.h"
#include "mlir/IR/MLIRContext.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

std::string repeat(const std::string &text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i)
    out += text;
  return out;
}

std::string nestedModules(int depth) {
  return repeat("module {\n", depth) + repeat("}\n", depth);
}

TEST(NestingGuardTest, RefusesTheFirstBracketBeyondTheLimit) {
  EXPECT_TRUE(checkNesting(nestedModules(5), "m.mlir", 5).ok());
  absl::Status status = checkNesting(nestedModules(6), "m.mlir", 5);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("m.mlir:6:8: error: the MLIR nests deeper than 5"));
  // Any bracket counts: [[[ in a dense literal, ( and <.
  EXPECT_FALSE(checkNesting("x = dense<[[[[1]]]]>", "a.mlir", 4).ok());
  EXPECT_TRUE(checkNesting("x = dense<[[[1]]]>", "a.mlir", 4).ok());
  EXPECT_FALSE(checkNesting("(((((", "a.mlir", 4).ok());
}

TEST(NestingGuardTest, SkipsStringsCommentsAndArrows) {
  EXPECT_TRUE(
      checkNesting("%s = \"{{{{{\\\"{{{{\" // {{{{{{\n{", "a.mlir", 1).ok());
  // `->` does not close a bracket; a real `>` does.
  EXPECT_FALSE(checkNesting("<(d0) -> (d0)< <", "a.mlir", 2).ok());
  EXPECT_TRUE(checkNesting("<(d0) -> (d0)> <", "a.mlir", 2).ok());
  // Bytecode is not text.
  EXPECT_TRUE(
      checkNesting(std::string("ML\xefR") + repeat("{", 50), "b.mlirbc", 4)
          .ok());
}

TEST(NestingGuardTest, DeepModulesAreAnErrorFromParseModule) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  // 4 000 levels overflow MLIR's parser (stock mlir-opt dies with SIGSEGV).
  auto module = parseModule(*context, nestedModules(4000), "deep.mlir");
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()),
              HasSubstr("deep.mlir:1001:8: error: the MLIR nests deeper than "
                        "1000 levels"));
  // At the limit it parses.
  auto fine = parseModule(*context, nestedModules(kMaxMlirNesting), "ok.mlir");
  EXPECT_TRUE(fine.ok()) << fine.status();
}

TEST(EscapeTest, ControlBytesAndBadUtf8BecomeHex) {
  EXPECT_EQ(escapeForMessage("a\ab\nc\x1b[2J\x7f"),
            "a\\x07b\\x0ac\\x1b[2J\\x7f");
  EXPECT_EQ(escapeForMessage("caf\xc3\xa9 \xe2\x86\x92 ok"),
            "caf\xc3\xa9 \xe2\x86\x92 ok");
  EXPECT_EQ(escapeForMessage("\xff\xc3"), "\\xff\\xc3");
  EXPECT_EQ(escapeForMessage("\xc2\x9b"), "\\xc2\\x9b"); // C1 CSI
}

TEST(EscapeTest, ParseErrorsQuoteTheModuleEscaped) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(
      *context, "func.func @f() {\n  \"bad\aop\x1b\"() : () -> ()\n}\n",
      "bell.mlir");
  ASSERT_FALSE(module.ok());
  std::string message(module.status().message());
  EXPECT_THAT(message, HasSubstr("bell.mlir:2:"));
  for (char c : message)
    EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << message;
}

} // namespace
} // namespace gevo
