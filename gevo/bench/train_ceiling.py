#!/usr/bin/env python3
"""How far hyper-parameters alone take the training workload (issue #13).

The claims bench asks the search for +4.9 test points on digits_mlp_train at a
run time no longer than the unmodified program's. This sweeps, by hand, what
such edits can reach: per-layer learning rates (layer 1's weights and bias,
layer 2's), the second layer's initial scale, and the initialisation's hash
seeds, all at the unmodified 5-epoch schedule (so at the same run time); then
the best of them at 5..8 epochs. Each configuration is the workload's IR with
those constants changed, evaluated by //gevo:evaluate (scores from the
harness). A configuration is chosen on validation accuracy, as the claims
bench chooses, and reported on test. Writes train_ceiling.json for
BENCHMARKS.md.

  gevo/bench/train_ceiling.py [--results=bench-results]
"""
import argparse
import itertools
import json
import math
import os
import re
import subprocess
import tempfile

WORKLOAD = "testdata/digits_mlp_train"
LAYER1_RATES = ["0.005", "0.01", "0.02", "0.03"]
LAYER2_RATES = ["0.01", "0.02", "0.05", "0.1", "0.2", "0.3"]
LAYER2_SCALES = ["0.353553390593", "0.18"]
SEEDS = [("1.0", "2.0"), ("3.0", "4.0"), ("5.0", "7.0")]
UPDATE = "%step = arith.mulf %lr, %g : f32"


def substitute(text, name, value):
    """Sets the value of the constant named %name (exactly one)."""
    pattern = r"(%" + name + r"\s*= arith.constant )[^ :]+( : )"
    text, count = re.subn(pattern, r"\g<1>" + value + r"\g<2>", text)
    if count != 1:
        raise SystemExit(f"train_ceiling: %{name} is not one constant in "
                         f"{WORKLOAD}/model.mlir")
    return text


def per_layer_rates(text, rates):
    """Gives each of the four SGD updates (W1, b1, W2, b2) its own rate."""
    parts = text.split(UPDATE)
    if len(parts) != 5:
        raise SystemExit("train_ceiling: expected four SGD updates")
    out = parts[0]
    for rate, rest in zip(rates, parts[1:]):
        out += (f"%lr_own = arith.constant {rate} : f32\n        "
                f"%step = arith.mulf %lr_own, %g : f32") + rest
    return out


def evaluate(text, scratch):
    path = os.path.join(scratch, "variant.mlir")
    with open(path, "w") as f:
        f.write(text)
    out = subprocess.run(
        ["bazel-bin/gevo/evaluate", f"--workload={WORKLOAD}",
         f"--module={path}", "--warmup=0", "--repeats=1", "--json",
         "--in-process"],  # as its figures were always taken
        capture_output=True, text=True)
    if out.returncode != 0:
        return None
    record = json.loads(out.stdout.splitlines()[0])
    return record["validation"]["correct"], record["test"]["correct"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="bench-results")
    args = parser.parse_args()
    with open(os.path.join(WORKLOAD, "model.mlir")) as f:
        source = f.read()
    scratch = tempfile.mkdtemp(prefix="train_ceiling.")
    base_val, base_test = evaluate(source, scratch)
    rows = []
    grid = list(itertools.product(LAYER1_RATES, LAYER2_RATES, LAYER2_SCALES,
                                  SEEDS))
    for i, (rate1, rate2, scale2, seeds) in enumerate(grid):
        text = substitute(source, "scale2", scale2)
        text = substitute(text, "seed1", seeds[0])
        text = substitute(text, "seed2", seeds[1])
        text = per_layer_rates(text, [rate1, rate1, rate2, rate2])
        scores = evaluate(text, scratch)
        row = {"layer1_rate": rate1, "layer2_rate": rate2,
               "layer2_scale": scale2, "seeds": list(seeds),
               "validation_correct": scores[0] if scores else None,
               "test_correct": scores[1] if scores else None}
        rows.append(row)
        print(f"[{i + 1}/{len(grid)}] {row}", flush=True)
    scored = [r for r in rows if r["validation_correct"] is not None]
    # Chosen on validation; ties broken towards the lower test score, so the
    # figure is never flattered by the tie-break.
    chosen = max(scored, key=lambda r: (r["validation_correct"],
                                        -r["test_correct"]))
    epochs = []
    for count in (5, 6, 7, 8):
        text = substitute(source, "scale2", chosen["layer2_scale"])
        text = substitute(text, "seed1", chosen["seeds"][0])
        text = substitute(text, "seed2", chosen["seeds"][1])
        text = substitute(text, "num_epochs", str(count))
        text = per_layer_rates(text, [chosen["layer1_rate"]] * 2 +
                               [chosen["layer2_rate"]] * 2)
        val, test = evaluate(text, scratch)
        epochs.append({"epochs": count, "validation_correct": val,
                       "test_correct": test})
        print(f"epochs {count}: validation {val}, test {test}", flush=True)
    total = 360
    figures = {
        "workload": WORKLOAD,
        "rows": total,
        "configurations": len(rows),
        "baseline_validation_correct": base_val,
        "baseline_test_correct": base_test,
        "needed_test_correct": math.ceil(base_test + 0.049 * total),
        "chosen": chosen,
        "best_test_correct_any": max(r["test_correct"] for r in scored),
        "epochs": epochs,
        "grid": rows,
    }
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "train_ceiling.json"), "w") as f:
        json.dump(figures, f, indent=1)
        f.write("\n")
    print(f"chosen on validation: {chosen['validation_correct']}/{total} "
          f"validation, {chosen['test_correct']}/{total} test (unmodified "
          f"{base_test}); +4.9 points needs {figures['needed_test_correct']}")


if __name__ == "__main__":
    main()
