#!/usr/bin/env bash
# A pass option (the 256-byte L2 fetch, the TMA's column tiles) against the shipped table's lines, through
# the library: fftgen-bench (median of
# 30 runs a shape) with each wisdom variant that tools/l2_fetch_ab.py prepared, in turn, round after
# round, so that the GPU's drift falls on all of them alike. On the GPU machine, from the repository
# root, with the bench in .gpu/ (tools/gpu-bundle.sh):
#     bash tools/l2-fetch-ab.sh DIR TAG OUT [ROUNDS]
# DIR: what `tools/l2_fetch_ab.py prepare DIR` wrote; TAG: its name for this GPU's section (h100-80gb-hbm3,
# h200); OUT: where the rows go (OUT/ab.txt: the variant and round, then the bench's row). Then, here:
#     python3 tools/l2_fetch_ab.py summary OUT/ab.txt
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,10p' "$0" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
prepared=$1 tag=$2 out=$3 rounds=${4:-3}
# shellcheck source=tools/cuda-libs.sh
source "$root/tools/cuda-libs.sh"
bench=$root/.gpu/fftgen-bench
[ -x "$bench" ] || { echo "l2-fetch-ab: no $bench (run tools/gpu-bundle.sh first)" >&2; exit 1; }
[ -f "$prepared/$tag-A.wisdom" ] || { echo "l2-fetch-ab: no $prepared/$tag-A.wisdom (tools/l2_fetch_ab.py prepare)" >&2; exit 2; }
mkdir -p "$out"
# a user's wisdom serves only the device, driver and version it names: this one's
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
variants=()
for file in "$prepared/$tag"-*.wisdom; do
    v=${file##*-}
    v=${v%.wisdom}
    variants+=("$v")
    { echo "fftgen-wisdom 1"; echo "device \"$name\" sm_90 driver $driver fftgen 0.1.0"; cat "$file"; } > "$out/$v.wisdom"
done
: > "$out/ab.txt"
for ((r = 1; r <= rounds; ++r)); do
    for precision in fp16 fp32; do
        for v in "${variants[@]}"; do
            read -r -a shapes < <(awk -v p="$precision" '$1 == p {print $2}' "$out/$v.wisdom" | tr '\n' ' ') || true
            [ ${#shapes[@]} -gt 0 ] || continue
            echo "round $r: $precision $v (${#shapes[@]} shapes)" >&2
            # the bench exits 1 where an error is above its bound; its rows still say so
            FFTGEN_WISDOM="$out/$v.wisdom" "$bench" --runs 30 --precision "$precision" "${shapes[@]}" 2>/dev/null |
                grep -E '^[0-9]' | sed "s/^/$v r$r /" >> "$out/ab.txt" || true
        done
    done
done
wc -l < "$out/ab.txt" | sed 's/$/ rows in ab.txt/'
