#!/usr/bin/env python3
"""A pass option (the 256-byte L2 fetch, l2-fetch-256, or the TMA's column tiles, tma-columns) against the
shipped table, through fftgen-bench.

  l2_fetch_ab.py prepare DIR [OPTION]
                                  on this machine (needs build/fftgen): for each GPU section of
                                  runtime/tuned_choices.wisdom (the H100's lines serve the H200 where
                                  its section has none), the lines with passes that can take OPTION
                                  (default l2-fetch-256: column passes that ask L2 for 256 bytes,
                                  fftgen --l2-fetch-256, and take no L2 prefetch; tma-columns: column
                                  passes whose tiles the TMA copies, which then drop their own L2
                                  requests), as wisdom variants: v1 every such pass, v2, v3.. each alone
                                  where there are several; A the lines without it (a line's own OPTION
                                  left out); DIR/SECTION.shapes lists the shapes by precision
  l2_fetch_ab.py summary AB.TXT   the medians of tools/l2-fetch-ab.sh's rounds: the table's line (A)
                                  against each variant, and v1's change round by round

Between them, on the GPU machine: tools/l2-fetch-ab.sh DIR SECTION OUT [ROUNDS].
"""
import collections
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "runtime", "tuned_choices.wisdom")
FFTGEN = os.environ.get("FFTGEN", os.path.join(ROOT, "build", "fftgen"))
# wisdom words that are fftgen flags with a separate value; pass lists are --word=P,..
VALUE_FLAGS = {"max-tile", "radix", "block-threads", "prefetch", "l2-prefetch", "cluster", "order", "four-step"}


def sections(dropped=("l2-fetch-256=",)):
    """{section name: {(precision, shape): words}}, the first section's lines under the later ones; the
    words without times and without those that start with one of `dropped` (by default the line's own
    l2-fetch-256, which the variants replace)."""
    found, current = {}, None
    with open(TABLE) as table:
        for line in table:
            line = line.split("#")[0].strip()
            if not line or line.startswith("fftgen-wisdom"):
                continue
            if line.startswith("device"):
                current = re.search(r'"(.*)"', line).group(1)
                found[current] = {}
                continue
            words = line.split()
            found[current][(words[0], words[1])] = [w for w in words[2:]
                                                    if not w.startswith(("ms=", "default-ms=") + tuple(dropped))]
    names = list(found)
    return {name: {**found[names[0]], **found[name]} for name in names}


def flags(words):
    out = []
    for word in words:
        key, value = word.split("=", 1)
        if key == "tensor-cores":
            out += [] if value == "none" else ["--tensor-cores=" + value]
        elif key == "split-columns":
            out += ["--split-columns"] if value == "1" else []
        elif key in VALUE_FLAGS:
            out += ["--" + key, value]
        else:
            out.append("--%s=%s" % (key, value))
    return out


def mask_of(text):
    return sum(1 << (int(p) - 1) for p in text.split(",")) if text else 0


def passes_text(mask):
    return ",".join(str(i + 1) for i in range(8) if mask >> i & 1)


def eligible(precision, shape, words, scratch, option):
    """The passes that take --OPTION without a list, as the generated file's command names them."""
    run = subprocess.run([FFTGEN, "--n", shape, "--precision", precision] + flags(words) +
                         ["--" + option, "-o", scratch], capture_output=True, text=True)
    if run.returncode != 0:
        return 0
    with open(scratch) as f:
        found = re.search(r"--%s=([0-9,]+)" % option, f.read(1000))
    return mask_of(found.group(1)) if found else 0


def prepare(out, option="l2-fetch-256"):
    os.makedirs(out, exist_ok=True)
    scratch = os.path.join(out, "scratch.cu")
    for name, lines in sections((option + "=",)).items():
        tag = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia ", "")).strip("-")
        rows = []
        for (precision, shape), words in lines.items():
            if precision not in ("fp16", "fp32"):
                continue
            prefetched = mask_of(next((w.split("=")[1] for w in words if w.startswith("l2-prefetch-passes=")), ""))
            mask = eligible(precision, shape, words, scratch, option)
            if option == "l2-fetch-256":  # a pass that asks L2 for its tiles ahead gains nothing more
                mask &= ~prefetched
            if mask:
                singles = [1 << i for i in range(8) if mask >> i & 1]
                rows.append((precision, shape, words, [mask] + (singles if len(singles) > 1 else [])))
        with open(os.path.join(out, tag + "-A.wisdom"), "w") as f:
            f.writelines("%s %s %s\n" % (precision, shape, " ".join(words)) for precision, shape, words, _ in rows)
        for v in range(max((len(r[3]) for r in rows), default=0)):
            with open(os.path.join(out, "%s-v%d.wisdom" % (tag, v + 1)), "w") as f:
                for precision, shape, words, variants in rows:
                    if v < len(variants):
                        f.write("%s %s %s %s=%s\n" % (precision, shape, " ".join(words), option,
                                                      passes_text(variants[v])))
        with open(os.path.join(out, tag + ".shapes"), "w") as f:
            for precision in ("fp16", "fp32"):
                f.write(" ".join([precision] + [r[1] for r in rows if r[0] == precision]) + "\n")
        print("%s (%s): %d lines" % (name, tag, len(rows)))
    os.remove(scratch)


def summary(path):
    runs = collections.defaultdict(list)  # (precision, shape) -> (variant, round, ms)
    with open(path) as f:
        for line in f:
            w = line.split()
            runs[(w[3], w[2])].append((w[0], w[1], float(w[7])))
    variants = sorted({r[0] for rs in runs.values() for r in rs} - {"A"})
    print("%-5s %-12s %8s" % ("prec", "shape", "A") + "".join(" %8s" % v for v in variants) + "  v1 against A, by round")
    for (precision, shape), rs in runs.items():
        def median(v):
            ms = [r[2] for r in rs if r[0] == v]
            return "%8.4f" % statistics.median(ms) if ms else "%8s" % "-"
        rounds = sorted({r[1] for r in rs})
        change = []
        for rnd in rounds:
            a = [r[2] for r in rs if r[0] == "A" and r[1] == rnd]
            b = [r[2] for r in rs if r[0] == "v1" and r[1] == rnd]
            if a and b:
                change.append("%+.1f%%" % (100 * (b[0] / a[0] - 1)))
        print("%-5s %-12s %s" % (precision, shape, median("A")) + "".join(" " + median(v) for v in variants) +
              "  " + " ".join(change))


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "prepare" and sys.argv[3:] in ([], ["l2-fetch-256"], ["tma-columns"]):
        prepare(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
