#!/usr/bin/env bash
# tools/wisdom-ab.sh without a GPU: a stand-in fftgen-bench whose times depend on the wisdom file it is
# given and drift up with each call (as an H200's do near its power limit), and a stand-in nvidia-smi.
# Checks the palindrome order, the medians, the drift cancelling, the device warning and the errors.
# Usage: tests/wisdom_ab_test.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: wisdom_ab_test.sh SOURCE_DIR}
ab=$src/tools/wisdom-ab.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME CONDITION-EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
contains() { grep -qF -- "$2" <<< "$1"; }

mkdir -p "$work/bin"
# Times: 1.000 with the table alone, 0.950 with a file that says "fast", 1.000 with any other file,
# plus 0.001 for each call before (a drift); a file that says "broken" fails as a bench does.
cat > "$work/bin/fftgen-bench" <<'EOF'
#!/usr/bin/env bash
calls=$(( $(cat "$FAKE_CALLS" 2>/dev/null || echo 0) + 1 ))
echo "$calls" > "$FAKE_CALLS"
base=1.000
if [ "$FFTGEN_WISDOM" != 0 ]; then
    grep -q broken "$FFTGEN_WISDOM" && { echo "fftgen-bench: error: plan failed" >&2; exit 1; }
    grep -q fast "$FFTGEN_WISDOM" && base=0.950
fi
echo "device: stand-in; 134217728 points per size, median of 50 runs"
echo "shape       prec         dir         batch |  fftgen ms     GB/s    %bw |   cuFFT ms"
for shape in 67108864 512x512; do
    ms=$(awk -v b="$base" -v c="$calls" 'BEGIN { printf "%.4f", b + 0.001 * c }')
    printf '%-11s fp16         forward         2 |     %s   1000.0  25.0%% |     1.6000    650.0  16.0%% |   1.60x |  3.60e-04  2.07e-03\n' "$shape" "$ms"
done
EOF
chmod +x "$work/bin/fftgen-bench"
# nvidia-smi: none by default (as in CI); FAKE_GPU makes one answer
cat > "$work/bin/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
[ -n "${FAKE_GPU:-}" ] || exit 9
echo "$FAKE_GPU"
EOF
chmod +x "$work/bin/nvidia-smi"
export PATH="$work/bin:$PATH" FAKE_CALLS="$work/calls"
header='fftgen-wisdom 1
device "NVIDIA H200" sm_90 driver 580.159.04 fftgen 0.1.0'
printf '%s\nfp16 67108864 max-tile=32 ms=1 default-ms=1\n# fast\n' "$header" > "$work/fast.txt"
printf '%s\nfp16 67108864 max-tile=16 ms=1 default-ms=1\n' "$header" > "$work/same.txt"
printf '%s\n# broken\n' "$header" > "$work/broken.txt"
printf 'fp16 67108864 max-tile=16\n' > "$work/not-wisdom.txt"
run() { rm -f "$FAKE_CALLS"; "$ab" --bench "$work/bin/fftgen-bench" "$@" 2> "$work/err"; }

# table at calls 1, 4, 5, 8 (1.001, 1.004, 1.005, 1.008: median 1.0045); fast.txt at 2, 3, 6, 7
# (0.952, 0.953, 0.956, 0.957: median 0.9545)
out=$(run -o "$work/log.txt" table "$work/fast.txt" -- --runs 5 67108864); code=$?
check "two entries run" $code
contains "$out" "$work/fast.txt" && contains "$out" " 0.9545  0.9520-0.9570   -5.0%, faster in 2 of 2 palindromes"
check "a faster file: its median, range, change and palindromes" $?
contains "$out" "1.0045  1.0010-1.0080"
check "the first entry's median and range" $?
[ "$(grep -c '^67108864 *fp16 *forward' <<< "$out")" -eq 2 ] && [ "$(grep -c '^512x512 *fp16 *forward' <<< "$out")" -eq 2 ]
check "one summary row per entry, shape and precision" $?
order=$(grep -o '^round [0-9]* ([^)]*)' "$work/log.txt" | uniq | sed 's/.*(//; s/)//; s#.*/##' | tr '\n' ' ')
[ "$order" = "table fast.txt fast.txt table table fast.txt fast.txt table " ]
check "the log holds every round, in palindrome order (got: $order)" $?

# the same plan under a drift: the palindromes cancel it (table 1.001, 1.004 / same 1.002, 1.003)
out=$(run table "$work/same.txt" -- --runs 5); code=$?
check "table against the same plan runs" $code
contains "$out" "+0.0%"
check "a drift alone reads +0.0%" $?

out=$(run --repeat 1 -o "$work/log3.txt" table "$work/same.txt" "$work/fast.txt"); code=$?
order=$(grep -o '^round [0-9]* ([^)]*)' "$work/log3.txt" | uniq | sed 's/.*(//; s/)//; s#.*/##' | tr '\n' ' ')
[ $code -eq 0 ] && [ "$order" = "table same.txt fast.txt fast.txt same.txt table " ]
check "three entries in one palindrome (got: $order)" $?

out=$(run table "$work/broken.txt" -- --runs 5); code=$?
[ $code -eq 1 ] && grep -q "fftgen-bench failed (exit 1) in round 2 ($work/broken.txt)" "$work/err" &&
    grep -q "plan failed" "$work/err" && contains "$out" "1.0010"
check "a failing bench stops the run with exit 1, names the round and keeps what ran" $?

FAKE_GPU="NVIDIA H100 80GB HBM3, 580.159.04" run --repeat 1 table "$work/same.txt" > /dev/null
grep -q "warning: $work/same.txt has no section for \"NVIDIA H100 80GB HBM3\" with driver 580.159.04" "$work/err"
check "a file for another GPU is named in a warning" $?
FAKE_GPU="NVIDIA H200, 580.159.04" run --repeat 1 table "$work/same.txt" > /dev/null
! grep -q warning "$work/err"
check "no warning for a file of this GPU and driver" $?

bad() { # bad NAME EXPECTED-MESSAGE ARGS...
    local name=$1 message=$2
    shift 2
    run "$@" > /dev/null
    local code=$?
    [ $code -eq 2 ] && grep -qF -- "$message" "$work/err"
    check "$name (exit $code: $(head -n 1 "$work/err"))" $?
}
bad "one entry is refused" "give two entries or more" table
bad "a missing file is named" "no readable wisdom file '$work/none.txt'" table "$work/none.txt"
bad "a file that is not wisdom is named" "'$work/not-wisdom.txt' is not a wisdom file" table "$work/not-wisdom.txt"
bad "--repeat 0 is refused" "--repeat takes a count from 1 to 999, got '0'" --repeat 0 table "$work/same.txt"
bad "--json is refused" "--json is refused" table "$work/same.txt" -- --json x.json
bad "an unknown option is named" "unknown option '--rounds'" --rounds 3 table "$work/same.txt"
"$ab" --help | grep -q "palindrome order"
check "--help says what it does" $?

[ $failures -eq 0 ] && echo "wisdom-ab: all checks passed" || echo "wisdom-ab: $failures checks failed"
[ $failures -eq 0 ]
