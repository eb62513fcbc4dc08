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
[ $# -gt 0 ] || { echo "usage: tools/gpu-profile.sh PRECISION:SHAPE[:ENV=VALUE...]..." >&2; exit 2; }
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
    log="$out/profile-$precision-$shape${env_list:+-${env_list//[=,:]/-}}.txt"
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
