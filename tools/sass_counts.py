#!/usr/bin/env python3
"""Counts the SASS instructions of fftgen's kernels without a GPU: for kernels bound by their issue
slots (the fp16 passes, results/notes.md), instructions a point tell a template change's effect
before it is timed.

Usage: tools/sass_counts.py [--arch sm_90] [--min-blocks B] [--inverse] [--mix] SPEC_OR_FILE...
  SPEC            PRECISION:N[:FLAG...] as tools/kernel-ab.sh takes them, e.g.
                  fp16:262144:--radix32-passes=1,2 (fftgen writes the forward kernels)
  FILE            a .cu file fftgen wrote, e.g. generated/fftgen_131072_fp16_h200.cu
  --arch A        the GPU architecture to compile for (default sm_90)
  --min-blocks B  ask ptxas for B blocks per SM in every kernel, as kernel-ab.sh's @MINBLOCKS does
  --inverse       the inverse kernels too (forward only by default)
  --mix           each kernel's instructions by kind as well
Prints one line a kernel: the registers ptxas took and the bytes it spilled, the SASS instructions a
thread executes (static counts without NOPs: the kernels are straight-line code), the points a
thread holds (RADIX_MAX) and the instructions a point. For a plan of several passes, the
instructions a point of the whole transform are the sum of its passes'.

Exit status 0; 1 when a tool fails; 2 on bad arguments.
Needs nvcc, and cuobjdump with nvdisasm: the CUDA toolkit's where it has them, else PyPI's wheels
(python3 -m venv /tmp/sass && /tmp/sass/bin/pip install -r tools/requirements-sass.txt, then run
this script with /tmp/sass/bin/python).
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# SASS opcodes by kind, for --mix (the rest are named by their opcode)
KINDS = {
    "FADD": "fp32 add", "FFMA": "fp32 fma", "FMUL": "fp32 mul", "FSEL": "fp32 select", "FSETP": "fp32 compare",
    "FMNMX": "fp32 min/max", "HADD2": "fp16", "HFMA2": "fp16", "HMUL2": "fp16", "F2FP": "fp16", "PRMT": "byte permute",
    "LDS": "shared load", "STS": "shared store", "LDG": "global load", "STG": "global store", "LDL": "local (spill)",
    "STL": "local (spill)", "SHFL": "shuffle", "MUFU": "special function", "BAR": "barrier",
    "IMAD": "integer", "IADD3": "integer", "LEA": "integer", "LOP3": "integer", "SHF": "integer",
    "ISETP": "integer", "SEL": "integer", "MOV": "move", "LDC": "constant", "ULDC": "constant",
}


def fail(message, status=1):
    """Exit status 2 for bad arguments, 1 for what failed."""
    print("sass_counts: " + message, file=sys.stderr)
    sys.exit(status)


def tool(name):
    """A CUDA tool from PATH, the toolkit, or a wheel in this Python's site-packages."""
    found = shutil.which(name) or (os.path.exists("/usr/local/cuda/bin/" + name) and "/usr/local/cuda/bin/" + name)
    if found:
        return found
    for entry in sys.path:
        for cuda in ("cu13", "cu12"):
            candidate = os.path.join(entry, "nvidia", cuda, "bin", name)
            if os.access(candidate, os.X_OK):
                return candidate
    fail("no %s (the CUDA toolkit's, or tools/requirements-sass.txt's wheels: see --help)" % name)


def write_spec(spec, folder, index):
    """The forward (and inverse) kernels fftgen writes for a kernel-ab.sh spec."""
    fields = spec.split(":")
    if len(fields) < 2:
        fail("'%s' is neither a .cu file nor a spec PRECISION:N[:FLAG...]" % spec, 2)
    fftgen = os.environ.get("FFTGEN", os.path.join(ROOT, "build", "fftgen"))
    if not os.access(fftgen, os.X_OK):
        fail("no fftgen at %s (build first: tools/build.sh)" % fftgen)
    path = os.path.join(folder, "spec%d.cu" % index)
    command = [fftgen, "--n", fields[1], "--precision", fields[0], "-o", path] + fields[2:]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail("%s: fftgen said: %s" % (spec, done.stderr.strip()))
    return path


def compile_kernels(source, folder, arch, min_blocks):
    """(cubin path, ptxas's registers and spills by kernel)"""
    text = open(source).read()
    if min_blocks:
        text = re.sub(r"__launch_bounds__\(THREADS(, \d+)?\)", "__launch_bounds__(THREADS, %d)" % min_blocks, text)
    copy = os.path.join(folder, "k_" + os.path.basename(source))
    with open(copy, "w") as out:
        out.write(text)
    cubin = copy + ".cubin"
    done = subprocess.run([tool("nvcc"), "-cubin", "-O3", "-arch=" + arch, "-Xptxas", "-v", "-o", cubin, copy],
                          capture_output=True, text=True)
    if done.returncode != 0:
        fail("nvcc failed on %s:\n%s" % (source, done.stderr.strip()))
    usage, kernel = {}, None
    for line in done.stderr.splitlines():
        entry = re.search(r"Compiling entry function '(\w+)'", line)
        if entry:
            kernel = entry.group(1)
            usage[kernel] = {"registers": 0, "spilled": 0}
        spill = re.search(r"(\d+) bytes spill stores", line)
        if spill and kernel:
            usage[kernel]["spilled"] = int(spill.group(1))
        used = re.search(r"Used (\d+) registers", line)
        if used and kernel:
            usage[kernel]["registers"] = int(used.group(1))
    return text, cubin, usage


def sass_opcodes(cubin):
    """Opcode counts by kernel, NOPs left out."""
    done = subprocess.run([tool("cuobjdump"), "-sass", cubin], capture_output=True, text=True,
                          env=dict(os.environ, NVDISASM_PATH=os.path.dirname(tool("nvdisasm"))))
    if done.returncode != 0 or "fatal" in done.stdout:
        fail("cuobjdump failed on %s: %s" % (cubin, (done.stderr or done.stdout).strip()))
    counts, kernel = {}, None
    for line in done.stdout.splitlines():
        function = re.search(r"Function : (\w+)", line)
        if function:
            kernel = function.group(1)
            counts[kernel] = collections.Counter()
            continue
        instruction = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
        if instruction and kernel and instruction.group(1) != "NOP":
            counts[kernel][instruction.group(1)] += 1
    return counts


def points_a_thread(text, kernel):
    """RADIX_MAX of the pass the kernel belongs to: the last one defined before the kernel."""
    definition = re.search(r"^\s*%s\(const" % re.escape(kernel), text, re.MULTILINE)
    if definition is None:
        return None
    values = re.findall(r"constexpr int RADIX_MAX = (\d+);", text[:definition.start()])
    return int(values[-1]) if values else None


def main(argv):
    arch, min_blocks, inverse, mix, inputs = "sm_90", 0, False, False, []
    arguments = iter(argv)
    for argument in arguments:
        if argument in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if argument == "--arch":
            arch = next(arguments, None) or fail("--arch needs a value", 2)
        elif argument == "--min-blocks":
            value = next(arguments, "")
            if not value.isdigit() or not 1 <= int(value) <= 32:
                fail("--min-blocks takes 1 to 32, not '%s'" % value, 2)
            min_blocks = int(value)
        elif argument == "--inverse":
            inverse = True
        elif argument == "--mix":
            mix = True
        elif argument.startswith("-"):
            fail("unknown option '%s' (see --help)" % argument, 2)
        else:
            inputs.append(argument)
    if not inputs:
        fail("give specs or .cu files (see --help)", 2)
    for name in inputs:
        if name.endswith(".cu") and not os.path.isfile(name):
            fail("no file %s" % name, 2)
    for name in ("nvcc", "cuobjdump", "nvdisasm"):
        tool(name)
    with tempfile.TemporaryDirectory(prefix="fftgen-sass-") as folder:
        for index, name in enumerate(inputs):
            if name.endswith(".cu"):
                source = name
            else:
                source = write_spec(name, folder, index)
            text, cubin, usage = compile_kernels(source, folder, arch, min_blocks)
            print("%s%s" % (name, " (min blocks %d)" % min_blocks if min_blocks else ""))
            counts = sass_opcodes(cubin)
            for kernel in sorted(counts):
                if kernel.endswith("_inverse") and not inverse:
                    continue
                total = sum(counts[kernel].values())
                points = points_a_thread(text, kernel)
                per_point = " %6.1f a point" % (total / points) if points else ""
                regs = usage.get(kernel, {"registers": 0, "spilled": 0})
                print("  %-40s %3d registers, %4d bytes spilled, %5d instructions, %2s points a thread%s"
                      % (kernel, regs["registers"], regs["spilled"], total, points or "?", per_point))
                if mix:
                    kinds = collections.Counter()
                    for opcode, n in counts[kernel].items():
                        kinds[KINDS.get(opcode, opcode)] += n
                    print("    " + ", ".join("%s %d" % item for item in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
