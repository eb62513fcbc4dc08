#!/usr/bin/env python3
"""Where a kernel's warps wait, by SASS line: a summary of Nsight Compute's stall sampling.

Counters give a kernel's stall reasons as averages; the sampling says which instructions the waits fall
on (a load's first user, a shuffle, a barrier), which is what a template change can move.
tools/gpu-profile.sh --lines writes the input: `ncu --section WarpStateStats --section SourceCounters`,
then `ncu --import REPORT --page source --csv --print-source sass`.

Usage: tools/ncu_lines.py [--top N] SASS_CSV
  SASS_CSV   ncu's source page as CSV, one or more kernels ("Kernel Name" rows between them)
  --top N    the N lines with the most samples per kernel (default 12)
Prints, per kernel: its samples, the share of each stall reason (those of 1% or more), the opcodes
that each of the four largest reasons falls on, and the lines with the most samples.

Exit status 0; 1 when the file cannot be read or holds no kernel with samples; 2 on bad arguments.
Python's standard library only (the GPU machines have no other packages).
"""
import collections
import csv
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"


def fail(message, status=1):
    print("ncu_lines: " + message, file=sys.stderr)
    sys.exit(status)


def kernels(rows):
    """(name, header, data rows, launches) for each kernel of the page."""
    found, name, block = [], None, []
    for row in rows:
        if row and row[0] == "Kernel Name":
            if name is not None:
                found.append((name, block))
            name, block = (row[1] if len(row) > 1 else "?"), []
        elif name is not None and row:
            block.append(row)
    if name is not None:
        found.append((name, block))
    result, previous = [], None
    for kernel, block in found:
        if not block or SAMPLES not in block[0] or "Source" not in block[0]:
            continue
        # ncu's CSV source page printed each result twice in a row on the H200 machine: counted once
        if (kernel, block) == previous:
            continue
        previous = (kernel, block)
        header = block[0]
        data = [r for r in block[1:] if len(r) == len(header)]
        # a kernel profiled more than once (a plan's pass in every run ncu caught): its samples summed
        match = next((k for k, (name, head, rows, _) in enumerate(result)
                      if name == kernel and head == header and source_lines(head, rows) == source_lines(header, data)),
                     None)
        if match is None:
            result.append((kernel, header, data, 1))
        else:
            rows, launches = result[match][2], result[match][3]
            result[match] = (kernel, header, add_samples(header, rows, data), launches + 1)
    return result


def source_lines(header, data):
    source = header.index("Source")
    return [r[source] for r in data]


def add_samples(header, rows, more):
    """rows + more, line by line, in the sample columns."""
    columns = [i for i, h in enumerate(header) if h == SAMPLES or h.startswith("stall_")]
    summed = []
    for a, b in zip(rows, more):
        row = list(a)
        for i in columns:
            row[i] = str(count(a[i]) + count(b[i]))
        summed.append(row)
    return summed


def opcode(source):
    """The opcode of a SASS line without its predicate and modifiers: `@!P0 LDG.E.64 R2, ...` is LDG."""
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def count(text):
    text = text.replace(",", "").strip()
    return int(text) if text.isdigit() else 0


def summarize(kernel, header, data, launches, top):
    source = header.index("Source")
    samples = header.index(SAMPLES)
    # the per-reason sample columns, issued or not ("(Not Issued)" repeats them)
    reasons = [(i, h[len("stall_"):]) for i, h in enumerate(header)
               if h.startswith("stall_") and "Not Issued" not in h]
    total = sum(count(r[samples]) for r in data)
    print("== %s: %d samples%s, %d SASS lines" % (kernel, total, " (%d launches)" % launches if launches > 1 else "",
                                                   len(data)))
    if total == 0:
        return False
    by_reason = collections.Counter()
    for i, name in reasons:
        by_reason[name] = sum(count(r[i]) for r in data)
    shares = ["%s %.1f%%" % (name, 100.0 * n / total) for name, n in by_reason.most_common() if n * 100 >= total]
    print("  stall reasons: " + ", ".join(shares))
    for name, n in by_reason.most_common(4):
        if n == 0:
            continue
        i = [i for i, r in reasons if r == name][0]
        ops = collections.Counter()
        for r in data:
            ops[opcode(r[source])] += count(r[i])
        print("  %-14s on %s" % (name, ", ".join("%s %d" % (op, v) for op, v in ops.most_common(6) if v > 0)))
    print("  lines with the most samples:")
    for r in sorted(data, key=lambda r: -count(r[samples]))[:top]:
        print("    %6d  %5.1f%%  %s" % (count(r[samples]), 100.0 * count(r[samples]) / total, " ".join(r[source].split())))
    return True


def main(argv):
    top, paths = 12, []
    args = iter(argv)
    for arg in args:
        if arg == "--top":
            value = next(args, "")
            if not value.isdigit() or int(value) < 1:
                fail("--top takes a number of lines, at least 1", 2)
            top = int(value)
        elif arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif arg.startswith("-"):
            fail("unknown option %s (see --help)" % arg, 2)
        else:
            paths.append(arg)
    if len(paths) != 1:
        fail("give one CSV file (see --help)", 2)
    try:
        with open(paths[0], newline="") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail("cannot read %s: %s" % (paths[0], e))
    found = kernels(rows)
    if not found:
        fail("%s holds no kernel with stall samples (ncu's --page source --csv --print-source sass of a "
             "report with the SourceCounters section)" % paths[0])
    shown = [summarize(k, h, d, n, top) for k, h, d, n in found]
    return 0 if any(shown) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # a reader that stopped early (| head)
        sys.stderr.close()
        sys.exit(0)
