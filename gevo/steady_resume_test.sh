#!/usr/bin/env bash
# The steady-state schedule after a kill -9: a search with two workers is
# killed once a checkpoint holds children in flight; --resume continues it,
# keeps the history rows of the generations the checkpoint completed as they
# were, measures every variant the checkpoint had measured into its archive
# again or from the cache (the resumed archive holds them all, so its front
# is at least as good), and completes the generations asked for with
# `population` arrivals each.
set -euo pipefail
search="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

run="$tmp/run"
"$search" --workload=testdata/digits_mlp_predict --objectives=static_cost,error \
  --population=6 --generations=1000 --budget=0 --seed=5 --workers=2 --warmup=0 \
  --repeats=1 --front-repeats=1 --front-children=1 --timeout=20s --quiet \
  --schedule=steady --out="$run" >"$tmp/first.out" 2>&1 &
pid=$!
killed=
for _ in $(seq 1200); do
  if [[ -f "$run/checkpoint.json" ]] &&
    grep -q '"generation":\([3-9]\|[1-9][0-9]\),"operators"' "$run/checkpoint.json" &&
    grep -q '"pending":\[{' "$run/checkpoint.json"; then
    cp "$run/checkpoint.json" "$tmp/killed.json"
    cp "$run/history.csv" "$tmp/killed_history.csv"
    kill -9 "$pid"
    killed=1
    break
  fi
  sleep 0.05
done
wait "$pid" 2>/dev/null || true
[[ -n "$killed" ]] || fail "no checkpoint with children in flight: $(cat "$tmp/first.out")"
# The copies may be a checkpoint newer than the one the kill left: resume
# from the copied one (written atomically, so whole).
cp "$tmp/killed.json" "$run/checkpoint.json"
# The checkpoint's own generation (its keys are sorted: "operators" follows
# it), not a variant's (each records the generation it was born in).
generation=$(grep -o '"generation":[0-9]*,"operators"' "$tmp/killed.json" | tr -dc 0-9)
target=$((generation + 2))
"$search" --resume="$run" --generations="$target" --quiet >"$tmp/resumed.out" 2>&1 ||
  fail "resume failed: $(tail -5 "$tmp/resumed.out")"

rows_through() { awk -F, -v g="$2" 'NR > 1 && $1 <= g { print $1","$2","$3 }' "$1"; }
[[ "$(rows_through "$tmp/killed_history.csv" "$generation")" == \
   "$(rows_through "$run/history.csv" "$generation")" ]] ||
  fail "the rows of generations 0-$generation changed on resume:
$(diff <(rows_through "$tmp/killed_history.csv" "$generation") \
  <(rows_through "$run/history.csv" "$generation") | head -20)"
for g in $((generation + 1)) "$target"; do
  n=$(awk -F, -v g="$g" 'NR > 1 && $1 == g' "$run/history.csv" | wc -l)
  [[ "$n" == 6 ]] || fail "generation $g has $n rows, not 6"
done
grep -q "\"generation\":$target,\"operators\"" "$run/checkpoint.json" || fail "did not reach generation $target"
grep -q '"pending":\[\]' "$run/checkpoint.json" || fail "children left in flight at the end"

archive_keys() {
  sed 's/"failed":.*//; s/.*"archive":\[//' "$1" | grep -o '"key":"[0-9a-f]*"' | sort -u
}
before=$(archive_keys "$tmp/killed.json")
[[ -n "$before" ]] || fail "the killed checkpoint has no archive"
missing=$(comm -23 <(echo "$before") <(archive_keys "$run/checkpoint.json"))
[[ -z "$missing" ]] || fail "variants the killed run had measured are gone: $missing"
grep -q "front:" "$tmp/resumed.out" || grep -q "front" "$run/front.json" || fail "no front"
echo PASS
