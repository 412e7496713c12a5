"""The book's sentences that compare: one GPU with another, and the learner's kernels with the
reference solutions. Every figure in them is computed here from the data files (bookdata.py), so
that what the prose claims is what the data shows.

- gpus_paragraphs(num, gpus): for a chapter's "Measured" section when book/data/ holds two GPUs or
  more: the headline kernel's TFLOP/s and % of cuBLAS on each, and why they differ: the lesson's
  kernels' arithmetic intensity against each GPU's ridge point (lesson 01's measured ceilings);
- ceilings_table(gpus), ceilings_paragraph(gpus): lesson 01's ceilings side by side;
- mine_paragraph(lesson, mine, same, gpus): the learner's headline kernel (book/data/mine/, from
  `make bench MINE=1`) next to the reference solution, on the same GPU when the data has it;
- regimes_table(gpu, num): a lesson's headline in both regimes, burst and sustained, with the SM
  clock and the energy per GEMM of it and of cuBLAS;
- method_table(gpu), method_paragraph(gpu): lesson 01's check of the method, cuBLAS timed against
  itself interleaved and "all of A, then all of B".

Standard library only; build.py calls it.
"""

from bookdata import (CEILING_NAMES, design_intensity, fmt_figure, kernel_identity, measurements,
                      ordered, precision_of, problem_intensity, short_names, sizes_text)


def ratio(a, b):
    """"1.43×": a over b."""
    return f"{a / b:.2f}×"


def bandwidth_text(tbs):
    return f"{tbs * 1e3:.0f} GB/s"


def intensity_text(x):
    return f"{x:.3g}" if x < 10 else f"{x:.1f}".rstrip("0").rstrip(".")


def baseline_name(precision):
    return "cuBLAS SGEMM" if precision == "fp32" else f"cuBLAS's {precision} GEMM"


def and_list(items):
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def count_text(n):
    """A count in words up to twelve (it may start a sentence), in figures above."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "eleven", "twelve"]
    return words[n] if n < len(words) else str(n)


def joined(values, unit=""):
    """"10.0 TFLOP/s" or "712.8 and 761.9 TFLOP/s" (one per size)."""
    return " and ".join(values) + unit


def figures(lines):
    """"10.0 TFLOP/s, 19.2% of cuBLAS" for the headline lines of one GPU (one per size)."""
    return (joined([fmt_figure(float(l["tflops"])) for l in lines], " TFLOP/s") + ", "
            + joined([fmt_figure(float(l["pct_of_cublas"])) + "%" for l in lines]))


def speed_ratios(lines, ref_lines):
    """The TFLOP/s of `lines` over those of `ref_lines` at the same shapes, as "1.31×" strings,
    one per shared shape ([] when they share none)."""
    out = []
    for l in lines:
        r = next((r for r in ref_lines if (r["M"], r["N"], r["K"]) == (l["M"], l["N"], l["K"])), None)
        if r is not None and float(r["tflops"]) > 0:
            out.append(ratio(float(l["tflops"]), float(r["tflops"])))
    return out


def not_following_bandwidth(have, ref_lines):
    """True when, on every other GPU, the headline kernel gained less than half of what the
    bandwidth gained over the first GPU's (a memory-bound design that device memory does not
    limit in practice)."""
    ref = have[0][0]
    if not ref.bandwidth():
        return False
    for g, lines in have[1:]:
        if not g.bandwidth():
            return False
        gain = g.bandwidth() / ref.bandwidth() - 1
        speeds = [float(l["tflops"]) / float(r["tflops"]) - 1 for l in lines for r in ref_lines
                  if (r["M"], r["N"], r["K"]) == (l["M"], l["N"], l["K"]) and float(r["tflops"]) > 0]
        if gain <= 0.1 or not speeds or max(speeds) >= gain / 2:
            return False
    return True


def ratios_text(rs, tail=""):
    """"1.31× TAIL", "1.01× TAIL at both sizes" or "1.04× and 1.03× TAIL"."""
    tail = f" {tail}" if tail else ""
    if len(set(rs)) == 1:
        return rs[0] + tail + (" at both sizes" if len(rs) == 2 else
                               " at every size" if len(rs) > 2 else "")
    return " and ".join(rs) + tail


def own_kernels(gpu, num):
    """Lesson `num`'s own kernels in `gpu` (not an earlier lesson's shown again), largest size."""
    return [l for l in gpu.for_lesson(num) if kernel_identity(l)[0] == num]


# ---- two GPUs or more ----------------------------------------------------------------------------

def gpus_paragraphs(num, gpus):
    """The paragraphs of lesson `num`'s "Measured" section that compare the GPUs of `gpus` (two or
    more); [] when no GPU measured the lesson's GEMM kernels."""
    gpus = ordered(gpus)
    short = short_names(gpus)
    have = [(g, g.headline(num, any_size=True)) for g in gpus]
    have = [(g, lines) for g, lines in have if lines]
    if not have:
        return []
    missing = [g for g in gpus if not g.headline(num, any_size=True)]
    ref, ref_lines = have[0]
    kernel = ref_lines[0]["kernel"]
    precision = precision_of(ref_lines[0])
    base = baseline_name(precision)
    out = []

    # What each GPU measured.
    parts = []
    for i, (g, lines) in enumerate(have):
        text = f"{figures(lines)}{' of ' + base if i == 0 else ''} on the {g.gpu}"
        rs = speed_ratios(lines, ref_lines)
        if i > 0 and rs:
            text += ", " + ratios_text(rs, f"the {short[ref.gpu]}'s speed")
        parts.append(text)
    head = (f"**On each GPU.** The headline kernel, `{kernel}`, at {sizes_text(ref_lines)}: "
            + "; ".join(parts) + ".")
    if missing:
        head += (" The " + and_list(g.gpu for g in missing) + (" has" if len(missing) == 1 else
                 " have") + f" no measurement of lesson {num}'s kernels (in "
                 + and_list(f"`{g.rel}`" for g in missing) + ").")
    out.append(head)
    if len(have) < 2:
        return out

    # Why: each kernel's intensity against each GPU's ridge point.
    ridges = [(g, g.ridge(precision)) for g, _ in have]
    ridges = [(g, r) for g, r in ridges if r]
    if len(ridges) < 2:
        out.append("**Why.** Without lesson 01's ceilings in every file the ridge points, and so "
                   "which kernels are memory-bound, cannot be compared here.")
        return out
    first = ridges[0][0]
    where = ("both measured by lesson 01" if precision == "fp32" else
             "cuBLAS timed beside the kernels, the copy measured by lesson 01")
    ridge_parts = []
    for i, (g, r) in enumerate(ridges):
        p, _ = g.compute_ceiling(precision)
        ridge_parts.append(
            f"{intensity_text(r)} FLOP/byte on the {short[g.gpu]} ("
            + (f"{fmt_figure(p)} TFLOP/s of {base} over {bandwidth_text(g.bandwidth())} of copy "
               f"bandwidth, {where}" if i == 0 else
               f"{fmt_figure(p)} TFLOP/s over {bandwidth_text(g.bandwidth())}") + ")")
    why = [f"**Why.** The ridge point, the arithmetic intensity below which a kernel waits on "
           f"device memory rather than on arithmetic, is {and_list(ridge_parts)}."]

    def roof_ratios(value):
        """"the H200's is 1.43× the H100's" for the GPUs after the first."""
        rs = [f"the {short[g.gpu]}'s {'is ' if i == 0 else ''}{ratio(value(g), value(first))}"
              for i, (g, _) in enumerate(ridges[1:])]
        return and_list(rs) + f" the {short[first.gpu]}'s"

    bw_cmp = roof_ratios(lambda g: g.bandwidth())
    p_cmp = roof_ratios(lambda g: g.compute_ceiling(precision)[0])

    kernels = [l for l in (own_kernels(ref, num) or ref.for_lesson(num))
               if precision_of(l) == precision]
    everyone = [g for g, _ in have]
    groups, unknown = {}, []
    for l in kernels:
        x = design_intensity(l, everyone)
        if x is None:
            unknown.append(l)
            continue
        key = tuple("memory" if x < r else "compute" for _, r in ridges)
        groups.setdefault(key, []).append((l, x))

    def names(items):
        """"`a` (4 FLOP/byte by design) and `b` (8)" or "4 of its kernels (5.33 to 10.7 ...)"."""
        if len(items) <= 3:
            return and_list(f"`{l['kernel']}` ({intensity_text(x)}"
                            f"{' FLOP/byte by design' if i == 0 else ''})"
                            for i, (l, x) in enumerate(items)), len(items) == 1
        xs = [x for _, x in items]
        span = (intensity_text(min(xs)) if min(xs) == max(xs)
                else f"{intensity_text(min(xs))} to {intensity_text(max(xs))}")
        count = count_text(len(items))
        every = "all " if len(items) == len(kernels) else ""
        return f"{every}{count} of its kernels ({span} FLOP/byte by design)", False

    on_all = "both GPUs" if len(ridges) == 2 else f"all {len(ridges)} GPUs"
    for key, items in groups.items():
        who, one = names(items)
        verb = "is" if one else "are"
        if set(key) == {"memory"}:
            # The roof is a ceiling, not the limit that binds: a kernel can run well under it,
            # held back by something nearer the SM (lesson 05's shared memory).
            why.append(f"{who[0].upper() + who[1:]} {verb} left of the ridge on {on_all}: "
                       f"their ceiling is the sloped roof of device memory's bandwidth "
                       f"({bw_cmp}), whether or not another limit holds them under it.")
        elif set(key) == {"compute"}:
            why.append(f"{who[0].upper() + who[1:]} {verb} right of the ridge on {on_all}: "
                       f"their ceiling is the flat roof of the arithmetic ({p_cmp}).")
        else:
            on = ", ".join(
                f"{kind}-bound on the " + and_list(short[g.gpu] for (g, _), k in zip(ridges, key)
                                                    if k == kind)
                for kind in ("memory", "compute") if kind in key)
            why.append(f"{who[0].upper() + who[1:]} {verb} between the ridges: {on}.")
    if unknown:
        xs = sorted({round(problem_intensity(l)) for l in unknown})
        above = all(problem_intensity(l) >= r for l in unknown for _, r in ridges)
        which = (and_list(f"`{l['kernel']}`" for l in unknown) if len(unknown) <= 3
                 else f"its {count_text(len(unknown))} kernels" if len(unknown) == len(kernels)
                 else f"{count_text(len(unknown))} of its kernels")
        why.append(f"The data records no design intensity for {which}; the roofline puts "
                   f"{'it' if len(unknown) == 1 else 'them'} at the problem's own at "
                   f"{sizes_text(unknown[:1])}, {' and '.join(map(str, xs))} FLOP/byte (A and B "
                   "read once, C written once), "
                   + ("right of every ridge: compute-bound if each element is read close to once."
                      if above else "left of a ridge: memory-bound even if each element is read "
                      "once."))
    out.append(" ".join(why))

    # The headline kernel: which roof is its, and what moved.
    x = design_intensity(ref_lines[-1], everyone)
    moved = []
    for g, lines in have[1:]:
        rs = speed_ratios(lines, ref_lines)
        if rs:
            moved.append(ratios_text(rs, (f"the {short[ref.gpu]}'s " if not moved else "")
                                     + f"on the {short[g.gpu]}"))
    if x is not None and moved:
        kinds = ["memory" if x < r else "compute" for _, r in ridges]
        if set(kinds) == {"memory"}:
            roof = f"is the bandwidth ({bw_cmp})"
        elif set(kinds) == {"compute"}:
            roof = f"is the arithmetic ({p_cmp})"
        else:
            roof = "differs: " + ", ".join(f"{k}-bound on the {short[g.gpu]}"
                                           for (g, _), k in zip(ridges, kinds))
        text = (f"**What moved.** The headline kernel's roof {roof}; measured, its speed is "
                f"{and_list(moved)}.")
        above = []
        for g, lines in have:
            bw = g.bandwidth()
            if bw and "memory" in kinds and float(lines[-1]["tflops"]) > x * bw:
                above.append(f"{fmt_figure(float(lines[-1]['tflops']))} TFLOP/s on the "
                             f"{short[g.gpu]}, where {intensity_text(x)} FLOP/byte × "
                             f"{bandwidth_text(bw)} allows {fmt_figure(x * bw)}")
        if above:
            text += (" It runs faster than device memory alone could feed it at its design "
                     f"intensity ({'; '.join(above)}): the caches serve part of its loads, so the "
                     "bandwidth of device memory is not all that limits it.")
        elif set(kinds) == {"memory"} and not_following_bandwidth(have, ref_lines):
            text += (" It did not follow the bandwidth: whatever its design intensity says, device "
                     "memory is not what holds it back on these GPUs (the caches serve most of "
                     f"its loads, or it waits on something else: `make profile-{int(num)}` tells "
                     "which).")
        out.append(text)
    elif moved:
        out.append(f"**What moved.** Measured, the headline kernel's speed is {and_list(moved)}.")
    return out


def ceilings_rows(gpus):
    """[(label, [cell per GPU], [ratio to the first GPU per other GPU])] of lesson 01's ceilings
    and the ridge point, for the GPUs that measured them."""
    gpus = [g for g in ordered(gpus) if g.ceilings]
    rows = []
    if not gpus:
        return gpus, rows
    for what, name in CEILING_NAMES.items():
        if not all(what in g.ceilings for g in gpus):
            continue
        ls = [g.ceilings[what] for g in gpus]
        unit = ls[0].get("unit", "")
        cells = []
        for l in ls:
            pct = f" ({float(l['pct_of_peak']):.0f}% of {float(l['peak']):.1f})" \
                if l.get("pct_of_peak") and l.get("peak") else ""
            cells.append(f"{float(l['value']):.1f}{pct}")
        rows.append((f"{name} ({unit})", cells,
                     [ratio(float(l["value"]), float(ls[0]["value"])) for l in ls[1:]]))
    ridges = [g.ridge("fp32") for g in gpus]
    if all(ridges):
        rows.append(("ridge point, FP32 (FLOP/byte)", [intensity_text(r) for r in ridges],
                     [ratio(r, ridges[0]) for r in ridges[1:]]))
    return gpus, rows


def ceilings_table(gpus):
    """Markdown lines: lesson 01's measured ceilings side by side, [] with fewer than 2 GPUs."""
    gpus, rows = ceilings_rows(gpus)
    if len(gpus) < 2 or not rows:
        return []
    short = short_names(gpus)
    head = ["measured (datasheet peak in brackets)"] + [g.gpu for g in gpus] + \
        [f"{short[g.gpu]} / {short[gpus[0].gpu]}" for g in gpus[1:]]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, cells, ratios in rows:
        out.append("| " + " | ".join([label] + cells + ratios) + " |")
    return out


def ceilings_paragraph(gpus):
    """One paragraph: how the other GPUs' ceilings and ridge points differ from the first's, or
    None with fewer than two GPUs that measured both."""
    gpus = [g for g in ordered(gpus) if g.bandwidth() and g.ridge("fp32")]
    if len(gpus) < 2:
        return None
    short = short_names(gpus)
    ref = gpus[0]
    parts = []
    for g in gpus[1:]:
        p, _ = g.compute_ceiling("fp32")
        rp, _ = ref.compute_ceiling("fp32")
        parts.append(f"the {g.gpu} copies at {ratio(g.bandwidth(), ref.bandwidth())} the "
                     f"{short[ref.gpu]}'s bandwidth ({bandwidth_text(g.bandwidth())} against "
                     f"{bandwidth_text(ref.bandwidth())}) and runs cuBLAS SGEMM at "
                     f"{ratio(p, rp)} its rate ({fmt_figure(p)} against {fmt_figure(rp)} TFLOP/s), "
                     f"so its ridge point is {intensity_text(g.ridge('fp32'))} FLOP/byte against "
                     f"{intensity_text(ref.ridge('fp32'))}")
    low, high = sorted([min(g.ridge("fp32") for g in gpus), max(g.ridge("fp32") for g in gpus)])
    text = "Lesson 01's measurements: " + "; ".join(parts) + "."
    if high / low > 1.05:
        two = len(gpus) == 2
        text += (f" A kernel whose intensity lies between {intensity_text(low)} and "
                 f"{intensity_text(high)} FLOP/byte is memory-bound on "
                 + ("one and compute-bound on the other; below both" if two else
                    "some and compute-bound on others; below every ridge")
                 + ", only the bandwidth sets its roof, and above "
                 + ("both" if two else "every one") + ", only the arithmetic.")
    return text


# ---- the regimes and the method -------------------------------------------------------------------

def _num(v, digits, unit=""):
    return "n/a" if v is None else f"{float(v):.{digits}f}{unit}"


def _per_watt(line, prefix=""):
    """TFLOP/s per watt: the line's TFLOP/s over its mean power, or None."""
    w = line.get(prefix + "power_w")
    t = line.get(prefix + "tflops")
    return float(t) / float(w) if w and t else None


def regimes_table(gpu, num):
    """Markdown lines: lesson `num`'s headline kernel on `gpu` at each size measured in both
    regimes: % of cuBLAS, the SM clocks, and sustained the energy per GEMM and TFLOP/s per watt of
    the kernel and of cuBLAS. [] when the file has no sustained line of it."""
    pairs = [(l, gpu.sustained(l)) for l in gpu.all_sizes
             if l["lesson"] == num and l.get("headline")]
    pairs = [(b, s) for b, s in pairs if s]
    if not pairs:
        return []
    out = [f"The headline on the {gpu.gpu}, in both regimes (`{gpu.rel}`): *burst* is each run "
           "from a cold L2 and an idle GPU, *sustained* a second of each back to back at the "
           "power cap; the kernel and cuBLAS take turns in both. The clocks are the mean SM clock "
           "while each ran; the energy is NVML's, per GEMM.", "",
           "| shape | burst: % of cuBLAS | MHz (cuBLAS) | sustained: % of cuBLAS | TFLOP/s "
           "(cuBLAS) | MHz (cuBLAS) | J per GEMM (cuBLAS) | TFLOP/s per W (cuBLAS) |",
           "|---|---|---|---|---|---|---|---|"]
    for b, s in pairs:
        out.append(
            f"| {sizes_text([b])} | {fmt_figure(b['pct_of_cublas'])}% | "
            f"{_num(b.get('sm_clock_mhz'), 0)} ({_num(b.get('cublas_sm_clock_mhz'), 0)}) | "
            f"{fmt_figure(s['pct_of_cublas'])}% | {fmt_figure(s['tflops'])} "
            f"({fmt_figure(s['cublas_tflops'])}) | {_num(s.get('sm_clock_mhz'), 0)} "
            f"({_num(s.get('cublas_sm_clock_mhz'), 0)}) | {_num(s.get('energy_j'), 3)} "
            f"({_num(s.get('cublas_energy_j'), 3)}) | {_num(_per_watt(s), 2)} "
            f"({_num(_per_watt(s, 'cublas_'), 2)}) |")
    return out


def method_table(gpu):
    """Markdown lines: lesson 01's check of the method on `gpu`, [] when the file has none."""
    if not gpu.method:
        return []
    out = ["| GEMM | regime | order | A: TFLOP/s | B: TFLOP/s | B / A | MHz, A (B) | "
           "J per GEMM, A (B) |", "|---|---|---|---|---|---|---|---|"]
    for m in gpu.method:
        order = "interleaved" if m["order"] == "interleaved" else "all of A, then all of B"
        flag = " (outside the band)" if measurements.method_outside(m) else ""
        out.append(f"| {m['precision']} {m['n']}³ | {m['regime']} | {order} | "
                   f"{fmt_figure(m['a_tflops'])} | {fmt_figure(m['b_tflops'])} | "
                   f"{m['b_pct_of_a']:.1f}%{flag} | {_num(m.get('a_sm_clock_mhz'), 0)} "
                   f"({_num(m.get('b_sm_clock_mhz'), 0)}) | {_num(m.get('a_energy_j'), 3)} "
                   f"({_num(m.get('b_energy_j'), 3)}) |")
    return out


def method_paragraph(gpu):
    """What lesson 01's check of the method shows on `gpu`, from its lines, or None."""
    inter = [m for m in gpu.method if m["order"] == "interleaved"]
    seq = [m for m in gpu.method if m["order"] == "sequential"]
    if not inter or not seq:
        return None
    band = inter[0]["band_pct"]
    worst = max(inter, key=lambda m: abs(m["b_pct_of_a"] - 100))
    far = max(seq, key=lambda m: abs(m["b_pct_of_a"] - 100))
    outside = [m for m in inter if measurements.method_outside(m)]
    text = (f"On the {gpu.gpu}, cuBLAS timed against itself: interleaved, B / A stays within "
            f"{abs(worst['b_pct_of_a'] - 100):.1f}% of 100% in every row (the band is "
            f"±{band:g}%)" if not outside else
            f"On the {gpu.gpu}, cuBLAS timed against itself: interleaved, "
            f"{count_text(len(outside))} row(s) fall outside the ±{band:g}% band (at worst "
            f"{worst['b_pct_of_a']:.1f}%), so differences that small are noise on this GPU")
    if abs(far["b_pct_of_a"] - 100) > abs(worst["b_pct_of_a"] - 100) + 0.5:
        text += (f"; all of A, then all of B, it drifts as far as {far['b_pct_of_a']:.1f}% "
                 f"({far['precision']} {far['n']}³, {far['regime']}), with the same call on the "
                 "same inputs: what the order alone does to a comparison.")
    else:
        text += (f"; all of A, then all of B, it stays as close (at worst {far['b_pct_of_a']:.1f}%, "
                 f"{far['precision']} {far['n']}³, {far['regime']}): the rest before each burst "
                 "repetition and the warm-up before the sustained blocks already hold the GPU in "
                 "one state for both, and taking turns guards against whatever drift remains.")
    return text


# ---- the learner's kernels -----------------------------------------------------------------------

def mine_paragraph(lesson, mine, same, gpus):
    """The learner's headline kernel of `lesson` (from the "mine" view of a book/data/mine/ file),
    next to the reference solution: timed in the same run (`same`), else in a committed file of
    the same GPU, else on another GPU, said so. None when the file has no line for the lesson."""
    num = lesson.num
    yours = mine.headline(num, any_size=True)
    if not yours:
        return None
    kernel = yours[0]["kernel"]
    precision = precision_of(yours[0])
    text = (f"**Your kernel**, `{kernel}` at {sizes_text(yours)}: "
            f"{figures(yours)} of {baseline_name(precision)} on your {mine.gpu}")
    failed = [l for l in yours if l.get("checked") and not l.get("passed")]
    if failed:
        text += " (its check against Eigen FAILED: the figure measures a wrong kernel)"
    text += " (`make bench MINE=1`, in `" + mine.rel + "`)"

    def matching(gpu):
        lines = [gpu.at_shape(num, kernel, l) for l in yours]
        lines = [l for l in lines if l is not None]
        if not lines:
            ref = gpu.headline(num, any_size=True)
            lines = [l for l in ref if any((l["M"], l["N"], l["K"]) == (y["M"], y["N"], y["K"])
                                           for y in yours)]
        return lines

    ref_lines = matching(same)
    where = "timed in the same run"
    if not ref_lines:
        committed = next((g for g in gpus if g.gpu == mine.gpu), None)
        ref_lines = matching(committed) if committed else []
        where = f"on the same GPU, from `{committed.rel}`" if committed else ""
    if ref_lines:
        text += (f"; the reference solution, {where}: {figures(ref_lines)}, so yours runs at "
                 f"{ratios_text(speed_ratios(yours, ref_lines), 'its speed')}.")
    else:
        others = [(g, g.headline(num)) for g in ordered(gpus)]
        others = [(g, ls) for g, ls in others if ls]
        if others:
            g, ls = others[0]
            text += (f". The reference solution has not been measured on your GPU; on the "
                     f"{g.gpu} it reaches {figures(ls)} at {sizes_text(ls)}. TFLOP/s on two GPUs "
                     "are not comparable; the % of cuBLAS, each against cuBLAS on its own GPU, "
                     "comes closer.")
        else:
            text += ". The reference solution has not been measured on any GPU here."
    target = lesson.learner_target_pct if hasattr(lesson, "learner_target_pct") else None
    track = lesson.track_of(kernel) if getattr(lesson, "tracks", None) else None
    if getattr(lesson, "tracks", None):
        # Your GPU's track, by the headline it timed: its target, or none set yet.
        target = lesson.track_target(track) if track else None
        if target is None:
            text += (" No target is set yet for your GPU's track"
                     + (f" ({track.name})" if track else "") + ": the reference solution has not "
                     "been measured on such a GPU.")
    if target is not None:
        met = all(float(l["pct_of_cublas"]) >= target for l in yours) and not failed
        text += (f" Your target for this lesson (`make grade PERF=1`) is ≥ {target:g}% of "
                 f"cuBLAS: {'met' if met else 'not met yet'}.")
    return text
