"""The measured results in book/data/, read once for the pages (build.py) and the charts (charts.py).

Each book/data/*.jsonl file holds the measurement lines the lesson programs print with --json on
one GPU, as `make bench` stores them. Their one declaration is common/report.hpp (GemmMeasurement
and measurement_line(), schema "course.measurement/2"; the H100's file of 2026-11-21..24 is of
version 1), and they are read here through the one reader, common/tools/course/measurements.py,
which checks the schema of every line. What matters here:

- lesson 01's ceilings, "what": "copy_bandwidth" | "cublas_sgemm", with "value", "unit", "peak",
  "pct_of_peak", "gpu": the measured copy bandwidth and cuBLAS SGEMM rate, with the datasheet
  peaks they are compared to;
- lesson 01's check of the method, "what": "method" (cuBLAS against itself, `lesson01 --method`);
- GEMM kernels, one line each (no "what" key): the fields of GemmMeasurement, "intensity" (the
  kernel's own arithmetic intensity, FLOP per byte) when the lesson states it, and the regime:
  every kernel in "burst", each headline kernel also in "sustained" (GpuData.sustained()); every
  view below is of the burst lines;
- a lesson's own measurements, with a "what" key (lesson 06's "occupancy", "occupancy_sweep" and
  "wave_quantization"): charted by charts.py when it knows the kind, in that lesson's chapter;
  the other kinds (lesson 02's "launch" lines, say) are kept but not charted;
- the profiles `make profile-N RECORD=1` and `make bench` record, "what": "profile": one kernel's
  Nsight Compute figures at one shape (common/tools/course/profiles.py); GpuData.profiled() gives
  them by shape, and the chapter's tables (book/readme.py) are made of them;
- what `make lesson-N SOLUTION=1` printed, "what": "printed", recorded by `make bench`
  (common/tools/course/printed.py): no measurement, so no chart or figure is made of it;
  GpuData.printed holds it by lesson, and the chapters' "What it printed" (book/readme.py) shows
  it;
- `make bench` writes a first line {"meta": true, "gpu", "sm_count", "sm_clock_mhz", "driver",
  "cuda", "date", ...} describing the run, measures each kernel at several sizes and adds "size"
  and "build" to every line: "solution" (the reference solution) or "mine" (the learner's
  exercise).

book/data/*.jsonl are the committed files, the reference solutions on the course's GPUs (the H200
is the reference GPU of the targets, the H100's file the record of its day; any number of others
may sit beside them). book/data/mine/*.jsonl
are the learner's own: `make bench MINE=1` writes them there, one per GPU, never committed, with the
learner's kernels ("build": "mine") and the reference solution timed in the same run.

Standard library only: build.py runs under any Python 3, charts.py under one with matplotlib.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "common" / "tools"))
from course import measurements, profiles, records  # noqa: E402  (the lessons; the lines)

# The sizes (M = N = K) at which the reference solutions' targets are set: 4096 for the FP32
# lessons, 4096 and 8192 for the bf16 ones. The README's table and the front page quote these.
TARGET_SIZES = {"fp32": (4096,), "bf16": (4096, 8192)}
# Bytes per element of A, B and C, for the problem's own intensity.
ELEMENT_BYTES = {"fp32": 4, "tf32": 4, "bf16": 2, "fp16": 2}
# Lesson 01's ceiling line for each precision.
CEILING_WHAT = {"fp32": "cublas_sgemm"}


class DataError(Exception):
    pass


def lesson_order():
    """Lesson numbers in course order, from the manifest."""
    return [l.num for l in records.lessons()]


def precision_of(line):
    return str(line.get("precision", "fp32")).lower()


def precision_label(p):
    return p.upper() if p.startswith("fp") or p.startswith("tf") else p


def problem_intensity(line):
    """2MNK / (bytes per element * (MK + KN + MN)): each of A, B read and C written once."""
    m, n, k = float(line["M"]), float(line["N"]), float(line["K"])
    b = ELEMENT_BYTES.get(precision_of(line), 4)
    return 2 * m * n * k / (b * (m * k + k * n + m * n))


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def build_of(line):
    return str(line.get("build", "solution"))


class GpuData:
    """One data file: one GPU. `build` picks the kernels read from it: "solution" (the reference
    solutions, what the committed files hold) or "mine" (the learner's, in book/data/mine/)."""

    def __init__(self, path, build="solution"):
        self.path = path
        self.build = build
        self.mine = build == "mine"
        self.stem = slug(path.stem)
        try:
            self.rel = path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            self.rel = str(path)
        self.lines = []
        for n, text in enumerate(path.read_text().splitlines(), 1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise DataError(f"{self.rel}:{n}: not a JSON object: {e}") from None
            try:
                measurements.check(obj)
            except measurements.SchemaError as e:
                raise DataError(f"{self.rel}:{n}: {e}") from None
            obj["lesson"] = str(obj.get("lesson", "")).zfill(2)
            self.lines.append(obj)
        names = [l["gpu"] for l in self.lines if l.get("gpu")]
        self.gpu = names[0] if names else path.stem
        order = {num: i for i, num in enumerate(lesson_order())}
        # What the lesson programs printed (`make bench` records it): no measurement, kept apart
        # from every view below. {lesson: its transcript line, the newest}.
        self.printed = {}
        for l in self.lines:
            if measurements.is_printed(l) and build_of(l) == build:
                if l["lesson"] not in self.printed or l["date"] > self.printed[l["lesson"]]["date"]:
                    self.printed[l["lesson"]] = l
        measured = [l for l in self.lines if not measurements.is_printed(l)]
        self.ceilings = {l["what"]: l for l in measured
                         if l["lesson"] == "01" and "what" in l and l["what"] != "method"}
        # Lesson 01's check of the method: cuBLAS against itself (`lesson01 --method`).
        self.method = [l for l in self.lines if l["lesson"] == "01" and l.get("what") == "method"]
        # A lesson's own kinds of measurement, in the order printed: {(lesson, what): [lines]}.
        self.extras = {}
        # The recorded profiles, in the order recorded.
        self.profiles = []
        for l in measured:
            if build_of(l) != build:
                continue
            if profiles.is_profile(l):
                self.profiles.append(l)
            elif "what" in l and l["lesson"] != "01":
                self.extras.setdefault((l["lesson"], str(l["what"])), []).append(l)
        gemm, sustained = [], []
        for i, l in enumerate(self.lines):
            if measurements.is_gemm(l) and build_of(l) == build:
                if measurements.regime(l) == "sustained":
                    sustained.append(l)
                else:
                    gemm.append((order.get(l["lesson"], len(order)), i, l))
        # The headline kernels timed again back to back (`make bench`'s sustained runs); every
        # other view of the file is of the burst lines.
        self.sustained_lines = sustained
        # Course order: by lesson (manifest order), then in the order the program printed them.
        self.all_sizes = [l for _, _, l in sorted(gemm, key=lambda t: (t[0], t[1]))]
        # `make bench` measures each kernel at several sizes; the ladder and the rooflines use, for
        # each precision, the largest of its target cubes that the file holds (4096^3 for FP32,
        # 8192^3 for bf16: every lesson of the precision is measured there), else its largest
        # problem. The results page shows them all.
        chosen = {}
        for l in self.all_sizes:
            p, size = precision_of(l), int(l["M"]) * int(l["N"]) * int(l["K"])
            cube = int(l["M"]) == int(l["N"]) == int(l["K"])
            target = cube and int(l["M"]) in TARGET_SIZES.get(p, ())
            key = (target, size)
            chosen[p] = max(chosen.get(p, key), key)
        self.gemm = [l for l in self.all_sizes
                     if (int(l["M"]) == int(l["N"]) == int(l["K"])
                         and int(l["M"]) in TARGET_SIZES.get(precision_of(l), ()),
                         int(l["M"]) * int(l["N"]) * int(l["K"])) == chosen[precision_of(l)]]
        # The run's description, when the file was written by `make bench` (its first line).
        self.meta = next((l for l in self.lines if l.get("meta")), {})

    def precisions(self):
        """The precisions to draw a roofline for: those of the kernels, and FP32 when lesson 01
        measured its ceilings."""
        ps = []
        if "cublas_sgemm" in self.ceilings or "copy_bandwidth" in self.ceilings:
            ps.append("fp32")
        for l in self.gemm:
            if precision_of(l) not in ps:
                ps.append(precision_of(l))
        return ps

    def ladder(self):
        """One entry per kernel in course order. A kernel that a later lesson's program measures
        again for comparison (lesson 04 shows lesson 03's naive kernel) keeps its first lesson."""
        seen, out = set(), []
        for l in self.gemm:
            if re.search(r"\(lesson \d+\)$", str(l["kernel"])):
                continue  # an earlier lesson's kernel, shown again for comparison
            key = (precision_of(l), l["kernel"])
            if key in seen:
                continue
            seen.add(key)
            out.append(l)
        return out

    def lessons_measured(self):
        return sorted({l["lesson"] for l in self.gemm} | {num for num, _ in self.extras})

    def for_lesson(self, num):
        return [l for l in self.gemm if l["lesson"] == num]

    def headline_shapes(self, num):
        """Lesson `num`'s headline kernel at the shapes of its record's own `bench` list (the shapes
        its targets are set at, such as lesson 11's), in that order, when the file holds more than
        one of them; else []."""
        record = next((r for r in records.lessons() if r.num == num), None)
        shapes = record.bench_shapes if record else []
        lines = [l for l in self.all_sizes if l["lesson"] == num and l.get("headline")]
        at = [next((l for l in lines if (int(l["M"]), int(l["N"]), int(l["K"])) == tuple(s)), None)
              for s in shapes]
        at = [l for l in at if l]
        return at if len(at) > 1 else []

    def headline(self, num, any_size=False):
        """The figures of lesson `num`'s headline kernel: its lines (the reference solution's, or
        the learner's in a "mine" view; the one the program marks "headline") at the TARGET_SIZES
        of its precision that the data has, smallest first; [] when there are none. Each line has
        "tflops", "pct_of_cublas", "cublas_tflops", "ms" and the shape. The README's table, the
        front page and the book's claims all take their figures from here. With any_size, a
        lesson measured at none of the target sizes gives its largest size instead."""
        lines = [l for l in self.all_sizes if l["lesson"] == num and l.get("headline")]
        out = []
        for size in TARGET_SIZES.get(precision_of(lines[0]), ()) if lines else ():
            at = [l for l in lines if int(l["M"]) == int(l["N"]) == int(l["K"]) == size]
            if at:
                out.append(at[0])
        if not out and lines and any_size:
            out = [max(lines, key=lambda l: int(l["M"]) * int(l["N"]) * int(l["K"]))]
        return out

    def profiled(self, num):
        """Lesson `num`'s recorded profiles by shape: {(M, N, K): [lines]}, each shape's lines in
        the order recorded."""
        out = {}
        for l in self.profiles:
            if l["lesson"] == num:
                out.setdefault((int(l["M"]), int(l["N"]), int(l["K"])), []).append(l)
        return out

    def sustained(self, like):
        """The sustained line of the kernel and shape of the burst line `like`, or None."""
        return next((l for l in self.sustained_lines if l["lesson"] == like["lesson"]
                     and l["kernel"] == like["kernel"]
                     and (l["M"], l["N"], l["K"]) == (like["M"], like["N"], like["K"])), None)

    def method_name(self):
        """How this file's kernels and cuBLAS took turns (measurements.METHOD, or the old order of
        a version 1 file)."""
        return measurements.method(self.all_sizes[0]) if self.all_sizes else measurements.METHOD

    def at_shape(self, num, kernel, like):
        """Lesson `num`'s line of `kernel` at the shape of the line `like`, or None."""
        return next((l for l in self.all_sizes if l["lesson"] == num and l["kernel"] == kernel
                     and (l["M"], l["N"], l["K"]) == (like["M"], like["N"], like["K"])), None)

    # ---- the ceilings lesson 01 measured, and the ridge point ------------------------------------

    def bandwidth(self):
        """The measured device-to-device copy bandwidth, TB/s (= TFLOP/s per FLOP/byte), or None."""
        copy = self.ceilings.get("copy_bandwidth")
        return float(copy["value"]) / 1e3 if copy and copy.get("value") else None

    def compute_ceiling(self, precision):
        """(TFLOP/s, where it comes from) of the compute roof for `precision`: lesson 01's measured
        cuBLAS SGEMM for FP32, else the fastest cuBLAS timed beside this file's kernels of that
        precision; (None, None) when the data has neither."""
        ceiling = self.ceilings.get(CEILING_WHAT.get(precision, ""))
        if ceiling and ceiling.get("value"):
            return float(ceiling["value"]), "cuBLAS (lesson 01)"
        cub = [float(l["cublas_tflops"]) for l in self.ladder()
               if precision_of(l) == precision and l.get("cublas_tflops")]
        return (max(cub), "cuBLAS (beside the kernels)") if cub else (None, None)

    def ridge(self, precision):
        """The measured ridge point, FLOP/byte: the compute ceiling over the copy bandwidth."""
        p, _ = self.compute_ceiling(precision)
        bw = self.bandwidth()
        return p / bw if p and bw else None


def load(data_dir):
    """The committed files: one GpuData per GPU, the reference solutions' measurements."""
    return [GpuData(p) for p in sorted(Path(data_dir).glob("*.jsonl"))]


MINE_DIR = "mine"


def load_mine(data_dir):
    """The learner's files, DATA/mine/*.jsonl (`make bench MINE=1`): per file, a pair (mine, same)
    of views of it, the learner's kernels and the reference solution timed in the same run."""
    return [(GpuData(p, build="mine"), GpuData(p, build="solution"))
            for p in sorted((Path(data_dir) / MINE_DIR).glob("*.jsonl"))]


def reference_gpu(gpus):
    """The data of the course's reference GPU, the H200 (the first file named for one; else an
    H100's, the reference of the course's first measurements), or None."""
    return next((g for g in gpus if "h200" in g.stem),
                next((g for g in gpus if "h100" in g.stem), None))


def printed(gpus, num):
    """(the GPU, its line) of lesson `num`'s transcript, what `make lesson-N SOLUTION=1` printed:
    of the files that hold one, the newest (by date; on the same day, the first file in the order
    the book shows them); (None, None) when none does."""
    found = [(g, g.printed[num]) for g in ordered(gpus) if num in g.printed]
    return max(found, key=lambda pair: pair[1]["date"], default=(None, None))


def ordered(gpus):
    """The GPUs in the order the book shows them: the reference GPU (the H100) first, then those
    with GEMM measurements, then by name."""
    return sorted(gpus, key=lambda g: ("h100" not in g.stem, not g.gemm, g.stem))


def short_name(name):
    """What prose calls a GPU after naming it in full: "H100" for "NVIDIA H100 80GB HBM3"."""
    short = re.sub(r"^NVIDIA\s+", "", name)
    short = re.sub(r"[\s-]+(\d+\s*GB|SXM\d*|PCIe|HBM\w*|NVL)\b.*$", "", short, flags=re.I)
    return short or name


def short_names(gpus):
    """{full name: short name} for `gpus`, the full names where two short ones would clash."""
    names = list(dict.fromkeys(g.gpu for g in gpus))
    shorts = [short_name(n) for n in names]
    return {n: (s if shorts.count(s) == 1 else n) for n, s in zip(names, shorts)}


COMPARED = re.compile(r"^(.*) \(lesson (\d+)\)$")


def kernel_identity(line):
    """(lesson, kernel) of the kernel a line measures: "tuned_tiled_sgemm (lesson 06)" timed again
    in lesson 07 is lesson 06's tuned_tiled_sgemm."""
    m = COMPARED.match(str(line["kernel"]))
    return (m.group(2).zfill(2), m.group(1)) if m else (line["lesson"], str(line["kernel"]))


def design_intensity(line, gpus):
    """The kernel's arithmetic intensity by design (FLOP per byte it loads from device memory):
    its line's "intensity", else that of the same kernel in any file of `gpus` (it is the kernel's,
    not the GPU's); None when no file records it."""
    if line.get("intensity"):
        return float(line["intensity"])
    key = kernel_identity(line)
    for g in gpus:
        for l in g.all_sizes:
            if l.get("intensity") and kernel_identity(l) == key:
                return float(l["intensity"])
    return None


# ---- figures in prose ----------------------------------------------------------------------------

def fmt(v, digits=2):
    if isinstance(v, bool) or v is None:
        return "–"
    return f"{v:.{digits}f}" if isinstance(v, (int, float)) else str(v)


def fmt_figure(v):
    """A % of cuBLAS or a TFLOP/s figure as prose quotes it: 0.96, 6.35, 12.2, 712.8."""
    return f"{v:.2f}" if v < 10 else f"{v:.1f}"


def pct_range(values):
    """Percentages to a tenth: "98.6" for one value (or equal ones), "98.6–100.4" for several
    (the headline claim, where a rounding can cross a target)."""
    low, high = f"{min(values):.1f}", f"{max(values):.1f}"
    return low if low == high else f"{low}–{high}"


def fmt_range(values):
    """Whole percentages: "96" for one value (or equal ones), "90–96" for several."""
    low, high = round(min(values)), round(max(values))
    return f"{low}" if low == high else f"{low}–{high}"


CEILING_NAMES = {"copy_bandwidth": "device-to-device copy", "cublas_sgemm": "cuBLAS SGEMM"}


def ceilings_sentence(gpu):
    """Lesson 01's measured ceilings, e.g. "device-to-device copy 3005.9 GB/s (90% of the
    datasheet peak), cuBLAS SGEMM 51.7 TFLOP/s (77% of the datasheet peak)"."""
    parts = []
    for what, l in gpu.ceilings.items():
        pct = l.get("pct_of_peak")
        pct = f" ({fmt(pct, 0)}% of the datasheet peak)" if pct else ""
        parts.append(f"{CEILING_NAMES.get(what, what.replace('_', ' '))} "
                     f"{fmt(l.get('value'), 1)} {l.get('unit', '')}{pct}")
    return ", ".join(parts)


def method_flags_sentence(gpu):
    """One sentence on the rows lesson 01's check of the method flagged on `gpu`, e.g. "Lesson
    01's check of the method flagged 1 row on this GPU: cuBLAS against itself, interleaved, read
    97.7% (bf16 8192³, sustained; 97.1% in joules per GEMM), so differences that small are noise
    here"; "" when none was flagged."""
    flagged = [m for m in gpu.method if measurements.method_outside(m)]
    if not flagged:
        return ""
    rows = []
    for m in flagged:
        joules = m.get("b_energy_pct_of_a")
        rows.append(f"{fmt(m['b_pct_of_a'], 1)}% ({m['precision']} {m['n']}³, {m['regime']}"
                    + (f"; {fmt(joules, 1)}% in joules per GEMM" if joules is not None else "")
                    + ")")
    return (f"Lesson 01's check of the method flagged {len(flagged)} "
            f"row{'s' if len(flagged) > 1 else ''} on this GPU: cuBLAS against itself, "
            f"interleaved, read {', '.join(rows)}, where a fair method gives 100% within "
            f"±{fmt(flagged[0]['band_pct'], 0)}%; differences that small are noise here")


def target_text(lesson):
    """The reference solution's target as prose writes it: "≥ 12%", "≈ 1%", or None."""
    t = lesson.solution_target_pct
    if t is None:
        return None
    return f"{'≈' if lesson.solution_target_approx else '≥'} {t:g}%"


def target_verdict(lesson, lines):
    """"met" or "missed" for the headline lines of `lesson` against its solution target (every
    size must meet it; "about N" is met when the figure rounds to N), or None without a target
    or a measurement."""
    t = lesson.solution_target_pct
    if t is None or not lines:
        return None
    pcts = [float(l["pct_of_cublas"]) for l in lines]
    if lesson.solution_target_approx:
        ok = all(round(p) == round(t) for p in pcts)
    else:
        ok = all(p >= t for p in pcts)
    return "met" if ok else "missed"


def sizes_text(lines):
    """"4096³" or "4096³ and 8192³"."""
    return " and ".join(f"{l['M']}³" if l["M"] == l["N"] == l["K"] else f"{l['M']}×{l['N']}×{l['K']}"
                        for l in lines)


def headline_claim(gpus):
    """The sentence the README and the book's front page state the course's result in: how close
    the last lesson's headline kernel comes to cuBLAS on the reference GPU, from the data."""
    gpu = reference_gpu(gpus)
    lessons = records.lessons()
    last = next(((l, gpu.headline(l.num)) for l in reversed(lessons) if gpu and gpu.headline(l.num)),
                None)
    if last is None:
        return ("No measurement of the course's kernels is committed yet: `make bench` on an H100 "
                "writes them to `book/data/`.")
    lesson, lines = last
    precision = precision_of(lines[0])
    baseline = "cuBLAS SGEMM" if precision == "fp32" else f"cuBLAS's {precision} GEMM"
    figures = " and ".join(f"{fmt_figure(l['tflops'])}{' TFLOP/s' if i == 0 else ''} at "
                           f"{sizes_text([l])}" for i, l in enumerate(lines))
    verdict = target_verdict(lesson, lines)
    target = target_text(lesson)
    sustained = [gpu.sustained(l) for l in lines]
    regime = "in burst timing"
    if measurements.method(lines[0]) != measurements.METHOD:
        regime = "in burst timing, cuBLAS timed first"
    held = ""
    if all(sustained):
        held = (f", and {pct_range([l['pct_of_cublas'] for l in sustained])}% sustained (back to "
                f"back at the power cap: {' and '.join(fmt_figure(l['tflops']) for l in sustained)}"
                f" TFLOP/s)")
        verdict = target_verdict(lesson, lines + sustained)
    ending = ""
    if verdict == "met":
        ending = f", which meets its target of {target}"
    elif verdict == "missed":
        ending = f", short of its target of {target}"
    return (f"On an {gpu.gpu}, the course's last kernel, lesson {lesson.num}'s "
            f"`{lines[0]['kernel']}`, reaches {pct_range([l['pct_of_cublas'] for l in lines])}% "
            f"of {baseline} {regime + ' ' if regime else ''}({figures}; `{gpu.rel}`){held}"
            f"{ending}.")


# The figure files, named here so that the pages and the charts agree.
def ladder_figure(gpu):
    return f"chart-ladder-{gpu.stem}.svg"


def roofline_figure(gpu, precision):
    return f"chart-roofline-{precision}-{gpu.stem}.svg"


def lesson_figure(gpu, num, what=None):
    return f"chart-lesson{num}-{slug(what) + '-' if what else ''}{gpu.stem}.svg"


# ---- what each GPU runs, from the lessons' records -----------------------------------------------

# The GPUs a compute capability stands for, as the README and the front page name them (the
# published compute capabilities of those products).
GPU_EXAMPLES = {"7.5": "T4, RTX 20 series", "8.0": "A100", "8.6": "RTX 30 series",
                "8.9": "L4, RTX 40 series", "9.0": "H100, H200", "10.0": "B200",
                "12.0": "RTX 50 series"}


def _cc_named(cc):
    """"9.0 (H100, H200)", or "9.0" for a compute capability without examples."""
    return f"{cc} ({GPU_EXAMPLES[cc]})" if cc in GPU_EXAMPLES else cc


def _lessons_text(nums):
    """"lesson 10", "lessons 01 to 09", or "lessons 01 and 03" (two, or numbers not in a row)."""
    ints = [int(n) for n in nums]
    if len(nums) == 1:
        return f"lesson {nums[0]}"
    if len(nums) > 2 and ints == list(range(ints[0], ints[-1] + 1)):
        return f"lessons {nums[0]} to {nums[-1]}"
    return "lessons " + records.and_list(nums)


def _by_min_cc(lessons):
    """[(min_cc, min_cc_for, [lesson numbers])]: the lessons grouped by what they need, lowest
    first (a group: lessons in course order with the same minimum)."""
    groups = []
    for l in sorted(lessons, key=lambda l: (records.cc_value(l.min_cc), l.num)):
        if groups and groups[-1][0] == l.min_cc and groups[-1][1] == l.min_cc_for:
            groups[-1][2].append(l.num)
        else:
            groups.append((l.min_cc, l.min_cc_for, [l.num]))
    return groups


def tracks_text(lesson):
    """What each track's GPUs run of `lesson`: "on 9.0 (H100, H200) every rung (...); on 10.0 and
    12.0 (B200, RTX 50 series) the portable rung (...)"; "" without tracks."""
    out = []
    for t in lesson.tracks:
        named = [c for c in t.cc if c in GPU_EXAMPLES]
        examples = ", ".join(GPU_EXAMPLES[c] for c in named)
        out.append(f"on {records.and_list(t.cc)}{f' ({examples})' if examples else ''} {t.runs}")
    return "; ".join(out)


def gpu_requirements(lessons=None):
    """The README's line on the GPU each lesson needs, from the records (min_cc, min_cc_for, the
    tracks), and which lessons the newest GPU below the highest minimum runs: "A CUDA GPU for the
    GPU parts: lessons 01 to 09 from compute capability 7.5 (T4, RTX 20 series), lesson 10 from
    8.0 (A100) for bf16 mma.sync, ..."."""
    lessons = lessons if lessons is not None else records.lessons()
    groups = _by_min_cc(lessons)
    parts = []
    for cc, why, nums in groups:
        tracked = [l for l in lessons if l.num in nums and l.tracks]
        # A lesson with tracks names its GPUs track by track, not at its minimum.
        named = cc if tracked and len(nums) == 1 else _cc_named(cc)
        part = f"{_lessons_text(nums)} from {'compute capability ' if not parts else ''}" \
               f"{named}{f' for {why}' if why else ''}"
        if tracked and len(nums) == 1:
            part += f": {tracks_text(tracked[0])}"
        parts.append(part)
    text = "A CUDA GPU for the GPU parts: " + "; ".join(parts) + "."
    top = groups[-1][0] if groups else None
    below = [c for c in GPU_EXAMPLES if top and records.cc_value(c) < records.cc_value(top)]
    if below and len(groups) > 1:
        cc = max(below, key=records.cc_value)
        runs = [l.num for l in lessons if records.cc_value(l.min_cc) <= records.cc_value(cc)]
        not_run = [l for l in lessons if records.cc_value(l.min_cc) > records.cc_value(cc)]
        why = records.and_list(sorted({l.min_cc_for for l in not_run if l.min_cc_for}))
        text += (f" A GPU of compute capability {_cc_named(cc)} runs {_lessons_text(runs)} and no "
                 f"part of {_lessons_text([l.num for l in not_run])}"
                 f"{f' (it has no {why})' if why else ''}.")
    return text


def gpu_needed(lesson):
    """The front page's "GPU needed" cell of `lesson`: "compute capability 7.5", or with tracks
    "compute capability 9.0 (TMA): 9.0 every rung (...); 10.0 and 12.0 the portable rung (...)"."""
    text = f"compute capability {lesson.min_cc}{f' ({lesson.min_cc_for})' if lesson.min_cc_for else ''}"
    if lesson.tracks:
        text += ": " + "; ".join(f"{records.and_list(t.cc)} {t.runs}" for t in lesson.tracks)
    return text
