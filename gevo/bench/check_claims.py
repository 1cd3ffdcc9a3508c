#!/usr/bin/env python3
"""Independent check of the paper-claims bench's chosen variants.

The claims bench reads each chosen variant's run time from the search's final
re-measurement (variant and unmodified program interleaved in one worker).
This re-measures every chosen patch another way: the patch is replayed with
//replay:apply, and the variant and the unmodified program are evaluated by
separate //gevo:evaluate processes, alternating, --rounds times with
--repeats timed runs each. The run-time ratio is the median variant time over
the median unmodified time. Writes claims_check.json for BENCHMARKS.md.

  gevo/bench/check_claims.py [--results=bench-results] [--rounds=5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def evaluate(workload, module, repeats):
    out = subprocess.run(
        # In process, as these figures were always taken (the search's
        # sandbox already ran every front patch).
        ["bazel-bin/gevo/evaluate", f"--workload={workload}",
         f"--module={module}", f"--repeats={repeats}", "--json",
         "--in-process"],
        check=True, capture_output=True, text=True).stdout
    record = json.loads(out.splitlines()[0])
    return statistics.median(record["run_ms"]), record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="bench-results")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    with open(os.path.join(args.results, "paper_claims.json")) as f:
        claims = json.load(f)
    check = {"method": "replayed patch and unmodified program in separate "
                       "evaluator processes, alternating; ratio of medians",
             "rounds": args.rounds, "repeats": args.repeats}
    for claim in ("prediction", "training"):
        workload = "testdata/digits_mlp_" + (
            "predict" if claim == "prediction" else "train")
        model = os.path.join(workload, "model.mlir")
        rows = []
        for seed in claims.get(claim, {}).get("seeds", []):
            if "patch" not in seed:
                continue
            # The copy kept in the repository when there is one.
            patch = seed.get("kept_patch", seed["patch"])
            with tempfile.TemporaryDirectory() as tmp:
                variant = os.path.join(tmp, "variant.mlir")
                subprocess.run(["bazel-bin/replay/apply", "--quiet",
                                f"--patch={patch}",
                                f"--input={model}", "-o", variant],
                               check=True, capture_output=True)
                base_ms, var_ms = [], []
                for _ in range(args.rounds):
                    base_ms.append(evaluate(workload, model, args.repeats)[0])
                    ms, record = evaluate(workload, variant, args.repeats)
                    var_ms.append(ms)
            ratio = statistics.median(var_ms) / statistics.median(base_ms)
            rows.append({"seed": seed["seed"], "patch": patch,
                         "search_ratio": seed["runtime_ratio"],
                         "checked_ratio": ratio,
                         "unmodified_ms": statistics.median(base_ms),
                         "variant_ms": statistics.median(var_ms),
                         "test_accuracy": record.get("test_accuracy")})
            print(f"{claim} seed {seed['seed']}: search x{seed['runtime_ratio']:.3f}"
                  f", checked x{ratio:.3f}", file=sys.stderr)
        check[claim] = rows
    with open(os.path.join(args.results, "claims_check.json"), "w") as f:
        json.dump(check, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
