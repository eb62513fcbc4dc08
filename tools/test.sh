#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, and runs every test with ctest.
# GPU tests run where a GPU is present and are reported as skipped elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FFTGEN_BUILD_DIR:-$root/build}
"$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
