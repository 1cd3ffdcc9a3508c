//===- algorithm_settings.h - What a search algorithm is told -------------===//
//
// Which algorithm a search runs and the settings it reads: population,
// crossover and mutation rates, immigrants, the pre-screen and generation
// 0's seeds. Part of SearchConfig (search_config.h), whose table gives each
// field its flag and run.json key; the defaults here are the shipped ones.
// No MLIR, no dependencies.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_ALGORITHM_SETTINGS_H
#define GEVO_SEARCH_ALGORITHM_SETTINGS_H

namespace gevo {

/// Which algorithm a search runs: NSGA-II, or random edit lists with the
/// same evaluation budget (the baseline a search must beat).
enum class Algorithm { Nsga2, Random };

/// When children are bred and selected: a generation at a time (all of a
/// generation's children measured before any is selected), or steady-state
/// (steady_loop.h: a child bred whenever a worker frees, selected on
/// arrival; no generation barrier after generation 0).
enum class Schedule { Generational, Steady };

/// What the algorithms read of a search's settings (SearchConfig::algorithm;
/// their flags and JSON keys are in search_settings.cc).
struct AlgorithmSettings {
  Algorithm kind = Algorithm::Nsga2;
  /// Generational by default: steady-state gave 1.11x the evaluations/s on
  /// the generated Fashion training and 1.25x on digits (one seed, BENCHMARKS
  /// §14), but only generational gives a seed's front whatever the workers
  /// (docs/search.md, schedule).
  Schedule schedule = Schedule::Generational;
  /// With an MPI backend: children are bred on the evaluating ranks from
  /// the search's recipes (recipe.h).
  bool breedOnRanks = true;
  int population = 16;
  double crossoverRate = 0.8;
  double mutationRate = 0.9;
  /// Of mutations, how many remove an edit instead of adding one.
  double removeRate = 0.2;
  /// Of mutations, how many move a tunable edit (shrink, constant) already
  /// in the list to a neighbouring selection or value (Variation::retune)
  /// instead of adding one. Off by default: 0.3 made no difference beyond
  /// noise on the validation seeds
  /// (bench-results/search_vs_random_retune03.json).
  double retuneRate = 0;
  /// Of each generation's children, how many are fresh random lists (as
  /// random search draws them) instead of bred from parents: immigrants
  /// that keep exploring while the rest exploit the front.
  double immigrantRate = 0.25;
  /// Initial lists hold 1..initialEdits edits; random lists 1..maxRandomEdits.
  int initialEdits = 4;
  int maxRandomEdits = 4;
  /// Candidates bred per child slot, of which a surrogate (surrogate.h)
  /// fitted on the run's measurements picks the one to run; 1: every child
  /// bred is run. The default, 3, was chosen with search_vs_random's fair
  /// measure on seeds 1-5 and checked on seeds 6-10 (BENCHMARKS.md §2).
  int screen = 3;
  /// Generation 0 starts with Variation::seedLists() (at most half of it,
  /// one per variant) before random lists: learning-rate sweeps (doubled
  /// and halved where the module trains by gradient descent) when
  /// `rateSeeds`, magnitude pruning (a shrink per prunable dimension keeping
  /// the heaviest three quarters of its units) when `pruneSeeds`. Both were
  /// chosen on seeds 1-5 (bench-results/search_vs_random_rate_train.json)
  /// and checked on held-out seeds of both workloads (BENCHMARKS.md §2).
  bool rateSeeds = true;
  bool pruneSeeds = true;
};

} // namespace gevo

#endif // GEVO_SEARCH_ALGORITHM_SETTINGS_H
