//===- search.cc - The search run: an algorithm with its files around it --===//

#include "gevo/search/search.h"
#include "gevo/search/search_run.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/algorithm.h"
#include "gevo/search/batch_evaluator.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/front_remeasure.h"
#include "gevo/search/make_algorithm.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/progress.h"
#include "gevo/search/search_outputs.h"
#include "gevo/search/variant_probe.h"
#include "gevo/search/variation.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/history_writer.h"
#include "gevo/workbench/run_directory.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/JSON.h"

namespace gevo {

void SearchRun::buildAlgorithm() {
  variation = std::make_unique<Variation>(bench->variantContext(),
                                          mutationOptionsOf(config));
  rng.seed(config.seed);
  std::vector<double> bounds;
  for (const std::string &name : objectives)
    bounds.push_back(name == "error"
                         ? bench->baseline().error() + config.maxErrorIncrease
                         : std::numeric_limits<double>::infinity());
  objectiveBounds = bounds;
  AlgorithmContext context{config.algorithm, *variation, objectives, rng,
                           bounds};
  probe = std::make_unique<VariantProbe>(*bench, spec.entry);
  context.isNew = [this](const std::vector<Edit> &edits) {
    return probe->isNew(edits);
  };
  context.staticCost = [this](const std::vector<Edit> &edits) {
    return probe->staticCost(edits);
  };
  context.measured = [this] {
    std::vector<const Individual *> all;
    for (const std::vector<Individual> *list : {&state.archive, &state.failed})
      for (const Individual &individual : *list)
        all.push_back(&individual);
    return all;
  };
  if (remote && config.algorithm.breedOnRanks) {
    context.breed = [this](const std::vector<Recipe> &recipes) {
      return breedElsewhere(recipes);
    };
    context.isNewKey = [this](const std::string &key) {
      return probe->isNewKey(key);
    };
  }
  algorithm = makeAlgorithm(context);
}

absl::Status SearchRun::prepare(bool resume) {
  GEVO_ASSIGN_OR_RETURN(spec, loadWorkloadSpec(config.workloadPath));
  objectives = config.objectives.empty() ? spec.objectives : config.objectives;
  GEVO_RETURN_IF_ERROR(checkObjectives(objectives));
  GEVO_RETURN_IF_ERROR(checkSettings(config));
  GEVO_ASSIGN_OR_RETURN(bench, Workbench::create(spec, config.workbench));
  bench->setRemote(remote);
  config.workbench.workers = bench->workers();
  GEVO_RETURN_IF_ERROR(dir.create());
  bool hasRun = dir.hasCheckpoint();
  if (hasRun && !resume)
    return absl::AlreadyExistsError(
        absl::StrCat(config.outDir,
                     ": holds a search run already; continue it with --resume=",
                     config.outDir, " or choose another --out"));
  if (resume && !hasRun)
    return absl::NotFoundError(
        absl::StrCat(config.outDir, ": no checkpoint.json to resume from"));
  GEVO_RETURN_IF_ERROR(bench->cache().open(dir.cachePath()));
  if (!config.importCache.empty())
    GEVO_RETURN_IF_ERROR(bench->cache().import(config.importCache));
  // Before the algorithm: its bounds are relative to the unmodified
  // program's error.
  if (!quiet)
    progress.phase("measuring the unmodified program");
  GEVO_RETURN_IF_ERROR(measureUnmodified());
  buildAlgorithm();
  if (resume) {
    GEVO_ASSIGN_OR_RETURN(std::string text, dir.readCheckpoint());
    GEVO_ASSIGN_OR_RETURN(state,
                          parseCheckpoint(text, dir.file("checkpoint.json")));
    std::istringstream rngState(state.rngState);
    rngState >> rng;
    if (!rngState)
      return absl::InvalidArgumentError(dir.file("checkpoint.json") +
                                        ": unreadable random-number state");
    for (const Individual &individual : state.archive)
      archiveKeys.insert(individual.key);
    for (const Individual &individual : state.failed)
      failedKeys.insert(individual.key);
    elapsedBefore = state.elapsedSeconds;
  }
  GEVO_RETURN_IF_ERROR(history.open(dir.historyPath(), objectives,
                                    resume ? state.generation : -1));
  if (resume) {
    CsvTable measured = dir.readHistory();
    size_t key = measured.column("key");
    for (const std::vector<std::string> &row : measured.rows)
      if (key < row.size())
        probe->measured(row[key]);
  }
  return absl::OkStatus();
}

absl::Status SearchRun::startEvaluator() {
  bench->cache().insert(bench->unmodifiedKey(), bench->baseline());
  // Paired runs only pay off where run time is an objective.
  bool timed = std::find(objectives.begin(), objectives.end(), "runtime") !=
               objectives.end();
  evaluator =
      std::make_unique<BatchEvaluator>(*bench, timed ? config.pairedRuns : 0);
  evaluator->setRacing(config.raceMargin, config.raceDryRun,
                       config.maxErrorIncrease, config.raceReread,
                       config.raceStopUndecided, config.raceEvictShort);
  if (!state.population.empty() || state.counts.evaluations > 0)
    evaluator->counts = state.counts;
  evaluationsBefore = evaluator->counts.evaluations;
  return absl::OkStatus();
}

std::vector<size_t> SearchRun::archiveFront() const {
  std::vector<Objectives> points;
  std::vector<bool> feasible;
  for (const Individual &individual : state.archive) {
    points.push_back(objectivesOf(individual));
    feasible.push_back(mayJoinFront(individual, points.back()));
  }
  return nonDominated(points, feasible);
}

bool SearchRun::mayJoinFront(const Individual &individual,
                             const Objectives &values) const {
  // Racing stopped it as dominated (its run time is a partial reading),
  // or it is outside the bounds NSGA-II ranks behind every other variant
  // (an error far above the unmodified program's): not a front member.
  bool inside = !stoppedDominated(individual.measurement.raced);
  for (size_t k = 0; k < values.size() && k < objectiveBounds.size(); ++k)
    inside &= values[k] <= objectiveBounds[k];
  return inside;
}

double SearchRun::archiveHypervolume() const {
  return hypervolumeOf(archiveFront());
}

double SearchRun::hypervolumeOf(const std::vector<size_t> &front) const {
  std::vector<Objectives> points;
  for (size_t i : front)
    points.push_back(normalizedObjectives(state.archive[i].measurement,
                                          bench->baseline(), objectives));
  return hypervolume(points, Objectives(objectives.size(), 1.0));
}

ProgressState SearchRun::progressState() const {
  ProgressState s;
  s.generation = state.generation;
  s.generations = config.generations;
  s.counts = &evaluator->counts;
  s.evaluationsBefore = evaluationsBefore;
  s.objectives = objectives;
  for (const Individual &individual : state.archive) {
    std::vector<double> values = objectivesOf(individual);
    if (s.best.empty())
      s.best = values;
    for (size_t k = 0; k < values.size(); ++k)
      s.best[k] = std::min(s.best[k], values[k]);
  }
  std::vector<size_t> front = archiveFront();
  s.frontSize = front.size();
  s.hypervolume = hypervolumeOf(front);
  return s;
}

void SearchRun::evaluateGeneration(std::vector<Individual> &batch,
                                   int generation) {
  for (Individual &individual : batch)
    individual.generation = generation;
  evaluator->evaluate(batch, [&] {
    if (!quiet)
      progress.update([this] { return progressState(); });
  });
  for (const Individual &individual : batch)
    recordMeasured(individual);
  probe->endGeneration();
  history.flush();
}

void SearchRun::recordMeasured(const Individual &individual) {
  history.append(individual.generation, individual.key, individual.edits,
                 individual.measurement, individual.cached);
  probe->measured(individual.key);
  if (individual.newestKind) {
    OperatorStats &stats = state.operators[*individual.newestKind];
    ++stats.variants;
    if (individual.feasible())
      ++stats.ok;
    else
      ++stats.failures[individual.measurement.outcome];
  }
  if (individual.feasible() && archiveKeys.insert(individual.key).second)
    state.archive.push_back(individual);
  if (!individual.feasible() && failedKeys.insert(individual.key).second)
    state.failed.push_back(individual);
  if (!individual.cached)
    notePace(individual.measurement);
}

absl::Status SearchRun::saveCheckpoint() {
  std::ostringstream rngState;
  rngState << rng;
  state.rngState = rngState.str();
  state.counts = evaluator->counts;
  state.elapsedSeconds = elapsedBefore + secondsSince(started);
  auto writing = Clock::now();
  absl::Status written = dir.writeCheckpoint(toJsonText(state));
  lastCheckpointSeconds = secondsSince(writing);
  lastCheckpointAt = Clock::now();
  checkpointSeconds += lastCheckpointSeconds;
  ++checkpoints;
  return written;
}

absl::Status SearchRun::appendOperatorWeights() {
  if (std::optional<ScreenReport> screen = algorithm->screenReport())
    GEVO_RETURN_IF_ERROR(
        appendScreenRow(dir.file("surrogate.csv"), objectives, *screen));
  return appendOperatorWeightsRow(
      dir.file("operator_weights.csv"), variation->mutationOptions().kinds,
      state.generation, algorithm->operatorWeights(state.population));
}

/// CPU seconds this process used, its children's not included: the search
/// side's own work (breeding, selecting, building and keying variants), and
/// whatever the process did before the run (run.json takes the difference).
static double processCpuSeconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

absl::Status SearchRun::writeRunJson(const char *status) {
  llvm::json::Object object{
      {"status", status},
      {"config", toJson(config)},
      {"workload", spec.name},
      {"module", spec.modulePath},
      {"objectives", llvm::json::Array(objectives)},
      {"workers", config.workbench.workers},
      {"timeout_s", bench ? bench->timeoutSeconds() : 0.0},
      {"generations_done", state.generation},
      {"evaluations", evaluator ? evaluator->counts.evaluations : 0},
      {"cache_hits", evaluator ? evaluator->counts.cacheHits : 0},
      {"remeasured", evaluator ? evaluator->counts.remeasured : 0},
      {"raced", evaluator ? evaluator->counts.raced : 0},
      {"reread", evaluator ? evaluator->counts.reread : 0},
      {"checkpoints", checkpoints},
      {"checkpoint_s", checkpointSeconds},
      {"process_cpu_s", processCpuSeconds() - cpuBefore},
      {"child_s", childSeconds},
      {"remeasure_estimate_s", remeasureEstimate},
      {"remeasure_s", remeasureSeconds},
      {"seconds", elapsedBefore + secondsSince(started)},
  };
  object["baseline"] =
      measurementJson(bench ? bench->baseline() : Measurement());
  return dir.writeRun(std::move(object));
}

absl::Status SearchRun::measureUnmodified() {
  auto measuring = Clock::now();
  GEVO_RETURN_IF_ERROR(bench->measureBaseline());
  // What the child took besides compiling and timing the program.
  const Measurement &m = bench->baseline();
  RunCounts counts = runCounts(config.workbench.evaluation, spec);
  double ms = m.parseMs + m.lowerMs + m.codegenMs +
              (counts.warmup + counts.repeats) * m.medianRunMs;
  childSeconds = std::max(0.0, secondsSince(measuring) - ms / 1000.0);
  return absl::OkStatus();
}

absl::StatusOr<SearchResult> SearchRun::run(bool resume) {
  started = Clock::now();
  cpuBefore = processCpuSeconds();
  GEVO_RETURN_IF_ERROR(prepare(resume));
  GEVO_RETURN_IF_ERROR(startEvaluator());
  GEVO_RETURN_IF_ERROR(writeRunJson("running"));
  EvaluateBatch evaluate = [this](std::vector<Individual> &batch,
                                  int generation) {
    evaluateGeneration(batch, generation);
  };
  // The first generation's guess: generation 0's time per child measured
  // (it redraws failed ones) times the population; none on resume.
  double lastGeneration = 0;
  if (!resume) {
    auto generationStart = Clock::now();
    state.population = algorithm->initialPopulation(evaluate);
    int64_t measured =
        evaluator->counts.evaluations + evaluator->counts.cacheHits;
    lastGeneration = secondsSince(generationStart) * state.population.size() /
                     std::max<int64_t>(measured, state.population.size());
    GEVO_RETURN_IF_ERROR(saveCheckpoint());
    if (!quiet)
      progress.generationDone(progressState());
  }
  if (config.algorithm.schedule == Schedule::Steady) {
    GEVO_RETURN_IF_ERROR(runSteady());
  } else {
    while (state.generation < config.generations) {
      double elapsed = elapsedBefore + secondsSince(started);
      if (config.budgetSeconds > 0 &&
          elapsed + lastGeneration + remeasureReserve() > config.budgetSeconds)
        break;
      auto generationStart = Clock::now();
      int generation = state.generation + 1;
      state.population =
          algorithm->evolve(std::move(state.population), generation, evaluate);
      state.generation = generation;
      GEVO_RETURN_IF_ERROR(saveCheckpoint());
      GEVO_RETURN_IF_ERROR(appendOperatorWeights());
      if (!quiet)
        progress.generationDone(progressState());
      lastGeneration = secondsSince(generationStart);
    }
  }
  if (!quiet)
    progress.finish();
  SearchResult result;
  result.searchSeconds = elapsedBefore + secondsSince(started);
  GEVO_RETURN_IF_ERROR(report(result));
  GEVO_RETURN_IF_ERROR(writeRunJson("finished"));
  return result;
}

absl::StatusOr<SearchResult> runSearch(SearchConfig config, bool resume,
                                       std::FILE *progress,
                                       RemoteRunner *remote) {
  SearchRun run(std::move(config), progress, remote);
  return run.run(resume);
}

} // namespace gevo
