//===- scaling_main.cc - How evaluation and search costs grow with work ---===//
//
//   bazel run //gevo/bench:scaling [-- --widths=1,4,16 --populations=8,16,32]
//
// Evaluation: the prediction workload's shape (64 -> 256 -> 128 -> 10, ReLU)
// with its hidden widths multiplied by each factor, weights drawn inside the
// module by the training workload's hash initialisation (so the text stays
// small), evaluated by //gevo:evaluate in a child process: parse, lower,
// codegen and run times, and the child's peak resident memory.
// Search: NSGA-II on the training workload for --generations generations at
// each population size; seconds per generation and per individual, and the
// time NSGA-II's own selection (pagmo2's sorting and crowding) takes on that
// many random points. Prints a row per size, a summary last, and writes the
// figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/bench_search.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/child_process.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/scaled_mlp.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/search.h"
#include "gevo/support/file_io.h"
#include "gevo/support/settings_flags.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("scaling benchmark options");
cl::opt<std::string> widths("widths",
                            cl::desc("Hidden-width factors (default 1,4,16)"),
                            cl::init("1,4,16"), cl::cat(category));
cl::opt<std::string>
    populations("populations",
                cl::desc("Population sizes (default 8,16,32,64)"),
                cl::init("8,16,32,64"), cl::cat(category));
/// The searches' settings: 3 generations here, the rest the search's.
gevo::SearchConfig searchDefaults() {
  gevo::SearchConfig config;
  config.generations = 3;
  return config;
}
/// --generations is the search's flag (docs/search.md).
const gevo::SettingFlags<gevo::SearchConfig>
    searchFlags(gevo::searchSettings(), searchDefaults(), category,
                {"generations"});
cl::opt<std::string>
    plainWidths("plain-widths",
                cl::desc("Widths also run with the plain pipeline (default "
                         "1,4; x16 takes minutes)"),
                cl::init("1,4"), cl::cat(category));
cl::opt<std::string>
    python("python",
           cl::desc("Python with NumPy for the reference column (default "
                    "/usr/bin/python3; empty: none)"),
           cl::init("/usr/bin/python3"), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default scaling.json)"),
                              cl::init("scaling.json"), cl::cat(category));

std::vector<int> parseInts(const std::string &text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipEmpty()))
    out.push_back(std::atoi(std::string(part).c_str()));
  return out;
}

/// Runs //gevo:evaluate on `dir`'s workload; the parsed JSON report and
/// the child's peak memory, or an error message.
llvm::Expected<std::pair<llvm::json::Value, long>>
evaluateChild(const std::string &evaluate, const std::string &dir,
              const std::string &pipeline) {
  std::vector<std::string> args = {evaluate, "--workload=" + dir, "--json"};
  if (!pipeline.empty())
    args.push_back("--pipeline=" + pipeline);
  std::string output;
  auto [status, peakKiB] = gevo::runChild(args, &output);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(output);
  if (status == 0 && json && json->getAsObject())
    return std::make_pair(std::move(*json), peakKiB);
  if (!json)
    llvm::consumeError(json.takeError());
  return llvm::createStringError(
      llvm::formatv("evaluate failed (exit {0}): {1}", status, output).str());
}

/// NumPy's milliseconds for width `factor`: {with weights drawn, forward
/// only}, or {0, 0} when there is no Python with NumPy.
std::pair<double, double> numpyMs(int factor) {
  if (python.empty() || access(python.c_str(), X_OK) != 0)
    return {0, 0};
  std::string output;
  int status =
      gevo::runChild({python, gevo::findRunfile("gevo/bench/numpy_mlp.py"),
                      std::to_string(factor), "360", factor >= 16 ? "3" : "9"},
                     &output)
          .status;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(output);
  if (status != 0 || !json || !json->getAsObject()) {
    if (!json)
      llvm::consumeError(json.takeError());
    return {0, 0};
  }
  const llvm::json::Object *o = json->getAsObject();
  return {o->getNumber("with_weights_ms").value_or(0),
          o->getNumber("forward_ms").value_or(0)};
}

/// The digits data's absolute path: the generated workloads live elsewhere.
std::string digitsDataPath() {
  std::string data = gevo::findRunfile("testdata/digits/digits.csv");
  if (char *absolute = realpath(data.c_str(), nullptr)) {
    data = absolute;
    std::free(absolute);
  }
  return data;
}

/// The workload of the model of width `factor` over `data`.
llvm::json::Object scaledWorkload(int factor, const std::string &data) {
  return llvm::json::Object{
      {"name", llvm::formatv("scaled_mlp_x{0}", factor).str()},
      {"module", "model.mlir"},
      {"entry", "main"},
      {"data",
       llvm::json::Object{{"format", "csv"},
                          {"path", data},
                          {"classes", 10},
                          {"split", llvm::json::Object{{"seed", 20231018},
                                                       {"validation", 360},
                                                       {"test", 360}}}}},
      {"arguments", llvm::json::Array{llvm::json::Object{
                        {"split", "eval"}, {"field", "features"}}}},
      {"results", llvm::json::Array{"logits"}},
      {"timing", llvm::json::Object{{"warmup", 1}, {"repeats", 3}}},
      {"objectives", llvm::json::Array{"runtime", "error"}}};
}

/// Writes the width-`factor` model and its workload under `tmp`; its
/// directory.
std::string writeScaledWorkload(const std::string &tmp, int factor,
                                const std::string &data) {
  std::string dir = llvm::formatv("{0}/gevo_bench_scaling_x{1}", tmp, factor);
  gevo::runChild({"mkdir", "-p", dir}, nullptr);
  std::ofstream(dir + "/model.mlir") << gevo::scaledModel(factor, 360);
  std::ofstream(dir + "/workload.json")
      << llvm::formatv("{0:2}", llvm::json::Value(scaledWorkload(factor, data)))
             .str();
  return dir;
}

/// The median run time with the plain pipeline when `factor` is one of
/// --plain-widths, else 0.
absl::StatusOr<double> plainRunMs(const std::string &evaluate,
                                  const std::string &dir, int factor) {
  std::vector<int> plainFactors = parseInts(plainWidths);
  if (std::find(plainFactors.begin(), plainFactors.end(), factor) ==
      plainFactors.end())
    return 0.0;
  auto plain = evaluateChild(evaluate, dir, "plain");
  if (!plain)
    return absl::UnknownError(llvm::formatv("width x{0}, plain pipeline: {1}",
                                            factor,
                                            llvm::toString(plain.takeError()))
                                  .str());
  return plain->first.getAsObject()->getNumber("run_ms_median").value_or(0);
}

/// Evaluates the model of width `factor` (and NumPy's), prints its row and
/// adds its run time to `summary`; the row.
absl::StatusOr<llvm::json::Object> measureWidth(const std::string &evaluate,
                                                const std::string &dir,
                                                int factor,
                                                std::string &summary) {
  auto report = evaluateChild(evaluate, dir, "");
  if (!report)
    return absl::UnknownError(llvm::formatv("width x{0}: {1}", factor,
                                            llvm::toString(report.takeError()))
                                  .str());
  long peakKiB = report->second;
  const llvm::json::Object *o = report->first.getAsObject();
  auto number = [&](llvm::StringRef key) {
    return o->getNumber(key).value_or(0);
  };
  absl::StatusOr<double> plainMs = plainRunMs(evaluate, dir, factor);
  if (!plainMs.ok())
    return plainMs.status();
  auto [numpyWithWeights, numpyForward] = numpyMs(factor);
  int64_t h1 = 256 * factor, h2 = 128 * factor;
  int64_t parameters = 64 * h1 + h1 * h2 + h2 * 10;
  double runMs = number("run_ms_median");
  double ratio = numpyWithWeights > 0 ? runMs / numpyWithWeights : 0;
  std::printf("x%-5d %10lld %6.1f %7.1f %8.1f %9.1f %9.1f %9.1f %9.1f %6.2fx "
              "%8.1f\n",
              factor, static_cast<long long>(parameters), number("parse_ms"),
              number("lower_ms"), number("codegen_ms"), runMs, *plainMs,
              numpyWithWeights, numpyForward, ratio, peakKiB / 1024.0);
  std::fflush(stdout);
  absl::StrAppend(&summary, summary.empty() ? "" : ", ", "x", factor, " run ",
                  absl::StrFormat("%.1f", runMs), " ms");
  if (ratio > 0)
    absl::StrAppend(&summary, absl::StrFormat(" (%.2fx NumPy)", ratio));
  return llvm::json::Object{
      {"factor", factor},
      {"hidden", llvm::formatv("{0}x{1}", h1, h2).str()},
      {"parameters", parameters},
      {"parse_ms", number("parse_ms")},
      {"lower_ms", number("lower_ms")},
      {"codegen_ms", number("codegen_ms")},
      {"median_run_ms", runMs},
      {"lowered_with", o->getString("lowered_with").value_or("").str()},
      {"plain_run_ms", *plainMs},
      {"numpy_ms", numpyWithWeights},
      {"numpy_forward_ms", numpyForward},
      {"vs_numpy", ratio},
      {"peak_rss_mib", peakKiB / 1024.0}};
}

/// A row per --widths factor, printed as a table; the run times in
/// `summary`.
absl::StatusOr<llvm::json::Array> measureWidths(const std::string &tmp,
                                                std::string &summary) {
  std::string evaluate = gevo::findRunfile("gevo/evaluate");
  std::string data = digitsDataPath();
  // NumPy's BLAS and everything else on one thread.
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  std::printf("%-6s %10s %6s %7s %8s %9s %9s %9s %9s %7s %8s\n", "width",
              "parameters", "parse", "lower", "codegen", "run ms", "plain ms",
              "numpy ms", "np fwd ms", "/numpy", "peak MiB");
  llvm::json::Array rows;
  for (int factor : parseInts(widths)) {
    std::string dir = writeScaledWorkload(tmp, factor, data);
    absl::StatusOr<llvm::json::Object> row =
        measureWidth(evaluate, dir, factor, summary);
    if (!row.ok())
      return row.status();
    rows.push_back(std::move(*row));
  }
  return rows;
}

/// NSGA-II's own work per generation: selecting `population` survivors
/// from parents and children, on random two-objective points; in ms.
double selectionMs(int population, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<gevo::Objectives> points(2 * population);
  for (gevo::Objectives &p : points)
    p = {unit(rng), unit(rng)};
  std::vector<bool> feasible(points.size(), true);
  gevo::SteadyClock::time_point selection = gevo::SteadyClock::now();
  constexpr int kRepeats = 20;
  for (int r = 0; r < kRepeats; ++r)
    gevo::selectSurvivors(points, feasible, population);
  return gevo::millisecondsSince(selection) / kRepeats;
}

/// A short search of `population` individuals, its row printed.
absl::StatusOr<llvm::json::Object> measurePopulation(const std::string &tmp,
                                                     int population,
                                                     std::mt19937_64 &rng) {
  gevo::SearchConfig config = searchDefaults();
  if (absl::Status given = searchFlags.apply(config); !given.ok())
    return given;
  config.workloadPath = gevo::findRunfile("testdata/digits_mlp_train");
  config.objectives = {"static_cost", "error"};
  config.algorithm.population = population;
  config.budgetSeconds = 0;
  config.frontRepeats = 1;
  config.frontChildren = 1;
  config.frontLimit = 1;
  config.outDir =
      llvm::formatv("{0}/gevo_bench_scaling_pop{1}", tmp, population);
  absl::StatusOr<gevo::SearchResult> run = gevo::searchFromScratch(config);
  if (!run.ok())
    return run.status();
  double selection = selectionMs(population, rng);
  int generationsRun = run->generationsDone + 1; // with the initial one
  double perGeneration = run->searchSeconds / generationsRun;
  int64_t individuals = int64_t(population) * generationsRun;
  std::printf("%-10d %7lld %9.2f %11.1f %13.1f %14.3f\n", population,
              static_cast<long long>(run->counts.evaluations), perGeneration,
              1000 * run->searchSeconds / individuals,
              run->counts.evaluations / run->searchSeconds, selection);
  std::fflush(stdout);
  return llvm::json::Object{
      {"population", population},
      {"generations", generationsRun},
      {"evaluations", run->counts.evaluations},
      {"seconds_per_generation", perGeneration},
      {"ms_per_individual", 1000 * run->searchSeconds / individuals},
      {"selection_ms", selection}};
}

/// A row per --populations size, printed as a table.
absl::StatusOr<llvm::json::Array> measurePopulations(const std::string &tmp) {
  std::printf("\n%-10s %7s %9s %11s %13s %14s\n", "population", "evals",
              "s/gen", "ms/indiv", "evals/s", "selection ms");
  std::mt19937_64 rng(1);
  llvm::json::Array rows;
  for (int population : parseInts(populations)) {
    absl::StatusOr<llvm::json::Object> row =
        measurePopulation(tmp, population, rng);
    if (!row.ok())
      return row.status();
    rows.push_back(std::move(*row));
  }
  return rows;
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "Evaluation cost vs model width, search "
                             "cost vs population.\n"))
    return 2;
  std::string tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string summary;
  absl::StatusOr<llvm::json::Array> evalRows = measureWidths(tmp, summary);
  if (!evalRows.ok())
    return gevo::reportFailure(evalRows.status());
  absl::StatusOr<llvm::json::Array> searchRows = measurePopulations(tmp);
  if (!searchRows.ok())
    return gevo::reportFailure(searchRows.status());
  llvm::json::Object figures{{"evaluation", std::move(*evalRows)},
                             {"search", std::move(*searchRows)}};
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  std::printf("scaling: %s\n", summary.c_str());
  return 0;
}
