#!/usr/bin/env bash
# The workload fuzzer's checks over the repository's workload.json files, each
# also cut in half and with a byte flipped: no crash, every error says
# something.
set -euo pipefail
fuzzer="$1"
shift
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
n=0
for file in "$@"; do
  [[ "$file" == *.json ]] || continue
  n=$((n + 1))
  cp "$file" "$tmp/$n.json"
  size=$(wc -c <"$file")
  head -c $((size / 2)) "$file" >"$tmp/$n.half"
  { head -c $((size / 3)) "$file"; printf '\x07'; tail -c +$((size / 3 + 2)) "$file"; } >"$tmp/$n.bell"
done
((n > 0)) || { echo "no workload specs given"; exit 1; }
"$fuzzer" "$tmp"/*
