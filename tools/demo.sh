#!/usr/bin/env bash
# The main job. Installs what is missing, builds fftgen, generates an FFT kernel with it, compiles
# that .cu file with plain nvcc, and, where a GPU is present, runs it against cuFFT and prints the
# error and the time.
# Usage: tools/demo.sh [N] [fp32|fp16]     (default: 4096 fp32, i.e. `fftgen --n 4096 --radix 16`)
# FFTGEN_NO_BUILD=1 uses the existing build (e.g. a build folder copied to a GPU machine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FFTGEN_BUILD_DIR:-$root/build}
n=${1:-4096}
precision=${2:-fp32}
case "$precision" in
    fp32) fp16=0 ;;
    fp16) fp16=1 ;;
    *) echo "demo: unknown precision '$precision' (expected fp32 or fp16)" >&2; exit 2 ;;
esac

echo "== 1. install and build"
if [ "${FFTGEN_NO_BUILD:-0}" = 1 ]; then
    echo "using the existing build in $build"
else
    "$root/tools/build.sh"
fi
fftgen="$build/fftgen"
demo="$build/demo"
mkdir -p "$demo"
kernel="$demo/fft${n}_${precision}.cu"

echo
echo "== 2. generate: fftgen --n $n --precision $precision -o $kernel"
"$fftgen" --n "$n" --precision "$precision" --explain
"$fftgen" --n "$n" --precision "$precision" --name demo_fft -o "$kernel"
echo "wrote $kernel ($(wc -l <"$kernel") lines); its header:"
sed -n '2,/^ \*\//p' "$kernel" | sed 's/^/    /'

nvcc=/usr/local/cuda/bin/nvcc
command -v "$nvcc" >/dev/null || nvcc=nvcc
arch=sm_90
have_gpu=0
if command -v nvidia-smi >/dev/null && cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1) &&
    [ -n "$cap" ]; then
    arch="sm_${cap/./}"
    have_gpu=1
fi

echo
echo "== 3. compile it with plain nvcc for $arch"
"$nvcc" -O3 -arch="$arch" -c "$kernel" -o "$demo/kernel.o"
"$nvcc" -O2 -DDEMO_N="$n" -DDEMO_FP16="$fp16" -I"$root/tools" -c "$root/tools/demo_main.c" -o "$demo/main.o"
"$nvcc" -O3 -arch="$arch" -c "$root/tools/cufft_compare.cu" -o "$demo/cufft_compare.o"
"$nvcc" -arch="$arch" "$demo/main.o" "$demo/kernel.o" "$demo/cufft_compare.o" -lcufft -o "$demo/demo"
echo "compiled: $demo/kernel.o and $demo/demo"

echo
if [ "$have_gpu" = 1 ]; then
    echo "== 4. run it against cuFFT"
    "$demo/demo"
else
    echo "== 4. no NVIDIA GPU here: the kernel compiled, but cannot run. On a machine with a GPU, this"
    echo "      same command times it against cuFFT."
fi
