#!/usr/bin/env bash
# Crashing and hanging variants measured on remote ranks end their forked
# children, come back classified, and leave both ranks serving: see
# containment_test_main.cc; here mpirun starts it and mpi.json is checked.
set -euo pipefail
program="$1"
source "$2"
workload="$3"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

"${mpirun[@]}" -np 3 "$program" "$workload" "$tmp/mpi.json" 2>"$tmp/err" ||
  fail "$(grep -h FAIL "$tmp/err" || tail -5 "$tmp/err")"
stats="$tmp/mpi.json"
[[ $(grep -c '"state": "ready"' "$stats") == 2 ]] ||
  fail "a rank did not survive: $(cat "$stats")"
grep -q '"requeued": 0' "$stats" || fail "jobs were re-queued: $(cat "$stats")"
grep -q '"evaluations": 14,' "$stats" || fail "expected 14 remote evaluations: $(cat "$stats")"
# The job queued behind the second hang went to the free rank.
grep -q '"moved": [1-9]' "$stats" || fail "no job moved off the hanging rank: $(cat "$stats")"
echo PASS
