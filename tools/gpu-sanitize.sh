#!/usr/bin/env bash
# Runs on the GPU machine (see tools/gpu-bundle.sh): NVIDIA's compute-sanitizer on fftgen's kernels
# as the library plans them, in small batches, only fftgen's kernels instrumented (cuFFT's, which
# fftgen-bench runs beside them, are left alone):
#   memcheck   out-of-bounds and misaligned global and shared accesses
#   racecheck  shared-memory hazards (a barrier missing between a write and a read)
#   synccheck  barriers used where not every thread of the block (or warp) reaches them
#   initcheck  reads of global memory nothing wrote (the work areas between passes)
# Each tool runs the same groups one after the other, the tools side by side:
#   small    fftgen-bench, fp32 and fp16, forward and inverse, every size of one kernel (16 to 16384)
#   passes   the same from 32768 to 2^22 (two passes and clusters)
#   shapes   the bench's 2D and 3D shapes up to 1024x1024 and 128^3, both directions
#   large    2^23 to 2^27 and the larger shapes, forward, batch 1; for racecheck (about 40 s a
#            transform of fp32 4096x4096 on an H100) one command a shape and precision, to run side by
#            side (below).
#            Not sampled with --launch-count: with it, compute-sanitizer 2025.3 fails ("failed to
#            handle a hardware exception") in fftgen-bench's launches of kernels on thread-block
#            clusters, which whole runs check clean (results/notes.md)
#   split    the split precisions and FFTGEN_TENSOR_CORES, 16 to 16384 points
#   prefetch test_gpu's kernels that copy their next transform ahead, from inputs on and off 16 bytes
#   api      test_api's plans through wisdom (slices, tiles that prefetch, column pairs, computed
#            twiddles, radix-32 rows, split columns) and its CUDA-graph and thread tests
# Usage: tools/gpu-sanitize.sh [TOOL...]   (default: memcheck racecheck synccheck initcheck)
# FFTGEN_SANITIZE_GROUPS picks the groups (default "small passes shapes split prefetch api large");
# FFTGEN_SANITIZE_LARGE and FFTGEN_SANITIZE_PRECISIONS the shapes and (racecheck) precisions of the
# large group (default all of them; several instances, each with its own OUT, can share them out); each
# command stops after FFTGEN_SANITIZE_LIMIT seconds (default 240). Logs go to $OUT (when set),
# and a summary line per tool and group to the terminal: the sanitizer's error count, or why it did
# not finish.
set -uo pipefail
set -f # the commands below are split into words, never expanded as file names (test_gpu's *pf*)
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/.gpu/logs}
mkdir -p "$out"
# shellcheck source=tools/cuda-libs.sh
. "$root/tools/cuda-libs.sh"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -n 1)
if [ -z "$sanitizer" ]; then
    echo "gpu-sanitize: compute-sanitizer was not found on this machine" >&2
    exit 1
fi
tools=("$@")
[ ${#tools[@]} = 0 ] && tools=(memcheck racecheck synccheck initcheck)
groups=${FFTGEN_SANITIZE_GROUPS:-small passes shapes split prefetch api large}
limit=${FFTGEN_SANITIZE_LIMIT:-240}
bench=$root/.gpu/fftgen-bench
# each kernel twice (the bench's checked run and one timed run): the sanitizers check correctness, and a
# whole run of the larger shapes under racecheck takes minutes a transform
once="--warmup 0 --runs 1"

sizes() { local n=$1; while [ "$n" -le "$2" ]; do printf '%s ' "$n"; n=$((n * 2)); done; }

# The commands of one group for one tool, one per line.
group_commands() {
    case $1 in
    small)
        for direction in forward inverse; do
            echo "$bench $once --points 65536 --direction $direction $(sizes 16 16384)"
        done ;;
    passes)
        for direction in forward inverse; do
            echo "$bench $once --points 65536 --direction $direction $(sizes 32768 4194304)"
        done ;;
    shapes)
        for direction in forward inverse; do
            echo "$bench $once --points 65536 --direction $direction 256x256 512x256 256x512 512x512 1024x1024 64x64x64 128x128x128"
        done ;;
    large)
        local shapes=${FFTGEN_SANITIZE_LARGE:-8388608 16777216 33554432 67108864 134217728 4096x4096 8192x8192 256x256x256 512x512x512}
        if [ "$2" = racecheck ]; then
            for shape in $shapes; do
                for precision in ${FFTGEN_SANITIZE_PRECISIONS:-fp32 fp16}; do
                    echo "$bench $once --batch 1 --precision $precision $shape"
                done
            done
        else
            echo "$bench $once --batch 1 $shapes"
        fi ;;
    split)
        echo "$bench $once --points 65536 --precision split,split-papers 16 64 256 1024 4096 16384"
        echo "$bench $once --points 65536 --tensor-cores 16 64 256 1024 4096 16384" ;;
    prefetch)
        echo "$root/.gpu/test_gpu *pf*" ;;
    api)
        for t in small_slices_match_fftw slices_through_wisdom tiles_prefetch_through_wisdom column_pairs_match_fftw l2_fetch_256_matches_fftw \
                 pass_twiddles_computed_through_wisdom rows_radix_through_wisdom columns_split_through_wisdom \
                 exec_in_cuda_graphs threads_plan_and_execute; do
            echo "$root/.gpu/test_api $t"
        done ;;
    esac
}

run_tool() {
    local tool=$1 log="$out/sanitize-$1.log" filter="--kernel-name kns=fftgen"
    # initcheck counts what uninstrumented kernels write as never written (the bench's random inputs,
    # cuFFT's outputs): it instruments every kernel
    [ "$tool" = initcheck ] && filter=""
    : > "$log"
    for group in $groups; do
        local errors=0 unfinished=0 index=0
        while IFS= read -r command; do
            index=$((index + 1))
            local part="$out/sanitize-$tool-$group-$index.log"
            local start=$SECONDS
            # shellcheck disable=SC2086 # the command and the filter are words
            timeout "$limit" "$sanitizer" --tool "$tool" $filter --print-limit 20 --error-exitcode 0 $command \
                > "$part" 2>&1
            local status=$?
            { echo "=== $tool $group: $command (exit $status, $((SECONDS - start)) s)"; cat "$part"; } >> "$log"
            local count # racecheck sums up as "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"
            count=$(grep -oE 'ERROR SUMMARY: [0-9]+|\([0-9]+ errors?' "$part" | tail -n 1 | grep -oE '[0-9]+')
            if [ -z "$count" ]; then
                unfinished=$((unfinished + 1))
            else
                errors=$((errors + count))
            fi
            rm -f "$part"
        done < <(group_commands "$group" "$tool")
        if [ $unfinished -gt 0 ]; then
            echo "$tool $group: $errors errors, $unfinished of $index commands did not finish (time limit $limit s, or a failure: see $log)"
        else
            echo "$tool $group: $errors errors in $index commands"
        fi
    done
}

pids=()
for tool in "${tools[@]}"; do
    run_tool "$tool" > "$out/sanitize-$tool.summary" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
for tool in "${tools[@]}"; do cat "$out/sanitize-$tool.summary"; done
