#!/usr/bin/env bash
# A rank that dies while its message is arriving: rank 0 gives up on the
# message and names its sender instead of spinning in MPI forever (see
# broken_message_test_main.cc; the hang rank_loss_test met now and then).
set -euo pipefail
program="$1"
source "$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
out=$(timeout 60 "${mpirun[@]}" --enable-recovery -np 2 "$program" 2>"$tmp/err") || true
echo "$out"
[[ "$out" == PASS* ]] || { echo "FAIL: ${out:-no answer}; $(tail -5 "$tmp/err")" >&2; exit 1; }
