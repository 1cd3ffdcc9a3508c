#!/usr/bin/env bash
# gevo-search end to end: --help, docs/search.md's settings table, bad input,
# a run killed with SIGKILL and resumed gives the uninterrupted run's front
# (deterministic objectives), and the best patch replays to a module whose
# evaluation matches its recorded fitness.
set -euo pipefail
search="$1"
apply="$2"
evaluate="$3"
docs="$4"
workload=testdata/digits_mlp_predict
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

help=$("$search" --help)
for flag in workload out resume objectives algorithm population generations \
            budget crossover-rate mutation-rate seed workers timeout \
            memory-limit operators functions ops dialects explore cache \
            front-repeats target; do
  grep -q -- "--$flag" <<<"$help" || fail "--help does not explain --$flag"
done
# docs/search.md lists every setting as the table says (flag, key, default).
"$search" --print-settings >"$tmp/settings.md"
while IFS= read -r line; do
  grep -qxF -- "$line" "$docs" || fail "docs/search.md lacks the line: $line"
done <"$tmp/settings.md"

set +e
"$search" --workload=/nonexistent --quiet >/dev/null 2>"$tmp/err"
code=$?
set -e
[[ $code == 2 ]] || fail "a missing workload should exit 2, got $code"
[[ $(wc -l <"$tmp/err") == 1 ]] || fail "expected one error line: $(cat "$tmp/err")"
set +e
"$search" --workload=$workload --objectives=runtime,speed --quiet >/dev/null 2>"$tmp/err"
code=$?
set -e
[[ $code == 2 ]] && grep -q "unknown objective 'speed'" "$tmp/err" ||
  fail "bad objective: $code $(cat "$tmp/err")"

# The GPU target: without a driver, one line and exit 2 before any work.
for case in "tpu|--target must be cpu or cuda, not 'tpu'" \
            "cuda|--target=cuda: no CUDA driver (libcuda.so.1 not found)"; do
  target=${case%%|*} message=${case#*|}
  if [[ $target == cuda ]] && /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    echo "skip --target=cuda without a driver: this machine has libcuda.so.1"
    continue
  fi
  set +e
  "$search" --workload=$workload --target=$target --out="$tmp/t-$target" --quiet >/dev/null 2>"$tmp/err"
  code=$?
  set -e
  [[ $code == 2 && $(wc -l <"$tmp/err") == 1 ]] && grep -qF -- "error: $message" "$tmp/err" ||
    fail "--target=$target: exit $code, $(cat "$tmp/err")"
done

# Neighbourhood exploration: one row per single edit, each classified.
"$search" --workload=$workload --explore="$tmp/explore.csv" --operators=delete,constant \
  --dialects=arith --warmup=0 --repeats=1 --quiet >"$tmp/explore.txt"
grep -q "single edits of" "$tmp/explore.txt" || fail "explore printed no summary"
rows=$(($(wc -l <"$tmp/explore.csv") - 1))
((rows >= 5)) || fail "explore wrote $rows rows"
bad=$(tail -n +2 "$tmp/explore.csv" | cut -d, -f3 |
      grep -cv '^\(ok\|invalid_ir\|lowering_failed\|crash\|timeout\|out_of_memory\|non_finite\|wrong_shape\|reads_uninitialized\)$' || true)
[[ $bad == 0 ]] || fail "explore rows with an unknown outcome: $bad"
tail -n +2 "$tmp/explore.csv" | cut -d, -f2 | grep -qv '^@main/arith\.' &&
  fail "explore targeted an op outside --dialects=arith"

flags=(--workload=$workload --objectives=static_cost,error --population=6
       --generations=5 --budget=0 --seed=5 --workers=2 --warmup=0 --repeats=1
       --front-repeats=1 --timeout=20s --quiet)

"$search" "${flags[@]}" --out="$tmp/whole" >"$tmp/whole.txt"
grep -q "front:" "$tmp/whole.txt" || fail "no front in the summary"
for f in front.json history.csv run.json operators.csv cache.jsonl checkpoint.json; do
  [[ -s "$tmp/whole/$f" ]] || fail "run directory lacks $f"
done
ls "$tmp/whole/front/"*.gevo >/dev/null || fail "no front patches"
grep -q '"target": *"cpu"' "$tmp/whole/run.json" || fail "run.json does not name the target"

# The same run, killed with SIGKILL once a generation has been checkpointed.
"$search" "${flags[@]}" --out="$tmp/killed" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
  if [[ -f "$tmp/killed/checkpoint.json" ]] &&
     grep -q '"generation":[1-9][0-9]*,"operators"' "$tmp/killed/checkpoint.json"; then
    break
  fi
  sleep 0.1
done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
midway=1
grep -q '"generation":[1-4],"operators"' "$tmp/killed/checkpoint.json" ||
  { midway=0; echo "note: the run ended before it could be killed mid-way"; }
"$search" --resume="$tmp/killed" >"$tmp/killed.txt" 2>"$tmp/killed.err"
# Progress to a file: plain lines (no redrawing), the generations and the
# front's re-measurement with how far it is (each phase's last line at
# least), and no more than a line per 10 s besides each phase's last.
grep -q $'\r' "$tmp/killed.err" && fail "progress to a file redraws lines"
((midway == 0)) || grep -q "^gen 5/5  evals " "$tmp/killed.err" || fail "no last generation line: $(cat "$tmp/killed.err")"
grep -qE "^re-measuring the front: ([0-9]+) of \1 runs done \(1 interleaved pairs each, [0-9]+ per variant\)  \[" "$tmp/killed.err" ||
  fail "no re-measurement progress: $(cat "$tmp/killed.err")"
spent=$(tail -1 "$tmp/killed.err" | sed -nE 's/.*\[(([0-9]+)m)?([0-9]+)s.*/\2 \3/p')
read -r minutes seconds <<<"$spent"
lines=$(grep -c '  \[[0-9hms]*[],]' "$tmp/killed.err")
((lines <= (${minutes:-0} * 60 + seconds) / 10 + 3)) ||
  fail "$lines progress lines in ${minutes:-0}m${seconds}s: $(cat "$tmp/killed.err")"

edits() { for p in "$1"/front/*.gevo; do grep -v '^meta\|^#' "$p"; echo; done; }
[[ "$(edits "$tmp/whole")" == "$(edits "$tmp/killed")" ]] ||
  fail "the resumed run's front differs from the uninterrupted one"
[[ $(wc -l <"$tmp/whole/history.csv") == $(wc -l <"$tmp/killed/history.csv") ]] ||
  fail "history.csv differs in length after resume"

# The best patch replays, and evaluates to its recorded validation accuracy.
best=$(sed -n 's/.*"best": "\(.*\)".*/\1/p' "$tmp/whole/front.json")
[[ -n "$best" ]] || fail "front.json names no best patch"
"$apply" --patch="$tmp/whole/$best" --input=$workload/model.mlir -o "$tmp/variant.mlir" 2>/dev/null
recorded=$(sed -n 's/.*validation_accuracy=\([0-9.]*\).*/\1/p' "$tmp/whole/$best")
measured=$("$evaluate" --workload=$workload --module="$tmp/variant.mlir" --repeats=1 |
           sed -n 's/.*validation accuracy *\([0-9.]*\).*/\1/p')
[[ "$recorded" == "$measured" ]] ||
  fail "replayed patch scores $measured, the search recorded $recorded"
echo PASS
