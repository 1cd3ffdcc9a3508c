//===- report_test.cc - The report renders well-formed, with its parts ----===//

#include "analysis/report.h"

#include <regex>
#include <vector>

#include "gtest/gtest.h"

namespace gevo {
namespace {

AnalysisReport sampleReport() {
  AnalysisReport r;
  r.workload = "digits <train> & co";
  r.source = "runs/x";
  r.objectives = {"runtime", "error"};
  r.baseline.validation = {335, 360, 0};
  r.baseline.medianRunMs = 20;
  r.points = {{20, 0.07, ScatterPoint::Kind::Baseline, "unmodified"},
              {10, 0.2, ScatterPoint::Kind::Front, "a"},
              {30, 0.05, ScatterPoint::Kind::Front, "b"},
              {25, 0.5, ScatterPoint::Kind::Evaluated, "c"}};
  VariantFinding v;
  v.name = "front/01.gevo";
  v.minimizedPath = "front_01.min.gevo";
  v.originalEdits = 3;
  v.minimal.validation = {344, 360, 0};
  v.minimal.runtimeRatio = 1.01;
  EditFinding e;
  e.line = "constant @main/arith.constant#0~c2d0ff7a = 0.005";
  e.label.kind = "learning-rate change";
  e.label.summary = "learning-rate change x0.5 (0.01 -> 0.005)";
  e.label.evidence = "the constant is used only by the weight updates";
  e.before = "%cst = arith.constant 0.01 : f32";
  e.after = "%cst = arith.constant 5.000000e-03 : f32";
  Measurement alone;
  alone.validation = {340, 360, 0};
  alone.runtimeRatio = 1.0;
  e.alone = alone;
  v.edits = {e, e};
  v.pairs = {{1, 2, "independent", "accuracy 0.9556"}};
  v.optimized = {true, true, 0.99, 0.9556, 0.9306, "still more accurate"};
  r.variants = {v};
  r.operatorHeader = {"operator", "variants"};
  r.operatorRows = {{"constant", "12"}};
  return r;
}

/// Every element closed in order (void elements written as <x/>).
bool wellFormed(const std::string &html, std::string *problem) {
  std::regex tag("<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(/?)>");
  std::vector<std::string> open;
  std::string body = html.substr(html.find("<html"));
  for (std::sregex_iterator it(body.begin(), body.end(), tag), end; it != end;
       ++it) {
    const std::smatch &m = *it;
    if (m[4] == "/")
      continue; // self-closed
    if (m[1] == "/") {
      if (open.empty() || open.back() != m[2]) {
        *problem = "unexpected </" + m[2].str() +
                   "> (open: " + (open.empty() ? "none" : open.back()) + ")";
        return false;
      }
      open.pop_back();
    } else {
      open.push_back(m[2]);
    }
  }
  if (!open.empty())
    *problem = "unclosed <" + open.back() + ">";
  return open.empty();
}

TEST(ReportTest, HtmlIsWellFormedAndHasThePlotAndTheTable) {
  std::string html = toHtml(sampleReport());
  std::string problem;
  EXPECT_TRUE(wellFormed(html, &problem)) << problem;
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("class=\"front\""), std::string::npos);
  EXPECT_NE(html.find("class=\"baseline\""), std::string::npos);
  EXPECT_NE(html.find("class=\"ablation\""), std::string::npos);
  EXPECT_NE(html.find("<table>"), std::string::npos);
  // The kind, then the rest of the summary (not the kind twice).
  EXPECT_NE(
      html.find("learning-rate change</span><br/>x0.5 (0.01 -&gt; 0.005)"),
      std::string::npos);
  // Text is escaped, not interpreted.
  EXPECT_NE(html.find("digits &lt;train&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(html.find("<train>"), std::string::npos);
  EXPECT_NE(html.find("the gain survives"), std::string::npos);
  // Self-contained: nothing fetched.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
}

TEST(ReportTest, MarkdownAndJsonCarryTheSameFindings) {
  AnalysisReport r = sampleReport();
  std::string md = toMarkdown(r);
  EXPECT_NE(md.find("| 1 | **learning-rate change**: x0.5 (0.01 -> 0.005) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("```mlir\n%cst = arith.constant 0.01 : f32"),
            std::string::npos);
  std::string json = toJson(r);
  EXPECT_NE(json.find("\"label\": \"learning-rate change\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"kind\": \"front\""), std::string::npos);
}

} // namespace
} // namespace gevo
