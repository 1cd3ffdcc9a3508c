//===- literal_test.cc - Constants in patches are exact or refused --------===//

#include "gevo/ir/constant_literal.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

class LiteralTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::Builder builder{context.get()};
};

TEST_F(LiteralTest, IntegersMustBeWrittenAsIntegersThatFit) {
  for (const char *bad : {"nan", "inf", "1e400", "1.5", "0x10", "1e10", "", "-",
                          "9223372036854775808", "12abc"})
    EXPECT_TRUE(literalProblem(builder.getI64Type(), bad)) << bad;
  // i32 prints signed: 2147483648 would read back as -2147483648.
  for (const char *bad : {"1e10", "4294967296", "-2147483649", "10000000000",
                          "2147483648", "4294967295"})
    EXPECT_TRUE(literalProblem(builder.getI32Type(), bad)) << bad;
  EXPECT_TRUE(literalProblem(builder.getI1Type(), "2"));
  EXPECT_TRUE(literalProblem(builder.getI1Type(), "-1"));
  for (const char *good : {"0", "7", "-2", "9223372036854775807"})
    EXPECT_FALSE(literalProblem(builder.getIndexType(), good)) << good;
  EXPECT_FALSE(literalProblem(builder.getI32Type(), "-2147483648"));
  EXPECT_FALSE(literalProblem(builder.getI32Type(), "2147483647"));
  EXPECT_FALSE(literalProblem(builder.getI1Type(), "1"));
}

TEST_F(LiteralTest, FloatsMustBeFiniteAndFitTheType) {
  for (const char *bad : {"nan", "inf", "-inf", "1e400", "x", "1.0x"})
    EXPECT_TRUE(literalProblem(builder.getF64Type(), bad)) << bad;
  EXPECT_TRUE(literalProblem(builder.getF32Type(), "1e39"));
  EXPECT_TRUE(literalProblem(builder.getF16Type(), "70000"));
  for (const char *good : {"0.1", "-2.5e-3", "16", "3.0e38", "0.0", "0e5",
                           "-0", "1e-45"})
    EXPECT_FALSE(literalProblem(builder.getF32Type(), good)) << good;
  // A non-zero literal that would read as zero is refused, not rounded away.
  EXPECT_TRUE(literalProblem(builder.getF64Type(), "1e-400"));
  EXPECT_TRUE(literalProblem(builder.getF32Type(), "1e-50"));
}

TEST_F(LiteralTest, ConstantAttrRefusesWhatLiteralProblemRefuses) {
  EXPECT_FALSE(constantAttr(builder.getI32Type(), "1.5"));
  mlir::TypedAttr seven = constantAttr(builder.getIndexType(), "7");
  ASSERT_TRUE(seven);
  EXPECT_EQ(llvm::cast<mlir::IntegerAttr>(seven).getInt(), 7);
}

} // namespace
} // namespace gevo
