//===- search_settings.cc - The search settings' table --------------------===//
//
// Every search setting's flag, run.json key and help, in one table per part
// of SearchConfig. //gevo:search and the benchmarks make their flags from
// it (settings_flags.h), run.json is written and read with it
// (search_config.cc), and docs/search.md lists it. A new setting is a field
// (with its default) in search_config.h or algorithm.h, a row here, and a
// line in docs/search.md.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/ir/mutation.h"
#include "gevo/search/search_config.h"

namespace gevo {
namespace {

/// nsga2 or random.
struct AlgorithmCodec {
  static constexpr bool kIsBool = false;
  const char *name = "name";
  absl::Status parse(llvm::StringRef text, Algorithm &out) const {
    if (text != "nsga2" && text != "random")
      return absl::InvalidArgumentError(
          absl::StrCat("expected nsga2 or random, got '", text.str(), "'"));
    out = text == "nsga2" ? Algorithm::Nsga2 : Algorithm::Random;
    return absl::OkStatus();
  }
  std::string show(const Algorithm &value) const { return toString(value); }
  llvm::json::Value write(const Algorithm &value) const {
    return toString(value);
  }
  absl::Status read(const llvm::json::Value &value, Algorithm &out) const {
    std::string text = value.getAsString().value_or("").str();
    if (!parse(text, out).ok())
      return absl::InvalidArgumentError(
          absl::StrCat("unknown algorithm '", text, "'"));
    return absl::OkStatus();
  }
};

/// generational or steady.
struct ScheduleCodec {
  static constexpr bool kIsBool = false;
  const char *name = "name";
  absl::Status parse(llvm::StringRef text, Schedule &out) const {
    if (text != "generational" && text != "steady")
      return absl::InvalidArgumentError(absl::StrCat(
          "expected generational or steady, got '", text.str(), "'"));
    out = text == "steady" ? Schedule::Steady : Schedule::Generational;
    return absl::OkStatus();
  }
  std::string show(const Schedule &value) const { return toString(value); }
  llvm::json::Value write(const Schedule &value) const {
    return toString(value);
  }
  absl::Status read(const llvm::json::Value &value, Schedule &out) const {
    std::string text = value.getAsString().value_or("").str();
    if (!parse(text, out).ok())
      return absl::InvalidArgumentError(
          absl::StrCat("unknown schedule '", text, "'"));
    return absl::OkStatus();
  }
};

/// Mutation operators by name: "delete,copy" on the command line, an array
/// of names in JSON.
struct EditKindsCodec {
  static constexpr bool kIsBool = false;
  const char *name = "list";
  absl::Status parse(llvm::StringRef text, std::vector<EditKind> &out) const {
    absl::StatusOr<std::vector<EditKind>> kinds = parseEditKinds(text.str());
    if (!kinds.ok())
      return kinds.status();
    out = *kinds;
    return absl::OkStatus();
  }
  std::string show(const std::vector<EditKind> &value) const {
    return absl::StrJoin(value, ",", [](std::string *out, EditKind kind) {
      out->append(toString(kind));
    });
  }
  llvm::json::Value write(const std::vector<EditKind> &value) const {
    llvm::json::Array names;
    for (EditKind kind : value)
      names.push_back(toString(kind));
    return names;
  }
  absl::Status read(const llvm::json::Value &value,
                    std::vector<EditKind> &out) const {
    std::vector<std::string> names;
    if (absl::Status read = ListCodec().read(value, names); !read.ok())
      return read;
    out.clear();
    for (const std::string &name : names) {
      std::optional<EditKind> kind = parseEditKind(name);
      if (!kind)
        return absl::InvalidArgumentError(
            absl::StrCat("unknown operator '", name, "'"));
      out.push_back(*kind);
    }
    return absl::OkStatus();
  }
};

/// --dialects: appended to the op prefixes as "dialect." (after --ops).
Setting<MutationFilters> dialectsFlag() {
  Setting<MutationFilters> row;
  row.doc = {"dialects", "",
             "Only target ops of these dialects (comma-separated, e.g. "
             "'arith,linalg'); combined with --ops, an op matching either is "
             "a target"};
  row.valueName = "list";
  row.parse = [](llvm::StringRef text, MutationFilters &filters) {
    std::vector<std::string> dialects;
    absl::Status parsed = ListCodec().parse(text, dialects);
    for (const std::string &dialect : dialects)
      filters.opPrefixes.push_back(dialect + ".");
    return parsed;
  };
  row.show = [](const MutationFilters &) { return std::string(); };
  return row;
}

SettingsTable<AlgorithmSettings> algorithmRows() {
  using A = AlgorithmSettings;
  return {
      setting(&A::kind,
              {"algorithm", "algorithm",
               "nsga2, or random: random edit lists with the same evaluation "
               "budget, the baseline a search must beat"},
              AlgorithmCodec()),
      setting(&A::schedule,
              {"schedule", "schedule",
               "generational: a generation's children all measured, then "
               "selected; steady: a child bred whenever a worker frees and "
               "selected on arrival (no generation barrier; a generation is "
               "`population` arrivals)"},
              ScheduleCodec()),
      setting(&A::breedOnRanks,
              {"breed-on-ranks", "breed_on_ranks",
               "With --backend=mpi, the evaluating ranks breed the children "
               "(mutate, check, build, "
               "key, cost them) from rank 0's draws, each child's draws on a "
               "module from a seed of its own, so that rank 0 only selects; "
               "off: rank 0 breeds them as the local backend does, draw for "
               "draw"}),
      setting(&A::population,
              {"population", "population", "Individuals per generation"}),
      setting(&A::crossoverRate, {"crossover-rate", "crossover_rate",
                                  "Chance a pair of parents is crossed"}),
      setting(&A::mutationRate,
              {"mutation-rate", "mutation_rate", "Chance a child is mutated"}),
      setting(&A::removeRate,
              {"remove-rate", "remove_rate",
               "Chance a mutation removes an edit instead of adding one"}),
      setting(&A::retuneRate,
              {"retune-rate", "retune_rate",
               "Chance a mutation moves a shrink or constant edit in the list "
               "to a neighbour (a quarter more or fewer kept, another rule, "
               "x1.25 or /1.25) instead of adding one; 0: off"}),
      setting(&A::immigrantRate,
              {"immigrant-rate", "immigrant_rate",
               "Share of each generation's children drawn at random like "
               "random search's, instead of bred"}),
      setting(&A::screen,
              {"screen", "screen",
               "NSGA-II breeds this many candidates per child slot; a "
               "surrogate fitted on the run's own measurements (failure "
               "rates per edit, nearest measured variant, static cost) picks "
               "the one to compile and run, and surrogate.csv says how well "
               "it guessed (1 turns the pre-screen off; BENCHMARKS.md "
               "section 2 measures it)"}),
      setting(&A::pruneSeeds,
              {"prune-seeds", "prune_seeds",
               "NSGA-II's generation 0 starts with a shrink per prunable "
               "dimension keeping its heaviest 3/4 of units, and one list "
               "of all of them"}),
      setting(&A::rateSeeds,
              {"rate-seeds", "rate_seeds",
               "Where the module trains by gradient descent, NSGA-II's "
               "generation 0 also starts with each learning rate doubled and "
               "halved"}),
      setting(&A::initialEdits, {"initial-edits", "initial_edits",
                                 "Initial individuals hold 1..N edits"}),
      setting(&A::maxRandomEdits, {"max-random-edits", "max_random_edits",
                                   "Random search draws lists of 1..N edits"}),
  };
}

SettingsTable<MutationFilters> mutationRows() {
  using M = MutationFilters;
  return {
      setting(&M::operators,
              {"operators", "operators",
               "Comma-separated mutation operators: delete, copy, move, swap, "
               "replace, operand, constant, shrink",
               "all"},
              EditKindsCodec()),
      setting(&M::functions,
              {"functions", "functions",
               "Only mutate ops in these functions (comma-separated)",
               "every function"}),
      setting(&M::opPrefixes,
              {"ops", "op_prefixes",
               "Only target ops whose name starts with one of these "
               "(comma-separated, e.g. 'arith.mulf,linalg.matmul')",
               "every op"}),
      dialectsFlag(),
  };
}

SettingsTable<SearchConfig> runRows() {
  using C = SearchConfig;
  return {
      setting(&C::workloadPath,
              {"workload", "workload",
               "Workload to search: a directory holding workload.json, or "
               "the file itself",
               "the embedded digits MLP training workload"},
              PathCodec()),
      setting(&C::outDir,
              {"out", "out",
               "Run directory to write: front/*.gevo, front.json, "
               "history.csv, run.json, operators.csv, cache.jsonl, "
               "checkpoint.json",
               "gevo-runs/<workload>-<time>"},
              PathCodec{"dir"}),
      setting(&C::objectives,
              {"objectives", "objectives",
               "Comma-separated objectives, all minimised: runtime (median "
               "run ms), error (1 - validation accuracy), static_cost "
               "(estimated scalar operations executed; deterministic), "
               "lowered_ops (LLVM dialect ops after lowering; deterministic)",
               "the workload's"}),
      setting(&C::generations,
              {"generations", "generations",
               "Generations after the initial population (the budget "
               "usually ends the run first)",
               "", /*resumable=*/true}),
      setting(&C::budgetSeconds,
              {"budget", "budget_s",
               "Wall-clock budget for the search, e.g. 90s, 30m, 2h; 0 for "
               "none. It includes the front's re-measurement at the end: "
               "the search stops early enough for it, as the front so far "
               "estimates it",
               "", /*resumable=*/true},
              DurationCodec()),
      setting(&C::seed, {"seed", "seed", "Random seed"}),
      setting(&C::maxErrorIncrease,
              {"max-error-increase", "max_error_increase",
               "NSGA-II ranks a variant whose validation error exceeds the "
               "unmodified program's by more than this behind every other, "
               "and leaves it off the front, so that broken fast variants do "
               "not hold the front's ends"}),
      setting(&C::pairedRuns,
              {"paired-runs", "paired_runs",
               "Time each variant N times interleaved with the unmodified "
               "program in its own child; the runtime objective is then the "
               "per-pair ratio on the unmodified program's scale, so what "
               "runs beside a child slows both alike (0: plain timing)"}),
      setting(&C::raceMargin,
              {"race-margin", "race_margin",
               "Racing, with paired runs: a variant the front dominates "
               "stops during its first run (past 1 + this times twice the "
               "unmodified program's time, or the slowest member's), "
               "after it (error beyond the feasible band, time over 1 + this "
               "times a member at least as accurate) or once its timed pairs "
               "show it; one entering the front stops after three pairs (0: "
               "every variant timed fully)"}),
      setting(&C::raceReread,
              {"race-reread", "race_reread",
               "Racing: a variant whose reading would enter the front, or "
               "that racing kept within the process noise (dominated in its "
               "child only; where its timed runs took at least its "
               "compile), is read again in a child of its own and enters "
               "(or stops) by that second reading, which no selection "
               "picked, so that the front keeps neither its luckiest "
               "readings nor loses to one unlucky child"}),
      setting(&C::raceStopUndecided,
              {"race-stop-undecided", "race_stop_undecided",
               "Racing: a variant whose pairs decide neither way after three "
               "(as fast as a member within the noise, as a neutral edit's "
               "twin) stops once the pairs left could not decide it at its "
               "median and spread, where that median is ahead of every member "
               "at least as accurate (undecided:N: it joins the front on it "
               "and is read again, as an entry is), instead of being timed "
               "through every pair"}),
      setting(&C::raceEvictShort,
              {"race-evict-short", "race_evict_short",
               "Racing: a variant whose first run is short (under 20 ms) "
               "beside an unmodified program that is not is timed against "
               "one run of the unmodified program; in each later pair a "
               "write over a buffer the size of the last level cache stands "
               "in for it, so that each run of the variant still finds the "
               "caches cold, at a fraction of the long program's cost"}),
      setting(&C::frontRepeats,
              {"front-repeats", "front_repeats",
               "Noise control: runs of each front variant interleaved with "
               "the unmodified program when reporting"}),
      setting(&C::frontChildren,
              {"front-children", "front_children",
               "Noise control: separate children each front variant's "
               "interleaved runs are split over; the median of their ratios "
               "counts, so one child slow on one side throughout is "
               "outvoted"}),
      setting(&C::frontLimit, {"front-limit", "front_limit",
                               "Most front variants re-measured and written"}),
      setting(&C::importCache,
              {"cache", "import_cache",
               "Start from another run's fitness cache (its cache.jsonl); "
               "equal variants are not evaluated again"},
              PathCodec{"file"}),
  };
}

} // namespace

const SettingsTable<SearchConfig> &searchSettings() {
  static const SettingsTable<SearchConfig> table = [] {
    SettingsTable<SearchConfig> rows = runRows();
    appendNested(rows, algorithmRows(), &SearchConfig::algorithm);
    appendNested(rows, mutationRows(), &SearchConfig::mutation);
    appendNested(rows, workbenchSettings(), &SearchConfig::workbench);
    return rows;
  }();
  return table;
}

} // namespace gevo
