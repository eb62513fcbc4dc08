#!/usr/bin/env bash
# Builds here and stages what the GPU test machine needs in .gpu/ (ignored by git): the GPU tests,
# the benchmarks, the fftgen command (for tools/demo.sh), the README's library example linked as
# the README links it (pkg-config), and libcmocka.so.0 beside them (that
# machine has no cmocka; Lua and FFTW are linked statically). Then, on the GPU machine, from the
# repository root:
#     bash tools/gpu-run.sh          (with .gpu/ carried along)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FFTGEN_BUILD_DIR:-$root/build}
"$root/tools/build.sh"
rm -rf "$root/.gpu"
mkdir -p "$root/.gpu"
cp "$build/tests/test_gpu" "$build/tests/test_api" "$build/tests/test_cache" "$build/tests/libcmocka.so.0" \
    "$build/tools/fftgen-bench" "$build/tools/fftgen-plan-time" "$build/tools/fftgen-accuracy" "$build/tools/fftgen-access-patterns" "$build/tools/fftgen-tc-registers" "$build/tools/fftgen-fuzz-gpu" "$build/fftgen" "$build/fftgen-tune" "$root/.gpu/"
# shellcheck disable=SC2046 # the flags are words
cc -std=c11 -O2 -o "$root/.gpu/readme_example" "$root/tests/readme_example.c" \
    $(PKG_CONFIG_PATH=$build pkg-config --cflags --libs fftgen)
du -sh "$root/.gpu"
