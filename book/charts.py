"""The book's charts, drawn with matplotlib from the measured results in book/data/.

    charts.py OUT_DIR [--data DIR]

Writes into OUT_DIR, for each data file (one GPU):
  chart-ladder-<gpu>.svg            % of cuBLAS per kernel, in course order
  chart-roofline-<prec>-<gpu>.svg   the roofline per precision, each kernel placed on it
  chart-lesson<NN>-<gpu>.svg        the kernels of one lesson side by side (TFLOP/s)
and charts.json, which lists the figures with their captions for book/build.py.

A file without GEMM measurements still gets its ladder, drawn as an honest "no measurements yet"
figure, and its FP32 roofline when lesson 01 measured the ceilings. Run by book/build.py with a
Python that can import matplotlib (any version from 3.3 on).
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.ticker  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bookdata  # noqa: E402

plt.rcParams.update({
    "svg.fonttype": "none",  # text stays text: small files, the page's sans-serif font
    "svg.hashsalt": "cuda-course-book",  # the same ids on every build
    "font.family": "sans-serif",
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#d8dee9",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
})

BLUE, LIGHT, RED, GREY, DARK = "#1f6fb2", "#9cc3e6", "#c0392b", "#8c96a3", "#2b3340"
PALETTE = ["#1f6fb2", "#e07b24", "#2e9e5b", "#c0392b", "#7d5ba6", "#8c6d46", "#d16ba5",
           "#5f6b7a", "#a8a82e", "#1fa3b5"]


def save(fig, path, tight=True):
    fig.savefig(path, format="svg", bbox_inches="tight" if tight else None,
                metadata={"Date": None})
    plt.close(fig)


def fmt_pct(v):
    return f"{v:.1f}%" if v >= 1 else f"{v:.2f}%"


def shape_of(lines):
    shapes = {(l["M"], l["N"], l["K"]) for l in lines}
    if len(shapes) == 1:
        m, n, k = shapes.pop()
        return f"M=N=K={m}" if m == n == k else f"M={m} N={n} K={k}"
    return None


def kernel_label(l, with_shape, with_lesson=True):
    label = f"{l['lesson']} {l['kernel']}" if with_lesson else l["kernel"]
    if with_shape:
        label += f" ({l['M']}x{l['N']}x{l['K']})"
    if l.get("checked") and not l.get("passed"):
        label += " [check FAILED]"
    return label


def empty_figure(path, title, message):
    """A chart with nothing to draw yet says so, at the size the real one would have."""
    fig = plt.figure(figsize=(9, 2.4))
    fig.text(0.02, 0.9, title, ha="left", va="top", fontsize=12, color="black")
    fig.patches.append(matplotlib.patches.FancyBboxPatch(
        (0.02, 0.08), 0.96, 0.66, boxstyle="round,pad=0,rounding_size=0.02",
        transform=fig.transFigure, facecolor="#f4f6f9", edgecolor="#c9d1dc", linestyle="--"))
    fig.text(0.5, 0.41, message, ha="center", va="center", fontsize=11, color=DARK)
    save(fig, path, tight=False)


def ladder(gpu, out):
    name = bookdata.ladder_figure(gpu)
    rows = gpu.ladder()
    if not rows:
        empty_figure(out / name, f"{gpu.gpu}: % of cuBLAS per kernel",
                     f"No GEMM measurements in {gpu.rel} yet.\nThe ladder is drawn here once "
                     "the lesson programs' --json lines\nfrom a GPU run (make gpu-check) are "
                     "committed to that file.")
        return {"file": name, "empty": True,
                "caption": f"{gpu.gpu}: no GEMM kernel has been measured in {gpu.rel} yet."}
    shape = shape_of(rows)
    labels = [kernel_label(l, shape is None) for l in rows]
    values = [float(l["pct_of_cublas"]) for l in rows]
    colors = [BLUE if l.get("headline") else LIGHT for l in rows]
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.42 * len(rows)))
    y = list(range(len(rows)))
    ax.barh(y, values, color=colors, height=0.62)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    top = max(110.0, max(values) * 1.12)
    ax.set_xlim(0, top)
    ax.axvline(100, color=DARK, linewidth=1.2, linestyle="--")
    ax.text(100, -0.75, " cuBLAS", color=DARK, va="bottom", ha="left", fontsize=10)
    for yi, v in zip(y, values):
        ax.text(v + top * 0.01, yi, fmt_pct(v), va="center", fontsize=10, color=DARK)
    bf16 = any(bookdata.precision_of(l) == "bf16" for l in rows)
    ax.set_xlabel(("% of cuBLAS (SGEMM; bf16 GEMM for the bf16 kernels)" if bf16 else
                   "% of cuBLAS SGEMM") + ", timed in the same process"
                  + (f", {shape}" if shape else ""))
    ax.grid(axis="y", visible=False)
    ax.set_title(f"{gpu.gpu}: the ladder, % of cuBLAS per kernel", loc="left")
    save(fig, out / name)
    headline = sum(1 for l in rows if l.get("headline"))
    caption = (f"{gpu.gpu}: each kernel's speed as a percentage of cuBLAS, in course order"
               + (f" ({shape})" if shape else "") + ". "
               + ("Dark bars are each lesson's headline kernel. " if headline else "")
               + f"From {gpu.rel}.")
    return {"file": name, "empty": False, "caption": caption}


def roofline(gpu, precision, out):
    name = bookdata.roofline_figure(gpu, precision)
    label = bookdata.precision_label(precision)
    copy = gpu.ceilings.get("copy_bandwidth")
    ceiling = gpu.ceilings.get(bookdata.CEILING_WHAT.get(precision, ""))
    kernels = [l for l in gpu.ladder() if bookdata.precision_of(l) == precision]
    notes = []

    bw_meas = float(copy["value"]) / 1e3 if copy else None  # TB/s = TFLOP/s per FLOP/byte
    bw_peak = float(copy["peak"]) / 1e3 if copy and copy.get("peak") else None
    if ceiling:
        p_meas = float(ceiling["value"])
        p_peak = float(ceiling["peak"]) if ceiling.get("peak") else None
        p_what = "cuBLAS (lesson 01)"
    else:
        cub = [float(l["cublas_tflops"]) for l in kernels if l.get("cublas_tflops")]
        p_meas = max(cub) if cub else None
        p_peak = None
        p_what = "cuBLAS (beside the kernels)"

    xs = [float(l.get("intensity") or bookdata.problem_intensity(l)) for l in kernels]
    xmin = min([0.05] + [x / 3 for x in xs])
    xmax = max([2000.0] + [x * 3 for x in xs])
    fig, ax = plt.subplots(figsize=(9, 5.6))
    ax.set_xscale("log")
    ax.set_yscale("log")
    grid = [xmin * (xmax / xmin) ** (i / 400) for i in range(401)]

    def roof(bw, p, **style):
        ys = [min(p, x * bw) if p else x * bw for x in grid]
        ax.plot(grid, ys, **style)

    tops = []
    if bw_peak and p_peak:
        roof(bw_peak, p_peak, color=GREY, linestyle="--", linewidth=1.3,
             label=f"datasheet: {p_peak:.1f} TFLOP/s, {bw_peak * 1e3:.0f} GB/s")
        tops.append(p_peak)
        ridge = p_peak / bw_peak
        ax.annotate(f"ridge {ridge:.0f} FLOP/byte", (ridge, p_peak), xytext=(6, 6),
                    textcoords="offset points", fontsize=9, color=GREY)
    if bw_meas and p_meas:
        roof(bw_meas, p_meas, color=DARK, linewidth=2,
             label=f"measured: {p_what} {p_meas:.1f} TFLOP/s, copy {bw_meas * 1e3:.0f} GB/s")
        tops.append(p_meas)
        ridge = p_meas / bw_meas
        ax.annotate(f"ridge {ridge:.0f}", (ridge, p_meas), xytext=(6, -14),
                    textcoords="offset points", fontsize=9, color=DARK)
    elif p_meas:
        ax.axhline(p_meas, color=DARK, linewidth=2, label=f"{p_what}: {p_meas:.1f} TFLOP/s")
        tops.append(p_meas)
    elif bw_meas:
        roof(bw_meas, None, color=DARK, linewidth=2, label=f"copy {bw_meas * 1e3:.0f} GB/s")

    own = [l for l in kernels if l.get("intensity")]
    problem = [l for l in kernels if not l.get("intensity")]
    for i, (l, x) in enumerate(zip(kernels, xs)):
        c = PALETTE[i % len(PALETTE)]
        filled = bool(l.get("intensity"))
        ax.scatter([x], [float(l["tflops"])], s=64, zorder=3, linewidths=1.8,
                   facecolors=c if filled else "none", edgecolors=c,
                   label=f"{l['lesson']} {l['kernel']}: {float(l['tflops']):.2f} TFLOP/s, "
                         f"{fmt_pct(float(l['pct_of_cublas']))} of cuBLAS")
    cub = [(bookdata.problem_intensity(l), float(l["cublas_tflops"])) for l in kernels
           if l.get("cublas_tflops")]
    if cub:
        x = statistics.median(c[0] for c in cub)
        y = statistics.median(c[1] for c in cub)
        ax.scatter([x], [y], marker="*", s=180, color=DARK, zorder=4,
                   label=f"cuBLAS in the same runs: {y:.1f} TFLOP/s (median)")
    ys = [float(l["tflops"]) for l in kernels] + tops
    if not tops and bw_meas:
        ys.append(bw_meas * xmax)
    ymin = min([0.05] + [y / 3 for y in ys if y > 0])
    ymax = max(ys + [1.0]) * 2.2
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.yaxis.set_major_formatter(plain)
    ax.set_xlabel("arithmetic intensity (FLOP per byte of device memory traffic)")
    ax.set_ylabel(f"{label} TFLOP/s")
    ax.set_title(f"{gpu.gpu}: {label} roofline", loc="left")
    if not kernels:
        ax.text(0.5, 0.12, "no kernel measurements in this file yet", transform=ax.transAxes,
                ha="center", fontsize=11, color=DARK,
                bbox=dict(boxstyle="round,pad=0.5", facecolor="#f4f6f9", edgecolor="#c9d1dc"))
    ax.legend(loc="upper left", bbox_to_anchor=(0, -0.14), ncol=1, frameon=False, fontsize=9.5)
    save(fig, out / name)

    if bw_meas and p_meas:
        notes.append("The solid roof is what was measured (a device-to-device copy for the "
                     "bandwidth, cuBLAS for the compute ceiling)"
                     + ("; the dashed one is the datasheet peak" if bw_peak and p_peak else "")
                     + ".")
    if not kernels:
        notes.append("No kernel of this precision has been measured in this file yet.")
    if own:
        notes.append("Filled points sit at the kernel's own arithmetic intensity, the "
                     "\"intensity\" its lesson reports: "
                     + ", ".join(f"{l['lesson']} {l['kernel']}" for l in own) + ".")
    if problem:
        shape = shape_of(problem)
        b = bookdata.ELEMENT_BYTES.get(precision, 4)
        at = f" = {bookdata.problem_intensity(problem[0]):.0f} FLOP/byte at {shape}" if shape else ""
        notes.append("Hollow points have no intensity of their own in the data and sit at the "
                     f"problem's intensity, 2MNK / ({b}(MK + KN + MN)){at}: "
                     + ", ".join(f"{l['lesson']} {l['kernel']}" for l in problem) + ".")
    caption = f"{gpu.gpu}, {label}: the roofline from {gpu.rel}. " + " ".join(notes)
    return {"file": name, "precision": precision, "label": label, "caption": caption,
            "kernels": len(kernels)}


def lesson_chart(gpu, num, out):
    name = bookdata.lesson_figure(gpu, num)
    lines = gpu.for_lesson(num)
    if not lines:
        return None
    shape = shape_of(lines)
    cub = [float(l["cublas_tflops"]) for l in lines if l.get("cublas_tflops")]
    names = [kernel_label(l, shape is None, with_lesson=False) for l in lines]
    values = [float(l["tflops"]) for l in lines]
    colors = [BLUE if l.get("headline") else LIGHT for l in lines]
    if cub:
        names.insert(0, "cuBLAS SGEMM (same run)" if all(
            bookdata.precision_of(l) == "fp32" for l in lines) else "cuBLAS (same run)")
        values.insert(0, statistics.median(cub))
        colors.insert(0, GREY)
    extra = []
    for l in lines:
        occ = l.get("occupancy")
        if occ is not None:
            occ = float(occ) * (100 if float(occ) <= 1 else 1)
            extra.append(f"occupancy {occ:.0f}%")
        else:
            extra.append("")
    if cub:
        extra.insert(0, "")
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.45 * len(names)))
    y = list(range(len(names)))
    ax.barh(y, values, color=colors, height=0.62)
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    top = max(values) * 1.35 if values else 1
    ax.set_xlim(0, top)
    ref = statistics.median(cub) if cub else None
    for yi, v, e in zip(y, values, extra):
        text = f"{v:.2f} TFLOP/s"
        if ref and yi > 0:
            text += f", {fmt_pct(100 * v / ref)}"
        if e:
            text += f", {e}"
        ax.text(v + top * 0.01, yi, text, va="center", fontsize=10, color=DARK)
    ax.set_xlabel("TFLOP/s" + (f", {shape}" if shape else ""))
    ax.grid(axis="y", visible=False)
    ax.set_title(f"Lesson {num} on {gpu.gpu}", loc="left")
    save(fig, out / name)
    caption = (f"Lesson {num}'s kernels on {gpu.gpu}" + (f" at {shape}" if shape else "")
               + (", next to cuBLAS timed in the same run" if cub else "")
               + f" (from {gpu.rel}).")
    return {"file": name, "caption": caption}


# ---- a lesson's own measurements (lines with a "what" key) ------------------------------------------

def pct_of(v):
    v = float(v)
    return 100 * v if v <= 1 else v


def occupancy_chart(gpu, num, lines, out, name):
    """Lesson 06's calculator, one line per kernel: the occupancy and what limits it."""
    rows = [l for l in lines if "kernel" in l and "occupancy" in l]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.42 * len(rows)))
    y = list(range(len(rows)))
    values = [pct_of(l["occupancy"]) for l in rows]
    ax.barh(y, values, color=LIGHT, height=0.62)
    ax.set_yticks(y)
    ax.set_yticklabels([str(l["kernel"]) for l in rows])
    ax.invert_yaxis()
    ax.set_xlim(0, 125)
    for yi, v, l in zip(y, values, rows):
        extra = [f"{v:.0f}%"]
        if "blocks_per_sm" in l:
            extra.append(f"{l['blocks_per_sm']} blocks/SM")
        if l.get("limit"):
            extra.append(f"limited by {l['limit']}")
        ax.text(v + 1.5, yi, ", ".join(extra), va="center", fontsize=10, color=DARK)
    ax.set_xlabel("occupancy: resident warps / the SM's maximum (%)")
    ax.grid(axis="y", visible=False)
    ax.set_title(f"Lesson {num} on {gpu.gpu}: occupancy of each kernel", loc="left")
    save(fig, out / name)
    return {"file": name, "caption": f"Lesson {num}'s kernels on {gpu.gpu}: the occupancy the "
            "calculator finds for each, and the resource that limits it (from " + gpu.rel + ")."}


def sweep_chart(gpu, num, lines, out, name):
    """Each configuration timed at every occupancy it can have."""
    rows = [l for l in lines if "kernel" in l and "occupancy" in l and "tflops" in l]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    kernels = list(dict.fromkeys(str(l["kernel"]) for l in rows))
    for i, k in enumerate(kernels):
        pts = sorted((pct_of(l["occupancy"]), float(l["tflops"])) for l in rows
                     if str(l["kernel"]) == k)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                color=PALETTE[i % len(PALETTE)], label=k)
    ax.set_xlim(0, 105)
    ax.set_ylim(0, None)
    ax.set_xlabel("occupancy (%)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"Lesson {num} on {gpu.gpu}: speed against occupancy", loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(0, -0.14), frameon=False, fontsize=9.5,
              ncol=2)
    save(fig, out / name)
    return {"file": name, "caption": f"Lesson {num} on {gpu.gpu}: each configuration timed at "
            "every occupancy it can have (the occupancy lowered by unused shared memory), from "
            + gpu.rel + "."}


def waves_chart(gpu, num, lines, out, name):
    """Wave quantization: time against the number of blocks in the grid."""
    rows = sorted((l for l in lines if "grid_blocks" in l and "ms" in l),
                  key=lambda l: float(l["grid_blocks"]))
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(9, 4.4))
    xs = [float(l["grid_blocks"]) for l in rows]
    ax.plot(xs, [float(l["ms"]) for l in rows], marker="o", color=BLUE)
    per_wave = rows[0].get("blocks_per_wave")
    if per_wave:
        w = float(per_wave)
        k = 1
        while k * w <= max(xs):
            ax.axvline(k * w, color=GREY, linestyle="--", linewidth=0.8)
            k += 1
    ax.set_ylim(0, None)
    ax.set_xlim(0, None)
    ax.set_xlabel("blocks in the grid" + (f" (dashed: multiples of {int(float(per_wave))}, one "
                                          "full wave)" if per_wave else ""))
    ax.set_ylabel("ms")
    ax.set_title(f"Lesson {num} on {gpu.gpu}: wave quantization", loc="left")
    save(fig, out / name)
    return {"file": name, "caption": f"Lesson {num} on {gpu.gpu}: the time of a fixed amount of "
            "work per block against the number of blocks; it rises in steps, one per wave of "
            "blocks the SMs can hold at once (from " + gpu.rel + ")."}


# The kinds of "what" line a lesson prints that have a chart, in the order they are shown.
EXTRA_CHARTS = {"occupancy": occupancy_chart, "occupancy_sweep": sweep_chart,
                "wave_quantization": waves_chart}


def lesson_charts(gpu, num, out):
    figs = [lesson_chart(gpu, num, out)]
    for what, draw in EXTRA_CHARTS.items():
        lines = gpu.extras.get((num, what))
        if lines:
            figs.append(draw(gpu, num, lines, out, bookdata.lesson_figure(gpu, num, what)))
    return [f for f in figs if f]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--data", type=Path, default=bookdata.ROOT / "book" / "data")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        gpus = bookdata.load(args.data)
    except bookdata.DataError as e:
        sys.exit(f"charts: {e}")
    index = {"matplotlib": matplotlib.__version__, "gpus": []}
    for gpu in gpus:
        entry = {"stem": gpu.stem, "file": gpu.rel, "gpu": gpu.gpu, "ladder": ladder(gpu, args.out),
                 "rooflines": [roofline(gpu, p, args.out) for p in gpu.precisions()],
                 "lessons": {n: lesson_charts(gpu, n, args.out) for n in gpu.lessons_measured()}}
        index["gpus"].append(entry)
    (args.out / "charts.json").write_text(json.dumps(index, indent=1) + "\n")
    n = sum(1 + len(g["rooflines"]) + sum(map(len, g["lessons"].values()))
            for g in index["gpus"])
    print(f"charts: {n} figure(s) from {len(gpus)} data file(s), matplotlib {matplotlib.__version__}")


if __name__ == "__main__":
    main()
