//===- scale_out_main.cc - Evaluations/s over 1, 2, 3 evaluating ranks ----===//
//
//   bazel run //gevo/bench:scale_out [-- --generations=3 --schedule=steady
//   --json=F]
//
// Runs the same deterministic search (static_cost, error; same seed) as an
// mpirun job with 1, 2 and 3 evaluating ranks of one worker each, and with
// 1 rank of 2 workers, children bred on the ranks; then 1 and 2 ranks with
// rank 0 breeding them (--breed-on-ranks=0), for comparison, and 2 ranks
// with 16 times the population (rank 0's work per evaluation as populations
// and archives grow). It reads each
// run's mpi.json: evaluations per second
// over the window from the first variant handed out to the last result,
// the share of that window rank 0 spent waiting (not on its CPU), the share
// the evaluating ranks held no job, and rank 0's CPU per evaluation, split
// into handing out (MPI, encoding), polling (idle wakeups and their sleeps)
// and the search itself (draws, recipes, selection, files; with rank 0
// breeding, also building and keying children). From the runs bred on the
// ranks it projects evaluations/s to 64 and 1024 cores. Prints a row per
// configuration, the 2-rank speed-up last, and writes JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/child_process.h"
#include "gevo/bench/figures.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("scale_out benchmark options");
cl::opt<std::string> workload("workload",
                              cl::desc("Workload (default: digits training)"),
                              cl::init(""), cl::cat(category));
cl::opt<int> population("population", cl::desc("Individuals per generation"),
                        cl::init(16), cl::cat(category));
cl::opt<int> generations("generations", cl::desc("Generations per run"),
                         cl::init(3), cl::cat(category));
cl::opt<std::string> schedule("schedule",
                              cl::desc("The searches' --schedule (default "
                                       "generational)"),
                              cl::init("generational"), cl::cat(category));
cl::opt<std::string> outDir("out", cl::desc("Where the runs go"),
                            cl::init("/tmp/gevo-scale-out"), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default scale_out.json)"),
                              cl::init("scale_out.json"), cl::cat(category));

struct Setup {
  int ranks;   // evaluating ranks
  int workers; // per rank
  /// --breed-on-ranks=0: rank 0 breeds every child itself (the local
  /// backend's draws), for comparison.
  bool rankZeroBreeds = false;
  /// > 0: this population instead of --population (does rank 0's work
  /// per evaluation stay flat as populations and archives grow?).
  int population = 0;
};

int populationOf(const Setup &setup) {
  return setup.population > 0 ? setup.population : population.getValue();
}

/// Runs `args` (searched on PATH) to completion, its output discarded; its
/// exit status.
int runProgram(const std::vector<std::string> &args) {
  return gevo::runChild(args, nullptr).status;
}

/// One configuration's mpi.json, or an error line.
llvm::Expected<llvm::json::Value> runSetup(const std::string &search,
                                           const std::string &workloadDir,
                                           Setup setup) {
  std::string dir = absl::StrCat(
      outDir.getValue(), "/r", setup.ranks, "w", setup.workers,
      setup.rankZeroBreeds ? "-rank0-breeds" : "", "p", populationOf(setup));
  runProgram({"rm", "-rf", dir});
  runProgram({"mkdir", "-p", outDir.getValue()});
  std::vector<std::string> args = {"mpirun", "--oversubscribe", "--bind-to",
                                   "none"};
  if (getuid() == 0)
    args.push_back("--allow-run-as-root");
  for (std::string a :
       {std::string("-np"), std::to_string(setup.ranks + 1), search,
        std::string("--backend=mpi"), "--workload=" + workloadDir,
        std::string("--objectives=static_cost,error"), std::string("--seed=1"),
        "--population=" + std::to_string(populationOf(setup)),
        "--generations=" + std::to_string(generations.getValue()),
        std::string("--budget=0"), "--schedule=" + schedule.getValue(),
        std::string("--front-repeats=1"), std::string("--front-limit=4"),
        "--workers=" + std::to_string(setup.workers),
        std::string("--breed-on-ranks=") + (setup.rankZeroBreeds ? "0" : "1"),
        std::string("--quiet"), "--out=" + dir})
    args.push_back(a);
  int status = runProgram(args);
  absl::StatusOr<std::string> text = gevo::readFile(dir + "/mpi.json", "");
  if (status != 0 || !text.ok())
    return llvm::createStringError(
        absl::StrCat("mpirun exited ", status, "; no ", dir, "/mpi.json"));
  return llvm::json::parse(*text);
}

/// What the runs measured: a row per setup, and the figures the
/// projection is drawn from.
struct Measured {
  llvm::json::Array rows;
  double oneRank = 0, twoRanks = 0, searchMs = 0, dispatchMs = 0;
  /// Rank 0's serial ms per evaluation when it breeds (2 ranks).
  double rankZeroBreedingMs = 0;
};

/// Prints `setup`'s row of the table and returns it as JSON.
llvm::json::Object setupRow(Setup setup, const llvm::json::Object *o) {
  auto num = [&](const char *key) {
    return o ? o->getNumber(key).value_or(0) : 0.0;
  };
  double rate = num("evaluations_per_s");
  std::printf("%d x %d%s, population %d | %.2f | %.0f%% | %.1f%% | %.3f | "
              "%.3f | %.2f\n",
              setup.ranks, setup.workers,
              setup.rankZeroBreeds ? " (rank 0 breeds)" : "",
              populationOf(setup), rate, 100 * num("rank0_waiting_share"),
              100 * num("ranks_idle_share"),
              num("rank0_dispatch_ms_per_evaluation"),
              num("rank0_polling_ms_per_evaluation"),
              num("rank0_search_ms_per_evaluation"));
  return llvm::json::Object{
      {"ranks", setup.ranks},
      {"workers", setup.workers},
      {"rank0_breeds", setup.rankZeroBreeds},
      {"population", populationOf(setup)},
      {"bred_on_ranks", num("bred_on_ranks")},
      {"evaluations", num("evaluations")},
      {"window_s", num("window_s")},
      {"evaluations_per_s", rate},
      {"rank0_waiting_share", num("rank0_waiting_share")},
      {"ranks_idle_share", num("ranks_idle_share")},
      {"rank0_dispatch_ms_per_evaluation",
       num("rank0_dispatch_ms_per_evaluation")},
      {"rank0_polling_ms_per_evaluation",
       num("rank0_polling_ms_per_evaluation")},
      {"rank0_search_ms_per_evaluation", num("rank0_search_ms_per_evaluation")},
  };
}

/// Runs every setup, printing a row each.
absl::StatusOr<Measured> measureSetups(const std::string &search,
                                       const std::string &workloadDir) {
  std::vector<Setup> setups = {{1, 1},
                               {2, 1},
                               {3, 1},
                               {1, 2},
                               {1, 1, true},
                               {2, 1, true},
                               {2, 1, false, 16 * population.getValue()}};
  Measured measured;
  std::printf("ranks x workers | evaluations/s | rank 0 waiting | ranks idle "
              "| rank 0 dispatch ms/eval | polling ms/eval | search ms/eval\n");
  for (Setup setup : setups) {
    llvm::Expected<llvm::json::Value> stats =
        runSetup(search, workloadDir, setup);
    if (!stats)
      return absl::UnknownError(llvm::toString(stats.takeError()));
    const llvm::json::Object *o = stats->getAsObject();
    llvm::json::Object row = setupRow(setup, o);
    double rate = row.getNumber("evaluations_per_s").value_or(0);
    auto ms = [&](const char *key) { return row.getNumber(key).value_or(0); };
    if (setup.rankZeroBreeds && setup.ranks == 2) {
      measured.rankZeroBreedingMs = ms("rank0_search_ms_per_evaluation") +
                                    ms("rank0_dispatch_ms_per_evaluation");
    } else if (!setup.rankZeroBreeds && setup.workers == 1 &&
               setup.ranks == 1) {
      measured.oneRank = rate;
    } else if (!setup.rankZeroBreeds && setup.workers == 1 &&
               setup.ranks == 2 && setup.population == 0) {
      measured.twoRanks = rate;
      measured.searchMs = ms("rank0_search_ms_per_evaluation");
      measured.dispatchMs = ms("rank0_dispatch_ms_per_evaluation");
    }
    measured.rows.push_back(std::move(row));
  }
  return measured;
}

/// Paper on paper: a generation is rank 0's serial work for each of its P
/// individuals (search + dispatch) and then ceil(P / C) rounds of one
/// evaluation (1 / one rank's rate) on C cores; the population grows with
/// the cores (P = max(population, C)), so that every core has a variant.
llvm::json::Array projection(double evaluationS, double serialS) {
  llvm::json::Array projection;
  for (int cores : {2, 64, 1024}) {
    int p = std::max(population.getValue(), cores);
    double generationS =
        p * serialS + std::ceil(double(p) / cores) * evaluationS;
    projection.push_back(llvm::json::Object{
        {"cores", cores},
        {"population", p},
        {"evaluations_per_s", generationS > 0 ? p / generationS : 0.0},
        {"rank0_share", generationS > 0 ? p * serialS / generationS : 0.0},
    });
  }
  return projection;
}

/// Every figure of the benchmark; prints the 2-rank speed-up.
llvm::json::Object scaleOutFigures(const std::string &workloadDir,
                                   Measured measured) {
  double evaluationS = measured.oneRank > 0 ? 1 / measured.oneRank : 0;
  double serialS = (measured.searchMs + measured.dispatchMs) / 1000;
  double speedup =
      measured.oneRank > 0 ? measured.twoRanks / measured.oneRank : 0;
  std::printf("2 evaluating ranks: %.2fx one rank's evaluations/s (target "
              ">= 1.7x); rank 0 dispatch %.3f ms per evaluation (target < 1 "
              "ms)\n",
              speedup, measured.dispatchMs);
  return llvm::json::Object{
      {"workload", workloadDir.substr(workloadDir.rfind('/') + 1)},
      {"population", population.getValue()},
      {"generations", generations.getValue()},
      {"schedule", schedule.getValue()},
      {"setups", std::move(measured.rows)},
      {"speedup_2_ranks", speedup},
      {"evaluation_s", evaluationS},
      {"rank0_serial_ms_per_evaluation", 1000 * serialS},
      {"rank0_breeding_serial_ms_per_evaluation", measured.rankZeroBreedingMs},
      {"bottleneck_cores", serialS > 0 ? evaluationS / serialS : 0.0},
      {"projection", projection(evaluationS, serialS)},
  };
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "scale_out benchmark\n");
  std::string search = gevo::findRunfile("gevo/gevo_search");
  std::string workloadDir = workload.empty()
                                ? gevo::findRunfile("testdata/digits_mlp_train")
                                : gevo::resolveUserPath(workload);
  if (runProgram({"sh", "-c", "command -v mpirun >/dev/null"}) != 0)
    return gevo::reportBadInput(
        "mpirun not found: run bazel/setup.sh (openmpi-bin)");
  absl::StatusOr<Measured> measured = measureSetups(search, workloadDir);
  if (!measured.ok())
    return gevo::reportFailure(measured.status());
  llvm::json::Object figures =
      scaleOutFigures(workloadDir, std::move(*measured));
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  return 0;
}
