#!/usr/bin/env bash
# Writes generated/: the kernel sources of the default kernel pack (every size from 16 to 2^20 points,
# fp32 and fp16), with the fftgen of the build. The build compiles them into the pack that libfftgen
# embeds; a test checks that they are what the current templates write.
# Usage: tools/regenerate.sh [--check] [FFTGEN]   (--check: compare instead of write; exit 1 if stale)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi
fftgen=${1:-${FFTGEN_BUILD_DIR:-$root/build}/fftgen}
[ -x "$fftgen" ] || { echo "regenerate: no fftgen at $fftgen (build first)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((n = 16; n <= 1048576; n *= 2)); do
    for p in fp32 fp16; do
        "$fftgen" --n "$n" --precision "$p" -o "$out/fftgen_${n}_${p}.cu"
    done
done
if [ "$check" = 1 ]; then
    if ! diff -rq "$root/generated" "$out" >/dev/null; then
        echo "generated/ is stale: the templates now write other sources. Run tools/regenerate.sh and commit." >&2
        diff -rq "$root/generated" "$out" >&2 || true
        exit 1
    fi
    echo "generated/ is fresh ($(ls "$out" | wc -l) files)"
else
    rm -rf "$root/generated"
    mkdir -p "$root/generated"
    cp "$out"/*.cu "$root/generated/"
    echo "wrote $(ls "$root/generated" | wc -l) files to generated/"
fi
