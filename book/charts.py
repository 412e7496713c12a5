"""The book's charts, drawn with matplotlib from the measured results in book/data/.

    charts.py OUT_DIR [--data DIR]

Writes into OUT_DIR, for each data file (one GPU):
  chart-ladder-<gpu>.svg            % of cuBLAS per kernel, in course order
  chart-roofline-<prec>-<gpu>.svg   the roofline per precision, each kernel placed on it
  chart-lesson<NN>-<gpu>.svg        the kernels of one lesson side by side (TFLOP/s)
and, when there is more than one series to show (two GPUs or more, or yours in DIR/mine/):
  chart-ladder-compare.svg          the ladder with a bar per GPU (and yours) for each kernel
  chart-roofline-<prec>-compare.svg every GPU's roofs, ridge and kernels on one roofline
  chart-lesson<NN>-compare.svg      a lesson's kernels with a bar per GPU (and yours)
and charts.json, which lists the figures with their captions for book/build.py.

A file without GEMM measurements still gets its ladder, drawn as an honest "no measurements yet"
figure, and its FP32 roofline when lesson 01 measured the ceilings. Run by book/build.py with a
Python that can import matplotlib (any version from 3.3 on).
"""

import argparse
import json
import math
import statistics
import sys
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.lines  # noqa: E402
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

def above_memory_roof(points, bw):
    """The points (intensity, TFLOP/s, lesson) that sit above a measured memory roof of `bw` TB/s:
    kernels whose device-memory traffic is smaller than their intensity counts, because the L1 and
    L2 caches serve most of their loads."""
    return [pt for pt in points if bw and pt[1] > pt[0] * bw * 1.05]


def mark_above_memory_roof(ax, points):
    """One note on the chart beside the points above the memory roof, so that a point there reads
    as what it is, not as a broken chart."""
    if not points:
        return None
    lessons = sorted({str(pt[2]) for pt in points})
    x, y = min(points)[:2]
    text = "\n".join(textwrap.wrap(
        f"{', '.join(lessons)}: above the memory roof. Its intensity counts every load as "
        f"device-memory traffic; the L1 and L2 caches serve most of them, so it moves far "
        f"fewer bytes than its intensity counts and runs faster.", 44))
    # The note goes in the chart's upper left corner, left of the roofs, where nothing is drawn.
    ax.annotate(text, (x, y), xytext=(0.02, 0.97), textcoords="axes fraction", fontsize=8.5,
                color=DARK, ha="left", va="top",
                bbox=dict(boxstyle="round,pad=0.35", facecolor="#fff8e6", edgecolor="#e0b84c"),
                arrowprops=dict(arrowstyle="->", color="#b8860b", linewidth=1))
    return lessons


def label_groups(points, near=0.07):
    """Labels of points that would overlap, joined: [(x, y, "08, 09")], the points close in both
    log10 coordinates (within `near`) sharing one label at the first of them."""
    groups = []
    for x, y, text in sorted(points, key=lambda p: (p[0], p[1])):
        for g in groups:
            if abs(math.log10(x / g[0])) < near and abs(math.log10(y / g[1])) < near:
                g[2].append(text)
                break
        else:
            groups.append([x, y, [text]])
    return [(x, y, ", ".join(sorted(texts))) for x, y, texts in groups]


# Where a point's label may go, in points from the point, in order of preference: left and up
# (the course's usual place), right and up, above, then below.
LABEL_PLACES = [(-8, 5, "right"), (8, 5, "left"), (0, 10, "center"), (-8, -15, "right"),
                (8, -15, "left")]


def place_labels(ax, labels, points, fontsize=8.5):
    """Writes each (x, y, text) of `labels` beside its point at the first place of LABEL_PLACES
    where it covers neither another label nor another point's marker. Call it once the axes'
    limits are set: it works in the figure's pixels."""
    px_per_pt = ax.figure.dpi / 72
    to_px = ax.transData.transform
    markers = [tuple(to_px((x, y))) for x, y in points]
    taken = []

    def clear(box, own):
        x0, y0, x1, y1 = box
        for mx, my in markers:
            if (mx, my) != own and x0 - 5 * px_per_pt < mx < x1 + 5 * px_per_pt and \
                    y0 - 5 * px_per_pt < my < y1 + 5 * px_per_pt:
                return False
        return all(x1 < a0 or a1 < x0 or y1 < b0 or b1 < y0 for a0, b0, a1, b1 in taken)

    for x, y, text in labels:
        px, py = to_px((x, y))
        w, h = 0.62 * fontsize * len(text) * px_per_pt, 1.2 * fontsize * px_per_pt
        boxes = []
        for dx, dy, ha in LABEL_PLACES:
            left = px + dx * px_per_pt - {"right": w, "left": 0, "center": w / 2}[ha]
            bottom = py + dy * px_per_pt
            boxes.append(((left, bottom, left + w, bottom + h), dx, dy, ha))
        box, dx, dy, ha = next((b for b in boxes if clear(b[0], (px, py))), boxes[0])
        taken.append(box)
        ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                    color=DARK, ha=ha, va="bottom")


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


def roofline(gpu, precision, out, gpus=None):
    """`gpus`: every file, where a kernel's design intensity is looked up when its own line has
    none (it is the kernel's, not the GPU's)."""
    gpus = gpus or [gpu]
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

    design = [bookdata.design_intensity(l, gpus) for l in kernels]
    xs = [d or bookdata.problem_intensity(l) for d, l in zip(design, kernels)]
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

    own = [l for l, d in zip(kernels, design) if d]
    problem = [l for l, d in zip(kernels, design) if not d]
    for i, (l, x, d) in enumerate(zip(kernels, xs, design)):
        c = PALETTE[i % len(PALETTE)]
        filled = bool(d)
        ax.scatter([x], [float(l["tflops"])], s=64, zorder=3, linewidths=1.8,
                   facecolors=c if filled else "none", edgecolors=c,
                   label=f"{l['lesson']} {l['kernel']}: {float(l['tflops']):.2f} TFLOP/s, "
                         f"{fmt_pct(float(l['pct_of_cublas']))} of cuBLAS")
    marked = mark_above_memory_roof(ax, above_memory_roof(
        [(x, float(l["tflops"]), l["lesson"]) for l, x in zip(kernels, xs)], bw_meas))
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
    if marked:
        notes.append(f"Lesson {', '.join(marked)} sits above the memory roof: its intensity "
                     "counts every load as device-memory traffic, and the L1 and L2 caches serve "
                     "most of them (the note on the chart).")
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


def shapes_chart(gpu, num, out):
    """The headline kernel next to cuBLAS at each shape the lesson's targets are set at (its
    record's `bench` list), or None when the data holds one shape only."""
    lines = gpu.headline_shapes(num)
    if not lines:
        return None
    name = bookdata.lesson_figure(gpu, num, "shapes")
    shapes = [f'{l["M"]}×{l["N"]}×{l["K"]}' for l in lines]
    ours = [float(l["tflops"]) for l in lines]
    cub = [float(l["cublas_tflops"]) for l in lines]
    kernel = lines[0]["kernel"]
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.75 * len(lines)))
    y = list(range(len(lines)))
    ax.barh([v - 0.19 for v in y], cub, height=0.36, color=GREY, label="cuBLAS (same run)")
    ax.barh([v + 0.19 for v in y], ours, height=0.36, color=BLUE, label=kernel)
    top = max(ours + cub) * 1.3
    ax.set_xlim(0, top)
    for yi, v, c in zip(y, ours, cub):
        ax.text(v + top * 0.01, yi + 0.19, f"{v:.1f} TFLOP/s, {fmt_pct(100 * v / c)}",
                va="center", fontsize=10, color=DARK)
        ax.text(c + top * 0.01, yi - 0.19, f"{c:.1f}", va="center", fontsize=9, color=DARK)
    ax.set_yticks(y)
    ax.set_yticklabels(shapes)
    ax.invert_yaxis()
    ax.set_xlabel("TFLOP/s (M×N×K)")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    ax.set_title(f"Lesson {num}'s {kernel} on {gpu.gpu}, shape by shape", loc="left")
    save(fig, out / name)
    caption = (f"Lesson {num}'s headline kernel, {kernel}, next to cuBLAS timed in the same run, at "
               f"each shape of the lesson's targets on {gpu.gpu} (from {gpu.rel}).")
    return {"file": name, "caption": caption, "kind": "shapes"}


def trace_chart(gpu, num, out):
    """A sustained run of the lesson's headline as it went: each block's SM clock and board power
    (NVML), the kernel's blocks and cuBLAS's taking turns; from the line's "blocks" (the largest
    size that has them), or None."""
    lines = [l for l in gpu.sustained_lines if l["lesson"] == num and l.get("headline")
             and l.get("blocks") and l.get("cublas_blocks")]
    if not lines:
        return None
    line = max(lines, key=lambda l: (int(l["M"]) * int(l["N"]) * int(l["K"])))
    m, n, k = int(line["M"]), int(line["N"]), int(line["K"])
    shape = f"{m}³" if m == n == k else f"{m}×{n}×{k}"
    series = [(line["kernel"], line["blocks"], BLUE), ("cuBLAS", line["cublas_blocks"], GREY)]
    fig, (clock, power) = plt.subplots(2, 1, figsize=(9, 5.2), sharex=True)
    for label, blocks, color in series:
        for i, (t0, t1, mhz, watts) in enumerate(blocks):
            lab = label if i == 0 else None
            if mhz is not None:
                clock.plot([t0, t1], [mhz, mhz], color=color, linewidth=3, label=lab)
            if watts is not None:
                power.plot([t0, t1], [watts, watts], color=color, linewidth=3, label=lab)
    clock.set_ylabel("SM clock (MHz)")
    power.set_ylabel("board power (W)")
    power.set_xlabel("time from the first timed block (s)")
    clock.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=10, frameon=False)
    for ax in (clock, power):
        ax.grid(axis="x", visible=False)
    clock.set_title(f"Lesson {num} on {gpu.gpu}: a sustained run at {shape}, block by block",
                    loc="left")
    name = bookdata.lesson_figure(gpu, num, "trace")
    save(fig, out / name)
    seconds = max(b[1] for b in line["blocks"] + line["cublas_blocks"])
    caption = (f"Lesson {num}'s headline, {line['kernel']}, and cuBLAS at {shape} on {gpu.gpu}, "
               f"sustained: {seconds:.0f} s in blocks that take turns (A B B A), each block's "
               "mean SM clock and board power as NVML read them. Each settles at its own clock "
               f"under the power cap (from {gpu.rel}).")
    return {"file": name, "caption": caption}


def lesson_charts(gpu, num, out):
    figs = [lesson_chart(gpu, num, out)]
    if figs[0]:
        figs[0]["kind"] = "kernels"
    figs.append(shapes_chart(gpu, num, out))
    trace = trace_chart(gpu, num, out)
    if trace:
        trace["kind"] = "trace"
        figs.append(trace)
    for what, draw in EXTRA_CHARTS.items():
        lines = gpu.extras.get((num, what))
        if lines:
            fig = draw(gpu, num, lines, out, bookdata.lesson_figure(gpu, num, what))
            if fig:
                fig["kind"] = what
            figs.append(fig)
    return [f for f in figs if f]


# ---- several GPUs, and the learner's kernels, side by side ---------------------------------------------

# The GPUs' colours (the reference solutions), and the learner's: a colour of its own, hatched.
GPU_COLORS = ["#1f6fb2", "#e07b24", "#7d5ba6", "#8c6d46", "#d16ba5", "#1fa3b5", "#5f6b7a", "#a8a82e"]
YOURS = "#2e9e5b"
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "h"]


def all_series(gpus, mines):
    """What the side-by-side charts draw, in order: each committed GPU's reference solutions (the
    H100 first), then per file of the learner's: the reference solution timed in the same run when
    no committed file is of that GPU, and the learner's kernels, "yours"."""
    out = []
    for g in bookdata.ordered(gpus):
        out.append({"data": g, "label": g.gpu, "kind": "reference"})
    names = {g.gpu for g in gpus}
    for mine, same in mines:
        if same.gemm and mine.gpu not in names:
            out.append({"data": same, "label": f"reference, your run on {mine.gpu}",
                        "kind": "reference"})
        if mine.gemm:
            out.append({"data": mine, "label": f"yours on {mine.gpu}", "kind": "yours"})
    k = 0
    for s in out:
        if s["kind"] == "yours":
            s["color"], s["hatch"] = YOURS, "////"
        else:
            s["color"], s["hatch"] = GPU_COLORS[k % len(GPU_COLORS)], None
            k += 1
    return out


def row_key(l):
    return (l["lesson"], bookdata.precision_of(l), str(l["kernel"]))


def union_rows(lists):
    """The rows of several series' lines, one per (lesson, precision, kernel), in course order."""
    order = {num: i for i, num in enumerate(bookdata.lesson_order())}
    rows, seen = [], {}
    for lines in lists:
        for l in lines:
            k = row_key(l)
            if k not in seen:
                seen[k] = len(rows)
                rows.append(l)
    return sorted(rows, key=lambda l: (order.get(l["lesson"], len(order)), seen[row_key(l)]))


def grouped_bars(ax, rows, series, value, text, lines_of):
    """Horizontal bars, one group per row, one bar per series; returns the largest value."""
    n = len(series)
    h = 0.8 / n
    top = 0.0
    for j, s in enumerate(series):
        by_key = {row_key(l): l for l in lines_of(s)}
        for i, r in enumerate(rows):
            l = by_key.get(row_key(r))
            if l is None:
                continue
            v = value(l)
            y = i + (j - (n - 1) / 2) * h
            # cuBLAS on the learner's GPU is not the learner's kernel: no hatching there.
            hatch = None if l.get("cublas") else s["hatch"]
            ax.barh([y], [v], height=h * 0.92, color=s["color"],
                    alpha=0.45 if l.get("cublas") and s["kind"] == "yours" else
                    1.0 if r.get("headline") or s["kind"] == "yours" else 0.55,
                    hatch=hatch, edgecolor="white" if hatch else None, linewidth=0)
            top = max(top, v)
            t = text(l)
            if (l["M"], l["N"], l["K"]) != (r["M"], r["N"], r["K"]):
                t += f" at {l['M']}x{l['N']}x{l['K']}"
            if l.get("checked") and not l.get("passed"):
                t += " [check FAILED]"
            ax.text(v, y, "  " + t, va="center", fontsize=8, color=DARK)
    return top


def legend_for(ax, series, loc="lower left", anchor=(0, 1.0)):
    handles = [matplotlib.patches.Patch(facecolor=s["color"], hatch=s["hatch"],
                                        edgecolor="white" if s["hatch"] else s["color"],
                                        label=s["label"]) for s in series]
    ax.legend(handles=handles, loc=loc, bbox_to_anchor=anchor, frameon=False, fontsize=9.5,
              ncol=1)


def compare_ladder(series, out):
    name = "chart-ladder-compare.svg"
    rows = union_rows([s["data"].ladder() for s in series])
    if not rows:
        return None
    shape = shape_of(rows)
    n = len(series)
    fig, ax = plt.subplots(figsize=(10, 1.6 + 0.3 * n + len(rows) * (0.2 + 0.19 * n)))
    top = grouped_bars(ax, rows, series, lambda l: float(l["pct_of_cublas"]),
                       lambda l: fmt_pct(float(l["pct_of_cublas"])),
                       lambda s: s["data"].ladder())
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([kernel_label(dict(r, checked=False), shape is None) for r in rows])
    for t, r in zip(ax.get_yticklabels(), rows):
        if r.get("headline"):
            t.set_fontweight("bold")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    top = max(110.0, top * 1.16)
    ax.set_xlim(0, top)
    ax.axvline(100, color=DARK, linewidth=1.2, linestyle="--")
    bf16 = any(bookdata.precision_of(r) == "bf16" for r in rows)
    ax.set_xlabel(("% of cuBLAS (SGEMM; bf16 GEMM for the bf16 kernels)" if bf16 else
                   "% of cuBLAS SGEMM") + " on the same GPU, timed in the same process"
                  + (f", {shape}" if shape else ""))
    ax.grid(axis="y", visible=False)
    yours = any(s["kind"] == "yours" for s in series)
    gpus = [s for s in series if s["kind"] == "reference"]
    ax.set_title(f"The ladder on {len(gpus)} GPU{'s' if len(gpus) > 1 else ''}"
                 + (", and yours" if yours else "") + ": % of cuBLAS per kernel", loc="left",
                 pad=14 + 15 * n)
    legend_for(ax, series)
    save(fig, out / name)
    caption = ("Each kernel's speed as a percentage of cuBLAS on the same GPU, in course order"
               + (f" ({shape})" if shape else "") + ", one bar per "
               + ("GPU" if not yours else "GPU and one for your kernel")
               + ": " + "; ".join(s["label"] + " (" + s["data"].rel + ")" for s in series)
               + ". Bold labels and full colours are each lesson's headline kernel"
               + ("; hatched bars are yours (make bench MINE=1)" if yours else "") + ".")
    return {"file": name, "empty": False, "caption": caption,
            "series": [s["label"] for s in series]}


def compare_roofline(gpus, precision, out):
    """The roofline of `precision` with every GPU's own measured roof and its kernels."""
    label = bookdata.precision_label(precision)
    name = f"chart-roofline-{precision}-compare.svg"
    gpus = [g for g in bookdata.ordered(gpus) if precision in g.precisions()]
    if len(gpus) < 2:
        return None
    short = bookdata.short_names(gpus)
    per = []
    for g in gpus:
        kernels = [l for l in g.ladder() if bookdata.precision_of(l) == precision]
        design = [bookdata.design_intensity(l, gpus) for l in kernels]
        xs = [d or bookdata.problem_intensity(l) for d, l in zip(design, kernels)]
        per.append((g, kernels, design, xs))
    allx = [x for _, _, _, xs in per for x in xs]
    xmin = min([0.05] + [x / 3 for x in allx])
    xmax = max([2000.0] + [x * 3 for x in allx])
    grid = [xmin * (xmax / xmin) ** (i / 400) for i in range(401)]
    fig, ax = plt.subplots(figsize=(9, 6.2))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ys = []
    handles = []
    above = []
    for i, (g, kernels, design, xs) in enumerate(per):
        c = GPU_COLORS[i % len(GPU_COLORS)]
        m = MARKERS[i % len(MARKERS)]
        bw, (p, _) = g.bandwidth(), g.compute_ceiling(precision)
        copy = g.ceilings.get("copy_bandwidth")
        ceiling = g.ceilings.get(bookdata.CEILING_WHAT.get(precision, ""))
        if copy and copy.get("peak") and ceiling and ceiling.get("peak"):
            bwp, pp = float(copy["peak"]) / 1e3, float(ceiling["peak"])
            ax.plot(grid, [min(pp, x * bwp) for x in grid], color=c, linestyle="--",
                    linewidth=1, alpha=0.55)
            ys.append(pp)
        if bw and p:
            line, = ax.plot(grid, [min(p, x * bw) for x in grid], color=c, linewidth=2,
                            label=f"{short[g.gpu]}: {p:.1f} TFLOP/s, copy {bw * 1e3:.0f} GB/s, "
                                  f"ridge {p / bw:.1f} FLOP/byte")
            ax.plot([p / bw], [p], marker="|", markersize=14, color=c)
            handles.append(line)
            ys.append(p)
        elif p:
            handles.append(ax.axhline(p, color=c, linewidth=2, label=f"{short[g.gpu]}: "
                                                                     f"{p:.1f} TFLOP/s"))
            ys.append(p)
        # The same kernel has the same design intensity on every GPU, and its speeds are often
        # close: each later GPU's markers are drawn larger and below, so that the earlier GPU's
        # show inside them instead of hidden under them.
        grow = 1 + 0.9 * i
        for l, x, d in zip(kernels, xs, design):
            y = float(l["tflops"])
            ys.append(y)
            ax.scatter([x], [y], marker=m, s=(58 if l.get("headline") else 30) * grow,
                       zorder=3 + len(per) - i, linewidths=1.5,
                       facecolors=c if d else "none", edgecolors=c)
        if bw:
            above += above_memory_roof([(x, float(l["tflops"]), l["lesson"])
                                        for l, x in zip(kernels, xs)], bw)
        handles.append(matplotlib.lines.Line2D(
            [], [], linestyle="none", marker=m, markersize=7 * grow ** 0.5, color=c,
            label=f"{short[g.gpu]}: the kernels ({len(kernels)}; large: headline)"))
    # The same kernel on each GPU, joined: how far each one moved.
    ref_g, ref_k, _, ref_x = per[0]
    headlines = []
    for l, x in zip(ref_k, ref_x):
        pts = [(x, float(l["tflops"]))]
        for g, kernels, _, xs in per[1:]:
            o = next((k for k in kernels if row_key(k) == row_key(l)), None)
            if o is not None:
                pts.append((xs[kernels.index(o)], float(o["tflops"])))
        if len(pts) > 1:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=GREY, linewidth=0.8,
                    zorder=2)
        if l.get("headline"):
            headlines.append((x, float(l["tflops"]), l["lesson"]))
    marked = mark_above_memory_roof(ax, above)
    handles.append(matplotlib.lines.Line2D([], [], color=GREY, linestyle="--", linewidth=1,
                                           label="datasheet roofs (dashed)"))
    ymin = min([0.05] + [y / 3 for y in ys if y > 0])
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, max(ys + [1.0]) * 2.2)
    # Lessons whose headline points fall on one another share one label ("08, 09"); each label
    # goes where it covers no other label and no point.
    place_labels(ax, label_groups(headlines),
                 [(x, float(l["tflops"])) for _, kernels, _, xs in per for l, x in zip(kernels, xs)])
    plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.yaxis.set_major_formatter(plain)
    ax.set_xlabel("arithmetic intensity (FLOP per byte of device memory traffic)")
    ax.set_ylabel(f"{label} TFLOP/s")
    ax.set_title(f"{label} roofline on " + ", ".join(short[g.gpu] for g in gpus)
                 + ": each GPU's roof and kernels", loc="left")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.14), frameon=False,
              fontsize=9.5)
    save(fig, out / name)
    caption = (f"{label}: " + " and ".join(g.gpu for g in gpus) + ", each with its own roof, "
               "measured (solid: the copy bandwidth and cuBLAS) and from the datasheet (dashed), "
               "and its kernels; a grey line joins the same kernel on each GPU, and the numbers "
               "are the lessons' headline kernels. Filled points sit at the kernel's design "
               "intensity (its lesson reports it), hollow ones at the problem's; each GPU's "
               "markers are larger than the one before, so that both show where they meet. Left "
               "of a ridge (the tick on each roof) the roof is the bandwidth; right of it, the "
               "arithmetic. "
               + (f"Lesson {', '.join(marked)} sits above the memory roof: its intensity counts "
                  "every load as device-memory traffic, and the caches serve most of them (the "
                  "note on the chart). " if marked else "")
               + "From " + ", ".join(g.rel for g in gpus) + ".")
    return {"file": name, "precision": precision, "label": label, "caption": caption,
            "gpus": [g.gpu for g in gpus]}


def compare_lesson(series, num, out):
    name = f"chart-lesson{num}-compare.svg"
    ss = [s for s in series if s["data"].for_lesson(num)]
    if len(ss) < 2:
        return None
    lines_of = {id(s): s["data"].for_lesson(num) for s in ss}
    rows = union_rows([lines_of[id(s)] for s in ss])
    cub = {}
    for s in ss:
        c = [float(l["cublas_tflops"]) for l in lines_of[id(s)] if l.get("cublas_tflops")]
        if c:
            cub[id(s)] = statistics.median(c)
    shape = shape_of(rows)
    labels = [kernel_label(dict(r, checked=False), shape is None, with_lesson=False) for r in rows]
    fake = {"lesson": num, "kernel": "\0cublas", "M": rows[0]["M"], "N": rows[0]["N"],
            "K": rows[0]["K"], "headline": True}
    if cub:
        rows = [fake] + rows
        labels = ["cuBLAS (same run)"] + labels

    def lines(s):
        ls = list(lines_of[id(s)])
        if id(s) in cub:
            ls.append(dict(fake, tflops=cub[id(s)], cublas=True))
        return ls

    n = len(ss)
    fig, ax = plt.subplots(figsize=(10, 1.4 + 0.3 * n + len(rows) * (0.2 + 0.19 * n)))
    top = grouped_bars(ax, rows, ss, lambda l: float(l["tflops"]),
                       lambda l: f"{float(l['tflops']):.2f} TFLOP/s" + (
                           "" if l.get("cublas") else f", {fmt_pct(float(l['pct_of_cublas']))}"),
                       lines)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    for t, r in zip(ax.get_yticklabels(), rows):
        if r.get("headline"):
            t.set_fontweight("bold")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, top * 1.45)
    ax.set_xlabel("TFLOP/s (and % of cuBLAS on the same GPU)" + (f", {shape}" if shape else ""))
    ax.grid(axis="y", visible=False)
    ax.set_title(f"Lesson {num}, side by side", loc="left", pad=14 + 15 * n)
    legend_for(ax, ss)
    save(fig, out / name)
    yours = any(s["kind"] == "yours" for s in ss)
    caption = (f"Lesson {num}'s kernels" + (f" at {shape}" if shape else "")
               + (", next to cuBLAS timed in the same run" if cub else "") + ", one bar each on "
               + "; ".join(s["label"] + " (" + s["data"].rel + ")" for s in ss) + "."
               + (" Hatched bars are yours." if yours else ""))
    return {"file": name, "caption": caption, "kind": "kernels",
            "series": [s["label"] for s in ss]}


def compare_charts(gpus, mines, out):
    """The side-by-side figures, or None when there is one series only (one GPU, none of yours)."""
    series = all_series(gpus, mines)
    if len(series) < 2:
        return None
    precisions = []
    for g in gpus:
        precisions += [p for p in g.precisions() if p not in precisions]
    nums = []
    for s in series:
        nums += [n for n in s["data"].lessons_measured() if n not in nums]
    order = {num: i for i, num in enumerate(bookdata.lesson_order())}
    lessons = {}
    for n in sorted(nums, key=lambda n: order.get(n, len(order))):
        fig = compare_lesson(series, n, out)
        if fig:
            lessons[n] = fig
    return {"series": [{"label": s["label"], "kind": s["kind"], "gpu": s["data"].gpu,
                        "file": s["data"].rel} for s in series],
            "ladder": compare_ladder(series, out),
            "rooflines": [r for r in (compare_roofline(gpus, p, out) for p in precisions) if r],
            "lessons": lessons}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--data", type=Path, default=bookdata.ROOT / "book" / "data")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        gpus = bookdata.load(args.data)
        mines = bookdata.load_mine(args.data)
    except bookdata.DataError as e:
        sys.exit(f"charts: {e}")
    index = {"matplotlib": matplotlib.__version__, "gpus": []}
    for gpu in gpus:
        entry = {"stem": gpu.stem, "file": gpu.rel, "gpu": gpu.gpu, "ladder": ladder(gpu, args.out),
                 "rooflines": [roofline(gpu, p, args.out, gpus) for p in gpu.precisions()],
                 "lessons": {n: lesson_charts(gpu, n, args.out) for n in gpu.lessons_measured()}}
        index["gpus"].append(entry)
    compare = compare_charts(gpus, mines, args.out)
    if compare:
        index["compare"] = compare
    (args.out / "charts.json").write_text(json.dumps(index, indent=1) + "\n")
    n = sum(1 + len(g["rooflines"]) + sum(map(len, g["lessons"].values()))
            for g in index["gpus"])
    if compare:
        n += bool(compare["ladder"]) + len(compare["rooflines"]) + len(compare["lessons"])
    print(f"charts: {n} figure(s) from {len(gpus)} data file(s)"
          + (f" and {len(mines)} of yours" if mines else "")
          + f", matplotlib {matplotlib.__version__}")


if __name__ == "__main__":
    main()
