# Sourced by the MPI backend's tests and benchmark: sets `mpirun` to an array
# that starts an Open MPI job on this machine (oversubscribed, and allowed
# as root), or fails loudly when Open MPI is missing: a test must never
# pass without having run.
if ! command -v mpirun >/dev/null 2>&1; then
  echo "FAIL: mpirun not found; install Open MPI with bazel/setup.sh (openmpi-bin, libopenmpi-dev)" >&2
  exit 1
fi
mpirun=(mpirun --oversubscribe --bind-to none)
if [[ $(id -u) == 0 ]]; then mpirun+=(--allow-run-as-root); fi
# Bazel's test environment has no HOME; Open MPI wants a writable one.
export HOME="${HOME:-${TEST_TMPDIR:-/tmp}}"
