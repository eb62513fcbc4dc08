#!/usr/bin/env bash
# Installs what is missing, then configures and builds everything (library, CLI, tests, tools).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FFTGEN_BUILD_DIR:-$root/build}
"$root/tools/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
