#!/usr/bin/env bash
# Installs every Debian package that gevo-ml's build, tests and workloads need. Idempotent: when all are
# present it only checks (a second or two); `apt-get update` runs only when something is missing.
set -euo pipefail

packages=(
  g++
  bazel-bootstrap
  llvm-22-dev
  libmlir-22-dev
  mlir-22-tools
  llvm-22-tools
  libabsl-dev
  libre2-dev
  libgtest-dev
  libgmock-dev
  libpagmo-dev
  zlib1g-dev # gzip-compressed data sets (MNIST's *-ubyte.gz)
  python3-numpy # the scaling bench's NumPy/OpenBLAS reference column
  libopenblas0-pthread
  libopenmpi-dev # --backend=mpi (gevo/mpi)
  openmpi-bin # mpirun, for the MPI backend's tests and benchmark
  clang-22 # //replay/fuzz:fuzz_ci_test builds the fuzzer with --config=fuzz
  libfuzzer-22-dev
  libclang-rt-22-dev # the fuzz build's AddressSanitizer headers and runtime (clang-22 does not pull it in)
  libonnx-dev # the ONNX importer (gevo/frontend): ONNX's C++ protobuf classes
  libprotobuf-dev
  libonnx-testdata # the ONNX backend test suite the importer is checked against
  dataset-fashion-mnist # testdata/fashion_cnn_onnx reads its IDX files
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
