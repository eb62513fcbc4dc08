#!/usr/bin/env bash
# Builds fftgen-kernel-ab (tools/kernel_ab.cu): kernels generated from several template directories, for
# the same sizes, timed against each other in one process on the GPU. For template changes whose effect
# is a few per cent, where runs on different machines differ by more than that.
# Usage: tools/kernel-ab.sh OUTDIR NAME=TEMPLATE_DIR[@MINBLOCKS][%FFTGEN]... -- SPEC...
#   NAME=DIR       a variant: the kernels fftgen writes with --templates DIR; @MINBLOCKS also asks ptxas
#                  for that many blocks per SM (__launch_bounds__(THREADS, MINBLOCKS)) in every kernel,
#                  in place of the register cap the templates ask for; %FFTGEN writes
#                  them with that fftgen binary (another build's planner) instead of $FFTGEN
#   SPEC           PRECISION:N[:FLAG=VALUE...], e.g. fp16:4096 or fp16:1024:--radix=32:--block-threads=64
#                  (one-kernel sizes), or a 2D shape of one kernel (a fused slice), e.g. fp16:128x128;
#                  3D shapes, 2D shapes above 2^20 points and 1D sizes above 2^14 are timed with
#                  all their passes, not checked (a DFT in double of their size takes minutes): their
#                  outputs' hashes are printed and compared with the first variant's of the spec;
#                  a 1D size may take fftgen's layouts (--istride=S, --idist=D, --ostride, --odist),
#                  which must keep within 2^27 points, e.g. fp16:256:--ostride=524288:--odist=1
#                  (strided writes alone)
# Then on the GPU: OUTDIR/fftgen-kernel-ab [RUNS [ROUNDS]] [--out-at MB,...] [--points P]  (exit 1 if a
#   kernel's error is off; --out-at: the output that many MB after the input, one timing per placement;
#   --points: timed calls of P points in all, small calls, instead of 2^27).
# Example: cp -r templates /tmp/base && (edit templates) && \
#   tools/kernel-ab.sh build-ab base=/tmp/base new=templates -- fp16:512 fp16:4096 fp32:8192
# A planner change: cp build/fftgen /tmp/fftgen-base && (edit, rebuild) && \
#   tools/kernel-ab.sh build-ab base=templates%/tmp/fftgen-base new=templates -- fp16:16384
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 4 ] || { sed -n '2,24p' "$0" >&2; exit 2; }
out=$1; shift
fftgen=${FFTGEN:-$root/build/fftgen}
[ -x "$fftgen" ] || { echo "kernel-ab: no fftgen at $fftgen (build first)" >&2; exit 2; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
variants=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in *%*)
        generator=${1#*%}
        [ -x "$generator" ] || { echo "kernel-ab: no fftgen at $generator" >&2; exit 2; };;
    esac
    variants+=("$1"); shift
done
if [ "${1:-}" != "--" ] || [ $# -lt 2 ] || [ ${#variants[@]} -lt 1 ]; then
    echo "kernel-ab: give NAME=DIR... -- SPEC..." >&2
    exit 2
fi
shift
mkdir -p "$out/gen"
rm -f "$out"/gen/*
: > "$out/entries.inc"
index=0
for spec in "$@"; do
    index=$((index + 1))
    IFS=: read -r precision n extra <<< "$spec"
    # a 1D size's layouts, as fftgen takes them (stride 1 and distance n where one of a pair is given)
    istride=0 idist=0 ostride=0 odist=0
    for flag in ${extra//:/ }; do
        case $flag in
            --istride=*) istride=${flag#*=};; --idist=*) idist=${flag#*=};;
            --ostride=*) ostride=${flag#*=};; --odist=*) odist=${flag#*=};;
        esac
    done
    if [ "$istride$idist$ostride$odist" != 0000 ]; then
        case $n in *x*) echo "kernel-ab: $spec: layouts are timed for 1D sizes only" >&2; exit 2;; esac
        [ "$istride$idist" != 00 ] && { [ "$istride" = 0 ] && istride=1; [ "$idist" = 0 ] && idist=$n; }
        [ "$ostride$odist" != 00 ] && { [ "$ostride" = 0 ] && ostride=1; [ "$odist" = 0 ] && odist=$n; }
    fi
    for v in "${variants[@]}"; do
        name=${v%%=*}; dir=${v#*=}; blocks=0; generator=$fftgen
        case $dir in *%*) generator=${dir#*%}; dir=${dir%%%*};; esac
        case $dir in *@*) blocks=${dir#*@}; dir=${dir%@*};; esac
        id="${name}_${precision}_${n}_spec${index}" # specs of one size may differ in their flags
        flags=$extra # fftgen takes --flag=value, which the options of optional values need
        # shellcheck disable=SC2086 # the extra flags are words
        "$generator" --n "$n" --precision "$precision" --direction forward --templates "$dir" --name "$id" \
            ${flags//:/ } -o "$out/gen/$id.cu"
        if [ "$blocks" != 0 ]; then
            sed -i -E "s/__launch_bounds__\(THREADS(, [0-9]+)?\)/__launch_bounds__(THREADS, $blocks)/" "$out/gen/$id.cu"
        fi
        # rows: 1 (1D), the first dimension of a 2D shape, or 0 for a 3D one
        points=$((${n//x/*})) rows=1
        case $n in *x*x*) rows=0;; *x*) rows=${n%%x*};; esac
        entry=ENTRY
        grep -q "void\* work, cudaStream_t stream)" "$out/gen/$id.cu" && entry=WORK_ENTRY
        echo "$entry(${id}_forward_launch, \"$name${extra:+ $extra}\", $points, $rows, $([ "$precision" = fp16 ] && echo 1 || echo 0)," \
             "$istride, $idist, $ostride, $odist)" >> "$out/entries.inc"
    done
done
echo "kernel-ab: compiling $(wc -l < "$out/entries.inc") kernels"
find "$out/gen" -name '*.cu' -print0 | xargs -0 -P "$(nproc)" -I{} "$nvcc" -O3 -arch=sm_90 -c {} -o {}.o
"$nvcc" -O3 -arch=sm_90 -I"$out" "$root/tools/kernel_ab.cu" "$out"/gen/*.o -o "$out/fftgen-kernel-ab"
echo "kernel-ab: built $out/fftgen-kernel-ab"
