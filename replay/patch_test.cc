//===- patch_test.cc - The patch text format: round trips and errors ------===//

#include "replay/patch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

constexpr const char kPatch[] =
    "gevo-patch 1\n"
    "model 925d89644e457032\n"
    "meta runtime_ms=12.5 error=0.0694 seed=7\n"
    "# prune the hidden layer\n"
    "operand @main/linalg.matmul#2~1a2b3c4d ; "
    "@main/linalg.matmul#2~1a2b3c4d[1] <- @main/tensor.extract_slice#0~"
    "00ff00ff:0 via crop(32x10)\n"
    "delete @main/arith.mulf#3~deadbeef ; @main/linalg.yield#5~2e728ee0[0] "
    "<- const(-2.5e-3) ; @main/arith.addf#1~01020304[1] <- @main^2 via "
    "extract,cast(f32)\n"
    "copy @main/arith.addf#1~01020304 before @main/scf.yield#0~0a0b0c0d ; "
    "new[0] <- @main/scf.for#1~11111111^3 ; @main/scf.yield#0~0a0b0c0d[2] <- "
    "new:0\n"
    "move @f/arith.subf#0~00000001 before @f/func.return#0~00000002\n"
    "swap @main/arith.subf#3~a9073d76 and @main/linalg.fill#0~0029ef9b\n"
    "replace @main/arith.index_cast#0~bbc2597e with "
    "@main/arith.constant#3~5b471f57 ; @main/arith.sitofp#0~7c1c9ec9[0] <- "
    "new:0 via cast(i64)\n"
    "constant @main/arith.constant#0~335747a2 = 0.1\n"
    "shrink @main/linalg.generic#1~b8cb8ba6:0 dim 1 keep [0:256:2]\n"
    "shrink @main/linalg.matmul#0~9b27166e:0 dim 1 keep [0:128]\n"
    "shrink @main/linalg.matmul#0~9b27166e:0 dim 1 keep [3,5,9]\n"
    "# trailing comment\n";

TEST(PatchTest, PrintOfParseIsIdentity) {
  absl::StatusOr<Patch> patch = parsePatch(kPatch, "p.gevo");
  ASSERT_TRUE(patch.ok()) << patch.status();
  EXPECT_EQ(printPatch(*patch), kPatch);
  std::vector<Edit> edits = patch->edits();
  ASSERT_EQ(edits.size(), 10u);
  EXPECT_EQ(patch->model, "925d89644e457032");
  EXPECT_EQ(patch->metadata[1].first, "error");
  EXPECT_EQ(patch->metadata[1].second, "0.0694");
  const Edit &del = edits[1];
  EXPECT_EQ(del.kind, EditKind::Delete);
  EXPECT_EQ(del.target.opName, "arith.mulf");
  EXPECT_EQ(del.target.ordinal, 3);
  EXPECT_EQ(del.target.fingerprint, 0xdeadbeefu);
  ASSERT_EQ(del.rewires.size(), 2u);
  EXPECT_EQ(del.rewires[0].value.kind, ValueRef::Kind::Constant);
  EXPECT_EQ(del.rewires[0].value.literal, "-2.5e-3");
  EXPECT_EQ(del.rewires[1].value.kind, ValueRef::Kind::FunctionArg);
  ASSERT_EQ(del.rewires[1].repair.size(), 2u);
  EXPECT_EQ(del.rewires[1].repair[0].kind, RepairStep::Kind::Extract);
  EXPECT_EQ(del.rewires[1].repair[1].kind, RepairStep::Kind::Cast);
  EXPECT_EQ(del.rewires[1].repair[1].type, "f32");
  const Edit &copy = edits[2];
  EXPECT_TRUE(copy.rewires[0].userIsNew);
  EXPECT_EQ(copy.rewires[0].value.kind, ValueRef::Kind::RegionArg);
  EXPECT_EQ(copy.rewires[1].value.kind, ValueRef::Kind::NewResult);
  EXPECT_EQ(edits[6].literal, "0.1");
  const Edit &strided = edits[7];
  EXPECT_EQ(strided.kind, EditKind::Shrink);
  EXPECT_EQ(strided.result, 0);
  EXPECT_EQ(strided.dim, 1);
  EXPECT_EQ(strided.keep.count(), 128);
  EXPECT_EQ(strided.keep.at(5), 10);
  EXPECT_EQ(edits[8].keep.count(), 128);
  EXPECT_EQ(edits[8].keep.step, 1);
  EXPECT_EQ(edits[9].keep.count(), 3);
  EXPECT_EQ(edits[9].keep.at(2), 9);
  EXPECT_EQ(patch->entries[1].line, 5); // after the header and a comment
}

TEST(PatchTest, ParseOfPrintIsIdentityForEveryEdit) {
  absl::StatusOr<Patch> patch = parsePatch(kPatch, "p.gevo");
  ASSERT_TRUE(patch.ok());
  for (const Edit &edit : patch->edits()) {
    absl::StatusOr<Edit> again = parseEdit(printEdit(edit));
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(*again, edit) << printEdit(edit);
  }
}

std::string errorOf(const std::string &text) {
  absl::StatusOr<Patch> patch = parsePatch(text, "bad.gevo");
  EXPECT_FALSE(patch.ok()) << text;
  return patch.ok() ? "" : std::string(patch.status().message());
}

TEST(PatchTest, TheSourceFormLineRoundTripsAndIsOptional) {
  const std::string text = "gevo-patch 1\nmodel 925d89644e457032\n"
                           "source tosa\nmeta seed=7\n"
                           "constant @main/arith.constant#0~335747a2 = 0.1\n";
  absl::StatusOr<Patch> patch = parsePatch(text, "p.gevo");
  ASSERT_TRUE(patch.ok()) << patch.status();
  EXPECT_EQ(patch->source, "tosa");
  EXPECT_EQ(patch->metadata.size(), 1u);
  EXPECT_EQ(printPatch(*patch), text);
  // Patches written before the line existed address the module as given.
  absl::StatusOr<Patch> old = parsePatch(kPatch, "p.gevo");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->source, "");
  EXPECT_EQ(printPatch(*old).find("source"), std::string::npos);
  std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  EXPECT_THAT(errorOf(header + "source onyx\n"),
              HasSubstr("bad.gevo:3:8: error: expected a source form, 'tosa', "
                        "'onnx', 'training' or 'linalg'"));
  EXPECT_THAT(errorOf(header + "meta seed=7\nsource tosa\n"),
              HasSubstr("bad.gevo:4:1: error: expected an edit"));
}

TEST(PatchTest, AnOnnxSourceLineSaysHowToImportTheModelAgain) {
  const std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  const std::string edit = "constant @main/arith.constant#0~335747a2 = 0.1\n";
  for (const char *line :
       {"source onnx batch=1000\n", "source onnx batch=7 entry=predict\n"}) {
    absl::StatusOr<Patch> patch = parsePatch(header + line + edit, "p.gevo");
    ASSERT_TRUE(patch.ok()) << patch.status();
    EXPECT_EQ(printPatch(*patch), header + line + edit);
  }
  absl::StatusOr<Patch> patch =
      parsePatch(header + "source onnx batch=7 entry=predict\n", "p.gevo");
  ASSERT_TRUE(patch.ok()) << patch.status();
  std::optional<OnnxSource> onnx = onnxSource(*patch);
  ASSERT_TRUE(onnx.has_value());
  EXPECT_EQ(onnx->batch, 7);
  EXPECT_EQ(onnx->entry, "predict");
  // entry=main is the default and prints as nothing.
  patch = parsePatch(header + "source onnx batch=3 entry=main\n", "p.gevo");
  ASSERT_TRUE(patch.ok()) << patch.status();
  EXPECT_EQ(patch->source, "onnx batch=3");
  EXPECT_EQ(onnxSource(*patch)->entry, "main");
  patch = parsePatch(header + "source tosa\n", "p.gevo");
  ASSERT_TRUE(patch.ok()) << patch.status();
  EXPECT_FALSE(onnxSource(*patch).has_value());
  EXPECT_THAT(errorOf(header + "source onnx\n"),
              HasSubstr("bad.gevo:3:12: error: expected 'batch='"));
  EXPECT_THAT(
      errorOf(header + "source onnx batch=0\n"),
      HasSubstr("bad.gevo:3:19: error: expected a batch of at least 1"));
  EXPECT_THAT(errorOf(header + "source onnx batch=x\n"),
              HasSubstr("bad.gevo:3:19: error: expected a non-negative "
                        "integer"));
  EXPECT_THAT(errorOf(header + "source onnx batch=4 entry=\n"),
              HasSubstr("bad.gevo:3:27: error: expected a function name"));
  EXPECT_THAT(errorOf(header + "source onnx batch=4 seed=1\n"),
              HasSubstr("bad.gevo:3:21: error: expected the end of the line "
                        "after the source form"));
}

TEST(PatchTest, TrainingSourceRoundTripsAndIsChecked) {
  const std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  const std::string edit = "constant @train_eval/arith.constant#0~335747a2 = "
                           "0.1\n";
  for (const char *line :
       {"source training forward=forward.mlir spec=c67c16c46ea2be44\n",
        "source training forward=model.onnx spec=0123456789abcdef "
        "entry=predict\n"}) {
    absl::StatusOr<Patch> patch = parsePatch(header + line + edit, "p.gevo");
    ASSERT_TRUE(patch.ok()) << patch.status();
    EXPECT_EQ(printPatch(*patch), header + line + edit);
    EXPECT_FALSE(onnxSource(*patch).has_value());
  }
  EXPECT_THAT(errorOf(header + "source training\n"),
              HasSubstr("bad.gevo:3:16: error: expected 'forward='"));
  EXPECT_THAT(errorOf(header + "source training forward=f.mlir spec=12\n"),
              HasSubstr("bad.gevo:3:37: error: expected the training spec's "
                        "hash, 16 hex digits"));
  EXPECT_THAT(errorOf(header + "source training forward=f.mlir\n"),
              HasSubstr("bad.gevo:3:31: error: expected 'spec='"));
}

TEST(PatchTest, CorruptedPatchesNameLineAndColumn) {
  EXPECT_THAT(errorOf(""), HasSubstr("bad.gevo:1:1: error: expected "
                                     "'gevo-patch 1': the patch is empty"));
  EXPECT_THAT(errorOf("gevo-patch 1\n"),
              HasSubstr("bad.gevo:2:1: error: expected 'model <fingerprint>'"));
  EXPECT_THAT(errorOf("gevo-patch 2\nmodel 925d89644e457032\n"),
              HasSubstr("bad.gevo:1:12: error: patch format version 2 is not "
                        "supported"));
  EXPECT_THAT(errorOf("diff --git a b\n"),
              HasSubstr("bad.gevo:1:1: error: expected 'gevo-patch 1'"));
  EXPECT_THAT(errorOf("gevo-patch 1\nmodel 925d\n"),
              HasSubstr("bad.gevo:2:7: error: expected a 16-digit hex model "
                        "fingerprint"));
  std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  EXPECT_THAT(errorOf(header + "erase @main/arith.mulf#3~deadbeef\n"),
              HasSubstr("bad.gevo:3:1: error: expected an edit (delete"));
  EXPECT_THAT(errorOf(header + "delete @main/arith.mulf#x~deadbeef\n"),
              HasSubstr("bad.gevo:3:25: error: expected a non-negative "
                        "integer, found 'x~deadbeef'"));
  EXPECT_THAT(errorOf(header + "delete @main/arith.mulf#3~deadbee\n"),
              HasSubstr("bad.gevo:3:27: error: expected an 8-digit hex "
                        "fingerprint"));
  EXPECT_THAT(errorOf(header + "delete @main/mulf#3~deadbeef\n"),
              HasSubstr("bad.gevo:3:14: error: expected an op name"));
  EXPECT_THAT(
      errorOf(header + "constant @main/arith.constant#0~335747a2 = 1.0x\n"),
      HasSubstr("bad.gevo:3:44: error: expected a number"));
  EXPECT_THAT(errorOf(header + "operand @main/arith.mulf#3~deadbeef ; "
                               "@main/arith.mulf#3~deadbeef[99999999999] <- "
                               "@main^0\n"),
              HasSubstr("bad.gevo:3:67: error: expected a non-negative "
                        "integer"));
  EXPECT_THAT(errorOf(header + "copy @main/arith.mulf#3~deadbeef after "
                               "@main/arith.addf#0~deadbeef\n"),
              HasSubstr("bad.gevo:3:34: error: expected 'before', found "
                        "'after"));
  std::string shrink = header + "shrink @main/linalg.matmul#0~9b27166e:0 ";
  EXPECT_THAT(errorOf(shrink + "dim 1 keep [4:2]\n"),
              HasSubstr("bad.gevo:3:56: error: expected a range that keeps at "
                        "least one index"));
  EXPECT_THAT(errorOf(shrink + "dim 1 keep [0:8:0]\n"),
              HasSubstr("bad.gevo:3:57: error: expected a step of at least 1"));
  EXPECT_THAT(errorOf(shrink + "dim 1 keep [3,3]\n"),
              HasSubstr("bad.gevo:3:55: error: expected indices in ascending "
                        "order"));
  EXPECT_THAT(errorOf(shrink + "keep [0:2]\n"),
              HasSubstr("bad.gevo:3:41: error: expected 'dim'"));
  // Truncated mid-edit.
  EXPECT_THAT(errorOf(header + "operand @main/arith.mulf#3~deadbeef ; "
                               "@main/arith.mulf#3~deadbeef[0] <-\n"),
              HasSubstr("bad.gevo:3:72: error: expected '@' at the end of "
                        "the line"));
  EXPECT_THAT(errorOf(header + "delete @main/arith.mulf#3~deadbeef junk\n"),
              HasSubstr("bad.gevo:3:36: error: expected ';' and a rewire"));
  EXPECT_THAT(errorOf("gevo-patch 1\r\nmodel 925d89644e457032\n"),
              HasSubstr("carriage return"));
}

TEST(PatchTest, ControlBytesAreRefusedAndNeverEchoedRaw) {
  std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  // A control byte anywhere in a line (a comment too) is refused at its column.
  for (const char *line : {"delete @main/arith.mulf#3~dead\abeef\n",
                           "# ring\a the bell\n", "delete @main/x.y#0\x1b[2J\n",
                           "delete @main/arith.mulf#3~deadbeef\x7f\n"}) {
    std::string message = errorOf(header + line);
    EXPECT_THAT(message, HasSubstr("bad.gevo:3:")) << message;
    EXPECT_THAT(message, HasSubstr("error: control byte \\x")) << message;
    for (char c : message)
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 ||
                   static_cast<unsigned char>(c) == 0x7f)
          << message;
  }
  EXPECT_THAT(errorOf(header + "delete @main/arith.mulf#3~deadbeef\a\n"),
              HasSubstr("bad.gevo:3:35: error: control byte \\x07"));
  // A single edit line parsed on its own quotes its text escaped.
  absl::StatusOr<Edit> edit = parseEdit("delete @main/arith.mulf#3~\a\n\x1b");
  ASSERT_FALSE(edit.ok());
  EXPECT_THAT(std::string(edit.status().message()),
              HasSubstr("found '\\x07\\x0a\\x1b'"));
}

TEST(PatchTest, NonFiniteMetaValuesAndTwiceRewiredOperandsAreErrors) {
  const std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  for (const char *value : {"inf", "-inf", "nan", "1e999"}) {
    absl::StatusOr<Patch> patch =
        parsePatch(header + "meta seed=" + value + "\n", "p.gevo");
    ASSERT_FALSE(patch.ok()) << value;
    EXPECT_THAT(std::string(patch.status().message()),
                HasSubstr("p.gevo:3:11: error: expected a finite number"));
  }
  EXPECT_TRUE(parsePatch(header + "meta seed=7 note=abc\n", "p.gevo").ok());

  const std::string twice = "operand @main/linalg.fill#0~72b98bd2 ; "
                            "@main/linalg.fill#0~72b98bd2[0] <- @main^0 ; "
                            "@main/linalg.fill#0~72b98bd2[0] <- @main^1\n";
  absl::StatusOr<Patch> patch = parsePatch(header + twice, "p.gevo");
  ASSERT_FALSE(patch.ok());
  EXPECT_THAT(std::string(patch.status().message()), HasSubstr("p.gevo:3:"));
  EXPECT_THAT(std::string(patch.status().message()),
              HasSubstr("this one is rewired already"));
}

// Issue #33: a duplicated line replayed as another edit (a second delete
// deleted the next op). The same edit twice is an error at the second line,
// naming the first; the same op with another value is a different edit.
TEST(PatchTest, TheSameEditTwiceIsAnErrorNamingBothLines) {
  const std::string header = "gevo-patch 1\nmodel 925d89644e457032\n";
  const std::string edit = "delete @main/arith.mulf#3~deadbeef\n";
  absl::StatusOr<Patch> patch =
      parsePatch(header + edit + "# between\n" + edit, "dup.gevo");
  ASSERT_FALSE(patch.ok());
  EXPECT_EQ(std::string(patch.status().message()),
            "dup.gevo:5:1: error: the same edit as line 3 (a patch holds each "
            "edit once)");
  // The same op with another value is another edit.
  const std::string constant = "constant @main/arith.constant#0~335747a2 = ";
  EXPECT_TRUE(
      parsePatch(header + constant + "0.5\n" + constant + "0.25\n", "p.gevo")
          .ok());
}

// Issue #33: 10^6 edits ran past a minute. More than the limit (10 000 by
// default, or the reader's) is an error at the first edit past it.
TEST(PatchTest, EditsPastTheLimitAreAnErrorAtTheFirstOnePast) {
  std::string text = "gevo-patch 1\nmodel 925d89644e457032\n";
  for (size_t i = 0; i <= kDefaultMaxEdits; ++i)
    text += "constant @main/arith.constant#0~335747a2 = " + std::to_string(i) +
            "\n";
  absl::StatusOr<Patch> patch = parsePatch(text, "many.gevo");
  ASSERT_FALSE(patch.ok());
  EXPECT_EQ(std::string(patch.status().message()),
            "many.gevo:10003:1: error: more than 10000 edits in one patch "
            "(apply's --max-edits raises the limit)");
  patch = parsePatch(text, "many.gevo", kDefaultMaxEdits + 1);
  ASSERT_TRUE(patch.ok()) << patch.status();
  EXPECT_EQ(patch->edits().size(), kDefaultMaxEdits + 1);
  patch = parsePatch(text, "many.gevo", 2);
  ASSERT_FALSE(patch.ok());
  EXPECT_THAT(std::string(patch.status().message()),
              HasSubstr("many.gevo:5:1: error: more than 2 edits"));
}

} // namespace
} // namespace gevo
