#!/usr/bin/env python3
"""Where a search's children spent their time, from its run directory (#37).

Reads a run's cache.jsonl (one line per child: the first reading of each
variant, second readings, re-measurements) and run.json, and splits the
children's wall time (`child_ms`, fork to end) by how each child ended
(`raced`: first_run, pairs, member, enters, within_noise...; FULL: timed through
every pair; fail:<outcome>) and by the steps the cache records: the compile
(lower_ms + codegen_ms), the variant's timed runs (run_ms) and the unmodified
program's in its pairs (baseline_median_run_ms per pair, or baseline_runs times
where one run stood for all pairs: --race-evict-short). What is left is the
rest of the child: its first run where pairs followed (the cache keeps only
the pairs' readings then), the head-to-head member's runs, the check for reads
of memory never written, scoring, and the fork and the exit. Children of a
key already seen are second readings (re-reads and re-measurements); they are
counted apart, as they add no evaluation.

Its last line is the floor of any racing that reads each variant's error: a
child that compiled the variant, ran it once (its fastest reading) and ended
with the overhead a child stopped after its first run had (median), plus the
search process's CPU per evaluation, and the evaluations/s that allows on the
run's cores.

  gevo/bench/child_time.py RUN_DIR [RUN_DIR...] [--short-ms=20] [--cores=2]
"""
import argparse
import collections
import json
import os

STEPS = ["compile", "variant_runs", "unmodified_runs", "rest"]


def label_of(m):
    raced = m.get("raced", "")
    if raced:
        return raced.split(":")[0]
    return "FULL" if m.get("outcome") == "ok" else "fail:" + m.get("outcome", "?")


def steps_of(m):
    compile_ms = m.get("lower_ms", 0) + m.get("codegen_ms", 0)
    runs = m.get("run_ms", [])
    variant = sum(runs)
    paired = "baseline_median_run_ms" in m and not label_of(m).startswith(
        ("first_run", "failed_first_run", "member", "enters_member", "tied_member"))
    baseline_runs = m.get("baseline_runs", len(runs))
    unmodified = m["baseline_median_run_ms"] * baseline_runs if paired else 0
    rest = max(0.0, m.get("child_ms", 0) - compile_ms - variant - unmodified)
    return dict(zip(STEPS, [compile_ms, variant, unmodified, rest]))


def summarise(run_dir, short_ms):
    rows = []
    with open(os.path.join(run_dir, "cache.jsonl")) as f:
        for line in f:
            rows.append(json.loads(line))
    seen = set()
    groups = collections.defaultdict(lambda: collections.Counter())
    total = collections.Counter()
    for row in rows:
        m = row["measurement"]
        again = row["key"] in seen
        seen.add(row["key"])
        length = "short" if m.get("median_run_ms", 0) < short_ms else "long"
        group = groups[(label_of(m), length, "again" if again else "first")]
        group["n"] += 1
        group["child"] += m.get("child_ms", 0)
        for step, ms in steps_of(m).items():
            group[step] += ms
            total[step] += ms
        total["child"] += m.get("child_ms", 0)
        total["again" if again else "first"] += m.get("child_ms", 0)
    run = {}
    run_json = os.path.join(run_dir, "run.json")
    if os.path.exists(run_json):
        with open(run_json) as f:
            run = json.load(f)
    return rows, groups, total, run


def floor(rows, run, cores):
    """CPU ms per evaluation if every child ended after one run (see above)."""
    seen, compile_ms, run_ms, overheads = set(), 0.0, 0.0, []
    for row in rows:
        if row["key"] in seen:
            continue
        seen.add(row["key"])
        m = row["measurement"]
        steps = m.get("lower_ms", 0) + m.get("codegen_ms", 0)
        runs = m.get("run_ms", [])
        compile_ms += steps
        run_ms += min(runs) if runs else 0
        if label_of(m) == "first_run" and runs:
            overheads.append(m.get("child_cpu_ms", 0) - steps - runs[0])
    n = max(len(seen), 1)
    overheads.sort()
    overhead = overheads[len(overheads) // 2] if overheads else 0
    search_ms = 1e3 * run.get("process_cpu_s", 0) / max(
        run.get("evaluations", 0), 1)
    total = compile_ms / n + run_ms / n + overhead + search_ms
    print("  floor: compile %.0f + one run %.0f + child overhead %.0f + search "
          "process %.0f = %.0f ms of CPU per evaluation: at most %.2f/s on %d "
          "cores" % (compile_ms / n, run_ms / n, overhead, search_ms, total,
                     cores * 1e3 / total, cores))


def report(run_dir, short_ms, cores):
    rows, groups, total, run = summarise(run_dir, short_ms)
    child = total["child"] or 1
    print("%s: %d children, %.0f s of children's time; %d evaluations in "
          "%.0f s (%.2f/s), search process CPU %.0f s" %
          (run_dir, len(rows), child / 1e3, run.get("evaluations", 0),
           run.get("seconds", 0),
           run.get("evaluations", 0) / max(run.get("seconds", 1), 1e-9),
           run.get("process_cpu_s", 0)))
    print("  by step: " + ", ".join(
        "%s %.1f%%" % (s, 100 * total[s] / child) for s in STEPS) +
        "; second readings %.1f%%" % (100 * total["again"] / child))
    print("  %-18s %-5s %-5s %6s %7s %8s  %s" %
          ("ended", "runs", "read", "n", "time%", "ms/each",
           " ".join("%-8s" % s[:8] for s in STEPS)))
    for (label, length, again), g in sorted(groups.items(),
                                            key=lambda kv: -kv[1]["child"]):
        print("  %-18s %-5s %-5s %6d %6.1f%% %8.0f  %s" %
              (label, length, again, g["n"], 100 * g["child"] / child,
               g["child"] / g["n"],
               " ".join("%-8.0f" % (g[s] / g["n"]) for s in STEPS)))
    floor(rows, run, cores)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", help="search run directories")
    parser.add_argument("--short-ms", type=float, default=20,
                        help="a variant whose median run is under this is "
                        "'short' (default 20 ms)")
    parser.add_argument("--cores", type=int, default=2,
                        help="cores the run had, for the floor's rate "
                        "(default 2)")
    args = parser.parse_args()
    for run_dir in args.run_dirs:
        report(run_dir, args.short_ms, args.cores)


if __name__ == "__main__":
    main()
