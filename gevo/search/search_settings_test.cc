//===- search_settings_test.cc - The search settings' one table -----------===//
//
// run.json's "config" round-trips every setting, keeps its key names and
// reads a file an older version wrote; each setting has one default, the
// one //gevo:search ships, and the flags made from the table yield it when
// none is given.
//
//===----------------------------------------------------------------------===//

#include <set>

#include "gevo/search/search_config.h"
#include "gevo/support/settings_flags.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Every row's value as text: equal for equal settings.
std::map<std::string, std::string> shown(const SearchConfig &config) {
  std::map<std::string, std::string> out;
  for (const Setting<SearchConfig> &row : searchSettings())
    out[row.doc.flag.empty() ? row.doc.key : row.doc.flag] = row.show(config);
  return out;
}

/// A config whose every setting differs from its default.
SearchConfig unusual() {
  SearchConfig c;
  c.workloadPath = "/w/workload.json";
  c.outDir = "/runs/r1";
  c.objectives = {"static_cost", "error"};
  c.generations = 7;
  c.budgetSeconds = 1800;
  c.seed = 42;
  c.maxErrorIncrease = 0.1;
  c.pairedRuns = 2;
  c.raceMargin = 0.75;
  c.raceReread = false;
  c.raceStopUndecided = true;
  c.raceEvictShort = false;
  c.frontRepeats = 4;
  c.frontChildren = 2;
  c.frontLimit = 9;
  c.importCache = "/runs/r0/cache.jsonl";
  AlgorithmSettings &a = c.algorithm;
  a.kind = Algorithm::Random;
  a.schedule = Schedule::Steady;
  a.breedOnRanks = false;
  a.population = 6;
  a.crossoverRate = 0.5;
  a.mutationRate = 0.7;
  a.removeRate = 0.3;
  a.retuneRate = 0.4;
  a.immigrantRate = 0.1;
  a.initialEdits = 2;
  a.maxRandomEdits = 5;
  a.screen = 1;
  a.rateSeeds = false;
  a.pruneSeeds = false;
  c.mutation.operators = {EditKind::Shrink, EditKind::Delete};
  c.mutation.functions = {"main", "train"};
  c.mutation.opPrefixes = {"arith.mulf", "linalg."};
  WorkbenchOptions &w = c.workbench;
  w.workers = 3;
  w.timeoutSeconds = 12.5;
  w.memoryBytes = int64_t(512) << 20;
  w.evaluation.pipeline = "plain";
  w.evaluation.target = "cuda";
  w.evaluation.codegen.llvmPipeline = "default<O1>";
  w.evaluation.codegen.optLevel = 1;
  w.evaluation.warmup = 0;
  w.evaluation.repeats = 3;
  w.evaluation.forkServer = false;
  return c;
}

TEST(SearchSettings, RunJsonRoundTripsEverySetting) {
  SearchConfig config = unusual();
  std::map<std::string, std::string> defaults = shown(SearchConfig());
  for (const auto &[name, value] : shown(config))
    if (name != "dialects") { // a flag that adds to --ops, not a field
      EXPECT_NE(value, defaults[name]) << name << " is not set off default";
    }
  absl::StatusOr<SearchConfig> read = configFromJson(toJson(config), "x");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(shown(*read), shown(config));
  EXPECT_EQ(read->mutation.operators, config.mutation.operators);
}

TEST(SearchSettings, RunJsonKeepsItsKeyNames) {
  llvm::json::Value json = toJson(SearchConfig());
  const llvm::json::Object *object = json.getAsObject();
  ASSERT_NE(object, nullptr);
  std::set<std::string> keys;
  for (const auto &entry : *object)
    keys.insert(entry.first.str());
  EXPECT_EQ(keys, (std::set<std::string>{"workload",
                                         "out",
                                         "objectives",
                                         "algorithm",
                                         "schedule",
                                         "breed_on_ranks",
                                         "population",
                                         "generations",
                                         "budget_s",
                                         "crossover_rate",
                                         "mutation_rate",
                                         "remove_rate",
                                         "retune_rate",
                                         "immigrant_rate",
                                         "max_error_increase",
                                         "screen",
                                         "paired_runs",
                                         "race_margin",
                                         "race_reread",
                                         "race_stop_undecided",
                                         "race_evict_short",
                                         "prune_seeds",
                                         "rate_seeds",
                                         "initial_edits",
                                         "max_random_edits",
                                         "seed",
                                         "workers",
                                         "timeout_s",
                                         "memory_bytes",
                                         "operators",
                                         "functions",
                                         "op_prefixes",
                                         "front_repeats",
                                         "front_children",
                                         "front_limit",
                                         "import_cache",
                                         "pipeline",
                                         "llvm_pipeline",
                                         "opt_level",
                                         "warmup",
                                         "repeats",
                                         "target",
                                         "fork_server"}));
}

TEST(SearchSettings, ReadsARunJsonAnOlderVersionWrote) {
  // No "target", "retune_rate", "immigrant_rate" or "rate_seeds" yet.
  llvm::Expected<llvm::json::Value> old = llvm::json::parse(R"({
    "workload": "/w", "out": "/o", "objectives": ["runtime", "error"],
    "algorithm": "random", "population": 8, "generations": 3,
    "budget_s": 60, "crossover_rate": 0.8, "mutation_rate": 0.9,
    "remove_rate": 0.2, "max_error_increase": 0.25, "screen": 1,
    "paired_runs": 0, "prune_seeds": false, "initial_edits": 4,
    "max_random_edits": 4, "seed": 5, "workers": 2, "timeout_s": 0,
    "memory_bytes": 4294967296, "operators": ["delete", "constant"],
    "functions": [], "op_prefixes": ["arith."], "front_repeats": 10,
    "front_children": 3, "front_limit": 24, "import_cache": "",
    "pipeline": "", "llvm_pipeline": "", "opt_level": 2, "warmup": -1,
    "repeats": -1})");
  ASSERT_TRUE(bool(old));
  absl::StatusOr<SearchConfig> read = configFromJson(*old, "run.json");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->algorithm.kind, Algorithm::Random);
  EXPECT_EQ(read->algorithm.population, 8);
  EXPECT_EQ(read->budgetSeconds, 60);
  EXPECT_EQ(read->seed, 5u);
  EXPECT_FALSE(read->algorithm.pruneSeeds);
  EXPECT_TRUE(read->algorithm.rateSeeds); // absent: the default
  EXPECT_EQ(read->workbench.workers, 2);
  EXPECT_EQ(read->mutation.operators,
            (std::vector<EditKind>{EditKind::Delete, EditKind::Constant}));
  EXPECT_EQ(read->mutation.opPrefixes, std::vector<std::string>{"arith."});
  EXPECT_EQ(read->workbench.evaluation.codegen.llvmPipeline, "");
  EXPECT_EQ(read->workbench.evaluation.target, "cpu");
}

TEST(SearchSettings, AMalformedValueIsAnErrorNamingFileAndKey) {
  llvm::json::Value bad = llvm::json::Object{{"population", "many"}};
  absl::StatusOr<SearchConfig> read = configFromJson(bad, "runs/r/run.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("runs/r/run.json"), std::string::npos)
      << read.status();
  EXPECT_NE(read.status().message().find("\"population\""), std::string::npos)
      << read.status();
  std::string text = "{\"status\": \"running\",\n \"config\": {\n"
                     "  \"seed\": 2,\n  \"population\": \"many\"}}\n";
  llvm::Expected<llvm::json::Value> file = llvm::json::parse(text);
  ASSERT_TRUE(bool(file));
  read = configFromJson(*file->getAsObject()->get("config"), "run.json", text);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message().substr(0, 14), "run.json:4:3: ")
      << read.status();
  llvm::json::Value unknown = llvm::json::Object{{"operators", {"fold"}}};
  read = configFromJson(unknown, "run.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("unknown operator 'fold'"),
            std::string::npos)
      << read.status();
}

// The defaults //gevo:search shipped as its flags' (before the table), now
// the struct's, which the algorithms and benchmarks also start from.
TEST(SearchSettings, OneDefaultPerSettingAndItIsTheShippedOne) {
  SearchConfig c;
  EXPECT_EQ(c.algorithm.kind, Algorithm::Nsga2);
  EXPECT_EQ(c.algorithm.population, 16);
  EXPECT_EQ(c.generations, 1000);
  EXPECT_EQ(c.budgetSeconds, 90);
  EXPECT_EQ(c.algorithm.crossoverRate, 0.8);
  EXPECT_EQ(c.algorithm.mutationRate, 0.9);
  EXPECT_EQ(c.algorithm.removeRate, 0.2);
  EXPECT_EQ(c.algorithm.retuneRate, 0);
  EXPECT_EQ(c.algorithm.immigrantRate, 0.25);
  EXPECT_EQ(c.algorithm.screen, 3);
  EXPECT_EQ(c.pairedRuns, 5);
  EXPECT_TRUE(c.algorithm.pruneSeeds);
  EXPECT_TRUE(c.algorithm.rateSeeds);
  EXPECT_EQ(c.maxErrorIncrease, 0.25);
  EXPECT_EQ(c.algorithm.initialEdits, 4);
  EXPECT_EQ(c.algorithm.maxRandomEdits, 4);
  EXPECT_EQ(c.seed, 1u);
  EXPECT_EQ(c.workbench.workers, 0);
  EXPECT_EQ(c.workbench.timeoutSeconds, 0);
  EXPECT_EQ(c.workbench.memoryBytes, int64_t(4) << 30);
  EXPECT_EQ(c.mutation.operators.size(), std::size(kAllEditKinds));
  EXPECT_EQ(c.workbench.evaluation.pipeline, "");
  EXPECT_EQ(c.workbench.evaluation.target, "cpu");
  EXPECT_EQ(c.workbench.evaluation.codegen.optLevel, 2);
  EXPECT_EQ(c.workbench.evaluation.warmup, -1);
  EXPECT_EQ(c.workbench.evaluation.repeats, -1);
  EXPECT_EQ(c.frontRepeats, 10);
  EXPECT_EQ(c.frontChildren, 3);
  EXPECT_EQ(c.frontLimit, 24);
  // The algorithms' own defaults are the same struct's.
  EXPECT_EQ(AlgorithmSettings().screen, c.algorithm.screen);
}

llvm::cl::OptionCategory testCategory("search settings test");
const SettingFlags<SearchConfig> flags(searchSettings(), SearchConfig(),
                                       testCategory);

bool parse(std::vector<const char *> argv) {
  llvm::cl::ResetAllOptionOccurrences();
  argv.insert(argv.begin(), "search_settings_test");
  std::string errors;
  llvm::raw_string_ostream os(errors);
  bool ok =
      llvm::cl::ParseCommandLineOptions(int(argv.size()), argv.data(), "", &os);
  EXPECT_TRUE(ok) << os.str();
  return ok;
}

TEST(SearchSettings, NoFlagsYieldTheDefaultsAndFlagsSetTheirFields) {
  ASSERT_TRUE(parse({}));
  SearchConfig config;
  ASSERT_TRUE(flags.apply(config).ok());
  EXPECT_EQ(shown(config), shown(SearchConfig()));

  ASSERT_TRUE(
      parse({"--population=6", "--budget=30m", "--memory-limit=512M",
             "--prune-seeds=false", "--rate-seeds", "--ops=arith.mulf",
             "--dialects=linalg", "--operators=shrink,delete",
             "--algorithm=random", "--timeout=", "--opt-level=1", "--seed=9"}));
  ASSERT_TRUE(flags.apply(config).ok());
  EXPECT_EQ(config.algorithm.population, 6);
  EXPECT_EQ(config.budgetSeconds, 1800);
  EXPECT_EQ(config.workbench.memoryBytes, int64_t(512) << 20);
  EXPECT_FALSE(config.algorithm.pruneSeeds);
  EXPECT_TRUE(config.algorithm.rateSeeds);
  EXPECT_EQ(config.mutation.opPrefixes,
            (std::vector<std::string>{"arith.mulf", "linalg."}));
  EXPECT_EQ(config.mutation.operators,
            (std::vector<EditKind>{EditKind::Shrink, EditKind::Delete}));
  EXPECT_EQ(config.algorithm.kind, Algorithm::Random);
  EXPECT_EQ(config.workbench.timeoutSeconds, 0);
  EXPECT_EQ(config.workbench.evaluation.codegen.optLevel, 1);
  EXPECT_EQ(config.seed, 9u);
}

TEST(SearchSettings, OnResumeOnlyTheResumableFlagsApply) {
  ASSERT_TRUE(parse({"--generations=5", "--budget=0", "--workers=2",
                     "--population=8", "--seed=3"}));
  SearchConfig config = unusual();
  ASSERT_TRUE(flags.apply(config, /*resumableOnly=*/true).ok());
  EXPECT_EQ(config.generations, 5);
  EXPECT_EQ(config.budgetSeconds, 0);
  EXPECT_EQ(config.workbench.workers, 2);
  EXPECT_EQ(config.algorithm.population, unusual().algorithm.population);
  EXPECT_EQ(config.seed, unusual().seed);
}

TEST(SearchSettings, ABadFlagValueNamesTheFlag) {
  ASSERT_TRUE(parse({"--memory-limit=lots"}));
  SearchConfig config;
  absl::Status status = flags.apply(config);
  EXPECT_EQ(status.message(),
            "--memory-limit: expected e.g. 512M or 4G, got 'lots'");
  ASSERT_TRUE(parse({"--algorithm=hill"}));
  EXPECT_NE(flags.apply(config).message().find("--algorithm: "),
            std::string::npos);
}

TEST(SearchSettings, EveryFlagAndKeyIsNamedOnce) {
  std::set<std::string> flagNames, keys;
  for (const Setting<SearchConfig> &row : searchSettings()) {
    EXPECT_FALSE(row.doc.help.empty()) << row.doc.flag;
    if (!row.doc.flag.empty()) {
      EXPECT_TRUE(flagNames.insert(row.doc.flag).second) << row.doc.flag;
    }
    if (!row.doc.key.empty()) {
      EXPECT_TRUE(keys.insert(row.doc.key).second) << row.doc.key;
    }
  }
}

} // namespace
} // namespace gevo
