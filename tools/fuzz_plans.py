#!/usr/bin/env python3
"""Random fftgen requests, each checked the way a user would meet it.

Each case draws a shape, a precision and a layout, then offers fftgen random options one at a time,
keeping those the planner accepts (`--explain`), so the cases reach deep combinations of choices
instead of stopping at the first refusal. Every refusal along the way must be one line with exit
status 2. Then, by default:
  - fftgen must write the CUDA file (exit 0): a plan the planner accepts and the templates cannot
    render is a bug;
  - with --compile, nvcc must compile that file for the request's architecture (sm_90 unless it
    names one): a file fftgen writes and the compiler refuses is a bug too, which neither the host
    simulation nor a machine without a GPU would otherwise see;
  - where the transform is small enough (--max-points), its host simulation (`--target sim`) is
    compiled into a shared library and fftgen-sim-check runs it against FFTW double, batches 1 and 3,
    both directions, in the layout asked for (writes outside the output layout fail it).
With --gpu-cases FILE, the accepted requests (their choices only those a wisdom line can make) go to
FILE instead, one line of fftgen-fuzz-gpu arguments each, with a batch, a direction, and in place or a
scaled inverse where the layout is dense; tools/fuzz-gpu.sh runs them on the GPU machine through
libfftgen, each plan held to its choices (fftgen_plan_many_with_choice), against FFTW double.

--plain P leaves that share of the requests without options (drawn apart from the rest, so a seed's
other cases stay as they were): the planner's own plans, which options keep a request from (a 3D
shape in one pass, one pass on a cluster).

Usage: tools/fuzz_plans.py [--count N] [--seed S] [--jobs J] [--max-points P] [--render-only]
                           [--compile] [--gpu-cases FILE] [--plain P] [--build DIR] [--keep] [--verbose]
Prints each failure with the fftgen command that reproduces it; exit status 1 if any case failed.
Slow sweeps stay here, not in the test suite (a few seconds a simulated case on one core)."""

import argparse
import concurrent.futures
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile

PASS_OPTIONS = ["--l2-prefetch-passes", "--l2-fetch-256", "--tma-columns", "--tile-pairs", "--tensor-cores", "--twiddle-powers",
                "--radix32-passes", "--column-registers", "--computed-twiddles", "--column-pairs", "--row-registers"]
ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"]


def shape(rng, max_log):
    """One to three power-of-two dimensions, at most 2^max_log points."""
    while True:
        rank = rng.choice([1, 1, 1, 2, 2, 3])
        if rank == 1:
            dims = [1 << rng.randint(1, max_log)]
        elif rank == 2:
            dims = [1 << rng.randint(1, 14), 1 << rng.randint(1, 14)]
        else:
            dims = [1 << rng.randint(1, 10) for _ in range(3)]
        points = 1
        for d in dims:
            points *= d
        if points <= 1 << max_log:
            return dims, points


def pass_list(rng, gpu):
    count = rng.randint(1 if gpu else 0, 3)  # wisdom lines name their passes
    if count == 0:
        return ""
    return "=" + ",".join(str(p) for p in sorted(rng.sample([1, 2, 3], count)))


def options(rng, dims, points, precision, gpu):
    """Candidate options, each a list of words, in random order; for the GPU sweep only those that a
    wisdom line can say, and the layouts."""
    o = []
    if rng.random() < .3:
        o.append(["--radix", str(rng.choice([2, 4, 8, 16, 32]))])
    if rng.random() < .2:
        o.append(["--block-threads", str(1 << rng.randint(5, 10))])
    if rng.random() < .3:
        o.append(["--prefetch", str(1 << rng.randint(1, 6))])
    if rng.random() < .3:
        o.append(["--l2-prefetch", str(rng.choice([0, 256, 1024, 2048]))])
    for flag in PASS_OPTIONS:
        if rng.random() < .35:
            o.append([flag + pass_list(rng, gpu)])
    if rng.random() < .4:
        o.append(["--max-tile", ",".join(str(rng.choice([0, 1, 2, 4, 8, 16, 32])) for _ in range(rng.randint(1, 3)))])
    if rng.random() < .35:
        o.append(["--cluster", str(rng.choice([0, 1, 2, 4, 8]))])
    if len(dims) == 2 and rng.random() < .3:
        o.append(["--order", rng.choice(["rows-first", "columns-first"])])
    if len(dims) > 1 and rng.random() < .2:
        o.append(["--split-columns"])
    if len(dims) == 1 and points > 4096 and rng.random() < .3:  # a wisdom line's four-step=N1 too
        o.append(["--four-step", str(1 << rng.randint(1, points.bit_length() - 2))])
    if len(dims) == 2 and dims[0] > 2 and rng.random() < .3:  # dimension 0 split, the rest in slices
        o.append(["--four-step", str(1 << rng.randint(1, dims[0].bit_length() - 2))])
    if not gpu and precision == "fp16" and rng.random() < .3:
        o.append(["--intermediate", rng.choice(["fp16", "shared-exponent", "mixed"])])
    if not gpu and rng.random() < .2:
        o.append(["--arch", rng.choice(ARCHS)])
    if not gpu and rng.random() < .2:
        o.append(["--direction", rng.choice(["forward", "inverse"])])
    if gpu and rng.random() < .1:  # transforms interleaved: at most stride / distance a call
        side = rng.choice(["i", "o"])
        o.append(["--%sstride" % side, str(rng.choice([2, 4])), "--%sdist" % side, "1"])
    stride = rng.choice([1, 1, 2, 3])
    if rng.random() < .3:
        # a shorter distance: input transforms that overlap (frames of a short-time FFT)
        o.append(["--istride", str(stride)] +
                 (["--idist", str(rng.choice([points * stride, points * stride + 1, points * stride + 5,
                                              max(1, points * stride // 2)]))] if rng.random() < .5 else []))
    if rng.random() < .3:
        o.append(["--ostride", str(stride)] +
                 (["--odist", str(points * stride + rng.choice([0, 2, 7]))] if rng.random() < .5 else []))
    if len(dims) > 1 and rng.random() < .25:
        o.append(["--inembed", "x".join(str(d + rng.choice([0, 0, 1, 4])) for d in dims[1:])])
    if len(dims) > 1 and rng.random() < .25:
        o.append(["--onembed", "x".join(str(d + rng.choice([0, 0, 3])) for d in dims[1:])])
    rng.shuffle(o)
    return o


def run(fftgen, words, output=None):
    command = [fftgen] + words + (["-o", output] if output else ["--explain"])
    return subprocess.run(command, capture_output=True, text=True)


def refusal_problem(result):
    """What is wrong with a refusal, or None: exit 2, one line of stderr."""
    if result.returncode == 2 and result.stderr.count("\n") == 1 and result.stderr.startswith("fftgen: "):
        return None
    return "exit %d, stderr %r" % (result.returncode, result.stderr[:300])


def flag_value(words, flag, default="0"):
    return words[words.index(flag) + 1] if flag in words else default


def layout_of(words, dims):
    """The layout fftgen takes from the words: [istride, idist, ostride, odist], [inembed, onembed]
    ("0": the shape's); a distance left out is the span of one transform, as fftgen's default."""
    layout, embeds = [], []
    for side, embed_flag in (("i", "--inembed"), ("o", "--onembed")):
        stride = int(flag_value(words, "--%sstride" % side, "1"))
        embed = flag_value(words, embed_flag, "0")
        span = stride * dims[0]
        for e in (dims[1:] if embed == "0" else [int(e) for e in embed.split("x")]):
            span *= e
        layout += [str(stride), flag_value(words, "--%sdist" % side, str(span))]
        embeds.append(embed)
    return layout, embeds


def draw_case(index, args, tools):
    """A random request that fftgen accepts: (words, precision, dims, points), or a failure
    (words, message) where a refusal breaks the rules; None where the first draw is refused."""
    rng = random.Random(args.seed * 1000003 + index)
    max_log = 23 if args.gpu_cases else 27 if args.render_only else args.max_points.bit_length() - 1
    dims, points = shape(rng, max_log)
    precision = rng.choice(["fp16", "fp16", "fp32", "split", "split-papers"])
    words = ["--n", "x".join(map(str, dims)), "--precision", precision]
    first = run(tools["fftgen"], words)
    if first.returncode != 0:
        problem = refusal_problem(first)
        return None if problem is None else (words, "refusal: " + problem)
    if random.Random(args.seed * 7919 + index).random() < args.plain:
        return words, precision, dims, points, rng
    for option in options(rng, dims, points, precision, args.gpu_cases is not None):
        if any(option[0] == w for w in words):
            continue
        tried = run(tools["fftgen"], words + option)
        if tried.returncode == 0:
            words += option
        elif refusal_problem(tried):
            return words + option, "refusal: " + refusal_problem(tried)
    return words, precision, dims, points, rng


def simulate(words, precision, dims, args, tools, where):
    """The host simulation of the request against FFTW double: failure messages."""
    sim = run(tools["fftgen"], words + ["--target", "sim", "--name", "fz"], os.path.join(where, "k.c"))
    if sim.returncode != 0:
        return ["sim file: exit %d: %s" % (sim.returncode, sim.stderr.strip()[:400])]
    library = os.path.join(where, "k.so")
    built = subprocess.run([tools["cc"], "-O1", "-shared", "-fPIC", "-w", "-o", library, os.path.join(where, "k.c"),
                            "-lm"], capture_output=True, text=True)
    if built.returncode != 0:
        return ["sim file does not compile: %s" % built.stderr.strip()[:400]]
    layout, embeds = layout_of(words, dims)
    checked = subprocess.run([tools["check"], library, "fz", precision, words[1]] + layout +
                             (embeds if len(dims) > 1 else []), capture_output=True, text=True)
    if args.verbose:
        print("fftgen %s\n  %s" % (" ".join(words), checked.stdout.strip().replace("\n", "\n  ")), flush=True)
    if checked.returncode != 0:
        return ["against FFTW double:\n    " + (checked.stdout + checked.stderr).strip().replace("\n", "\n    ")]
    return []


def compile_cuda(words, tools, where):
    """nvcc on the CUDA file fftgen wrote, for the request's architecture: failure messages."""
    arch = flag_value(words, "--arch", "sm_90")
    built = subprocess.run([tools["nvcc"], "-c", "-w", "-arch=" + arch, "-o", os.path.join(where, "k.o"),
                            os.path.join(where, "k.cu")], capture_output=True, text=True)
    if built.returncode != 0:
        errors = [line for line in built.stderr.splitlines() if "error" in line] or built.stderr.splitlines()
        return ["CUDA file does not compile (nvcc -arch=%s): %s" % (arch, " | ".join(errors[:3])[:400])]
    return []


WISDOM_VALUES = {"--radix": "radix", "--block-threads": "block-threads", "--prefetch": "prefetch",
                 "--l2-prefetch": "l2-prefetch", "--max-tile": "max-tile", "--cluster": "cluster", "--order": "order",
                 "--four-step": "four-step"}


def gpu_case(words, precision, dims, points, rng):
    """fftgen-fuzz-gpu's arguments for the request: its choices as a wisdom line's words, its layout, a
    batch, a direction, in place or scaled where the layout is dense."""
    choice = {"tensor-cores": "none", "max-tile": "0"}
    for i, w in enumerate(words):
        if w in WISDOM_VALUES:
            choice[WISDOM_VALUES[w]] = words[i + 1]
        elif w == "--split-columns":
            choice["split-columns"] = "1"
        elif w.split("=")[0] in PASS_OPTIONS:
            choice[w.split("=")[0][2:]] = w.split("=")[1]
    layout, embeds = layout_of(words, dims)
    strided = any(w in words for w in ("--istride", "--idist", "--ostride", "--odist", "--inembed", "--onembed"))
    # transforms interleaved (stride >= 2 * distance) take at most stride / distance a call
    limits = [int(layout[s]) // int(layout[s + 1]) for s in (0, 2) if int(layout[s]) >= 2 * int(layout[s + 1])]
    batch = min([rng.choice([1, 2, 3, 5])] + limits + [max(1, (1 << 24) // points)])
    case = ["--wisdom", " ".join("%s=%s" % kv for kv in choice.items())]
    if strided:
        case += ["--layout"] + layout + embeds
    elif rng.random() < .3:
        case.append("--in-place")
    direction = rng.choice(["forward", "inverse"])
    if not strided and direction == "inverse" and rng.random() < .5:
        case.append("--scale")
    return case + [precision, words[1], str(batch), direction]


def check_case(index, args, tools, scratch):
    drawn = draw_case(index, args, tools)
    if drawn is None:
        return None, [], None
    if len(drawn) == 2:
        return drawn[0], [drawn[1]], None
    words, precision, dims, points, rng = drawn
    if args.gpu_cases:
        return words, [], gpu_case(words, precision, dims, points, rng)
    where = os.path.join(scratch, "case%d" % index)
    os.makedirs(where, exist_ok=True)
    failures = []
    cuda = run(tools["fftgen"], words, os.path.join(where, "k.cu"))
    if cuda.returncode != 0:
        failures.append("CUDA file: exit %d: %s" % (cuda.returncode, cuda.stderr.strip()[:400]))
    elif args.compile:
        failures += compile_cuda(words, tools, where)
    if not args.render_only and points <= args.max_points:
        failures += simulate(words, precision, dims, args, tools, where)
    if not args.keep:
        shutil.rmtree(where, ignore_errors=True)
    return words, failures, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100, help="cases (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the first case's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases at once (default: the cores)")
    parser.add_argument("--max-points", type=int, default=65536,
                        help="simulate transforms of at most this many points (a power of two; default 65536)")
    parser.add_argument("--render-only", action="store_true",
                        help="write the CUDA files only (no simulation), sizes up to 2^27")
    parser.add_argument("--compile", action="store_true",
                        help="compile each CUDA file with nvcc (NVCC, else nvcc on the PATH or in "
                             "/usr/local/cuda/bin) for its architecture")
    parser.add_argument("--gpu-cases", metavar="FILE",
                        help="write the cases for the GPU (one line of fftgen-fuzz-gpu arguments each, for "
                             "tools/fuzz-gpu.sh) instead of simulating them")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"),
                        help="the build folder with fftgen and fftgen-sim-check (default build/)")
    parser.add_argument("--plain", type=float, default=0.0,
                        help="the share of requests left without options (default 0)")
    parser.add_argument("--verbose", action="store_true", help="print every simulated case and its errors")
    parser.add_argument("--keep", action="store_true", help="keep each case's files in the scratch folder")
    args = parser.parse_args()
    if args.count < 1 or args.jobs < 1 or args.max_points < 2 or args.max_points & (args.max_points - 1):
        parser.error("--count and --jobs take 1 or more, --max-points a power of two from 2")
    tools = {"fftgen": os.path.join(args.build, "fftgen"),
             "check": os.path.join(args.build, "tools", "fftgen-sim-check"),
             "cc": os.environ.get("CC", "cc")}
    for name in ("fftgen", "check"):
        if not os.access(tools[name], os.X_OK):
            sys.exit("fuzz_plans: no %s (build first: tools/build.sh)" % tools[name])
    if args.compile:
        if args.gpu_cases:
            parser.error("--compile checks the CUDA files this machine writes; --gpu-cases writes none")
        tools["nvcc"] = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if not os.access(tools["nvcc"], os.X_OK):
            sys.exit("fuzz_plans: --compile: no nvcc (set NVCC, or put the CUDA toolkit's bin on the PATH)")
    scratch = tempfile.mkdtemp(prefix="fftgen-fuzz-")
    failed = done = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check_case, i, args, tools, scratch) for i in range(args.count)]
        gpu_lines = []
        for future in concurrent.futures.as_completed(futures):
            words, failures, gpu_line = future.result()
            if gpu_line:
                gpu_lines.append(" ".join(shlex.quote(w) for w in gpu_line))
            done += 1
            if failures:
                failed += 1
                print("FAILED: fftgen %s" % " ".join(shlex.quote(w) for w in words or []))
                for f in failures:
                    print("  " + f)
                sys.stdout.flush()
            if done % 25 == 0 or done == args.count:
                print("fuzz_plans: %d of %d cases, %d failed" % (done, args.count, failed), file=sys.stderr, flush=True)
    if args.gpu_cases:
        with open(args.gpu_cases, "w") as out:
            out.write("".join(line + "\n" for line in sorted(gpu_lines)))
        print("fuzz_plans: %d GPU cases in %s" % (len(gpu_lines), args.gpu_cases))
    if args.keep:
        print("fuzz_plans: case files kept in %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
