#!/usr/bin/env python3
"""make readme: the README's measured figures, generated from book/data/ and the lessons' records.

    readme.py [--check] [--data DIR] [--readme FILE]

README.md holds blocks between `<!-- BEGIN GENERATED: NAME ... -->` and `<!-- END GENERATED: NAME -->`
lines, and so do the chapters that quote measured figures (CHAPTER_GENERATORS: lesson 01's
ceilings, lesson 03's floor and measurement, lesson 11's ladder, lab and shapes, and its Nsight
Compute profiles, which `make profile-11 RECORD=1` and `make bench` record) and every chapter's
"What it printed" (`printed-NN`: what `make lesson-N SOLUTION=1` printed on a GPU, which `make
bench` records; the newest such line of any GPU's file). This rewrites each from the data (`make
readme`; `make bench` does it too, after writing the data):

- `claim`: one sentence, how close the last lesson's headline kernel comes to cuBLAS on the H200
  (the same sentence as the book's front page: bookdata.headline_claim);
- `gpus`: the GPU each lesson needs, from the records alone (min_cc, min_cc_for and the tracks
  of lessons/NN-slug/lesson.toml: bookdata.gpu_requirements; the book's front page has the same
  per lesson);
- `results`: per lesson, the headline kernel's % of cuBLAS and TFLOP/s at the target sizes, the
  reference solution's target (the solution_target of lessons/NN-slug/lesson.toml) and whether
  the data meets it.

Both come from the reference GPU's file (the H200's; bookdata.reference_gpu), whatever else
book/data/ holds: the targets are set there. Files of other GPUs committed beside it (the H100's
record, say) are named in one sentence under the table's lead, which points to the book; the book
sets the GPUs side by side, lesson by lesson. The learner's own measurements (book/data/mine/) never reach the README.

--check writes nothing; it exits 1, with the difference, when a block is not what the data gives
(the `course.readme` test of `make test`). Standard library only.
"""

import argparse
import difflib
import re
import sys
import textwrap
from pathlib import Path

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
sys.path.insert(0, str(BOOK))
import bookdata  # noqa: E402
from bookdata import records  # noqa: E402
from course import printed as transcript  # noqa: E402  (what the lesson programs printed)

README = ROOT / "README.md"
BLOCK = re.compile(r"^<!-- BEGIN GENERATED: ([\w-]+)(?: [^\n]*)? -->\n(.*?)^<!-- END GENERATED: \1 -->$",
                   re.M | re.S)


class ReadmeError(Exception):
    pass


def wrap(text):
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def shown(path):
    path = Path(path).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def claim_block(gpus):
    return wrap(bookdata.headline_claim(gpus))


def results_block(gpus):
    gpu = bookdata.reference_gpu(gpus)
    if gpu is None:
        return ("No measurements on an H200 are committed yet: `make bench` on one writes them to "
                "`book/data/`, and `make readme` puts them here.")
    m = gpu.meta
    run = ", ".join(x for x in (f"{m['sm_count']} SMs" if m.get("sm_count") else "",
                                f"CUDA {m['cuda']}" if m.get("cuda") else "",
                                f"driver {m['driver']}" if m.get("driver") else "") if x)
    sizes = " and ".join(f"{' and '.join(map(str, s))} for the {p.upper() if p == 'fp32' else p} "
                         f"lessons" for p, s in bookdata.TARGET_SIZES.items())
    lead = (f"Measured by `make bench` on an {gpu.gpu}{f' ({run})' if run else ''}"
            f"{' on ' + measured_on(m) if m.get('date') else ''}, committed as `{gpu.rel}`: each "
            f"lesson's headline kernel, from its reference solution, checked against Eigen and "
            f"timed next to cuBLAS in the same process, at M = N = K = {sizes}, "
            + ("the two interleaved run by run: *burst* (each run from a cold L2 and an idle GPU) "
               "and *sustained* (4 s back to back in blocks of half a second, at the power cap)."
               if gpu.method_name() == bookdata.measurements.METHOD else
               f"in burst timing ({gpu.method_name()})."))
    if gpu.ceilings:
        lead += f" Lesson 01's ceilings: {bookdata.ceilings_sentence(gpu)}."
    if flags := bookdata.method_flags_sentence(gpu):
        lead += f" {flags}."
    others = [g for g in bookdata.ordered(gpus) if g is not gpu]
    if others:
        lead += (f" The targets and this table are the {gpu.gpu}'s; also measured: "
                 + ", ".join(f"the {g.gpu} (`{g.rel}`)" for g in others)
                 + ", which the book (`make book`) sets beside it lesson by lesson.")
    out = [wrap(lead), "",
           "| # | lesson | headline kernel | M = N = K | % of cuBLAS, burst | TFLOP/s (cuBLAS) "
           "| % of cuBLAS, sustained | target of the reference solution | verdict |",
            "|---|---|---|---|---|---|---|---|---|"]
    for lesson in records.lessons():
        lines = gpu.headline(lesson.num)
        target = bookdata.target_text(lesson)
        if not lines and not target:
            continue
        if not lines:
            out.append(f"| {lesson.num} | {lesson.slug} | | | not measured | | | {target} | |")
            continue
        precision = bookdata.precision_of(lines[0])
        kernel = f"`{lines[0]['kernel']}`" + ("" if precision == "fp32" else f" ({precision})")
        join = " / ".join
        held = [gpu.sustained(l) for l in lines]
        verdict = bookdata.target_verdict(lesson, lines + [l for l in held if l])
        sustained = join(bookdata.fmt_figure(l['pct_of_cublas']) + '%' if l else '-' for l in held)
        out.append(
            f"| {lesson.num} | {lesson.slug} | {kernel} | {join(str(l['M']) for l in lines)} | "
            f"{join(bookdata.fmt_figure(l['pct_of_cublas']) + '%' for l in lines)} | "
            f"{join(bookdata.fmt_figure(l['tflops']) for l in lines)} "
            f"({join(bookdata.fmt_figure(l['cublas_tflops']) for l in lines)}) | "
            f"{sustained if any(held) else '-'} | {target or '-'} | {'**missed**' if verdict == 'missed' else verdict or ''} |")
    return "\n".join(out)


def gpus_block(gpus):
    """The Requirements' GPU line: what each lesson needs, from the records alone."""
    return textwrap.fill(bookdata.gpu_requirements(), width=100, initial_indent="- ",
                         subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)


GENERATORS = {"claim": claim_block, "gpus": gpus_block, "results": results_block}


# ---- the chapters' measured figures ----------------------------------------------------------------

def _ceiling(gpu, what):
    line = gpu.ceilings.get(what) if gpu else None
    return line if line and line.get("value") else None


def _cublas_range(lines):
    """The cuBLAS figures timed beside `lines`: "51.1", or "50.6 to 51.1" TFLOP/s."""
    beside = [float(l["cublas_tflops"]) for l in lines]
    low, high = f"{min(beside):.1f}", f"{max(beside):.1f}"
    return low if low == high else f"{low} to {high}"


def ceilings_block(gpus):
    """Chapter 01: the ceilings `make bench` measured on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    copy, sgemm = _ceiling(gpu, "copy_bandwidth"), _ceiling(gpu, "cublas_sgemm")
    if not copy or not sgemm:
        return "No ceilings are committed in `book/data/` yet: `make bench` on a GPU measures them."
    beside = [l for l in gpu.all_sizes
              if l["precision"] == "fp32" and l["M"] == l["N"] == l["K"] == 4096]
    text = (f"The `make bench` run committed in `{gpu.rel}` ({gpu.gpu}, "
            f"{_day_of(gpu, '01')}) measured {float(copy['value']):.1f} GB/s "
            f"({float(copy['pct_of_peak']):.0f}% of {float(copy['peak']):.0f}) and "
            f"{float(sgemm['value']):.1f} TFLOP/s ({float(sgemm['pct_of_peak']):.0f}% of "
            f"{float(sgemm['peak']):.1f}): these are the ceilings the rest of the course starts "
            "from.")
    if beside:
        turns = ("taking turns with it" if gpu.method_name() == bookdata.measurements.METHOD
                 else "after it")
        text += (" cuBLAS SGEMM is timed again next to every kernel of lessons 03 to 09, in the same "
                 f"process, {turns}, and is the 100% of their \"% of cuBLAS\": "
                 + _cublas_range(beside)
                 + " TFLOP/s at 4096³ in `book/data/` "
                 "(burst).")
    return wrap(text)


def naive_floor_block(gpus):
    """Chapter 03: what the 4096³ problem would take at each of the reference GPU's limits."""
    gpu = bookdata.reference_gpu(gpus)
    copy, sgemm = _ceiling(gpu, "copy_bandwidth"), _ceiling(gpu, "cublas_sgemm")
    if not copy or not sgemm:
        return "(No ceilings are committed in `book/data/` yet: `make bench` measures them.)"
    n = 4096
    gflop = 2 * n ** 3 / 1e9
    mb = 3 * 4 * n * n / 1e6  # A, B read once, C written once
    peak_f, meas_f = float(sgemm["peak"]), float(sgemm["value"])
    peak_b, meas_b = float(copy["peak"]), float(copy["value"])
    rows = [("the FP32 peak", gflop / peak_f, f"{gflop:.1f} GFLOP / {peak_f:.1f} TFLOP/s"),
            ("cuBLAS, as measured in lesson 01", gflop / meas_f,
             f"{gflop:.1f} GFLOP / {meas_f:.1f} TFLOP/s"),
            ("moving the minimum traffic at the peak bandwidth", mb / peak_b,
             f"{mb:.1f} MB / {peak_b:.0f} GB/s"),
            ("the same at the measured copy bandwidth", mb / meas_b,
             f"{mb:.1f} MB / {meas_b:.0f} GB/s")]
    out = [f"On the {gpu.gpu} of `{gpu.rel}`:", "", "| if the limit were | time | from |",
           "|---|---|---|"]
    for label, ms, where in rows:
        out.append(f"| {label} | {ms:.3g} ms | {where} |")
    out += ["", wrap(f"Moving the data takes about 1/{round(gflop / meas_f / (mb / meas_b))} of the "
                     "time of computing on it. A good GEMM hides its memory traffic completely behind "
                     f"arithmetic; cuBLAS does, at {float(sgemm['pct_of_peak']):.0f}% of the FP32 "
                     "peak.")]
    return "\n".join(out)


def _day_of(gpu, num):
    """The day lesson `num`'s lines were measured: `make bench --lessons` keeps older ones."""
    return gpu.meta.get("dates_of", {}).get(num) or gpu.meta.get("date", "?")


def naive_measured_block(gpus):
    """Chapter 03: the naive kernel as `make bench` measured it on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    lines = gpu.headline("03") if gpu else []
    at = [l for l in lines if l["M"] == 4096]
    if not at:
        return "No measurement of lesson 03 is committed in `book/data/` yet."
    l = at[0]
    return wrap(f"The `make bench` run committed in `{gpu.rel}` ({gpu.gpu}, "
                f"{_day_of(gpu, '03')}, burst) measured {float(l['pct_of_cublas']):.2f}% of "
                f"cuBLAS, {float(l['tflops']):.2f} TFLOP/s in {float(l['ms']):.1f} ms at 4096³.")


def _lesson_lines(gpu, num):
    """Lesson `num`'s burst lines of the reference solution, by shape: {(M, N, K): [lines]}."""
    out = {}
    for l in gpu.all_sizes if gpu else []:
        if l["lesson"] == num:
            out.setdefault((int(l["M"]), int(l["N"]), int(l["K"])), []).append(l)
    return out


def _run_words(gpu, num):
    """Which run lesson `num`'s figures come from, and how it timed them."""
    return (f"the `make bench` run committed in `{gpu.rel}` ({gpu.gpu}, "
            f"{_day_of(gpu, num)}; burst: each "
            "kernel checked against Eigen, then timed taking turns with cuBLAS bf16 in the same "
            "process, median of 10 runs with a cold L2)")


def l11_ladder_block(gpus):
    """Chapter 11: the rungs at 2048³, 4096³ and 8192³ on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    by_shape = _lesson_lines(gpu, "11")
    cubes = [(n, n, n) for n in (2048, 4096, 8192) if (n, n, n) in by_shape]
    if not cubes:
        return "No measurement of lesson 11 is committed in `book/data/` yet: `make bench` takes it."
    # The rungs: the kernels the smallest cube has (the lab's variants are timed at one size).
    rungs = [l["kernel"] for l in by_shape[cubes[0]]]
    head = "| rung | kernel | " + " | ".join(f"{c[0]}³ TFLOP/s | % of cuBLAS" for c in cubes) + " |"
    out = [wrap(f"From {_run_words(gpu, '11')}. cuBLAS, timed beside each rung, measured "
                + ", ".join(f"{_cublas_range(by_shape[c])} TFLOP/s at {c[0]}³" for c in cubes)
                + ":"), "", head, "|---|---|" + "---|---|" * len(cubes)]
    for step, kernel in enumerate(rungs, 1):
        cells = []
        for c in cubes:
            l = next((x for x in by_shape[c] if x["kernel"] == kernel), None)
            bold = "**" if l and l.get("headline") else ""
            cells += ([f"{bold}{float(l['tflops']):.1f}{bold}",
                       f"{bold}{float(l['pct_of_cublas']):.1f}%{bold}"] if l else ["–", "–"])
        out.append(f"| {step} | `{kernel}` | " + " | ".join(cells) + " |")
    spreads = [100 * float(l.get("spread", 0)) for c in cubes for l in by_shape[c]
               if l["kernel"] in rungs]
    out += ["", wrap(f"Runs of the same kernel differ: the spreads of these rows (fastest to "
                     f"slowest of the 10 runs) go from {min(spreads):.1f}% to {max(spreads):.1f}%; "
                     "read differences of a point between neighbouring rungs with that in mind.")]
    return "\n".join(out)


def l11_lab_block(gpus):
    """Chapter 11: the lab's variants at the sweep size, beside the headline, on the reference
    GPU."""
    gpu = bookdata.reference_gpu(gpus)
    record = records.resolve("11")
    size = int(record.sweep or 4096)
    by_shape = _lesson_lines(gpu, "11")
    lines = by_shape.get((size, size, size), [])
    smaller = [s for s in by_shape if s != (size, size, size)]
    ladder = {l["kernel"] for s in smaller for l in by_shape[s]}
    variants = [l for l in lines if l["kernel"] not in ladder]
    if not variants:
        return (f"No sweep of the lab at {size}³ is committed in `book/data/` yet: `make bench` "
                "takes it (`make lesson-11 ARGS=--sweep` prints one).")
    headline = next((l for l in lines if l.get("headline")), None)
    out = [wrap(f"At {size}³, from {_run_words(gpu, '11')}; cuBLAS measured "
                f"{_cublas_range(lines)} TFLOP/s beside them:"), "", "| kernel | TFLOP/s | % of cuBLAS | spread |",
           "|---|---|---|---|"]
    for l in ([headline] if headline else []) + variants:
        name = f"**`{l['kernel']}`** (the headline)" if l is headline else l["kernel"]
        out.append(f"| {name} | {float(l['tflops']):.1f} | {float(l['pct_of_cublas']):.1f}% | "
                   f"{100 * float(l.get('spread', 0)):.1f}% |")
    return "\n".join(out)


def l11_shapes_block(gpus):
    """Chapter 11: rung 5 and the headline at every shape of the record's bench list, burst and
    sustained, on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    record = records.resolve("11")
    by_shape = _lesson_lines(gpu, "11")
    if not by_shape:
        return "No measurement of lesson 11 is committed in `book/data/` yet: `make bench` takes it."
    out = [wrap(f"From {_run_words(gpu, '11')}; sustained: the headline and cuBLAS back to back at "
                "the power cap, 4 s of GPU time each, taking turns in blocks of half a second:"), "",
           "| shape (M × N × K) | `staged_store_gemm` (rung 5) | headline, burst | cuBLAS beside it "
           "| headline, sustained | J per GEMM, headline / cuBLAS |", "|---|---|---|---|---|---|"]
    missing = []
    for shape in record.bench_shapes:
        lines = by_shape.get(tuple(shape), [])
        head = next((l for l in lines if l.get("headline")), None)
        if head is None:
            missing.append(bookdata.sizes_text([dict(zip("MNK", shape))]))
            continue
        rung5 = next((l for l in lines if l["kernel"] == "staged_store_gemm"), None)
        held = gpu.sustained(head)
        five = (f"{float(rung5['tflops']):.1f} TFLOP/s, {float(rung5['pct_of_cublas']):.1f}%"
                if rung5 else "–")
        sus = (f"{float(held['tflops']):.1f}, {float(held['pct_of_cublas']):.1f}%"
               if held else "not measured")
        joules = (f"{float(held['energy_j']):.3f} / {float(held['cublas_energy_j']):.3f}"
                  if held and held.get("energy_j") and held.get("cublas_energy_j") else "–")
        out.append(f"| {bookdata.sizes_text([head])} | {five} | {float(head['tflops']):.1f} TFLOP/s, "
                   f"{float(head['pct_of_cublas']):.1f}% | {float(head['cublas_tflops']):.1f} | "
                   f"{sus} | {joules} |")
    if missing:
        out += ["", wrap(f"Not measured on the {gpu.gpu} in that run: {', '.join(missing)} "
                         "(`make bench` times them).")]
    if flags := bookdata.method_flags_sentence(gpu):
        out += ["", wrap(f"{flags}: read the sustained column with that in mind (the headline "
                         "takes the second turn there).")]
    return "\n".join(out)


# ---- chapter 11's profiles (Nsight Compute, recorded by `make profile-11 RECORD=1`) --------------

# The metrics of the comparison with cuBLAS, by the start of their names in the record's
# [[metric]] list (the kernel time is one of profiles.BASE_METRICS).
TENSOR_BUSY, L2_BYTES, DRAM_READ = "sm__pipe_tensor_op_hmma_cycles_active", "lts__t_bytes", \
    "dram__bytes_read"


def _metric(lesson, start):
    """The name of the lesson's profile metric that begins with `start`, or None."""
    return next((m for m, _ in bookdata.profiles.metrics_of(lesson) if m.startswith(start)), None)


def _scale(metric):
    """(the unit a profile column shows `metric` in, or "", the factor from the recorded figure,
    the digits shown)."""
    if metric == bookdata.profiles.TIME:
        return "µs", 1e-3, 1
    if "bytes" in metric:
        return "GB", 1e-9, 3
    if "pct" in metric:
        return "%", 1, 1
    return "", 1, 2 if metric.endswith(".ratio") else 0


def _what(shows):
    """What a metric is, in a few words: its description up to the first ":" or ";", without a
    unit of its own in brackets ("kernel time (ns)" -> "kernel time")."""
    return re.sub(r"\s*\(ns\)$", "", re.split(r"[:;]", shows, maxsplit=1)[0].strip())


def _figure(metric, value, unit=False):
    """A recorded figure as a profile column shows it, with its unit when `unit` (a % only); "–"
    for none."""
    if value is None or metric is None:
        return "–"
    shown, factor, digits = _scale(metric)
    return f"{value * factor:,.{digits}f}" + ("%" if unit and shown == "%" else "")


def _total(lines, metric):
    """The sum of `metric` over `lines` (a kernel time, bytes: a GEMM of several kernels), or
    None when one has no figure."""
    values = [l["metrics"].get(metric) for l in lines] if metric else [None]
    return None if not lines or None in values else sum(values)


def _busy(lines, metric):
    """A % of `metric` over `lines`, each weighted by its kernel time; None without figures."""
    pairs = [(l["metrics"].get(bookdata.profiles.TIME), l["metrics"].get(metric)) for l in lines]
    if not lines or not metric or any(t is None or v is None for t, v in pairs):
        return None
    total = sum(t for t, _ in pairs)
    return sum(t * v for t, v in pairs) / total if total else None


def _shape_text(shape):
    return bookdata.sizes_text([dict(zip("MNK", shape))])


def _profiled_on(gpu, lines):
    dates = sorted({l["date"] for l in lines})
    return (f"Nsight Compute on the {gpu.gpu}, recorded in `{gpu.rel}` ({' and '.join(dates)}; "
            "each figure the median over the kernel's launches in one timed run of the lesson "
            "program, the GPU's clocks left alone")


def _not_profiled(gpu, lesson):
    """The one line of a profile block without the profile: which GPU, and how to profile it."""
    first = lesson.profile[0] if lesson.profile else "4096"
    who = f"The {gpu.gpu} (`{gpu.rel}`)" if gpu else "The chapter's GPU"
    return (f"{who} has not been profiled yet: `make profile-{lesson.n} SIZE={first} RECORD=1` "
            "records the ladder, `make bench` every shape of the lesson's record.")


def l11_profile_shapes_block(gpus):
    """Chapter 11: the headline kernel against cuBLAS's at each profiled shape, under Nsight
    Compute, on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    lesson = records.resolve("11")
    by_shape = gpu.profiled(lesson.num) if gpu else {}
    if not by_shape:
        return _not_profiled(gpu, lesson)
    time = bookdata.profiles.TIME
    tensor, l2, dram = (_metric(lesson, m) for m in (TENSOR_BUSY, L2_BYTES, DRAM_READ))
    listed = [records.parse_shape(s) for s in lesson.profile]
    shapes = [s for s in listed if s in by_shape] + sorted(
        (s for s in by_shape if s not in listed), key=lambda s: s[0] * s[1] * s[2])
    element = bookdata.ELEMENT_BYTES.get(lesson.precision, 4)
    out = [wrap(f"{_profiled_on(gpu, [l for s in shapes for l in by_shape[s]])}): the headline "
                "kernel and cuBLAS's kernel beside it in the same program. Under the profiler the "
                "kernels run one at a time, each launch measured on its own: the times are the "
                "profiler's, to compare with each other, not with the bench's. \"A and B once\" is "
                "what reading each input once from DRAM would take:"), "",
           "| shape (M × N × K) | headline, µs | cuBLAS, µs | time, headline / cuBLAS | L2, GB: "
           "headline / cuBLAS | DRAM read, GB: headline / cuBLAS | A and B once, GB | tensor pipe "
           "busy: headline / cuBLAS | cuBLAS's kernel |", "|---|---|---|---|---|---|---|---|---|"]
    for shape in shapes:
        lines = by_shape[shape]
        head = [l for l in lines if l.get("headline")]
        base = [l for l in lines if l.get("baseline")]
        t_head, t_base = _total(head, time), _total(base, time)
        ratio = f"{t_head / t_base:.3f}" if t_head and t_base else "–"
        pair = " / ".join
        names = ", ".join(f"`{l['kernel']}`" for l in base) or "–"
        m, n, k = shape
        out.append(
            f"| {_shape_text(shape)} | {_figure(time, t_head)} | {_figure(time, t_base)} | {ratio} "
            f"| {pair(_figure(l2, _total(x, l2)) for x in (head, base))} "
            f"| {pair(_figure(dram, _total(x, dram)) for x in (head, base))} "
            f"| {element * (m * k + k * n) / 1e9:.3f} "
            f"| {pair(_figure(tensor, _busy(x, tensor), unit=True) for x in (head, base))} "
            f"| {names} |")
    missing = [_shape_text(s) for s in listed if s not in by_shape]
    if missing:
        out += ["", wrap(f"Not profiled on the {gpu.gpu} yet: {', '.join(missing)} (`make bench` "
                         "profiles every shape of the lesson's record).")]
    return "\n".join(out)


def _wrapping_code(name, width=48):
    """A C++ name as code. A long one is cut into lines at its outermost argument list, after the
    `<` that opens it and after each of its commas, so that a template's policies stand one per
    line in a narrow table column instead of pushing the figures off the page."""
    depth, opens, commas = 0, {}, []
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
            opens.setdefault(depth, []).append(i)
        elif c == ">":
            depth -= 1
        elif c == ",":
            commas.append((depth, i))
    if len(name) <= width or not commas:
        return f"`{name}`"
    least = min(d for d, _ in commas)
    first = commas[[d for d, _ in commas].index(least)][1]
    start = max(i for i in opens[least] if i < first)  # the `<` of the list holding that comma
    cuts = [start + 1] + [i + 1 for d, i in commas if d == least and i > start]
    pieces = [name[a:b].strip() for a, b in zip([0] + cuts, cuts + [len(name)])]
    return "<br>".join(f"`{piece}`" for piece in pieces)


def l11_profile_ladder_block(gpus):
    """Chapter 11: every kernel of the ladder and cuBLAS's under Nsight Compute, at the first size
    of the record's profile list, on the reference GPU."""
    gpu = bookdata.reference_gpu(gpus)
    lesson = records.resolve("11")
    first = lesson.profile[0] if lesson.profile else "4096"
    at = _shape_text(records.parse_shape(first))
    by_shape = gpu.profiled(lesson.num) if gpu else {}
    lines = by_shape.get(records.parse_shape(first), [])
    if not by_shape:
        return _not_profiled(gpu, lesson)
    if not lines:
        return (f"The ladder at {at} has not been profiled on the {gpu.gpu} yet: "
                f"`make profile-{lesson.n} SIZE={first} RECORD=1` records it.")
    metrics = bookdata.profiles.metrics_of(lesson)
    rows = [l for l in lines if not l.get("baseline")] + [l for l in lines if l.get("baseline")]
    out = [wrap(f"{_profiled_on(gpu, lines)}; `make profile-{lesson.n} SIZE={first} RECORD=1`): "
                f"every kernel the lesson program times at {at}, and cuBLAS's, timed beside each. "
                "Rungs that launch the same compiled kernel are one row; the headline's is in "
                "bold:"), "",
           "| kernel | " + " | ".join(f"m{i}" for i in range(1, len(metrics) + 1)) + " |",
           "|---|" + "---|" * len(metrics)]
    for l in rows:
        bold = "**" if l.get("headline") else ""
        name = _wrapping_code(l["kernel"]) + (" (cuBLAS)" if l.get("baseline") else "")
        out.append(f"| {bold}{name}{bold} | " + " | ".join(
            f"{bold}{_figure(m, l['metrics'].get(m))}{bold}" for m, _ in metrics) + " |")
    legend = []
    for i, (m, shows) in enumerate(metrics, 1):
        what, unit = _what(shows), _scale(m)[0]
        what = re.sub(r"(?<![`\w])(\w*__\w+|\w+\.\w+)", r"`\1`", what)  # names as code
        legend.append(f"m{i} {what}{', ' + unit if unit and unit not in what else ''} (`{m}`)")
    out += ["", wrap("The columns, the metrics every profile shows and then those of the lesson's "
                     "record: " + "; ".join(legend) + ".")]
    return "\n".join(out)


# ---- what the lesson programs printed (`make bench` records it) ----------------------------------

def printed_block(num):
    """The generator of chapter `num`'s "What it printed": one sentence that says on which GPU, when
    and with which driver and CUDA `make lesson-N SOLUTION=1` ran, then what it printed, verbatim;
    of the files that record it, the newest (bookdata.printed). Without one, a sentence says so."""
    command = transcript.command(num)

    def block(gpus):
        gpu, line = bookdata.printed(gpus, num)
        if line is None:
            return wrap(f"No output of `{command}` on a GPU is recorded in `book/data/` yet: "
                        "`make bench` on a GPU records it.")
        said = wrap(f"On the {line['gpu']} ({line['date']}, driver {line['driver']}, CUDA "
                    f"{line['cuda']}; recorded in `{gpu.rel}`), `{line['command']}` printed:")
        return f"{said}\n\n\\verbatim\n{line['text']}\n\\endverbatim"

    return block


def _with_printed(rel, gens):
    """A chapter's generators with its `printed-NN` block: every chapter says what its program
    printed."""
    num = Path(rel).parent.name[:2]
    return dict(gens, **{f"printed-{num}": printed_block(num)})


# The chapters' generated blocks: which file holds which (`make readme` rewrites them too).
CHAPTER_GENERATORS = {rel: _with_printed(rel, gens) for rel, gens in {
    "lessons/01-architecture/README.md": {"ceilings": ceilings_block},
    "lessons/02-dispatch/README.md": {},
    "lessons/03-naive/README.md": {"naive-floor": naive_floor_block,
                                   "naive-measured": naive_measured_block},
    "lessons/04-coalescing/README.md": {},
    "lessons/05-tiling/README.md": {},
    "lessons/06-occupancy/README.md": {},
    "lessons/07-register-tiling/README.md": {},
    "lessons/08-warp-shuffle/README.md": {},
    "lessons/09-swizzling/README.md": {},
    "lessons/10-tensor-cores/README.md": {},
    "lessons/11-tma-pipeline/README.md": {"l11-ladder": l11_ladder_block,
                                          "l11-lab": l11_lab_block,
                                          "l11-shapes": l11_shapes_block,
                                          "l11-profile-shapes": l11_profile_shapes_block,
                                          "l11-profile-ladder": l11_profile_ladder_block},
}.items()}


def blocks(data):
    gpus = bookdata.load(data)
    return {name: make(gpus) for name, make in GENERATORS.items()}


def files(readme, data):
    """[(path, its generated blocks)]: README.md, then the chapters that quote the data, found
    beside it (a README.md elsewhere, a test's, has no chapters beside it: only itself)."""
    gpus = bookdata.load(data)
    out = [(readme, {name: make(gpus) for name, make in GENERATORS.items()})]
    for rel, gens in CHAPTER_GENERATORS.items():
        if (readme.parent / rel).is_file():
            out.append((readme.parent / rel, {name: make(gpus) for name, make in gens.items()}))
    return out


def render(text, generated, where="README.md"):
    """`text` with every generated block replaced; ReadmeError when one is missing."""
    found = {m.group(1) for m in BLOCK.finditer(text)}
    missing = [name for name in generated if name not in found]
    if missing:
        raise ReadmeError(f"{where} has no generated block {', '.join(missing)}: it needs the lines "
                          f"'<!-- BEGIN GENERATED: NAME -->' and '<!-- END GENERATED: NAME -->'")
    unknown = sorted(found - set(generated))
    if unknown:
        raise ReadmeError(f"{where}: no generator for the block(s) {', '.join(unknown)}")

    def replace(m):
        head = m.group(0).split("\n", 1)[0]
        return f"{head}\n{generated[m.group(1)]}\n<!-- END GENERATED: {m.group(1)} -->"

    return BLOCK.sub(replace, text)


def measured_on(meta):
    """"2026-11-23", or, when `make bench --lessons` kept older lines, the day of each group of
    lessons: "2026-11-21 (lessons 03-10) and 2026-11-23 (lessons 01, 11)"."""
    dates = meta.get("dates_of") or {}
    days = sorted(set(dates.values()))
    if len(days) <= 1:
        return meta["date"]
    groups = []
    for day in days:
        nums = sorted(n for n, d in dates.items() if d == day)
        groups.append(f"{day} (lesson{'s' if len(nums) > 1 else ''} {', '.join(nums)})")
    return " and ".join(groups)


def update(readme=README, data=BOOK / "data"):
    """Rewrites the generated blocks of `readme` and of the chapters from `data`; True when a file
    changed."""
    changed = False
    for path, generated in files(readme, data):
        text = path.read_text()
        new = render(text, generated, shown(path))
        if new != text:
            path.write_text(new)
            changed = True
    return changed


def check(readme=README, data=BOOK / "data"):
    """The problems of the generated blocks (README.md's, the chapters') against `data`, as
    printable lines."""
    problems = []
    for path, generated in files(readme, data):
        text = path.read_text()
        new = render(text, generated, shown(path))
        if new == text:
            continue
        diff = difflib.unified_diff(text.splitlines(), new.splitlines(), f"{path.name} (as it is)",
                                    f"{path.name} (from {shown(data)}/)", lineterm="", n=0)
        problems += [f"{shown(path)}: the generated blocks differ from what {shown(data)}/ gives: "
                     f"run `make readme` (the figures there are never edited by hand):"]
        problems += ["  " + l for l in diff]
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 when out of date")
    ap.add_argument("--data", type=Path, default=BOOK / "data")
    ap.add_argument("--readme", type=Path, default=README)
    args = ap.parse_args()
    try:
        if args.check:
            problems = check(args.readme, args.data)
            print("\n".join(problems) if problems else
                  f"readme: {shown(args.readme)}'s generated blocks match {shown(args.data)}/")
            return 1 if problems else 0
        changed = update(args.readme, args.data)
    except (ReadmeError, bookdata.DataError) as e:
        print(f"readme: FAILED: {e}", file=sys.stderr)
        return 1
    print(f"readme: {shown(args.readme)} " + ("rewritten from" if changed else "already matches")
          + f" {shown(args.data)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
