#!/usr/bin/env bash
# Runs on the GPU machine (see tools/gpu-bundle.sh): the GPU tests against FFTW double (kernels and
# API: 1D, 2D and 3D, tensor cores), the README's library example, the cache test, the benchmark against cuFFT (1D sweep and the
# 2D/3D shapes; then the tensor-core kernels), and plan-creation times cold and warm. Logs go to
# $OUT (when set) as well as to the terminal.
# Usage: tools/gpu-run.sh [fftgen-bench arguments...]
# FFTGEN_GPU_BENCH picks the benchmarks: all (the default: fp32 and fp16, tensor cores, the split
# precisions next to fp32), main (fp32 and fp16 only), split (only the split), or none.
# FFTGEN_GPU_TUNE="ARGS" first runs `fftgen tune ARGS -o $out/wisdom.txt` (on an idle GPU, before the
# tests); FFTGEN_GPU_TESTS=0 skips the tests, FFTGEN_GPU_PLAN_TIME=0 the plan-creation times.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/.gpu/logs}
mkdir -p "$out"
# shellcheck source=tools/cuda-libs.sh
. "$root/tools/cuda-libs.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/device.txt"
status=0
if [ -n "${FFTGEN_GPU_TUNE:-}" ]; then
    # shellcheck disable=SC2086 # the arguments are words
    # a time limit (FFTGEN_GPU_TUNE_LIMIT seconds): tune saves as it goes, so a cut run keeps its choices
    timeout "${FFTGEN_GPU_TUNE_LIMIT:-330}" "$root/.gpu/fftgen" tune $FFTGEN_GPU_TUNE -o "$out/wisdom.txt" 2>&1 |
        tee "$out/tune.log" || echo "fftgen tune stopped early (a failure or the time limit): what it measured is saved"
fi
if [ "${FFTGEN_GPU_TESTS:-1}" != 0 ]; then
# The tests side by side (their FFTW references take the CPU, the GPU is mostly idle): each test
# of test_api on its own (test_api takes a name), test_gpu and test_cache beside them.
pids=()
for t in transforms_match_fftw strided_layouts_match_fftw shapes_match_fftw small_slices_match_fftw columns_first_matches_fftw \
         tensor_cores_match_fftw split_matches_fftw \
         strided_shapes_match_fftw bad_arguments failures_say_why invalid_plans every_result_has_a_message \
         no_device_is_reported \
         packs_on_the_device exec_checks_its_arguments exec_in_cuda_graphs threads_plan_and_execute \
         plans_stay_on_their_device wisdom_steers_plans \
         slices_through_wisdom \
         columns_split_through_wisdom rows_radix_through_wisdom tiles_prefetch_through_wisdom column_pairs_match_fftw \
         row_registers_match_fftw \
         l2_fetch_256_matches_fftw tma_columns_match_fftw tile_pairs_match_fftw four_step_splits_through_wisdom \
         four_step_splits_of_2d_shapes \
         pass_twiddles_computed_through_wisdom \
         fp16_intermediates_trade_accuracy; do
    "$root/.gpu/test_api" "$t" > "$out/test_api_$t.log" 2>&1 &
    pids+=($!)
done
"$root/.gpu/test_gpu" > "$out/test_gpu.log" 2>&1 &
pids+=($!)
# the README's library example, linked as a user links it (tests/library_links.sh)
if [ -x "$root/.gpu/readme_example" ]; then
    "$root/.gpu/readme_example" > "$out/test_readme_example.log" 2>&1 &
    pids+=($!)
fi
# the cache test may be left behind where the carry to the GPU machine is short of room
if [ -x "$root/.gpu/test_cache" ]; then
    "$root/.gpu/test_cache" > "$out/test_cache.log" 2>&1 &
    pids+=($!)
else
    echo "gpu-run: .gpu/test_cache not here: the cache test is skipped"
fi
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
# one log, so that few files come back from the GPU machine
for log in "$out"/test_*.log; do echo "=== $(basename "$log" .log)"; cat "$log"; done > "$out/tests.log"
rm -f "$out"/test_*.log
grep -hE "FAILED|worst" "$out/tests.log"
[ $status = 0 ] && echo "GPU tests: all passed" || echo "GPU tests: FAILED (logs in $out)"
fi
bench=${FFTGEN_GPU_BENCH:-all}
if [ "$bench" = all ] || [ "$bench" = main ]; then
    "$root/.gpu/fftgen-bench" --json "$out/bench.json" "$@" 2>&1 | tee -a "$out/bench.log" || status=1
fi
if [ "$bench" = all ]; then
    "$root/.gpu/fftgen-bench" --tensor-cores --json "$out/bench-tensor-cores.json" 2>&1 | tee -a "$out/bench.log" || status=1
fi
if [ "$bench" = all ] || [ "$bench" = split ]; then
    "$root/.gpu/fftgen-bench" --precision fp32,split,split-papers --json "$out/bench-split.json" "$@" 2>&1 |
        tee -a "$out/bench.log" || status=1
fi
[ "${FFTGEN_GPU_PLAN_TIME:-1}" = 0 ] && exit $status
cache=$(mktemp -d)
for start in cold warm; do
    echo "plan creation, $start start, no default pack (FFTGEN_CACHE_DIR=$cache):" | tee -a "$out/plan_time.log"
    FFTGEN_DEFAULT_PACK=0 FFTGEN_CACHE_DIR=$cache "$root/.gpu/fftgen-plan-time" 2>&1 | tee -a "$out/plan_time.log" || status=1
done
echo "plan creation, kernels from the default pack:" | tee -a "$out/plan_time.log"
FFTGEN_CACHE=0 "$root/.gpu/fftgen-plan-time" 2>&1 | tee -a "$out/plan_time.log" || status=1
rm -rf "$cache"
exit $status
