//===- md_racing_section.cc - Racing: evaluations/s and what it stopped ---===//
//
// The racing section of BENCHMARKS.md (see benchmarks_md.h): evaluations/s of
// a default search with racing off and on, per workload and seed, their
// hypervolumes, and the dry run's check that racing stops no variant that
// would enter the front.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "gevo/support/median.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

namespace {

/// One workload and seed: the run with racing off and the one with it on.
struct RacingPair {
  const Object *off = nullptr, *on = nullptr;
};

std::map<std::string, RacingPair> pairsOf(const Object *o) {
  std::map<std::string, RacingPair> pairs;
  if (const llvm::json::Array *runs = o->getArray("runs"))
    for (const llvm::json::Value &run : *runs) {
      const Object *r = run.getAsObject();
      std::string key = absl::StrFormat("%s seed %d", str(r, "workload"),
                                        int(num(r, "seed")));
      (r->getBoolean("racing").value_or(false) ? pairs[key].on
                                               : pairs[key].off) = r;
    }
  return pairs;
}

void racingIntro(std::ostringstream &md, const Object *o) {
  md << absl::StrFormat(
      "Two searches per workload and seed, %s each, one after the other "
      "(which goes first alternates by seed): the default the issue measured "
      "(generational, every variant timed fully), run as a dry run of racing "
      "that records where racing would have stopped each variant, and the "
      "racing arm (racing on, the shipped default, with the schedule the "
      "table names). Racing "
      "stops a variant as dominated during its first run (past the run "
      "limit: 1.5x twice the unmodified program's CPU time, the "
      "hypervolume's reference point, or 1.5x the slowest member if more), "
      "after it (its "
      "error beyond the feasible band, its time over 1.5x a member at least "
      "as accurate; one whose logits are not finite ends there as a "
      "failure), "
      "after timed pairs head to head with the fastest member at least as "
      "accurate, compiled when it joined the front in the fork server "
      "every child starts from (their confidence interval not faster than "
      "that member by more than the 2%% noise band after two pairs at least: "
      "member:N; pairs with a member the variant cannot derive from end once "
      "no pair left could stop it as dominated) or after timed "
      "pairs with the unmodified program, for the variants that pairs with "
      "that member did not decide (their confidence interval, widened by the "
      "variant's own spread and by the member's pairs, not faster than such "
      "a member by more than the band after two pairs at least); both "
      "intervals are widened, for a stop only, by how far a program under "
      "20 ms moves from one process to another (about 9%% at 0.7 ms, 5%% at "
      "7 ms, for the variant and the member alike; rows that do not name "
      "their machine come from before it), and a variant dominated only "
      "without that widening keeps its reading after three pairs "
      "(within_noise:N; checked below as a stopped variant is), "
      "and stops timing one that "
      "enters the front once three pairs show it (head to head, faster than "
      "the member beyond the band: enters_member:N, its ratio the pairs' "
      "median times the member's, unless that member's own ratio was derived "
      "so or it runs under 20 ms, whose pairs with another short program "
      "misread it; a variant not slower than the member head to head is then "
      "timed against the unmodified program, and those pairs cannot stop it "
      "as dominated). Pairs head to head that decide neither way give the "
      "same derived ratio against such a member (tied_member:N; checked "
      "below as a stopped variant is), and the pairs with the unmodified "
      "program otherwise. A variant whose first run took under 20 ms, beside "
      "an unmodified program of 20 ms or more, is timed against one run of "
      "that program: in its later "
      "pairs a write over a buffer the size of the last level cache stands "
      "in for it (the interval widened by that one run's noise). "
      "A variant whose reading would enter the front is "
      "read again in a child of its own, raced against the front as it then "
      "is, and enters or stops by that second reading, which no selection "
      "picked (read again; rows without that count come from before it); "
      "so is one kept within the noise whose timed runs took at least its "
      "compile (the first table's rows; not the digits training's "
      "sub-millisecond programs). "
      "The dry run judges by "
      "pairs with the unmodified program only. Two checks that no stopped "
      "variant would have entered the front: the dry run's, and, after each "
      "racing search, the %d stopped variants (of those the search kept in "
      "its archive; in rows that name their machine not those on its final "
      "front, which were not lost: ties head to head, or variants kept within "
      "the noise that the end's second look put there) whose reading came "
      "nearest the front measured fully (10 "
      "interleaved pairs) beside the racing search's front (every variant of "
      "its archive measured fully within 40%% of its non-dominated set on "
      "search-time figures, at most 40, not only the members it reports: a "
      "member whose ratio read low must not hide the one a stopped variant "
      "tied with), measured again in the same batch. A false stop is a variant "
      "the dry "
      "run's "
      "racing would have stopped as dominated (or within the noise) that is "
      "faster, beyond the "
      "band, than every variant the dry run measured fully that is at least "
      "as accurate (in the sample: than the unmodified program and every "
      "front member at least as accurate); inside the band the front's own "
      "re-measurement cannot "
      "order two programs, and the table counts those apart, as it does "
      "twins: stopped variants on the front only because another child's "
      "reading of the same computation (a fully measured variant with the "
      "same error and static cost, which stands for it on the front) was "
      "slower, and variants beyond the reference point: slower than twice the "
      "unmodified program, where the run limit the issue asks for stops them "
      "and they add nothing to the hypervolume whatever their error. Each "
      "false stop is measured fully again, beside the front "
      "measured again, in %d fresh processes of the bench (the dry run's a "
      "first time, the sample's a second): 'again' counts those faster "
      "beyond the band than the front members at least as accurate in every "
      "process, each process's reading judged against the members' readings "
      "in that same process, the ones the goal counts (the process a short "
      "program is timed in moves its ratio by several percent throughout: a "
      "3-ms variant read x0.0219 to x0.0243 over three, so a median over "
      "three processes a few percent below a member's says nothing one "
      "process does not); the line under the table also gives those whose "
      "median over the processes is faster beyond the band than the "
      "members' medians, the count before that rule (rows recorded before "
      "it have only that count, in 'again'). Hypervolume: "
      "the front as re-measured at the end.\n\n",
      str(o, "budget"), int(num(o, "sample")),
      int(num(o, "confirm_processes")));
}

/// The table's rows, and what the goal line sums over them.
struct Tally {
  std::vector<double> rates, volumes;
  int falseStops = 0, confirmed = 0, byMedian = 0;
  bool perProcess = true; // every row has both counts of the fresh processes

  std::string row(std::string key, const RacingPair &pair) {
    if (const auto machine = pair.on->getString("machine"))
      key += absl::StrFormat(" (%s)", machine->str());
    double off = num(pair.off, "evaluations_per_s");
    double on = num(pair.on, "evaluations_per_s");
    double rate = off > 0 ? on / off : 0;
    double hvOff = num(pair.off, "hypervolume"),
           hvOn = num(pair.on, "hypervolume");
    double volume = hvOff > 0 ? hvOn / hvOff : 0;
    rates.push_back(rate);
    volumes.push_back(volume);
    falseStops += int(num(pair.off, "false_stops")) +
                  int(num(pair.on, "sample_false_stops"));
    confirmed += int(num(pair.off, "confirmed_false_stops")) +
                 int(num(pair.on, "sample_confirmed"));
    perProcess &= pair.off->get("confirmed_by_median") &&
                  pair.on->get("sample_confirmed_by_median");
    byMedian += int(num(pair.off, "confirmed_by_median")) +
                int(num(pair.on, "sample_confirmed_by_median"));
    return absl::StrFormat(
        "| %s | %s | %.2f | %.2f | %.2fx | %d / %d / %s of %d | %.4f | %.4f "
        "| %.3f "
        "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n",
        key, str(pair.on, "schedule"), off, on, rate,
        int(num(pair.on, "stopped_dominated")),
        int(num(pair.on, "entered_early")),
        pair.on->get("reread") ? std::to_string(int(num(pair.on, "reread")))
                               : std::string("-"),
        int(num(pair.on, "evaluations")), hvOff, hvOn, volume,
        int(num(pair.off, "would_stop")), int(num(pair.off, "false_stops")),
        int(num(pair.off, "confirmed_false_stops")),
        int(num(pair.off, "within_band")), int(num(pair.off, "twins")),
        int(num(pair.off, "beyond_reference")),
        int(num(pair.on, "sample_measured")),
        int(num(pair.on, "sample_false_stops")),
        int(num(pair.on, "sample_confirmed")),
        int(num(pair.on, "sample_within_band")),
        int(num(pair.on, "sample_twins")),
        int(num(pair.on, "sample_beyond_reference")));
  }

  /// The summary under the table; `lead` replaces the verdict ("**Goal
  /// met**" or "**Goal missed**") for figures of earlier code.
  std::string goalLine(const std::string &budget,
                       const std::string &lead = "") const {
    double rate = median(rates), volume = median(volumes);
    bool met = rate >= 5 && volume >= 1 && confirmed == 0 && budget == "30m" &&
               rates.size() >= 3;
    std::string how =
        perProcess ? absl::StrFormat("in every fresh process (goal 0; %d by "
                                     "the median over the processes)",
                                     byMedian)
                   : std::string("again in fresh processes (goal 0; by the "
                                 "median over the processes where a row has "
                                 "no other count)");
    return absl::StrFormat(
        "\n%s: median %.2fx the evaluations/s (goal 5x), median hypervolume "
        "ratio %.3f (goal 1.0), %d false %s in both checks, %d of them %s, "
        "over %d %s of %s (the issue asks for 3 seeds of 30 "
        "minutes).\n\n",
        !lead.empty() ? lead
        : met         ? "**Goal met**"
                      : "**Goal missed**",
        rate, volume, falseStops, falseStops == 1 ? "stop" : "stops", confirmed,
        how, int(rates.size()), rates.size() == 1 ? "seed" : "seeds", budget);
  }
};

/// The table of `o`'s rows and its summary (see Tally::goalLine for `lead`).
void racingTable(std::ostringstream &md, const Object *o,
                 const std::string &lead = "") {
  md << "| workload, seed | racing arm's schedule | evaluations/s issue's "
        "default | racing | ratio | stopped dominated / entered early / read "
        "again (racing) | hypervolume issue's | racing | ratio | would stop "
        "(dry run) | false stops | again | inside the band | twins | beyond "
        "the reference point | stopped measured fully (racing) | false stops | "
        "again | inside the band | twins | beyond the reference point |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        "---|---|---|---|\n";
  Tally tally;
  for (const auto &[key, pair] : pairsOf(o))
    if (pair.off && pair.on)
      md << tally.row(key, pair);
  md << tally.goalLine(str(o, "budget"), lead);
}

} // namespace

void racing(std::ostringstream &md) {
  md << "## 11. Racing (goal: at least 5x the evaluations/s of the default "
        "search on a heavy workload, a front at least as good, and no "
        "variant stopped that would have entered the front)\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "racing.json", v);
  if (!o)
    return;
  md << absl::StrFormat("`bazel run //gevo/bench:racing -- --budget=%s "
                        "--json=bench-results/racing.json`\n\n",
                        str(o, "budget"));
  racingIntro(md, o);
  racingTable(md, o);
  // The same bench on later code and with an option off by default, then
  // on earlier code, newest first: what each change moved.
  struct Earlier {
    const char *file, *intro, *lead;
  };
  for (const Earlier &e :
       {Earlier{"racing_evict.json",
                "of commit 07473b4 (a short variant beside the long "
                "unmodified program is timed against one run of it, an "
                "eviction of the caches standing in for its later runs: "
                "`--race-evict-short`)",
                "One unmodified run for short variants"},
        Earlier{"racing_h2h.json",
                "of commit 731e334 (pairs head to head with a member the "
                "variant cannot derive from stop once none left could stop "
                "it as dominated; ratios derive from members of 20 ms or "
                "more, not 50)",
                "Head-to-head trimmed, deriving from 20 ms"},
        Earlier{"racing_gated.json",
                "of commit c882490 (children forked from the search process, "
                "members compiled there; every pair of a short variant with "
                "the unmodified program's run; pairs head to head to the "
                "last; ratios derived from members of 50 ms or more)",
                "Within-noise re-reads gated"},
        Earlier{"racing_undecided.json",
                "with `--race-stop-undecided` (`racing --stop-undecided`: a "
                "variant no pair left could decide stops ahead of the front "
                "after three pairs, as undecided:N, and is read again; not "
                "the default)",
                "With undecided variants stopped ahead of the front"},
        Earlier{"racing_entries_only.json",
                "reading entries twice, not stops within the process noise "
                "(commit 5f395e9, its samples judged again by `--recheck`)",
                "Reading entries only twice"},
        Earlier{"racing_no_reread.json",
                "before entries were read twice (commit c94d249)",
                "Before entries were read twice"}}) {
    std::optional<llvm::json::Value> before = load(e.file);
    const Object *b = before ? before->getAsObject() : nullptr;
    if (!b)
      continue;
    md << absl::StrFormat(
        "The same bench on the code %s, `bench-results/%s`:\n\n", e.intro,
        e.file);
    racingTable(md, b, e.lead);
  }
}

} // namespace gevo::bench_md
