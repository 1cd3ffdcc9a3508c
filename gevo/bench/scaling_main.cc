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

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/figures.h"
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
const gevo::SettingFlags<gevo::SearchConfig> searchFlags(gevo::searchSettings(),
                                                         searchDefaults(),
                                                         category,
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

/// One dense ReLU (or, for the last, linear) layer: %out = act(%in @ W + b)
/// with W[i,j] = (fract(sin(i*12.9898 + j*78.233 + seed) * 43758.5453) -
/// 0.5) * 2 * sqrt(1/in).
std::string layer(int index, const std::string &in, int rows, int inWidth,
                  int outWidth, bool relu) {
  std::string w = absl::StrCat("%W", index), t = absl::StrCat("%t", index);
  std::string wType = absl::StrFormat("tensor<%dx%dxf32>", inWidth, outWidth);
  std::string oType = absl::StrFormat("tensor<%dx%dxf32>", rows, outWidth);
  return absl::StrFormat(
      R"(  %%scale%1$d = arith.constant %2$.9g : f32
  %%seed%1$d = arith.constant %1$d.0 : f32
  %%We%1$d = tensor.empty() : %3$s
  %6$s = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%%We%1$d : %3$s) {
  ^bb0(%%o: f32):
    %%i = linalg.index 0 : index
    %%j = linalg.index 1 : index
    %%ii = arith.index_cast %%i : index to i32
    %%jj = arith.index_cast %%j : index to i32
    %%fi = arith.sitofp %%ii : i32 to f32
    %%fj = arith.sitofp %%jj : i32 to f32
    %%a = arith.mulf %%fi, %%ci : f32
    %%b = arith.mulf %%fj, %%cj : f32
    %%ab = arith.addf %%a, %%b : f32
    %%s = arith.addf %%ab, %%seed%1$d : f32
    %%sn = math.sin %%s : f32
    %%m = arith.mulf %%sn, %%cm : f32
    %%fl = math.floor %%m : f32
    %%fr = arith.subf %%m, %%fl : f32
    %%c = arith.subf %%fr, %%half : f32
    %%v = arith.mulf %%c, %%scale%1$d : f32
    linalg.yield %%v : f32
  } -> %3$s
  %%z%1$d = tensor.empty() : %4$s
  %%zf%1$d = linalg.fill ins(%%zero : f32) outs(%%z%1$d : %4$s) -> %4$s
  %%mm%1$d = linalg.matmul ins(%5$s, %6$s : tensor<%7$dx%8$dxf32>, %3$s)
      outs(%%zf%1$d : %4$s) -> %4$s
  %9$s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%%mm%1$d : %4$s) outs(%%z%1$d : %4$s) {
  ^bb0(%%p: f32, %%o: f32):
    %%r = %10$s
    linalg.yield %%r : f32
  } -> %4$s
)",
      index, 2.0 / std::sqrt(double(inWidth)), wType, oType, in, w, rows,
      inWidth, t,
      relu ? "arith.maximumf %p, %zero : f32" : "arith.addf %p, %zero : f32");
}

/// The prediction MLP 64 -> 256k -> 128k -> 10 over `rows` inputs.
std::string scaledModel(int factor, int rows) {
  int widthsOf[] = {64, 256 * factor, 128 * factor, 10};
  std::string body;
  std::string in = "%x";
  for (int l = 0; l < 3; ++l) {
    body += layer(l + 1, in, rows, widthsOf[l], widthsOf[l + 1], l < 2);
    in = absl::StrCat("%t", l + 1);
  }
  return absl::StrFormat(
      R"(// 64 -> %d -> %d -> 10 MLP, weights drawn in the module (scaling bench).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%%x: tensor<%dx64xf32>) -> tensor<%dx10xf32> {
  %%zero = arith.constant 0.0 : f32
  %%half = arith.constant 0.5 : f32
  %%ci = arith.constant 12.9898 : f32
  %%cj = arith.constant 78.233 : f32
  %%cm = arith.constant 43758.5453 : f32
%s  return %%t3 : tensor<%dx10xf32>
}
)",
      widthsOf[1], widthsOf[2], rows, rows, body, rows);
}

std::vector<int> parseInts(const std::string &text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipEmpty()))
    out.push_back(std::atoi(std::string(part).c_str()));
  return out;
}

/// Runs `argv` to completion with its stdout in `output`; returns the exit
/// status and the child's peak resident memory in KiB.
std::pair<int, long> runChild(const std::vector<std::string> &args,
                              std::string &output) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0)
    return {-1, 0};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipeFds[1], 1);
    close(pipeFds[0]);
    std::vector<char *> argv;
    for (const std::string &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipeFds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
    output.append(buffer, n);
  close(pipeFds[0]);
  int status = 0;
  struct rusage usage = {};
  wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
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
  auto [status, peakKiB] = runChild(args, output);
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
  auto [status, peak] =
      runChild({python, gevo::findRunfile("gevo/bench/numpy_mlp.py"),
                std::to_string(factor), "360", factor >= 16 ? "3" : "9"},
               output);
  (void)peak;
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

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Evaluation cost vs model width, search "
                                   "cost vs population.\n",
                                   &llvm::errs()))
    return 2;
  std::string tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string evaluate = gevo::findRunfile("gevo/evaluate");
  // The generated workloads live elsewhere: their data path is absolute.
  std::string data = gevo::findRunfile("testdata/digits/digits.csv");
  if (char *absolute = realpath(data.c_str(), nullptr)) {
    data = absolute;
    std::free(absolute);
  }
  llvm::json::Array evalRows, searchRows;
  std::string summary;

  // NumPy's BLAS and everything else on one thread.
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  std::vector<int> plainFactors = parseInts(plainWidths);
  std::printf("%-6s %10s %6s %7s %8s %9s %9s %9s %9s %7s %8s\n", "width",
              "parameters", "parse", "lower", "codegen", "run ms", "plain ms",
              "numpy ms", "np fwd ms", "/numpy", "peak MiB");
  for (int factor : parseInts(widths)) {
    std::string dir = llvm::formatv("{0}/gevo_bench_scaling_x{1}", tmp, factor);
    std::system(("mkdir -p '" + dir + "'").c_str());
    std::ofstream(dir + "/model.mlir") << scaledModel(factor, 360);
    llvm::json::Object workload{
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
    std::ofstream(dir + "/workload.json")
        << llvm::formatv("{0:2}", llvm::json::Value(std::move(workload))).str();
    auto report = evaluateChild(evaluate, dir, "");
    if (!report)
      return gevo::reportBadInput(
          llvm::formatv("width x{0}: {1}", factor,
                        llvm::toString(report.takeError()))
              .str());
    long peakKiB = report->second;
    const llvm::json::Object *o = report->first.getAsObject();
    auto number = [&](llvm::StringRef key) {
      return o->getNumber(key).value_or(0);
    };
    double plainMs = 0;
    if (std::find(plainFactors.begin(), plainFactors.end(), factor) !=
        plainFactors.end()) {
      auto plain = evaluateChild(evaluate, dir, "plain");
      if (!plain)
        return gevo::reportBadInput(
            llvm::formatv("width x{0}, plain pipeline: {1}", factor,
                          llvm::toString(plain.takeError()))
                .str());
      plainMs =
          plain->first.getAsObject()->getNumber("run_ms_median").value_or(0);
    }
    auto [numpyWithWeights, numpyForward] = numpyMs(factor);
    int64_t h1 = 256 * factor, h2 = 128 * factor;
    int64_t parameters = 64 * h1 + h1 * h2 + h2 * 10;
    double runMs = number("run_ms_median");
    double ratio = numpyWithWeights > 0 ? runMs / numpyWithWeights : 0;
    std::printf("x%-5d %10lld %6.1f %7.1f %8.1f %9.1f %9.1f %9.1f %9.1f %6.2fx "
                "%8.1f\n",
                factor, static_cast<long long>(parameters), number("parse_ms"),
                number("lower_ms"), number("codegen_ms"), runMs, plainMs,
                numpyWithWeights, numpyForward, ratio, peakKiB / 1024.0);
    std::fflush(stdout);
    evalRows.push_back(llvm::json::Object{
        {"factor", factor},
        {"hidden", llvm::formatv("{0}x{1}", h1, h2).str()},
        {"parameters", parameters},
        {"parse_ms", number("parse_ms")},
        {"lower_ms", number("lower_ms")},
        {"codegen_ms", number("codegen_ms")},
        {"median_run_ms", runMs},
        {"lowered_with", o->getString("lowered_with").value_or("").str()},
        {"plain_run_ms", plainMs},
        {"numpy_ms", numpyWithWeights},
        {"numpy_forward_ms", numpyForward},
        {"vs_numpy", ratio},
        {"peak_rss_mib", peakKiB / 1024.0}});
    absl::StrAppend(&summary, summary.empty() ? "" : ", ", "x", factor, " run ",
                    absl::StrFormat("%.1f", runMs), " ms");
    if (ratio > 0)
      absl::StrAppend(&summary, absl::StrFormat(" (%.2fx NumPy)", ratio));
  }

  std::printf("\n%-10s %7s %9s %11s %13s %14s\n", "population", "evals",
              "s/gen", "ms/indiv", "evals/s", "selection ms");
  std::mt19937_64 rng(1);
  for (int population : parseInts(populations)) {
    gevo::SearchConfig config = searchDefaults();
    if (absl::Status given = searchFlags.apply(config); !given.ok())
      return gevo::reportBadInput(std::string(given.message()));
    config.workloadPath = gevo::findRunfile("testdata/digits_mlp_train");
    config.objectives = {"static_cost", "error"};
    config.algorithm.population = population;
    config.budgetSeconds = 0;
    config.frontRepeats = 1;
    config.frontChildren = 1;
    config.frontLimit = 1;
    config.outDir =
        llvm::formatv("{0}/gevo_bench_scaling_pop{1}", tmp, population);
    std::system(("rm -rf '" + config.outDir + "'").c_str());
    absl::StatusOr<gevo::SearchResult> run =
        gevo::runSearch(config, false, nullptr);
    if (!run.ok())
      return gevo::reportBadInput(std::string(run.status().message()));
    // NSGA-II's own work per generation: selecting `population` survivors
    // from parents and children, on random two-objective points.
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<gevo::Objectives> points(2 * population);
    for (gevo::Objectives &p : points)
      p = {unit(rng), unit(rng)};
    std::vector<bool> feasible(points.size(), true);
    gevo::SteadyClock::time_point selection = gevo::SteadyClock::now();
    constexpr int kRepeats = 20;
    for (int r = 0; r < kRepeats; ++r)
      gevo::selectSurvivors(points, feasible, population);
    double selectionMs = gevo::millisecondsSince(selection) / kRepeats;
    int generationsRun = run->generationsDone + 1; // with the initial one
    double perGeneration = run->searchSeconds / generationsRun;
    int64_t individuals = int64_t(population) * generationsRun;
    std::printf("%-10d %7lld %9.2f %11.1f %13.1f %14.3f\n", population,
                static_cast<long long>(run->counts.evaluations), perGeneration,
                1000 * run->searchSeconds / individuals,
                run->counts.evaluations / run->searchSeconds, selectionMs);
    std::fflush(stdout);
    searchRows.push_back(llvm::json::Object{
        {"population", population},
        {"generations", generationsRun},
        {"evaluations", run->counts.evaluations},
        {"seconds_per_generation", perGeneration},
        {"ms_per_individual", 1000 * run->searchSeconds / individuals},
        {"selection_ms", selectionMs}});
  }
  llvm::json::Object figures{{"evaluation", std::move(evalRows)},
                             {"search", std::move(searchRows)}};
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  std::printf("scaling: %s\n", summary.c_str());
  return 0;
}
