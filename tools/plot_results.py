#!/usr/bin/env python3
"""Turns fftgen-bench --json output into PNG plots: GB/s against size for fftgen and cuFFT, per
precision, and the relative L2 error against size.

Usage: tools/plot_results.py RESULTS.json [OUTPUT_PREFIX]
       (needs matplotlib: pip install -r tools/requirements-plot.txt)
Writes OUTPUT_PREFIX-bandwidth.png and OUTPUT_PREFIX-error.png (prefix defaults to the JSON's name).
"""
import json
import os
import sys


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
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
    print(f"wrote {prefix}-bandwidth.png and {prefix}-error.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
