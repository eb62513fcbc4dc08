#!/usr/bin/env bash
# Runs on the GPU machine (see tools/gpu-bundle.sh): Nsight Compute on fftgen's kernels, one
# fftgen-bench run per transform, so that a slow kernel can be explained by counters (memory
# throughput, occupancy, stall reasons) rather than guessed. Every kernel of the transform's plan
# is profiled (from the bench's warm-up); cuFFT's kernels are not.
# Usage: tools/gpu-profile.sh SPEC...
#   SPEC is PRECISION:SHAPE[:ENV=VALUE...] (settings separated by colons), e.g. fp16:1048576,
#   fp32:4096x4096 or fp16:134217728:FFTGEN_MAX_TILE=16,16,8; PRECISION tc16 means fp16 with
#   FFTGEN_TENSOR_CORES=1.
# Output: $OUT/profile-PRECISION-SHAPE.txt (the details page), and one summary line per profiled
# launch on stdout. ncu runs with --clock-control none (the clocks stay as the driver sets them).
# tools/gpu-profile.sh --stalls SPEC...: instead, where each kernel's warps wait: the cycles per issued
# instruction by stall reason (those above 0.05), instructions by pipe, shared-memory wavefronts
# and bank conflicts, and the bytes read from and written to DRAM (against what the kernel's own
# reads and writes need: a pass that reads more than its input fetches sectors twice), one kernel
# after another ($OUT/stalls-PRECISION-SHAPE.txt).
# tools/gpu-profile.sh --lines SPEC...: instead, which SASS lines the waits fall on (ncu's stall
# sampling, summed by reason and by opcode, and the lines with the most samples: tools/ncu_lines.py),
# from $OUT/lines-PRECISION-SHAPE.ncu-rep and its source page $OUT/lines-PRECISION-SHAPE.csv.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/.gpu/logs}
mkdir -p "$out"
# shellcheck source=tools/cuda-libs.sh
. "$root/tools/cuda-libs.sh"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
if [ -z "$ncu" ]; then
    echo "gpu-profile: Nsight Compute (ncu) was not found on this machine" >&2
    exit 1
fi
stalls=0 lines=0
case ${1:-} in
    --stalls) stalls=1; shift;;
    --lines) lines=1; shift;;
esac
[ $# -gt 0 ] || { echo "usage: tools/gpu-profile.sh [--stalls | --lines] PRECISION:SHAPE[:ENV=VALUE...]..." >&2; exit 2; }
stall_metrics=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
for reason in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle math_pipe_throttle wait not_selected \
              selected dispatch_stall membar sleeping no_instruction drain branch_resolving tex_throttle imc_miss misc; do
    stall_metrics+=,smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio
done
for pipe in alu fma lsu xu; do stall_metrics+=,smsp__inst_executed_pipe_$pipe.sum; done
for op in ld st; do
    stall_metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum
done
sections=(SpeedOfLight MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Tables Occupancy LaunchStats
          WarpStateStats SchedulerStats ComputeWorkloadAnalysis)
section_args=()
for s in "${sections[@]}"; do section_args+=(--section "$s"); done
status=0
for spec in "$@"; do
    IFS=: read -r precision shape env_list <<< "$spec"
    env_args=()
    [ -n "${env_list:-}" ] && IFS=: read -r -a env_args <<< "$env_list"
    bench_args=(--runs 3 --precision "$precision")
    if [ "$precision" = tc16 ]; then bench_args=(--runs 3 --tensor-cores); fi
    # the files' names: the spec with its settings' = , : / as dashes (a wisdom file's path has slashes)
    named="$precision-$shape${env_list:+-${env_list//[=,:\/]/-}}"
    log="$out/profile-$named.txt"
    if [ $lines = 1 ]; then
        report="$out/lines-$named"
        env "${env_args[@]}" "$ncu" --clock-control none --kernel-name regex:fftgen --launch-count 5 \
            --section WarpStateStats --section SourceCounters --import-source no -f -o "$report" \
            "$root/.gpu/fftgen-bench" "${bench_args[@]}" "$shape" > "$report.log" 2>&1 &&
            "$ncu" --import "$report.ncu-rep" --page source --csv --print-source sass > "$report.csv" 2>> "$report.log" ||
            { echo "gpu-profile: ncu failed on $spec (see $report.log)"; status=1; continue; }
        echo "== $spec"
        python3 "$root/tools/ncu_lines.py" "$report.csv" || status=1
        continue
    fi
    if [ $stalls = 1 ]; then
        log="$out/stalls-$named.txt"
        env "${env_args[@]}" "$ncu" --clock-control none --kernel-name regex:fftgen --launch-count 5 \
            --metrics "$stall_metrics" "$root/.gpu/fftgen-bench" "${bench_args[@]}" "$shape" > "$log" 2>&1 ||
            { echo "gpu-profile: ncu failed on $spec (see $log)"; status=1; }
        echo "== $spec"
        # the kernel lines, and the metrics but stall reasons of (nearly) no cycles
        awk '/^  [a-zA-Z_][a-zA-Z_0-9]* \(/ { print; next }
             /^    [a-z]/ && NF >= 2 { if ($1 ~ /stalled/ && $NF + 0 <= 0.05) next; print }' "$log"
        continue
    fi
    # the warm-up launches the plan first: five launches cover the passes of any plan (a plan with
    # fewer passes has its first kernel profiled again)
    env "${env_args[@]}" "$ncu" --clock-control none --kernel-name regex:fftgen --launch-count 5 \
        "${section_args[@]}" --page details "$root/.gpu/fftgen-bench" "${bench_args[@]}" "$shape" > "$log" 2>&1 ||
        { echo "gpu-profile: ncu failed on $spec (see $log)"; status=1; }
    # one line per kernel: name, duration, DRAM and L1 and L2 throughput, occupancy, registers
    awk -v spec="$spec" '
        function flush() {
            if (name != "")
                printf "%s  %s  time %s  dram %s%%  l1 %s%%  l2 %s%%  sm %s%%  regs %s  occupancy %s%%\n",
                       spec, name, dur, dram, l1, l2, sm, regs, occ
            name = ""
        }
        /^  [a-zA-Z_][a-zA-Z_0-9]* \(/ { flush(); name = $1 }
        /^    Duration / { dur = $NF " " $(NF - 1) }
        /^    DRAM Throughput / { dram = $NF }
        /^    L1\/TEX Cache Throughput / { l1 = $NF }
        /^    L2 Cache Throughput / { l2 = $NF }
        /^    Compute \(SM\) Throughput / { sm = $NF }
        /^    Registers Per Thread / { regs = $NF }
        /^    Achieved Occupancy / { occ = $NF }
        END { flush() }
    ' "$log"
done
exit $status
