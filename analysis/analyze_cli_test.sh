#!/usr/bin/env bash
# gevo-minimize and gevo-analyze end to end on a three-edit patch whose
# middle edit does nothing: minimised (deterministic objectives) it keeps the
# other two, each labelled, and the report is written in three forms.
set -euo pipefail
minimize="$1"
analyze="$2"
apply="$3"
workload=testdata/digits_mlp_train
patch=analysis/testdata/three_edits.gevo
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$minimize" --help | grep -q -- "--runtime-tolerance" || fail "minimize --help"
"$analyze" --help | grep -q -- "--optimized-check" || fail "analyze --help"
set +e
"$analyze" --patch=$patch >/dev/null 2>"$tmp/err"; code=$?
set -e
[[ $code == 2 ]] && grep -q "needs --workload" "$tmp/err" || fail "analyze without --workload: $code"
"$analyze" --help | grep -q -- "--target" || fail "analyze --help lacks --target"
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  set +e
  "$analyze" --patch=$patch --workload=$workload --target=cuda --quiet >/dev/null 2>"$tmp/err"; code=$?
  set -e
  [[ $code == 2 && $(wc -l <"$tmp/err") == 1 ]] &&
    grep -qF "error: --target=cuda: no CUDA driver (libcuda.so.1 not found)" "$tmp/err" ||
    fail "analyze --target=cuda without a driver: $code $(cat "$tmp/err")"
fi

# A patch whose whole is not ok (issue #33: it writes into the caller's
# input, which replay's static check now refuses) is not analysed: exit 3
# with a line saying so, and no report calls it ok.
unsafe=analysis/testdata/unsafe/write_input.gevo
set +e
"$analyze" --patch=$unsafe --workload=testdata/digits_mlp_predict --pairs=2 \
  --optimized-check=false --out="$tmp/unsafe" --quiet >"$tmp/unsafe.txt" 2>"$tmp/unsafe.err"; code=$?
set -e
if [[ $code == 3 ]]; then
  grep -q "1 of 1 patches do not evaluate ok" "$tmp/unsafe.err" || fail "analyze unsafe: $(cat "$tmp/unsafe.err")"
  grep -q "not analysed: the full patch does not evaluate ok (its edits do not apply in order: replay refuses one" "$tmp/unsafe.txt" ||
    fail "analyze unsafe: $(cat "$tmp/unsafe.txt")"
  grep -q '"outcome": "ok"' "$tmp/unsafe/report.json" && fail "report.json calls the unsafe patch ok"
  for f in report.md report.html; do
    grep -q "Not analysed: the full patch does not evaluate ok (its edits do not apply" "$tmp/unsafe/$f" || fail "$f"
  done
  grep -q 'class="front"' "$tmp/unsafe/report.html" && fail "the plot shows the unsafe patch as a front member"
else
  [[ $code == 2 ]] && grep -q "write_input.gevo" "$tmp/unsafe.err" ||
    fail "analyze unsafe: exit $code: $(cat "$tmp/unsafe.err")"
fi

"$minimize" --patch=$patch --workload=$workload --objectives=static_cost,error \
  --workers=2 -o "$tmp/min.gevo" 2>"$tmp/min.txt"
grep -q "kept 2 of 3 edits" "$tmp/min.txt" || fail "minimize: $(cat "$tmp/min.txt")"
grep -q "arith.constant#12~c99c2014 = -1" "$tmp/min.gevo" || fail "lost the initialisation edit"
grep -q "arith.constant#5~23e58424 = 2" "$tmp/min.gevo" || fail "lost the schedule edit"
grep -q "^swap" "$tmp/min.gevo" && fail "kept the swap that does nothing"
"$apply" --patch="$tmp/min.gevo" --input=$workload/model.mlir -o "$tmp/min.mlir" 2>/dev/null ||
  fail "the minimised patch does not replay"

"$analyze" --patch=$patch --workload=$workload --objectives=static_cost,error \
  --pairs=2 --workers=2 --out="$tmp/report" --quiet >"$tmp/analyze.txt"
for f in report.html report.md report.json; do
  [[ -s "$tmp/report/$f" ]] || fail "no $f"
done
grep -q "initialisation change x-2.83: layer 2 initial scale 0.354 -> -1" "$tmp/analyze.txt" || fail "no initialisation label: $(cat "$tmp/analyze.txt")"
grep -q "training schedule change: epochs 5 -> 2" "$tmp/analyze.txt" || fail "no schedule label"
html="$tmp/report/report.html"
for tag in table tr svg html body; do
  opened=$(grep -o "<$tag[ >]" "$html" | wc -l)
  closed=$(grep -o "</$tag>" "$html" | wc -l)
  [[ $opened == "$closed" && $opened -gt 0 ]] || fail "<$tag>: $opened opened, $closed closed"
done
grep -q 'class="baseline"' "$html" || fail "the plot does not mark the unmodified program"
grep -q "Under the plain pipeline (linalg to loops) after canonicalize and cse, LLVM -O3" "$html" || fail "no check under the other pipeline"
grep -q "\"label\": \"initialisation change\"" "$tmp/report/report.json" || fail "json"
# The objectives asked for, and only those (not added to a default list).
objectives=$(sed -n '/"objectives": \[/,/\]/p' "$tmp/report/report.json" | tr -d ' \n')
[[ "$objectives" == '"objectives":["static_cost","error"],' ]] || fail "report objectives: $objectives"
# A stopped analysis: three patches, killed once a finished one is in the
# report. It leaves a valid report of the patches it finished, marked partial;
# its progress, to a file, named patch and step with an estimate.
"$analyze" --patch=$patch --patch="$tmp/min.gevo" --patch=$patch --workload=$workload \
  --objectives=static_cost,error --pairs=2 --workers=2 --out="$tmp/stopped" \
  >/dev/null 2>"$tmp/stopped.err" &
pid=$!
for _ in $(seq 1800); do
  grep -qs '"partial"' "$tmp/stopped/report.json" && break
  sleep 0.1
done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
grep -q '"partial": "[12] of 3 patches analysed' "$tmp/stopped/report.json" ||
  fail "no partial report: $(cat "$tmp/stopped.err")"
python3 -m json.tool "$tmp/stopped/report.json" >/dev/null || fail "the partial report.json does not parse"
grep -q "Partial report:" "$tmp/stopped/report.md" || fail "report.md is not marked partial"
for tag in table html body; do
  [[ $(grep -o "<$tag[ >]" "$tmp/stopped/report.html" | wc -l) == \
     $(grep -o "</$tag>" "$tmp/stopped/report.html" | wc -l) ]] || fail "partial html: <$tag>"
done
grep -q "^analyze: patch 1 of 3 (analysis/testdata/three_edits.gevo, 3 edits): minimising  \[.*left\]" \
  "$tmp/stopped.err" || fail "no per-patch progress: $(cat "$tmp/stopped.err")"
echo PASS
