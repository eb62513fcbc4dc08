#!/usr/bin/env bash
# A/B of kernel choices in single calls: fftgen-bench once per entry per round, the entries in
# palindrome order (A B C C B A, then again), so that a drift along the run cancels in each
# palindrome (an H200 near its power limit runs each later call a little slower). Each entry is the
# shipped table alone or a wisdom file, whose lines come before the table's as an application's
# would. Runs on the GPU machine; see usage() or --help.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    cat <<'EOF'
Usage: tools/wisdom-ab.sh [options] ENTRY ENTRY... [-- fftgen-bench arguments]
Times the plans that each ENTRY gives, in single calls and in turns: fftgen-bench once per entry per
round, the entries in palindrome order (A B B A, or A B C C B A), repeated, so that a drift along the
run cancels within each palindrome. Then, per shape and precision, each entry's median time, its range
and its change against the first entry, with the palindromes in which it was faster (its mean there
against the first entry's mean there).

  ENTRY             `table`: the shipped table alone (FFTGEN_WISDOM=0); or a wisdom file: its lines
                    first, then the table's, as FFTGEN_WISDOM=FILE gives an application
  --repeat K        palindromes to run (default 2, so that each entry runs 2K times)
  --bench PATH      the fftgen-bench to run (default .gpu/fftgen-bench, else build/tools/fftgen-bench)
  -o FILE           also write every round's rows and the summary to FILE
  -h, --help        this text
  fftgen-bench arguments: the shapes and options to time (default: --runs 50 and its default sweep);
                    --json is refused (each round would overwrite it)

A wisdom file's lines serve only the device, driver and fftgen version its `device` line names; the
script warns where no section of a file names this machine's GPU and driver (from nvidia-smi).
Example: tools/wisdom-ab.sh table w.txt -- --runs 50 --precision fp16 67108864
Exit status: 0; 1 when a bench run fails (its output is kept); 2 on bad arguments.
EOF
}

fail_usage() {
    echo "wisdom-ab: error: $*" >&2
    exit 2
}

repeat=2
bench=
out_file=
entries=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --repeat)
            [ $# -ge 2 ] || fail_usage "--repeat needs a count"
            [[ "$2" =~ ^[1-9][0-9]{0,2}$ ]] || fail_usage "--repeat takes a count from 1 to 999, got '$2'"
            repeat=$2; shift 2 ;;
        --bench)
            [ $# -ge 2 ] || fail_usage "--bench needs a path"
            bench=$2; shift 2 ;;
        -o)
            [ $# -ge 2 ] || fail_usage "-o needs a file"
            out_file=$2; shift 2 ;;
        --) shift; break ;;
        -*) fail_usage "unknown option '$1' (see --help)" ;;
        *) entries+=("$1"); shift ;;
    esac
done
bench_args=("$@")
[ ${#bench_args[@]} -gt 0 ] || bench_args=(--runs 50)
for a in "${bench_args[@]}"; do
    [ "$a" != "--json" ] || fail_usage "--json is refused: every round would overwrite the file"
done
[ ${#entries[@]} -ge 2 ] || fail_usage "give two entries or more to compare (table, or wisdom files; see --help)"
for e in "${entries[@]}"; do
    [ "$e" = table ] || [ -r "$e" ] || fail_usage "no readable wisdom file '$e' (an entry is 'table' or a wisdom file)"
    [ "$e" = table ] || head -n 1 "$e" | grep -q '^fftgen-wisdom ' ||
        fail_usage "'$e' is not a wisdom file (its first line is not 'fftgen-wisdom N')"
done
if [ -z "$bench" ]; then
    bench=$root/.gpu/fftgen-bench
    [ -x "$bench" ] || bench=${FFTGEN_BUILD_DIR:-$root/build}/tools/fftgen-bench
fi
[ -x "$bench" ] || fail_usage "no fftgen-bench at '$bench' (build first, or give --bench)"
# shellcheck source=tools/cuda-libs.sh
. "$root/tools/cuda-libs.sh"

# A file whose sections all name another GPU or driver changes nothing: say so before the runs.
if command -v nvidia-smi > /dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
    name=${gpu%,*}
    driver=${gpu##*, }
    if [ -n "$gpu" ]; then
        for e in "${entries[@]}"; do
            [ "$e" = table ] && continue
            # the name and driver as plain text (a GPU's name may hold regex characters)
            awk -v head="device \"$name\" " -v drv=" driver $driver " \
                'index($0, head) == 1 && index($0, drv) { found = 1 } END { exit !found }' "$e" ||
                echo "wisdom-ab: warning: $e has no section for \"$name\" with driver $driver: its lines will not apply here" >&2
        done
    fi
fi

# The order of the runs: the palindrome of the entries, `repeat` times.
order=()
for ((k = 0; k < repeat; ++k)); do
    for ((i = 0; i < ${#entries[@]}; ++i)); do order+=("$i"); done
    for ((i = ${#entries[@]} - 1; i >= 0; --i)); do order+=("$i"); done
done

rows=$(mktemp)
names=$(mktemp)
trap 'rm -f "$rows" "$names"' EXIT
printf '%s\n' "${entries[@]}" > "$names"
status=0
round=0
for i in "${order[@]}"; do
    round=$((round + 1))
    entry=${entries[$i]}
    wisdom=0
    [ "$entry" = table ] || wisdom=$entry
    echo "== round $round of ${#order[@]}: $entry" >&2
    # the rows are the lines that start with a shape; keep the rest (errors) on stderr
    output=$(FFTGEN_WISDOM=$wisdom "$bench" "${bench_args[@]}" 2>&1)
    code=$?
    printf '%s\n' "$output" | awk -v r="$round" -v p="$(( (round - 1) / (2 * ${#entries[@]}) ))" -v e="$i" \
        '$1 ~ /^[0-9]+(x[0-9]+)*$/ && $5 == "|" { print r, p, e, $0 }' >> "$rows"
    printf '%s\n' "$output" | awk -v e="$entry" '$1 ~ /^[0-9]+(x[0-9]+)*$/ && $5 == "|" { print e ": " $0 }'
    if [ $code -ne 0 ]; then
        printf '%s\n' "$output" | grep -v -E '^[0-9]+(x[0-9]+)* ' >&2
        echo "wisdom-ab: error: fftgen-bench failed (exit $code) in round $round ($entry); stopping" >&2
        status=1
        break
    fi
done

# Per shape and precision, in the order the rows came: each entry's median, range and change against
# entry 0, and the palindromes where its mean was below entry 0's mean there.
summary=$(awk '
    function median(list, n,    a, i, j, t) {
        n = split(list, a, " ")
        for (i = 2; i <= n; ++i) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; --j) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == FNR { name[FNR - 1] = $0; n = FNR; next }
    {
        key = $4 " " $5 " " $6
        if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
        e = $3; ms = $9
        times[key, e] = times[key, e] " " ms
        if (!((key, e) in low) || ms < low[key, e]) low[key, e] = ms
        if (!((key, e) in high) || ms > high[key, e]) high[key, e] = ms
        sum[key, e, $2] += ms; count[key, e, $2] += 1; if ($2 + 1 > pals) pals = $2 + 1
    }
    END {
        printf "%-12s %-12s %-8s  %-24s %10s  %-17s %s\n", "shape", "precision", "dir", "entry", "median ms", "range", "against the first"
        for (k = 1; k <= nkeys; ++k) {
            key = keys[k]; split(key, f, " ")
            base = median(times[key, 0])
            for (e = 0; e < n; ++e) {
                if (!((key, e) in low)) continue
                m = median(times[key, e]); against = ""
                if (e > 0) {
                    faster = 0; both = 0
                    for (p = 0; p < pals; ++p) if (count[key, e, p] && count[key, 0, p]) {
                        both++; if (sum[key, e, p] / count[key, e, p] < sum[key, 0, p] / count[key, 0, p]) faster++
                    }
                    against = sprintf("%+.1f%%, faster in %d of %d palindromes", 100 * (m / base - 1), faster, both)
                }
                printf "%-12s %-12s %-8s  %-24s %10.4f  %.4f-%.4f   %s\n", f[1], f[2], f[3], name[e], m, low[key, e], high[key, e], against
            }
        }
    }' "$names" "$rows")
echo
printf '%s\n' "$summary"
if [ -n "$out_file" ]; then
    { echo "tools/wisdom-ab.sh --repeat $repeat ${entries[*]} -- ${bench_args[*]}"
      awk 'NR == FNR { name[FNR - 1] = $0; next } { line = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", line); print "round " $1 " (" name[$3] "): " line }' "$names" "$rows"
      echo
      printf '%s\n' "$summary"; } > "$out_file" || { echo "wisdom-ab: error: cannot write '$out_file'" >&2; exit 1; }
fi
exit $status
