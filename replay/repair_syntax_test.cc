//===- repair_syntax_test.cc - Repair steps as patch text -----------------===//

#include "replay/repair_syntax.h"

#include "replay/edit_syntax.h"
#include "replay/patch.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;
using Kind = RepairStep::Kind;

absl::StatusOr<Repair> parse(const std::string &text) {
  LineParser parser(text, "r.gevo", 1);
  absl::StatusOr<Repair> repair = parser.repair();
  if (repair.ok() && !parser.atEnd())
    return parser.error("the end");
  return repair;
}

TEST(RepairSyntaxTest, EveryStepKeepsItsParameters) {
  absl::StatusOr<Repair> repair =
      parse("cast(bf16),drop(2),crop(16x10 at 1x0 step 2x1),pad(32x10),"
            "bcast(3x32x10),splat,extract");
  ASSERT_TRUE(repair.ok()) << repair.status();
  ASSERT_EQ(repair->size(), 7u);
  EXPECT_EQ((*repair)[0].kind, Kind::Cast);
  EXPECT_EQ((*repair)[0].type, "bf16");
  EXPECT_EQ((*repair)[1].kind, Kind::Drop);
  EXPECT_EQ((*repair)[1].count, 2);
  const RepairStep &crop = (*repair)[2];
  EXPECT_EQ(crop.kind, Kind::Crop);
  EXPECT_EQ(crop.shape, (std::vector<int64_t>{16, 10}));
  EXPECT_EQ(crop.offsets, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(crop.strides, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ((*repair)[3].kind, Kind::Pad);
  EXPECT_EQ((*repair)[3].shape, (std::vector<int64_t>{32, 10}));
  EXPECT_EQ((*repair)[4].kind, Kind::Broadcast);
  EXPECT_EQ((*repair)[4].shape, (std::vector<int64_t>{3, 32, 10}));
  EXPECT_EQ((*repair)[5].kind, Kind::Splat);
  EXPECT_EQ((*repair)[6].kind, Kind::Extract);
  EXPECT_EQ(printRepair(*repair),
            "cast(bf16),drop(2),crop(16x10 at 1x0 step 2x1),pad(32x10),"
            "bcast(3x32x10),splat,extract");
}

TEST(RepairSyntaxTest, TheOldCropIsThePrefixAndPrintsAsBefore) {
  absl::StatusOr<Repair> repair = parse("crop(32x10)");
  ASSERT_TRUE(repair.ok()) << repair.status();
  EXPECT_TRUE(*repair == Repair{RepairStep::prefixCrop({32, 10})});
  EXPECT_EQ(printRepair(*repair), "crop(32x10)");
  // Offsets of 0 and strides of 1 written out read as the prefix too, and
  // print in the short form.
  absl::StatusOr<Repair> spelled = parse("crop(32x10 at 0x0 step 1x1)");
  ASSERT_TRUE(spelled.ok()) << spelled.status();
  EXPECT_TRUE(*spelled == *repair);
  // Only what differs from the prefix is written.
  absl::StatusOr<Repair> suffix = parse("crop(4x6 at 0x2)");
  ASSERT_TRUE(suffix.ok());
  EXPECT_EQ((*suffix)[0].strides, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(printRepair(*suffix), "crop(4x6 at 0x2)");
  absl::StatusOr<Repair> strided = parse("crop(4x3 step 1x2)");
  ASSERT_TRUE(strided.ok());
  EXPECT_EQ((*strided)[0].offsets, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(printRepair(*strided), "crop(4x3 step 1x2)");
}

TEST(RepairSyntaxTest, ARewireWithAStridedCropRoundTrips) {
  const std::string line =
      "operand @main/linalg.matmul#0~c59ce7ab ; @main/linalg.matmul#0~c59ce7ab"
      "[1] <- @main^0 via crop(4x3 at 0x1 step 1x2),pad(8x6) ; "
      "@main/linalg.generic#0~00000001[0] <- @main^1 via cast(f32)";
  absl::StatusOr<Edit> edit = parseEdit(line);
  ASSERT_TRUE(edit.ok()) << edit.status();
  ASSERT_EQ(edit->rewires.size(), 2u);
  EXPECT_EQ(edit->rewires[0].repair.size(), 2u);
  EXPECT_EQ(edit->rewires[1].repair[0].type, "f32");
  EXPECT_EQ(printEdit(*edit), line);
}

TEST(RepairSyntaxTest, MalformedStepsNameTheirColumn) {
  auto errorOf = [](const std::string &text) {
    absl::StatusOr<Repair> repair = parse(text);
    EXPECT_FALSE(repair.ok()) << text;
    return repair.ok() ? std::string() : std::string(repair.status().message());
  };
  EXPECT_THAT(errorOf("shrink(4)"),
              HasSubstr("r.gevo:1:1: error: expected a repair step"));
  EXPECT_THAT(
      errorOf("crop(4x6 at 1)"),
      HasSubstr("r.gevo:1:13: error: expected 2 offsets (one per dim)"));
  EXPECT_THAT(errorOf("crop(4x6 step 1x0)"),
              HasSubstr("r.gevo:1:15: error: expected strides of at least 1"));
  EXPECT_THAT(errorOf("crop(4x0)"),
              HasSubstr("r.gevo:1:6: error: expected a crop that keeps at "
                        "least one index per dim"));
  EXPECT_THAT(errorOf("drop(0)"),
              HasSubstr("r.gevo:1:6: error: expected at least one dim"));
  EXPECT_THAT(errorOf("cast()"),
              HasSubstr("r.gevo:1:6: error: expected an element type"));
  EXPECT_THAT(errorOf("crop(4x6"), HasSubstr("expected ')'"));
  EXPECT_THAT(errorOf("cast(f32),"), HasSubstr("expected a repair step"));
}

} // namespace
} // namespace gevo
