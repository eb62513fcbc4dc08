#!/usr/bin/env python3
"""fftgen-kernel-ab specs that compare the split of 1D two-pass sizes (fftgen --four-step N1).

  four_step_specs.py [SECTION]    prints, one line, for fp32 2^21..2^24 and fp16 2^16..2^22: the table
                                  line of SECTION (a device name of runtime/tuned_choices.wisdom,
                                  default "NVIDIA H200"; the H100's lines serve it where it has none),
                                  the defaults, and the splits one and two steps either side of the
                                  planner's, alone and with the line's options, where fftgen takes them

Then: tools/kernel-ab.sh OUT split=templates -- $(tools/four_step_specs.py) here, and
OUT/fftgen-kernel-ab 30 3 on the GPU machine (results/notes.md, "The split of 1D two-pass sizes").
"""
import re
import subprocess
import sys

from l2_fetch_ab import FFTGEN, flags, sections


def kernel_ab_words(words):
    """fftgen's flags with their values joined (--max-tile=0), as kernel-ab's specs take them."""
    joined = []
    for word in words:
        if joined and joined[-1].startswith("--") and "=" not in joined[-1] and not word.startswith("--"):
            joined[-1] += "=" + word
        else:
            joined.append(word)
    return joined


def planned_split(precision, n, words):
    """The pass lengths fftgen plans for the request ("1024x4096"), or None where it refuses it."""
    run = subprocess.run([FFTGEN, "--n", str(n), "--precision", precision, "--explain"] + words,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    return "x".join(re.findall(r"pass \d: \d+ transforms of (\d+) points", run.stdout))


def main():
    section = sys.argv[1] if len(sys.argv) > 1 else "NVIDIA H200"
    table = sections(dropped=()).get(section)
    if table is None:
        sys.exit("four_step_specs: no section '%s' in the table" % section)
    specs = []
    for precision, logs in (("fp32", range(21, 25)), ("fp16", range(16, 23))):
        for log_n in logs:
            n = 1 << log_n
            line = kernel_ab_words(flags(table.get((precision, str(n)), [])))
            n1 = int(planned_split(precision, n, []).split("x")[0])
            candidates = [(0, line)] + ([(0, [])] if line else [])
            for other in (n1 // 4, n1 // 2, n1 * 2, n1 * 4):
                if 2 <= other < n:
                    asked = ["--four-step=%d" % other]
                    candidates += [(other, asked)] + ([(other, line + asked)] if line else [])
            for other, words in candidates:
                split = planned_split(precision, n, words)
                if split is not None and (other == 0 or split.count("x") == 1):
                    specs.append(":".join([precision, str(n)] + words))
    print(" ".join(specs))


if __name__ == "__main__":
    main()
