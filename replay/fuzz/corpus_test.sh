#!/usr/bin/env bash
# The patch fuzzer's checks (no crash, one-line errors naming the patch, the
# printer's fixpoint, nothing apply accepts that the static check refuses)
# over the seed corpus: every golden patch, the fuzzing seeds and the label
# fixtures, and each of them cut short and with a byte flipped, which must
# all pass.
set -euo pipefail
fuzzer="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
mkdir -p "$tmp/variants"
n=0
seeds=(gevo/ir/testdata/golden/*.gevo replay/fuzz/seeds/*.gevo
  analysis/testdata/labels/*.gevo)
for patch in "${seeds[@]}"; do
  name=$(basename "$patch" .gevo)
  size=$(wc -c <"$patch")
  head -c $((size / 2)) "$patch" >"$tmp/variants/$name.half"
  { head -c $((size / 3)) "$patch"; printf '\x07'; tail -c +$((size / 3 + 2)) "$patch"; } \
    >"$tmp/variants/$name.bell"
  sed 's/#\([0-9]\)/#9999\1/' "$patch" >"$tmp/variants/$name.far"
  n=$((n + 1))
done
((n > 0)) || { echo "no seed patches found"; exit 1; }
"$fuzzer" "${seeds[@]}" "$tmp"/variants/*
