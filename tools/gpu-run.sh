#!/usr/bin/env bash
# Runs on the GPU machine (see tools/gpu-bundle.sh): the GPU tests against FFTW double, then the
# single-kernel benchmark against cuFFT. Logs go to $OUT (when set) as well as to the terminal.
# Usage: tools/gpu-run.sh [fftgen-kernel-bench arguments...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/.gpu/logs}
mkdir -p "$out"
# cuFFT is linked dynamically: find the toolkit's libraries wherever that machine keeps them
for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}"
done
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/device.txt"
status=0
"$root/.gpu/test_gpu" 2>&1 | tee "$out/test_gpu.log" || status=1
"$root/.gpu/fftgen-kernel-bench" "$@" 2>&1 | tee "$out/bench.log" || status=1
exit $status
