#!/usr/bin/env python3
"""Turns fftgen-bench --json output into PNG plots: GB/s against size for fftgen and cuFFT, per
precision, and the relative L2 error against size.

Usage: tools/plot_results.py RESULTS.json [OUTPUT_PREFIX]
       tools/plot_results.py --table RESULTS.json
       (plots need matplotlib: pip install -r tools/requirements-plot.txt)
Writes OUTPUT_PREFIX-bandwidth.png and OUTPUT_PREFIX-error.png (prefix defaults to the JSON's name),
and OUTPUT_PREFIX-shapes.png (% of copy bandwidth per 2D/3D shape) when the JSON has shapes.
--table prints the results as Markdown tables (1D, then shapes), one row per shape; for a run of
the split precisions (--precision fp32,split,split-papers), one table of those next to fp32.
"""
import json
import os
import sys


def shape_name(shape):
    return "x".join(str(n) for n in shape)


def size_name(shape):
    n = shape[0]
    return f"2^{n.bit_length() - 1}" if len(shape) == 1 else shape_name(shape)


def print_tables(data):
    """One Markdown row per shape: both precisions side by side."""
    by_shape = {}
    for r in data["results"]:
        by_shape.setdefault(tuple(r["shape"]), {})[r["precision"]] = r
    header = ("| {} | fp32 fftgen %bw | fp32 cuFFT %bw | fp32 speed-up | fp16 fftgen %bw | fp16 cuFFT %bw "
              "| fp16 speed-up | err fftgen fp32 / fp16 | err cuFFT fp32 / fp16 |")
    for rank_test, first in ((lambda s: len(s) == 1, "n"), (lambda s: len(s) > 1, "shape")):
        shapes = [s for s in by_shape if rank_test(s)]
        if not shapes:
            continue
        print(header.format(first))
        print("|" + "---|" * 9)
        for s in shapes:
            cells = [size_name(s)]
            rows = [by_shape[s].get(p) for p in ("fp32", "fp16")]
            for r in rows:
                if r is None:
                    cells += ["", "", ""]
                    continue
                bw = lambda ms: r["bytes"] / (ms * 1e6) / r["copy_gbps"] * 100
                cells += [f'{bw(r["fftgen_ms"]):.1f}%', f'{bw(r["cufft_ms"]):.1f}%',
                          f'{r["cufft_ms"] / r["fftgen_ms"]:.2f}x']
            for who in ("fftgen", "cufft"):
                cells.append(" / ".join(f'{r[who + "_error"]:.1e}' if r else "-" for r in rows))
            print("| " + " | ".join(cells) + " |")
        print()


def print_split_tables(data):
    """The split precisions next to fftgen fp32 and cuFFT fp32 (fftgen-bench --precision fp32,split,...)."""
    by_shape = {}
    for r in data["results"]:
        by_shape.setdefault(tuple(r["shape"]), {})[r["precision"]] = r
    print("| n | fftgen fp32 %bw | split %bw | split-papers %bw | cuFFT fp32 %bw | split / cuFFT | split / fftgen fp32 "
          "| err cuFFT fp32 | err split | err split-papers | err split / cuFFT |")
    print("|" + "---|" * 11)
    for s, rows in by_shape.items():
        bw = lambda r, who: r["bytes"] / (r[who + "_ms"] * 1e6) / r["copy_gbps"] * 100 if r else None
        cell = lambda v, fmt: format(v, fmt) if v is not None else "-"
        fp32, split, papers = rows.get("fp32"), rows.get("split"), rows.get("split-papers")
        cufft = next((r for r in (fp32, split, papers) if r), None)
        cells = [size_name(s), cell(bw(fp32, "fftgen"), ".1f") + "%", cell(bw(split, "fftgen"), ".1f") + "%",
                 cell(bw(papers, "fftgen"), ".1f") + "%", cell(bw(cufft, "cufft"), ".1f") + "%",
                 cell(split and split["cufft_ms"] / split["fftgen_ms"], ".2f") + "x",
                 cell(split and fp32 and fp32["fftgen_ms"] / split["fftgen_ms"], ".2f") + "x",
                 cell(cufft and cufft["cufft_error"], ".1e"), cell(split and split["fftgen_error"], ".1e"),
                 cell(papers and papers["fftgen_error"], ".1e"),
                 cell(split and split["fftgen_error"] / split["cufft_error"], ".2f")]
        print("| " + " | ".join(cells) + " |")
    print()


def plot_shapes(plt, data, prefix):
    rows = [r for r in data["results"] if len(r["shape"]) > 1]
    if not rows:
        return None
    shapes = list(dict.fromkeys(shape_name(r["shape"]) for r in rows))
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.2
    bars = (("fp32", "fftgen", "tab:blue"), ("fp32", "cufft", "tab:orange"),
            ("fp16", "fftgen", "tab:cyan"), ("fp16", "cufft", "tab:red"))
    for i, (precision, who, color) in enumerate(bars):
        values = []
        for name in shapes:
            r = next((r for r in rows if shape_name(r["shape"]) == name and r["precision"] == precision), None)
            values.append(r["bytes"] / (r[f"{who}_ms"] * 1e6) / r["copy_gbps"] * 100 if r else 0)
        ax.bar([x + (i - 1.5) * width for x in range(len(shapes))], values, width, color=color,
               label=f'{"fftgen" if who == "fftgen" else "cuFFT"} {precision}')
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(shapes, rotation=30, fontsize=8)
    ax.set_ylabel("% of device-to-device copy bandwidth")
    ax.set_title(f'{data["device"]}, fftgen {data["fftgen"]}, batched 2D and 3D C2C, 2^27 points per shape', fontsize=9)
    ax.grid(True, axis="y", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + "-shapes.png", dpi=110)
    return prefix + "-shapes.png"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    if argv[1] == "--table":
        if len(argv) != 3:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        with open(argv[2]) as f:
            data = json.load(f)
        if any(r["precision"].startswith("split") for r in data["results"]):
            print_split_tables(data)
        else:
            print_tables(data)
        return 0
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_results: matplotlib is missing: pip install -r tools/requirements-plot.txt", file=sys.stderr)
        return 1
    with open(argv[1]) as f:
        data = json.load(f)
    prefix = argv[2] if len(argv) > 2 else os.path.splitext(argv[1])[0]
    rows = [r for r in data["results"] if len(r["shape"]) == 1]
    title = f'{data["device"]}, fftgen {data["fftgen"]}, batched 1D C2C, 2^27 points per size'

    fig, ax = plt.subplots(figsize=(9, 5))
    for precision, style in (("fp32", "-"), ("fp16", "--")):
        sel = sorted((r for r in rows if r["precision"] == precision), key=lambda r: r["shape"][0])
        sizes = [r["shape"][0] for r in sel]
        for who, color in (("fftgen", "tab:blue"), ("cufft", "tab:orange")):
            gbps = [r["bytes"] / (r[f"{who}_ms"] * 1e6) for r in sel]
            label = f'{"fftgen" if who == "fftgen" else "cuFFT"} {precision}'
            ax.plot(sizes, gbps, style, color=color, marker="o", markersize=3, label=label)
    ax.axhline(data["copy_bandwidth_gbps"], color="gray", linewidth=0.8, label="device-to-device copy")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("points per transform")
    ax.set_ylabel("GB/s (bytes of one pass read + written / time)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + "-bandwidth.png", dpi=110)

    fig, ax = plt.subplots(figsize=(9, 5))
    for precision, style in (("fp32", "-"), ("fp16", "--")):
        sel = sorted((r for r in rows if r["precision"] == precision), key=lambda r: r["shape"][0])
        sizes = [r["shape"][0] for r in sel]
        ax.plot(sizes, [r["fftgen_error"] for r in sel], style, color="tab:blue", marker="o", markersize=3,
                label=f"fftgen {precision}")
        ax.plot(sizes, [r["cufft_error"] for r in sel], style, color="tab:orange", marker="o", markersize=3,
                label=f"cuFFT {precision}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("points per transform")
    ax.set_ylabel("relative L2 error vs cuFFT Z2Z (double)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + "-error.png", dpi=110)
    shapes_png = plot_shapes(plt, data, prefix)
    print(f"wrote {prefix}-bandwidth.png and {prefix}-error.png" + (f" and {shapes_png}" if shapes_png else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
