#!/usr/bin/env bash
# A CI-sized libFuzzer run (60 s by default) of the patch fuzzer from the seed
# corpus (the golden patches); a crash or a broken check fails the test.
# Only under the fuzz config: `bazel test --config=fuzz //replay/fuzz:fuzz_test`.
set -euo pipefail
fuzzer="$1"
seconds="${2:-60}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
mkdir -p "$tmp/corpus" "$tmp/artifacts"
cp gevo/ir/testdata/golden/*.gevo replay/fuzz/seeds/*.gevo \
  analysis/testdata/labels/*.gevo "$tmp/corpus/"
help="$("$fuzzer" -help=1 2>&1 || true)" # all of it: grep -q would SIGPIPE it
if [[ "$help" != *libFuzzer* ]]; then
  echo "not a libFuzzer build: run with --config=fuzz"
  exit 1
fi
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix="$tmp/artifacts/" "$tmp/corpus"
