#!/usr/bin/env bash
# Runs the GPU cases of tools/fuzz_plans.py on the GPU machine: each line of CASES is one call of
# fftgen-fuzz-gpu (a plan with a wisdom line's choices, in a cufftPlanMany layout, against FFTW double),
# JOBS at a time, each process with its own kernel cache. Prints every case's result in the file's
# order, then a count; exit status 1 if any case failed.
# Here:    python3 tools/fuzz_plans.py --count 300 --gpu-cases .gpu/fuzz-cases.txt   (after gpu-bundle.sh)
# There:   bash tools/fuzz-gpu.sh .gpu/fuzz-cases.txt [JOBS] [OUT]   (OUT: where the log goes, default .)
# FFTGEN_FUZZ_SANITIZE=TOOL (memcheck, initcheck, racecheck or synccheck) runs each case under NVIDIA's
# compute-sanitizer with that tool: a case with an error it reports fails (exit 9). Keep the cases
# small for it: a selection of the file (on an H200, memcheck ran the 249 of 298 cases of at most 2^21
# points in 53 s, 12 at a time).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cases=${1:?usage: tools/fuzz-gpu.sh CASES [JOBS] [OUT]}
jobs=${2:-8}
out=${3:-.}
tool=${FFTGEN_FUZZ_GPU:-$root/.gpu/fftgen-fuzz-gpu}
[ -x "$tool" ] || { echo "fuzz-gpu: no $tool (tools/gpu-bundle.sh stages it)" >&2; exit 2; }
[ -r "$cases" ] || { echo "fuzz-gpu: cannot read $cases" >&2; exit 2; }
sanitize=()
case "${FFTGEN_FUZZ_SANITIZE:-}" in
    "") ;;
    memcheck|initcheck|racecheck|synccheck)
        sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -n 1)
        [ -n "$sanitizer" ] || { echo "fuzz-gpu: compute-sanitizer was not found on this machine" >&2; exit 2; }
        # shellcheck disable=SC2034  # (used inside the eval of run_case)
        sanitize=("$sanitizer" --tool "$FFTGEN_FUZZ_SANITIZE" --error-exitcode 9 --print-limit 20) ;;
    *) echo "fuzz-gpu: FFTGEN_FUZZ_SANITIZE is '$FFTGEN_FUZZ_SANITIZE'; it takes memcheck, initcheck, racecheck or synccheck" >&2
       exit 2 ;;
esac
# shellcheck source=tools/cuda-libs.sh
source "$root/tools/cuda-libs.sh"
export LD_LIBRARY_PATH="$(dirname "$tool"):${LD_LIBRARY_PATH:-}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$out"
log="$out/fuzz-gpu.log"
: > "$log.part"
run_case() { # number, line: the line's words are shell-quoted by fuzz_plans.py
    mkdir -p "$scratch/cache$1"
    local result
    # a case that hangs is a failure too (exit 124)
    result=$(eval "FFTGEN_CACHE_DIR=\"$scratch/cache$1\" timeout 300 \"\${sanitize[@]}\" \"$tool\" $2" 2>&1)
    # one write a case, so that cases finishing together do not mix their lines
    printf 'case %d (exit %d): %s\n    %s\n' "$1" "$?" "$result" "$2" >> "$log.part"
    rm -rf "$scratch/cache$1"
}

count=0
while IFS= read -r line || [ -n "$line" ]; do
    [ -n "$line" ] || continue
    count=$((count + 1))
    run_case "$count" "$line" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done < "$cases"
wait
# the cases in the file's order (each is a "case N" line and the arguments' line)
awk '/^case [0-9]+ /{n = $2 + 0} {block[n] = block[n] $0 "\n"} END {for (i = 1; i in block || i <= n; ++i) printf "%s", block[i]}' \
    "$log.part" > "$log"
rm -f "$log.part"
cat "$log"
done_count=$(grep -c '^case [0-9]* (exit' "$log")
failed=$(grep -c '^case [0-9]* (exit [^0]' "$log")
echo "fuzz-gpu: $done_count of $count cases ran, $failed failed (log: $log)"
[ "$failed" -eq 0 ] && [ "$done_count" -eq "$count" ]
