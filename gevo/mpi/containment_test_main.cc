//===- containment_test_main.cc - Crashes and hangs end children, not ranks
//===//
//
// Run by containment_test.sh as `mpirun -np 3 containment_test WORKLOAD
// STATS`: rank 0 measures, on ranks 1 and 2, variants of the faulty fixture
// that crash (an integer division by zero) and hang (a loop that never ends),
// then a second batch of valid variants, then a hang among valid variants.
// Each outcome must come back classified, and both ranks must still serve
// the later batches. Prints FAIL lines and exits 1 on a failure; ranks 1..
// just serve.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gevo/mpi/mpi_job.h"
#include "gevo/search/search.h"
#include "gevo/workbench/workbench.h"
#include "replay/patch.h"

namespace {

using gevo::Edit;

/// Sets constant #`ordinal` of the fixture (addresses from `mutate --list`).
std::vector<Edit> constantEdit(const char *address, const std::string &value) {
  absl::StatusOr<Edit> edit =
      gevo::parseEdit(absl::StrCat("constant ", address, " = ", value));
  if (!edit.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", edit.status().ToString().c_str());
    return {};
  }
  return {*edit};
}

// The fixture's constants (gevo/mpi/testdata/faulty/model.mlir): edited,
// %spin loops forever and %div divides by zero, both depending on the data,
// so replay's static check lets them through to the sandbox.
constexpr const char *kSpin = "@main/arith.constant#0~02b2c6ea"; // -1.0
constexpr const char *kStep = "@main/arith.constant#2~5b471f57"; // 1
constexpr const char *kDiv = "@main/arith.constant#3~eaaf9635";  // 1

int check(gevo::Workbench &bench) {
  int failures = 0;
  auto expect = [&](bool ok, const std::string &what) {
    if (!ok) {
      std::fprintf(stderr, "FAIL: %s\n", what.c_str());
      ++failures;
    }
  };
  std::vector<std::vector<Edit>> faulty = {constantEdit(kDiv, "0"),
                                           constantEdit(kSpin, "100.0"),
                                           constantEdit(kStep, "2")};
  std::vector<gevo::MeasuredVariant> first = bench.measure(faulty);
  auto outcome = [](const gevo::MeasuredVariant &v) {
    return std::string(toString(v.measurement->outcome));
  };
  std::string crash = outcome(first[0]);
  expect(crash == "crash" || crash == "out_of_bounds",
         "dividing by zero came back " + crash + ": " +
             first[0].measurement->detail);
  expect(outcome(first[1]) == "timeout",
         "the endless loop came back " + outcome(first[1]));
  expect(outcome(first[2]) == "ok", "a valid variant came back " +
                                        outcome(first[2]) + ": " +
                                        first[2].measurement->detail);
  expect(first[2].measurement->error() == bench.baseline().error(),
         "the valid variant scores differently from the unmodified one");
  // Both ranks are still there: four more valid variants, one per step.
  std::vector<std::vector<Edit>> valid;
  for (int step = 3; step <= 6; ++step)
    valid.push_back(constantEdit(kStep, std::to_string(step)));
  for (const gevo::MeasuredVariant &v : bench.measure(valid))
    expect(v.measurement->ok(), "after the crash and the hang, a valid "
                                "variant came back " +
                                    outcome(v));
  // A hang and six valid variants: while rank 0 has jobs for both ranks, the
  // hanging rank gets one queued behind the hang; once the other rank has
  // done the rest, that job moves to it (mpi.json counts it as moved).
  // (Another hanging variant than the first: that one is in the cache.)
  std::vector<std::vector<Edit>> behind = {constantEdit(kSpin, "100.0")};
  behind[0].push_back(constantEdit(kStep, "13").front());
  for (int step = 7; step <= 12; ++step)
    behind.push_back(constantEdit(kStep, std::to_string(step)));
  std::vector<gevo::MeasuredVariant> third = bench.measure(behind);
  expect(outcome(third[0]) == "timeout",
         "the second endless loop came back " + outcome(third[0]));
  for (size_t i = 1; i < third.size(); ++i)
    expect(third[i].measurement->ok(),
           "a valid variant beside a hang came back " + outcome(third[i]));
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  auto job = gevo::MpiJob::start(&argc, &argv, /*rankTimeout=*/10);
  if (!job.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", job.status().ToString().c_str());
    return 1;
  }
  if (!(*job)->leads())
    return (*job)->serve(1);
  if (argc != 3) {
    std::fprintf(stderr, "usage: containment_test WORKLOAD STATS\n");
    return 2;
  }
  gevo::SearchConfig config;
  config.workloadPath = argv[1];
  config.workbench.workers = 1;
  config.workbench.timeoutSeconds = 3; // the hang's limit
  config.workbench.evaluation.warmup = 0;
  config.workbench.evaluation.repeats = 1;
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::loadWorkloadSpec(config.workloadPath);
  absl::StatusOr<std::unique_ptr<gevo::Workbench>> bench =
      spec.ok() ? gevo::Workbench::create(*spec, config.workbench)
                : spec.status();
  absl::Status baseline =
      bench.ok() ? (*bench)->measureBaseline() : bench.status();
  if (!baseline.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", baseline.ToString().c_str());
    return 1;
  }
  (*bench)->setRemote(
      &(*job)->begin(config.workloadPath, config.workbench, stderr));
  int failures = check(**bench);
  absl::Status stats = (*job)->finish(argv[2]);
  if (!stats.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", stats.ToString().c_str());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
