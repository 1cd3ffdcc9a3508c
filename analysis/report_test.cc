//===- report_test.cc - The report renders well-formed, with its parts ----===//

#include "analysis/report.h"
#include "analysis/report_svg.h"

#include <cstdio>
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
  e.label.path = "arith.constant -> arith.mulf -> scf.yield";
  e.before = "%cst = arith.constant 0.01 : f32";
  e.after = "%cst = arith.constant 5.000000e-03 : f32";
  Measurement alone;
  alone.validation = {340, 360, 0};
  alone.runtimeRatio = 1.0;
  e.alone = alone;
  v.edits = {e, e};
  v.pairs = {{1, 2, "independent", "accuracy 0.9556"}};
  v.optimized = {true,
                 true,
                 0.99,
                 0.9556,
                 0.9306,
                 "still more accurate",
                 "the plain pipeline"};
  r.variants = {v};
  r.operatorHeader = {"operator", "variants"};
  r.operatorRows = {{"constant", "12"}};
  r.weightHeader = {"generation", "delete", "shrink"};
  r.weightRows = {
      {"1", "0.5", "0.5"}, {"2", "0.3", "0.7"}, {"3", "0.2", "0.8"}};
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
  EXPECT_NE(html.find("data flow: <code class=\"path\">arith.constant -&gt; "
                      "arith.mulf -&gt; scf.yield</code>"),
            std::string::npos);
  EXPECT_NE(html.find("digits &lt;train&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(html.find("<train>"), std::string::npos);
  EXPECT_NE(html.find("the gain survives"), std::string::npos);
  EXPECT_NE(html.find("Under the plain pipeline"), std::string::npos);
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
  EXPECT_NE(
      json.find("\"path\": \"arith.constant -> arith.mulf -> scf.yield\""),
      std::string::npos);
  EXPECT_NE(md.find("; data flow: `arith.constant -> arith.mulf -> scf.yield`"),
            std::string::npos);
}

TEST(ReportTest, PlotsTheLearnedOperatorWeightsALinePerOperator) {
  AnalysisReport r = sampleReport();
  std::string html = toHtml(r);
  std::string problem;
  EXPECT_TRUE(wellFormed(html, &problem)) << problem;
  std::string svg = operatorWeightsSvg(r);
  size_t lines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2u);
  EXPECT_NE(svg.find("<title>shrink</title>"), std::string::npos);
  // The shrink line rises: its last point is higher (smaller y) than its
  // first.
  size_t shrink =
      svg.find("points=\"", svg.find("<polyline", svg.find("<polyline") + 1));
  std::string points =
      svg.substr(shrink + 8, svg.find('"', shrink + 8) - shrink - 8);
  double x1, y1, x3, y3, x2, y2;
  ASSERT_EQ(std::sscanf(points.c_str(), "%lf,%lf %lf,%lf %lf,%lf", &x1, &y1,
                        &x2, &y2, &x3, &y3),
            6);
  EXPECT_LT(y3, y1);
  EXPECT_GT(x3, x1);
  EXPECT_NE(html.find("Learned operator weights"), std::string::npos);
  r.weightRows.clear();
  EXPECT_EQ(toHtml(r).find("Learned operator weights"), std::string::npos);
}

} // namespace
} // namespace gevo
