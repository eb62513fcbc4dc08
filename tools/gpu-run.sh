#!/usr/bin/env bash
# Runs on the GPU machine (see tools/gpu-bundle.sh): the GPU tests against FFTW double (kernels and
# API: 1D, 2D and 3D, tensor cores), the cache test, the benchmark against cuFFT (1D sweep and the
# 2D/3D shapes; then the tensor-core kernels), and plan-creation times cold and warm. Logs go to
# $OUT (when set) as well as to the terminal.
# Usage: tools/gpu-run.sh [fftgen-bench arguments...]
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
for t in test_gpu test_api test_cache; do
    "$root/.gpu/$t" 2>&1 | tee "$out/$t.log" || status=1
done
"$root/.gpu/fftgen-bench" --json "$out/bench.json" "$@" 2>&1 | tee "$out/bench.log" || status=1
"$root/.gpu/fftgen-bench" --tensor-cores --json "$out/bench-tensor-cores.json" 2>&1 | tee "$out/bench-tc.log" || status=1
cache=$(mktemp -d)
for start in cold warm; do
    echo "plan creation, $start start, no default pack (FFTGEN_CACHE_DIR=$cache):"
    FFTGEN_DEFAULT_PACK=0 FFTGEN_CACHE_DIR=$cache "$root/.gpu/fftgen-plan-time" 2>&1 | tee "$out/plan_time_$start.log" || status=1
done
echo "plan creation, kernels from the default pack:"
FFTGEN_CACHE=0 "$root/.gpu/fftgen-plan-time" 2>&1 | tee "$out/plan_time_pack.log" || status=1
rm -rf "$cache"
exit $status
