#!/usr/bin/env python3
"""make readme: the README's measured figures, generated from book/data/ and the lessons' records.

    readme.py [--check] [--data DIR] [--readme FILE]

README.md holds blocks between `<!-- BEGIN GENERATED: NAME ... -->` and `<!-- END GENERATED: NAME -->`
lines. This rewrites each from the data (`make readme`; `make bench` does it too, after writing
the data):

- `claim`: one sentence, how close the last lesson's headline kernel comes to cuBLAS on the H100
  (the same sentence as the book's front page: bookdata.headline_claim);
- `results`: per lesson, the headline kernel's % of cuBLAS and TFLOP/s at the target sizes, the
  reference solution's target (the solution_target of lessons/NN-slug/lesson.toml) and whether
  the data meets it.

Both come from the H100's file, whatever else book/data/ holds: the targets are set on the H100,
the course's reference GPU. Files of other GPUs committed beside it (an H200, say) are named in
one sentence under the table's lead, which points to the book; the book sets the GPUs side by
side, lesson by lesson. The learner's own measurements (book/data/mine/) never reach the README.

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

README = ROOT / "README.md"
BLOCK = re.compile(r"^<!-- BEGIN GENERATED: (\w+)(?: [^\n]*)? -->\n(.*?)^<!-- END GENERATED: \1 -->$",
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
        return ("No measurements on an H100 are committed yet: `make bench` on one writes them to "
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
            f"timed next to cuBLAS in the same process, at M = N = K = {sizes}.")
    if gpu.ceilings:
        lead += f" Lesson 01's ceilings: {bookdata.ceilings_sentence(gpu)}."
    others = [g for g in bookdata.ordered(gpus) if g is not gpu]
    if others:
        lead += (" The targets and this table are the H100's; also measured: "
                 + ", ".join(f"the {g.gpu} (`{g.rel}`)" for g in others)
                 + ", which the book (`make book`) sets beside it lesson by lesson.")
    out = [wrap(lead), "",
           "| # | lesson | headline kernel | M = N = K | % of cuBLAS | TFLOP/s (cuBLAS) "
           "| target of the reference solution | verdict |",
            "|---|---|---|---|---|---|---|---|"]
    for lesson in records.lessons():
        lines = gpu.headline(lesson.num)
        target = bookdata.target_text(lesson)
        if not lines and not target:
            continue
        if not lines:
            out.append(f"| {lesson.num} | {lesson.slug} | | | not measured | | {target} | |")
            continue
        precision = bookdata.precision_of(lines[0])
        kernel = f"`{lines[0]['kernel']}`" + ("" if precision == "fp32" else f" ({precision})")
        join = " / ".join
        verdict = bookdata.target_verdict(lesson, lines)
        out.append(
            f"| {lesson.num} | {lesson.slug} | {kernel} | {join(str(l['M']) for l in lines)} | "
            f"{join(bookdata.fmt_figure(l['pct_of_cublas']) + '%' for l in lines)} | "
            f"{join(bookdata.fmt_figure(l['tflops']) for l in lines)} "
            f"({join(bookdata.fmt_figure(l['cublas_tflops']) for l in lines)}) | "
            f"{target or '-'} | {'**missed**' if verdict == 'missed' else verdict or ''} |")
    return "\n".join(out)


GENERATORS = {"claim": claim_block, "results": results_block}


def blocks(data):
    gpus = bookdata.load(data)
    return {name: make(gpus) for name, make in GENERATORS.items()}


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
    """Rewrites the generated blocks of `readme` from `data`; True when the file changed."""
    text = readme.read_text()
    new = render(text, blocks(data), readme.name)
    if new != text:
        readme.write_text(new)
    return new != text


def check(readme=README, data=BOOK / "data"):
    """The problems of `readme`'s generated blocks against `data`, as printable lines."""
    text = readme.read_text()
    new = render(text, blocks(data), readme.name)
    if new == text:
        return []
    diff = difflib.unified_diff(text.splitlines(), new.splitlines(), f"{readme.name} (as it is)",
                                f"{readme.name} (from {shown(data)}/)", lineterm="", n=0)
    return [f"{shown(readme)}: the generated blocks differ from what {shown(data)}/ gives: run "
            f"`make readme` (the figures there are never edited by hand):"] + ["  " + l for l in diff]


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
