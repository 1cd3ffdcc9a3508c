#!/usr/bin/env bash
# Builds and tests examples/client/ as another workspace would: a copy of it in TEST_TMPDIR, its WORKSPACE pointing
# at this checkout, no .bazelrc, a nested Bazel with its own output root. A patch verified in the sandbox builds and
# one that is not ok fails with its outcome; then a stale patch must fail its build with replay's one line. Argument: bazel/deps.bzl of the checkout (found through its runfile's link).
set -euo pipefail
checkout=$(cd "$(dirname "$(readlink -f "$1")")/.." && pwd)
work="$TEST_TMPDIR/client"
rm -rf "$work"
cp -r "$checkout/examples/client" "$work"
rm -f "$work"/bazel-* "$work/.bazelrc"
sed -i "s|path = \"../..\"|path = \"$checkout\"|" "$work/WORKSPACE"
grep -q "path = \"$checkout\"" "$work/WORKSPACE"

# Only flags that make it faster: the shared disk cache and no per-action sandbox (thousands of LLVM headers).
home=$(getent passwd "$(id -u)" | cut -d: -f6)
bazel_in_client() {
  (cd "$work" && bazel --nohome_rc --output_user_root="$TEST_TMPDIR/root" --max_idle_secs=5 \
    --host_jvm_args=-Xmx1g "$@" --disk_cache="$home/.cache/gevo-ml/bazel-disk" --spawn_strategy=local)
}
trap '(cd "$work" && bazel --nohome_rc --output_user_root="$TEST_TMPDIR/root" shutdown) >/dev/null 2>&1 || true' EXIT

start=$SECONDS
if ! bazel_in_client test //:model_test --test_output=errors >"$TEST_TMPDIR/build.log" 2>&1; then
  echo "FAIL: the client workspace did not build and pass:"
  tail -30 "$TEST_TMPDIR/build.log"
  exit 1
fi
echo "ok   client workspace built and //:model_test passed in $((SECONDS - start)) s"

# gevo_patch's verify: a patched module that runs ok in gevo-ml's sandbox builds; one whose logits hold NaN fails the
# build with evaluate's outcome line.
start=$SECONDS
if ! bazel_in_client build //:digits_scaled >"$TEST_TMPDIR/verify.log" 2>&1; then
  echo "FAIL: a patch that runs ok did not build with verify:"
  tail -30 "$TEST_TMPDIR/verify.log"
  exit 1
fi
echo "ok   a verified patch builds ($((SECONDS - start)) s)"
if bazel_in_client build //:digits_overflow >"$TEST_TMPDIR/overflow.log" 2>&1; then
  echo "FAIL: a patch whose logits hold NaN built with verify"
  exit 1
fi
if ! grep -q "outcome              non_finite: 720 rows of logits hold NaN or infinity" "$TEST_TMPDIR/overflow.log" ||
  ! grep -q "gevo_patch //:digits_overflow: the patched module is not ok" "$TEST_TMPDIR/overflow.log"; then
  echo "FAIL: the unverified patch did not fail with its outcome:"
  tail -20 "$TEST_TMPDIR/overflow.log"
  exit 1
fi
echo "ok   a patch that is not ok fails the build: $(grep -m1 "outcome" "$TEST_TMPDIR/overflow.log")"

# The client's model changes under the patch (the 0.5 it edits is gone): the build must refuse it, by default because
# the model is not the one the patch was made for (gevo_patch replays exactly unless allow_reanchor = True).
sed -i 's/arith.constant 0.5 : f32/arith.constant 0.75 : f32/' "$work/model.mlir"
if bazel_in_client build //:model_patched >"$TEST_TMPDIR/stale.log" 2>&1; then
  echo "FAIL: a stale patch built"
  exit 1
fi
if ! grep -q "faster.gevo:2: error: the patch was made for model b186c24d07ca8f81, the input is model" "$TEST_TMPDIR/stale.log"; then
  echo "FAIL: a stale patch did not fail with replay's line:"
  tail -20 "$TEST_TMPDIR/stale.log"
  exit 1
fi
echo "ok   a stale patch fails the client's build with replay's line"
