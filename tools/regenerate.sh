#!/usr/bin/env bash
# Writes generated/: the kernel sources of the default kernel pack (every size from 16 to 2^20 points,
# fp32 and fp16, as the planner makes them and, where they differ, as every section of the shipped table
# of measured choices and the planner for sm_80 make them), with the fftgen of the build. The build compiles
# them into the pack that libfftgen embeds; a test checks that they are what the templates write.
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
# The shipped table's choices (runtime/tuned_choices.wisdom) for one size that differ from the planner's
# default, one line per distinct choice: the section's device as a file-name word, then fftgen's flags
# (its architecture first). Every section's, since each serves its devices: a choice missing here is
# compiled by NVRTC on first use.
shipped_choices() {
    awk -v p="$1" -v n="$2" '
        $1 == "device" { split($0, q, "\""); device = tolower(q[2]); sub(/^nvidia /, "", device);
                         gsub(/[^a-z0-9]+/, "-", device); split(q[3], rest, " "); arch = rest[1] }
        $1 == p && $2 == n {
            flags = ""; name = device;
            for (i = 3; i <= NF; ++i) {
                split($i, kv, "=");
                if (kv[1] == "tensor-cores" && kv[2] != "none") flags = flags " --tensor-cores=" kv[2];
                if (kv[1] == "max-tile" && kv[2] != "0") flags = flags " --max-tile " kv[2];
                if (kv[1] == "radix") flags = flags " --radix " kv[2];
                if (kv[1] == "block-threads") flags = flags " --block-threads " kv[2];
                if (kv[1] == "prefetch") flags = flags " --prefetch " kv[2];
                if (kv[1] == "l2-prefetch") flags = flags " --l2-prefetch " kv[2];
                if (kv[1] == "l2-prefetch-passes") flags = flags " --l2-prefetch-passes=" kv[2];
                if (kv[1] == "twiddle-powers") flags = flags " --twiddle-powers=" kv[2];
                if (kv[1] == "radix32-passes") flags = flags " --radix32-passes=" kv[2];
                if (kv[1] == "computed-twiddles") flags = flags " --computed-twiddles=" kv[2];
                if (kv[1] == "column-pairs") flags = flags " --column-pairs=" kv[2];
                if (kv[1] == "row-registers") flags = flags " --row-registers=" kv[2];
                if (kv[1] == "l2-fetch-256") flags = flags " --l2-fetch-256=" kv[2];
                if (kv[1] == "tma-columns") flags = flags " --tma-columns=" kv[2];
                if (kv[1] == "tile-pairs") flags = flags " --tile-pairs=" kv[2];
                if (kv[1] == "cluster") flags = flags " --cluster " kv[2];
                if (kv[1] == "four-step") flags = flags " --four-step " kv[2];
                if (kv[1] == "max-points") name = device "-max-points-" kv[2]; # beside the line for every call
            }
            if (flags != "" && !((arch flags) in seen)) { seen[arch flags] = 1; print name " --arch " arch flags }
        }' "$root/runtime/tuned_choices.wisdom"
}
for ((n = 16; n <= 1048576; n *= 2)); do
    for p in fp32 fp16; do
        "$fftgen" --n "$n" --precision "$p" -o "$out/fftgen_${n}_${p}.cu"
        # the shipped table's choices too, where they differ: the plans of sm_90 devices use them
        while read -r device flags; do
            # shellcheck disable=SC2086 # the flags are words
            "$fftgen" --n "$n" --precision "$p" $flags -o "$out/fftgen_${n}_${p}_${device}.cu"
            if cmp -s "$out/fftgen_${n}_${p}_${device}.cu" "$out/fftgen_${n}_${p}.cu"; then
                rm "$out/fftgen_${n}_${p}_${device}.cu"
            fi
        done < <(shipped_choices "$p" "$n")
        # sm_80's plan too, where it differs (sm_90 runs fp32 2^15 and 2^16 on thread-block clusters,
        # which sm_80 does not have), so that sm_80 devices find it in the pack instead of compiling it
        "$fftgen" --n "$n" --precision "$p" --arch sm_80 -o "$out/sm80.cu"
        if cmp -s "$out/sm80.cu" "$out/fftgen_${n}_${p}.cu"; then
            rm "$out/sm80.cu"
        else
            mv "$out/sm80.cu" "$out/fftgen_${n}_${p}_sm80.cu"
        fi
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
