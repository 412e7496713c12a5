#!/usr/bin/env python3
"""make book: the offline HTML book of the course, with Doxygen.

    build.py [--out DIR] [--data DIR] [--check]

Reads the lessons from lessons/manifest.txt and writes, under DIR (default: book/):

  DIR/generated/figures/   the charts, drawn from book/data/*.jsonl (and yours, book/data/mine/)
                           by charts.py (matplotlib); --data reads another folder
  DIR/generated/pages/     the pages Doxygen reads: the front page, one copy of each chapter
                           (lessons/NN-slug/README.md) with navigation, a table of contents, the
                           reference-solution snippets and the hints folded into "show" sections,
                           the measured results and a guide to the harness (common/)
  DIR/generated/Doxyfile   book/Doxyfile plus the paths of this build
  DIR/generated/book.json  what the pages should contain, for check.py
  DIR/html/                the book: open DIR/html/index.html

Any Doxygen warning fails the build (a wrong snippet name, a missing file or image, a broken \\ref),
reported at the line of the chapter that caused it. --check then runs book/check.py on the result.
Standard library only; the charts run under a Python that can import matplotlib (found here).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
sys.path.insert(0, str(BOOK))
import bookdata  # noqa: E402
import compare  # noqa: E402
import statements  # noqa: E402
from bookdata import CEILING_NAMES, ceilings_sentence, fmt, records, reference_gpu  # noqa: E402
from course import figures as course_figures  # noqa: E402  (a figure's HTML and its frames)
from course import hints as course_hints  # noqa: E402  (the hints of a lesson, task by task)
from course.util import rel  # noqa: E402

AWESOME = Path("/usr/share/doxygen-awesome-css")
MATHJAX = Path("/usr/share/javascript/mathjax")
# The parts of MathJax 2 that TeX input with CommonHTML output loads (about 1.5 MB of the 50).
MATHJAX_PARTS = ["MathJax.js", "extensions", "jax/input/TeX", "jax/output/CommonHTML",
                 "jax/element/mml", "fonts/HTML-CSS/TeX/woff"]
AWESOME_JS = ["doxygen-awesome-fragment-copy-button.js", "doxygen-awesome-paragraph-link.js",
              "doxygen-awesome-interactive-toc.js"]
AWESOME_INIT = ["DoxygenAwesomeFragmentCopyButton", "DoxygenAwesomeParagraphLink",
                "DoxygenAwesomeInteractiveToc"]

SNIPPET_LINE = re.compile(r"^(\s*)\\snippet(\{[^}]*\})?\s+(\S+)\s+(\S+)\s*$")
SNIPPET_ANY = re.compile(r"\\snippet(\{[^}]*\})?\s+(\S+)\s+(\S+)")
TITLE = re.compile(r"^#\s+(.*?)\s*\{#(\w+)\}\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
FIGURE_LINE = re.compile(r"^\s*\\figure\s+(\S+)\s*$")
BLOCK_OPEN = re.compile(r"\\(verbatim|code|htmlonly|latexonly|dot|msc|startuml)\b")


class BuildError(Exception):
    pass


def say(msg):
    print(f"book: {msg}", flush=True)


# ---- tools ---------------------------------------------------------------------------------------

class ToolMissing(BuildError):
    """A tool or package the book needs is not installed (`make setup` installs it)."""


def doxygen_version():
    exe = shutil.which("doxygen")
    if not exe:
        raise ToolMissing("doxygen is not installed: run `make setup` (the package doxygen)")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", out)
    if not m:
        raise BuildError(f"cannot read the Doxygen version from {out!r}")
    return exe, tuple(int(x) for x in m.groups())


def matplotlib_python():
    """A Python that imports matplotlib: this one, $BOOK_PYTHON, python3 on PATH, or the system's
    /usr/bin/python3 (where Debian's python3-matplotlib lives). Returns (path, version, tried)."""
    seen, tried = [], []
    for cand in [os.environ.get("BOOK_PYTHON"), sys.executable, shutil.which("python3"),
                 "/usr/bin/python3", "/usr/local/bin/python3"]:
        if not cand or not Path(cand).exists():
            continue
        real = os.path.realpath(cand)
        if real in seen:
            continue
        seen.append(real)
        r = subprocess.run([cand, "-c", "import matplotlib; print(matplotlib.__version__)"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return cand, r.stdout.strip(), tried
        tried.append(cand)
    raise ToolMissing("no Python here can import matplotlib (tried " + ", ".join(tried) + "). "
                     "Run `make setup` (installs Debian's python3-matplotlib for /usr/bin/python3), "
                     "or `pip install matplotlib` for one of them, or point BOOK_PYTHON at a "
                     "Python that has it.")


def check_theme():
    missing = [str(p) for p in [AWESOME / "doxygen-awesome.css", MATHJAX / "MathJax.js"]
               if not p.exists()]
    if missing:
        raise ToolMissing(f"missing {', '.join(missing)}: run `make setup` (packages "
                         "doxygen-awesome-css and libjs-mathjax)")


# ---- pages ---------------------------------------------------------------------------------------

class Page:
    """A generated Markdown page, with the source line each of its lines came from, so that a
    Doxygen warning about the copy can name the chapter's own line."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.origin = []

    def add(self, text="", origin=None):
        """origin: (file, first line) of the text, or None for what the book adds."""
        for k, line in enumerate(text.split("\n")):
            self.lines.append(line)
            self.origin.append((origin[0], origin[1] + k) if origin and origin[1] else origin)

    def write(self, folder):
        (folder / self.name).write_text("\n".join(self.lines) + "\n")


def chapter_title(lesson):
    readme = ROOT / "lessons" / lesson.dir / "README.md"
    if not readme.is_file():
        raise BuildError(f"lesson {lesson.num} has no chapter: lessons/{lesson.dir}/README.md "
                         "is missing")
    first = (readme.read_text().splitlines() or [""])[0]
    m = TITLE.match(first)
    if not m or m.group(2) != f"lesson{lesson.num}":
        raise BuildError(f"lessons/{lesson.dir}/README.md:1: the first line must be "
                         f"'# Title {{#lesson{lesson.num}}}', not {first!r}")
    return m.group(1)


def short(lesson, titles):
    return f"{lesson.num} {titles[lesson.num]}"


def ref_text(text):
    return text.replace('"', "'")


def nav(lesson, prev, nxt, titles):
    parts = []
    parts.append(f'\\ref lesson{prev.num} "← {ref_text(short(prev, titles))}"' if prev
                 else '<span class="book-nav-none">← (first lesson)</span>')
    parts.append('\\ref index "Contents"')
    parts.append(f'\\ref lesson{nxt.num} "{ref_text(short(nxt, titles))} →"' if nxt
                 else '<span class="book-nav-none">(last lesson) →</span>')
    return ('<div class="book-nav">\n' + "\n".join(
        f'<span class="book-nav-{k}">{p}</span>' for k, p in zip(("prev", "up", "next"), parts))
        + "\n</div>")


def snippet_block(indent, path, name, sid):
    # A <div> Doxygen passes through (with its attributes): check.py finds each snippet by its id,
    # and the stylesheet shows the file name above the code.
    return (f'{indent}<div class="book-snippet" id="book-snippet-{sid}" data-file="{path}" '
            f'data-name="{name}">\n{indent}\\snippet {path} {name}\n{indent}</div>')


# What Doxygen 1.9.4 renders wrongly, rewritten in the book's copy only (the chapters stay as they
# are, readable on GitHub too):
# - bold or italic that starts with a code span, **`name`**, comes out with its asterisks;
# - a command inside "straight double quotes" is not run: "at \f$ N \f$" shows the raw \f$, so
#   such quotes become typographic ones, which Doxygen leaves alone.
BOLD_CODE = re.compile(r"(?<![*\w])\*\*(`[^`\n]+`[^*\n]*?)\*\*(?![*\w])")
ITALIC_CODE = re.compile(r"(?<![*\w])\*(`[^`\n]+`[^*\n]*?)\*(?![*\w])")
QUOTED_COMMAND = re.compile(r'"([^"\n]*?\\[A-Za-z$\[\]][^"\n]*?)"')
CODE_SPAN = re.compile(r"`[^`\n]*`")


def markdown_fixes(line):
    line = BOLD_CODE.sub(r"<b>\1</b>", line)
    line = ITALIC_CODE.sub(r"<em>\1</em>", line)
    if '"' in line and "\\" in line:
        spans = []

        def keep(m):
            spans.append(m.group(0))
            return f"\0{len(spans) - 1}\0"

        masked = CODE_SPAN.sub(keep, line)
        masked = QUOTED_COMMAND.sub(lambda m: "\u201c" + m.group(1) + "\u201d"
                                    if "\\" in re.sub(r"\0\d+\0", "", m.group(1)) else m.group(0),
                                    masked)
        line = re.sub(r"\0(\d+)\0", lambda m: spans[int(m.group(1))], masked)
    return line


def fix_prose(text):
    """markdown_fixes() on the lines of `text` outside fenced code and \\verbatim blocks."""
    out, fence, block = [], None, None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence:
            fence = None if m and line.strip().startswith(fence) else fence
        elif block:
            block = None if f"\\end{block}" in line else block
        elif m:
            fence = m.group(1)
        elif BLOCK_OPEN.search(line) and f"\\end{BLOCK_OPEN.search(line).group(1)}" not in line:
            block = BLOCK_OPEN.search(line).group(1)
        else:
            line = markdown_fixes(line)
        out.append(line)
    return "\n".join(out)


SNIPPET_MARK = re.compile(r"^\s*(//!|///|//|#)\s*\[([\w.-]+)\]\s*$")


def snippet_markers_problem(path, name):
    """What is wrong with the markers of snippet `name` in `path`, or None. Regions may nest (a
    function and a step inside it), but they may not overlap, and a region may not open with
    another region: the reader would see the other's code first, under this snippet's name."""
    try:
        lines = (ROOT / path).read_text().split("\n")
    except OSError:
        return None  # Doxygen reports a missing file itself
    stack, spans = [], {}
    for i, line in enumerate(lines):
        m = SNIPPET_MARK.match(line)
        if not m:
            continue
        n = m.group(2)
        if stack and stack[-1][0] == n:
            spans[n] = (stack.pop()[1], i)
        elif any(o == n for o, _ in stack):
            return f"the markers of [{n}] overlap those of [{stack[-1][0]}]"
        else:
            stack.append((n, i))
    if name not in spans:
        return None
    start, end = spans[name]
    body = [l for l in lines[start + 1:end] if l.strip()]
    if body and SNIPPET_MARK.match(body[0]):
        other = SNIPPET_MARK.match(body[0]).group(2)
        return f"[{name}] opens with the code of [{other}]: move the markers"
    return None


def figure_block(lesson, fid, figures, where):
    """The HTML of the figure `fid` where a chapter says `\\figure fid`: its first frame, its
    caption, numbered within the chapter; figures.js adds the controls and the enlarging."""
    spec = figures["by_id"].get(fid)
    if spec is None:
        raise BuildError(f"{where}: no figure {fid!r}: the figure programs draw "
                         + ", ".join(sorted(figures["by_id"])))
    used = figures["used"].setdefault(lesson.num, [])
    if fid in used:
        raise BuildError(f"{where}: figure {fid!r} is shown twice in the chapter")
    used.append(fid)
    number = f"{int(lesson.num)}.{len(used)}"
    return ("\\htmlonly[block]" + course_figures.figure_html(fid, spec, f"<b>Figure {number}.</b> ")
            + "\\endhtmlonly")


def transform_chapter(lesson, text, rel, page, snippets, figures):
    """Copies the chapter body into `page`: every \\snippet on a line of its own is wrapped in a
    marked <div>, and runs of snippets from solutions/ go into one folded "show" section."""
    lines = text.split("\n")
    i, fence, block = 1, None, None
    while i < len(lines):
        line = lines[i]
        origin = (rel, i + 1)
        if fence:
            page.add(line, origin)
            if FENCE.match(line) and line.strip().startswith(fence):
                fence = None
            i += 1
            continue
        if block:
            page.add(line, origin)
            if f"\\end{block}" in line:
                block = None
            i += 1
            continue
        m = FENCE.match(line)
        if m:
            fence = m.group(1)
            page.add(line, origin)
            i += 1
            continue
        m = BLOCK_OPEN.search(line)
        if m and f"\\end{m.group(1)}" not in line[m.end():]:
            block = m.group(1)
            page.add(line, origin)
            i += 1
            continue
        m = FIGURE_LINE.match(line)
        if m:
            page.add(figure_block(lesson, m.group(1), figures, f"{rel}:{i + 1}"), origin)
            i += 1
            continue
        m = SNIPPET_LINE.match(line)
        if not m:
            if line.count("`") % 2:
                raise BuildError(f"{rel}:{i + 1}: a code span crosses a line break (the book "
                                 "would not show it as code, and a command copied from it would "
                                 "fail): keep each `...` on one line")
            page.add(markdown_fixes(line), origin)
            i += 1
            continue
        # A run of snippets: consecutive snippet lines (blank lines between them allowed).
        run = []
        j = i
        while j < len(lines):
            mj = SNIPPET_LINE.match(lines[j])
            if mj:
                run.append((j, mj))
                j += 1
            elif not lines[j].strip() and j + 1 < len(lines) and SNIPPET_LINE.match(lines[j + 1]):
                j += 1
            else:
                break
        groups = []  # consecutive snippets of the same kind (solution or not) stay together
        for j2, mj in run:
            sol = mj.group(3).startswith("solutions/")
            if groups and groups[-1][0] == sol:
                groups[-1][1].append((j2, mj))
            else:
                groups.append((sol, [(j2, mj)]))
        for sol, items in groups:
            indent = items[0][1].group(1)
            if sol:
                files = sorted({mj.group(3) for _, mj in items})
                names = ", ".join(mj.group(4) for _, mj in items)
                page.add(f'{indent}\\htmlonly[block]<details class="book-solution"><summary>'
                         f'<span class="book-show">Show the reference solution</span> '
                         f'<code>{" ".join(files)}</code> <span class="book-names">{names}'
                         f'</span></summary>\\endhtmlonly', (rel, items[0][0] + 1))
            for j2, mj in items:
                problem = snippet_markers_problem(mj.group(3), mj.group(4))
                if problem:
                    raise BuildError(f"{rel}:{j2 + 1}: \\snippet {mj.group(3)} {mj.group(4)}: "
                                     f"{problem}")
                sid = len(snippets) + 1
                snippets.append({"id": sid, "file": mj.group(3), "name": mj.group(4),
                                 "solution": sol, "line": j2 + 1})
                page.add(snippet_block(indent, mj.group(3), mj.group(4), sid), (rel, j2 + 1))
                page.add("", None)
            if sol:
                page.add(f"{indent}\\htmlonly[block]</details>\\endhtmlonly", None)
            page.add("", None)
        i = j
    if fence or block:
        raise BuildError(f"{rel}: a {fence or block} block is never closed")


def hints_section(lesson, page):
    """The lesson's hints, task by task, each folded: as many as `make hint-N` gives."""
    path = ROOT / lesson.hints
    if not path.is_file():
        return 0
    source = path.read_text()
    sections, _ = course_hints.parse_hints(source)
    if not any(s.hints for s in sections):
        return 0
    page.add("\n## Hints\n")
    page.add(f"Try each task first: each hint gives away a little more than the one before. "
             f"`make hint-{int(lesson.num)}` shows them one at a time in the terminal, for the first "
             f"task you have not passed yet.\n")
    count = 0
    for s in sections:
        page.add(f"\n### Task {s.number}: {fix_prose(s.title)}\n")
        for n, hint in enumerate(s.hints, 1):
            page.add(f'\\htmlonly[block]<details class="book-hint"><summary>'
                     f'<span class="book-show">Show hint {n}</span></summary>\\endhtmlonly\n')
            at = source.find(hint)
            page.add(fix_prose(hint),
                     (lesson.hints, source.count("\n", 0, at) + 1 if at >= 0 else None))
            page.add("\n\\htmlonly[block]</details>\\endhtmlonly\n")
            count += 1
    return count


def measured_section(lesson, charts, page, images, gpus, mines):
    """The chapter's "Measured" section: its charts, and, with several GPUs in book/data/ or the
    learner's own measurements in book/data/mine/, the sentences that compare them (compare.py).
    With one GPU and none of the learner's, the charts only."""
    side = charts.get("compare") or {}
    side_fig = side.get("lessons", {}).get(lesson.num)
    figs = [fig for g in charts["gpus"] for fig in g["lessons"].get(lesson.num, [])]
    if side_fig:  # the kernels side by side replace each GPU's own chart of them
        figs = [side_fig] + [f for f in figs if f.get("kind") != "kernels"]
    several = len(gpus) > 1
    prose = compare.gpus_paragraphs(lesson.num, gpus) if several else []
    table = []
    if lesson.num == "01" and several:
        table = compare.ceilings_table(gpus)
        text = compare.ceilings_paragraph(gpus)
        prose = [text] if text else []
    ref = reference_gpu(gpus)
    regimes = compare.regimes_table(ref, lesson.num) if ref else []
    if lesson.num == "01" and ref and ref.method:
        regimes = [f"The check of the method on the {ref.gpu} (`lesson01 --method`, which "
                   "`make bench` runs first; `" + ref.rel + "`): cuBLAS against itself, the same "
                   "call on the same inputs as A and B.", ""] + compare.method_table(ref)
        text = compare.method_paragraph(ref)
        if text:
            regimes += ["", text]
    yours = [t for t in (compare.mine_paragraph(lesson, m, same, gpus) for m, same in mines) if t]
    if lesson.num == "01":
        for m, _ in mines:
            if m.ceilings:
                r = m.ridge("fp32")
                yours.append(f"**Your GPU.** `make bench MINE=1` measured on your {m.gpu}: "
                             f"{ceilings_sentence(m)}"
                             + (f"; its ridge point is {compare.intensity_text(r)} FLOP/byte"
                                if r else "") + f" (`{m.rel}`).")
    if not figs and not prose and not table and not yours and not regimes:
        return
    page.add("\n## Measured\n")
    if not several and not yours:
        page.add("What the lesson program measured (`--json`) on a GPU, as committed in "
                 "`book/data/`; \\ref results has the whole ladder and the rooflines.\n")
    else:
        page.add("What the lesson program measured (`--json`)"
                 + ((" on each GPU" if several else " on a GPU") + ", as committed in "
                    "`book/data/`" if gpus else "")
                 + (", and your own kernels, from `make bench MINE=1` (in `book/data/mine/`, "
                    "which git ignores)" if mines else "")
                 + "; \\ref results has the whole ladder and the rooflines.\n")
    for line in table:
        page.add(line)
    if table:
        page.add("")
    shown = figs[:1] if side_fig else []
    for fig in shown:
        page.add(f'\\image html {fig["file"]} "{ref_text(fig["caption"])}"\n')
        images.append(fig["file"])
    for text in prose:
        page.add(text + "\n")
    for line in regimes:
        page.add(line)
    if regimes:
        page.add("")
    for fig in figs[len(shown):]:
        page.add(f'\\image html {fig["file"]} "{ref_text(fig["caption"])}"\n')
        images.append(fig["file"])
    for text in yours:
        page.add(text + "\n")


GOING_FURTHER = re.compile(r"^##\s+Going further\b", re.M)


def budget_problem(lesson, text):
    """What is over the chapter's line budget (its record's chapter_lines and mandatory_lines),
    or None."""
    lines = text.count("\n")
    rec = lesson.record
    if rec.chapter_lines is not None and lines > rec.chapter_lines:
        return f"{lines} lines, over its budget of {rec.chapter_lines}"
    if rec.mandatory_lines is not None:
        m = GOING_FURTHER.search(text)
        if not m:
            return "no \"## Going further\" heading, and its record sets mandatory_lines"
        before = text[:m.start()].count("\n")
        if before > rec.mandatory_lines:
            return (f"{before} lines before \"## Going further\", over its budget of "
                    f"{rec.mandatory_lines}")
    return None


def chapter_page(lesson, prev, nxt, titles, charts, book, gpus, mines, figures):
    rel = f"lessons/{lesson.dir}/README.md"
    text = (ROOT / rel).read_text()
    problem = budget_problem(lesson, text)
    if problem:
        raise BuildError(f"{rel}: {problem} (lessons/{lesson.dir}/lesson.toml)")
    ref = reference_gpu(gpus)
    short = re.search(r"H100|H200|B200|A100", ref.gpu).group(0) if ref else "H200"
    wrong = statements.problems(lesson.num, text, short)
    if wrong:
        raise BuildError(f"{rel}: " + f"\n{rel}: ".join(wrong) + "\n(the rules: book/statements.py)")
    page = Page(f"{lesson.dir}.md")
    page.add(f"# {lesson.num} · {titles[lesson.num]} {{#lesson{lesson.num}}}", (rel, 1))
    page.add("")
    page.add(nav(lesson, prev, nxt, titles))
    page.add("")
    page.add("[TOC]")
    page.add("")
    snippets, images = [], []
    transform_chapter(lesson, text, rel, page, snippets, figures)
    images += re.findall(r"\\image\s+html\s+(\S+)", text)
    measured_section(lesson, charts, page, images, gpus, mines)
    hints = hints_section(lesson, page)
    page.add("")
    page.add(nav(lesson, prev, nxt, titles))
    book["chapters"].append({
        "lesson": lesson.num, "slug": lesson.slug, "title": titles[lesson.num], "source": rel,
        "page": f"lesson{lesson.num}.html", "snippets": snippets, "hints": hints,
        "images": images, "snippets_in_source": len(SNIPPET_ANY.findall(text)),
        "figures": figures["used"].get(lesson.num, [])})
    return page


def figure_lines(gpu_entries, what):
    out, images = [], []
    for g in gpu_entries:
        figs = [g["ladder"]] if what == "ladder" else g["rooflines"]
        for fig in figs:
            out.append(f'\\image html {fig["file"]} "{ref_text(fig["caption"])}"\n')
            images.append(fig["file"])
    return out, images


def front_page(lessons, titles, charts, gpus, project, book):
    page = Page("index.md")
    page.add(f"# {project} {{#mainpage}}\n")
    template = (BOOK / "front.md").read_text()
    template = re.sub(r"\A\s*<!--.*?-->\s*", "", template, flags=re.S)
    images = []
    for line in template.split("\n"):
        if line.strip() == "@@LESSONS@@":
            page.add("| # | chapter | GPU needed | you write in |")
            page.add("|---|---------|------------|--------------|")
            for l in lessons:
                # What each GPU runs, from the records, as the README's generated line says it.
                page.add(f'| {l.num} | \\subpage lesson{l.num} "{ref_text(l.title)}" | '
                         f"{bookdata.gpu_needed(l)} | `exercises/{l.dir}/` |")
            page.add("")
            page.add(bookdata.gpu_requirements(lessons))
            page.add("")
        elif line.strip() == "@@CLAIM@@":
            page.add(bookdata.headline_claim(gpus))
        elif line.strip() == "@@LADDER@@":
            side = (charts.get("compare") or {}).get("ladder")
            ordered = front_order(charts)
            figs, imgs = figure_lines(ordered, "ladder")
            if side:
                figs = [f'\\image html {side["file"]} "{ref_text(side["caption"])}"\n']
                imgs = [side["file"]]
            images += imgs
            if not figs:
                page.add("No measured results are committed yet (`book/data/` is empty).")
            else:
                page.add("Every kernel of the course as a percentage of cuBLAS on the same GPU, in "
                         "the same process, in course order"
                         + (", one bar per GPU" if side and len(gpus) > 1 else "")
                         + (" and one for your own kernels (`make bench MINE=1`)"
                            if side and any(s["kind"] == "yours" for s in
                                            charts["compare"]["series"]) else "")
                         + ". The rooflines and the numbers are in \\ref results.\n")
                by_stem = {g.stem: g for g in gpus}
                for g in ordered:
                    gpu = by_stem.get(g["stem"])
                    if gpu and gpu.ceilings:
                        page.add(f"The ceilings lesson 01 measured on the {gpu.gpu}: "
                                 f"{ceilings_sentence(gpu)}.\n")
                if side and len(gpus) > 1:
                    text = compare.ceilings_paragraph(gpus)
                    if text:
                        page.add(text + " Each chapter's \"Measured\" section says which of its "
                                 "kernels that moves, and by how much.\n")
                for f in figs:
                    page.add(f)
        elif line.strip() == "@@MORE@@":
            page.add("- \\subpage results : the ladder, the rooflines and every measured number, "
                     "per GPU.")
            page.add("- \\subpage harness : the helpers in `common/` that lessons and graders "
                     "call, with their API pages.")
        else:
            page.add(line)
    book["front"] = {"images": images}
    return page


def front_order(charts):
    """The GPUs on the front page: those with GEMM measurements first, the H100 (the course's
    reference GPU) before the others."""
    return sorted(charts["gpus"], key=lambda g: (g["ladder"]["empty"], "h100" not in g["stem"],
                                                 g["stem"]))


def results_page(gpus, charts, book, mines=()):
    page = Page("results.md")
    page.add("# Measured results {#results}\n")
    side = charts.get("compare")
    if not side:
        page.add("Every number here comes from the committed files in `book/data/`, one per GPU, "
                 "as the lesson programs print them with `--json` (`make gpu-check` on a GPU "
                 "machine collects them). The charts are redrawn each time the book is built. "
                 "Timings from different GPUs are not comparable, so each file gets its own "
                 "charts.\n")
    else:
        page.add("Every number here comes from the committed files in `book/data/`, one per GPU, "
                 "as the lesson programs print them with `--json` (`make gpu-check` on a GPU "
                 "machine collects them)"
                 + (", and from your own in `book/data/mine/` (`make bench MINE=1`, which git "
                    "ignores)" if mines else "")
                 + ". The charts are redrawn each time the book is built. First the GPUs side by "
                 "side, each kernel against cuBLAS on its own GPU and each GPU under its own "
                 "roofs; then each file on its own.\n")
    if not gpus:
        page.add("No data file is committed yet.")
    images = []
    if side:
        page.add("## Side by side\n")
        table = compare.ceilings_table(gpus)
        if table:
            page.add("### The ceilings (lesson 01)\n")
            for line in table:
                page.add(line)
            page.add("")
            text = compare.ceilings_paragraph(gpus)
            if text:
                page.add(text + "\n")
        if side.get("ladder"):
            page.add("### The ladder\n")
            page.add(f'\\image html {side["ladder"]["file"]} '
                     f'"{ref_text(side["ladder"]["caption"])}"\n')
            images.append(side["ladder"]["file"])
        for r in side.get("rooflines", []):
            page.add(f"### The {r['label']} roofline\n")
            page.add(f'\\image html {r["file"]} "{ref_text(r["caption"])}"\n')
            images.append(r["file"])
    for mine, same in mines:
        your_kernels(page, mine, same, gpus)
    by_stem = {g["stem"]: g for g in charts["gpus"]}
    for gpu in gpus:
        c = by_stem[gpu.stem]
        page.add(f"## {gpu.gpu}\n")
        page.add(f"From `{gpu.rel}`.\n")
        if gpu.meta:
            m = gpu.meta
            page.add(f"Measured by `make bench` on {m.get('date', '?')}: {m.get('sm_count', '?')} SMs, "
                     f"SM clock up to {m.get('sm_clock_mhz', '?')} MHz, driver {m.get('driver', '?')}, "
                     f"CUDA {m.get('cuda', '?')}.\n")
        if gpu.ceilings:
            page.add("### The ceilings (lesson 01)\n")
            page.add("| measurement | measured | datasheet peak | % of peak |")
            page.add("|---|---|---|---|")
            for what, l in gpu.ceilings.items():
                name = CEILING_NAMES.get(what, what.replace("_", " "))
                page.add(f"| {name} | {fmt(l.get('value'), 1)} {l.get('unit', '')} "
                         f"| {fmt(l.get('peak'), 1)} {l.get('unit', '')} "
                         f"| {fmt(l.get('pct_of_peak'), 1)}% |")
            page.add("")
        page.add("### The ladder\n")
        page.add(f'\\image html {c["ladder"]["file"]} "{ref_text(c["ladder"]["caption"])}"\n')
        images.append(c["ladder"]["file"])
        if c["ladder"]["empty"]:
            page.add("No lesson program has committed GEMM measurements for this GPU yet.\n")
        for r in c["rooflines"]:
            page.add(f"### The {r['label']} roofline\n")
            page.add(f'\\image html {r["file"]} "{ref_text(r["caption"])}"\n')
            images.append(r["file"])
        if gpu.all_sizes:
            page.add("### Every kernel, every size\n")
            page.add("| lesson | kernel | M × N × K | ms | TFLOP/s | % of cuBLAS | cuBLAS TFLOP/s "
                     "| intensity (FLOP/byte) | check |")
            page.add("|---|---|---|---|---|---|---|---|---|")
            for l in gpu.all_sizes:
                check = "-" if not l.get("checked") else ("passed" if l.get("passed") else "FAILED")
                x = bookdata.design_intensity(l, gpus)
                inten = (f"{fmt(x)} (the kernel's)" if x
                         else f"{bookdata.problem_intensity(l):.0f} (the problem's)")
                head = " (headline)" if l.get("headline") else ""
                page.add(f"| \\ref lesson{l['lesson']} \"{l['lesson']}\" | `{l['kernel']}`{head} | "
                         f"{l['M']} × {l['N']} × {l['K']} | {fmt(l.get('ms'), 3)} | "
                         f"{fmt(l.get('tflops'))} | {fmt(l.get('pct_of_cublas'), 1)}% | "
                         f"{fmt(l.get('cublas_tflops'))} | {inten} | {check} |")
            page.add("")
    book["results"] = {"images": images}
    return page


def your_kernels(page, mine, same, gpus):
    """The results page's table of the learner's kernels from one book/data/mine/ file, each next
    to the reference solution at the same shape: from the same run, else a committed file of the
    same GPU."""
    page.add(f"## Yours, on your {mine.gpu}\n")
    m = mine.meta
    page.add(f"From `{mine.rel}`, written by `make bench MINE=1`"
             + (f" on {m['date']}" if m.get("date") else "") + "; git ignores it. Each of your "
             "kernels beside the reference solution at the same size: timed in the same run, or, "
             "where that run did not time it, from a committed file of the same GPU.\n")
    if not mine.all_sizes:
        page.add("It holds no measurement of your kernels yet.\n")
        return
    committed = next((g for g in gpus if g.gpu == mine.gpu), None)
    page.add("| lesson | kernel | M × N × K | yours: TFLOP/s | % of cuBLAS | check "
             "| reference: TFLOP/s | % of cuBLAS | from |")
    page.add("|---|---|---|---|---|---|---|---|---|")
    for l in mine.all_sizes:
        ref, where = same.at_shape(l["lesson"], l["kernel"], l), "the same run"
        if ref is None and committed is not None:
            ref, where = committed.at_shape(l["lesson"], l["kernel"], l), f"`{committed.rel}`"
        check = "-" if not l.get("checked") else ("passed" if l.get("passed") else "FAILED")
        head = " (headline)" if l.get("headline") else ""
        page.add(f"| \\ref lesson{l['lesson']} \"{l['lesson']}\" | `{l['kernel']}`{head} | "
                 f"{l['M']} × {l['N']} × {l['K']} | {fmt(l.get('tflops'))} | "
                 f"{fmt(l.get('pct_of_cublas'), 1)}% | {check} | "
                 + (f"{fmt(ref.get('tflops'))} | {fmt(ref.get('pct_of_cublas'), 1)}% | {where} |"
                    if ref else "not measured on this GPU | | |"))
    page.add("")


def header_brief(path):
    text = path.read_text()
    m = re.search(r"^///\s*\\brief\s+(.*?)(?:\n///\s*\n|\n(?!///))", text, flags=re.M | re.S)
    if not m:
        return ""
    return " ".join(s.strip().lstrip("/").strip() for s in m.group(1).split("\n"))


def harness_page(headers):
    page = Page("harness.md")
    page.add("# The harness: common/ {#harness}\n")
    page.add("Every lesson program and every grader is built on the same small set of helpers in "
             "`common/`: checked CUDA calls, device buffers, seeded random inputs, timing with CUDA "
             "events, verification against Eigen with a diagnosis, the cuBLAS baselines, the "
             "tables and JSON lines the programs print, and the GEMM lesson program itself "
             "(`GemmLesson`, with the tables of a lesson's variants). One set of names serves both "
             "precisions: `course::Fp32` and `course::Bf16` say what differs, and the kernel's "
             "signature picks the rest. Everything lives in the namespace `course`.\n")
    page.add("| header | what it gives you |")
    page.add("|---|---|")
    for h in headers:
        page.add(f"| \\ref {h.name} \"common/{h.name}\" | {header_brief(h)} |")
    page.add("\nThe pages of the API (in the tree on the left) show what each header documents: "
             "the functions, classes and macros a lesson may call, not the implementation.")
    return page


# ---- the figures of the lessons -------------------------------------------------------------------

def figure_lessons(lessons):
    return [l for l in lessons if (ROOT / "lessons" / l.dir / "figures.cpp").is_file()]


def build_figure_programs(build_dir, lessons):
    """Builds the figure programs (and the reference solutions they draw from) in `build_dir`."""
    if not (build_dir / "CMakeCache.txt").is_file():
        raise BuildError(f"{rel(build_dir)} is not configured: run `make book` (it configures it)")
    missing = [l.num for l in figure_lessons(lessons)
               if not (build_dir / "bin" / f"figures{l.num}_solution").is_file()]
    if missing:
        say(f"building the figure programs of lessons {', '.join(missing)} and the reference "
            f"solutions they draw from (the first time: up to 10 minutes on 2 cores) ...")
    else:
        say("the figure programs: checking they are up to date ...")
    t0 = time.monotonic()
    r = subprocess.run(["cmake", "--build", str(build_dir), "--target", "book_figures"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError("building the figure programs failed:\n" + (r.stdout + r.stderr)[-3000:])
    if missing:
        say(f"built in {time.monotonic() - t0:.0f} s")


def draw_figures(programs, lessons, dest):
    """Runs each lesson's figures program (the reference solution's) into dest/NN/; returns the
    figures by id, each with its frames' paths relative to the book's html/ folder."""
    by_id = {}
    for l in figure_lessons(lessons):
        exe = programs / f"figures{l.num}_solution"
        if not exe.is_file():
            raise BuildError(f"no {rel(exe)}: build the figure programs (`make book` does)")
        out = dest / l.num
        r = subprocess.run([str(exe), "--out", str(out)], capture_output=True, text=True)
        if r.returncode != 0:
            raise BuildError(f"{rel(exe)} failed:\n{(r.stdout + r.stderr).strip()}")
        for spec in json.loads((out / "figures.json").read_text())["figures"]:
            if spec["id"] in by_id:
                raise BuildError(f"figure {spec['id']!r} is drawn by two programs")
            spec["frames"] = {k: f"figures/{l.num}/{v}" for k, v in spec["frames"].items()}
            by_id[spec["id"]] = spec
    return {"by_id": by_id, "used": {}}


def write_figure_data(figures, html_dir, src):
    """The figures' frames into html/figures/, and their index as a script (a page opened from
    the disk may not fetch JSON; it may load a script)."""
    shutil.copytree(src, html_dir / "figures", dirs_exist_ok=True)
    data = course_figures.script_data(figures["by_id"].values())
    (html_dir / "course-figures.js").write_text(
        "// The figures of the chapters, drawn by the lessons' own functions (book/build.py).\n"
        "window.COURSE_FIGURES = " + json.dumps(data, indent=0) + ";\n")


# ---- Doxygen -------------------------------------------------------------------------------------

def quote(p):
    return '"' + str(p) + '"'


def write_doxyfile(gen, out, version, lessons, headers):
    images = [gen / "figures"] + [ROOT / "lessons" / l.dir for l in lessons]
    examples = [ROOT / d for d in ("lessons", "solutions", "exercises", "common")]
    lines = [
        f"@INCLUDE = {quote(BOOK / 'Doxyfile')}",
        f"OUTPUT_DIRECTORY = {quote(out)}",
        f"STRIP_FROM_PATH = {quote(ROOT)}",
        "INPUT = " + " ".join(quote(p) for p in [gen / "pages"] + headers),
        "EXAMPLE_PATH = " + " ".join(quote(p) for p in examples if p.is_dir()),
        "IMAGE_PATH = " + " ".join(quote(p) for p in images if p.is_dir()),
        f"LAYOUT_FILE = {quote(BOOK / 'DoxygenLayout.xml')}",
        f"MATHJAX_CODEFILE = {quote(BOOK / 'mathjax-config.js')}",
        f"HTML_HEADER = {quote(gen / 'header.html')}",
        "HTML_EXTRA_STYLESHEET = " + " ".join(quote(p) for p in [
            AWESOME / "doxygen-awesome.css", AWESOME / "doxygen-awesome-sidebar-only.css",
            BOOK / "book.css", BOOK / "figures.css"]),
        "HTML_EXTRA_FILES = " + " ".join(quote(AWESOME / f) for f in AWESOME_JS)
        + " " + quote(BOOK / "figures.js"),
    ]
    if version >= (1, 9, 5):
        lines.append("HTML_COLORSTYLE = LIGHT")  # what doxygen-awesome-css asks for from 1.9.5 on
    (gen / "Doxyfile").write_text("\n".join(lines) + "\n")


def write_header(exe, gen):
    """Doxygen's own header for this version, plus the theme's scripts."""
    subprocess.run([exe, "-w", "html", str(gen / "header.html"), str(gen / "footer.html"),
                    str(gen / "stylesheet.css")], check=True, capture_output=True, cwd=gen)
    header = (gen / "header.html").read_text()
    scripts = "".join(f'<script type="text/javascript" src="$relpath^{f}"></script>\n'
                      for f in AWESOME_JS + ["course-figures.js", "figures.js"])
    init = ("<script type=\"text/javascript\">\n"
            + "".join(f"  {name}.init()\n" for name in AWESOME_INIT) + "</script>\n")
    if "</head>" not in header:
        raise BuildError("the Doxygen HTML header has no </head>")
    header = header.replace("</head>", scripts + init + "</head>", 1)
    (gen / "header.html").write_text(header)


def run_doxygen(exe, gen, pages):
    r = subprocess.run([exe, str(gen / "Doxyfile")], capture_output=True, text=True, cwd=ROOT)
    log = (r.stdout + r.stderr).strip()
    (gen / "doxygen.log").write_text(log + "\n")
    by_name = {p.name: p for p in pages}

    def where(m):
        path, line = Path(m.group(1)), int(m.group(2))
        page = by_name.get(path.name) if path.parent == gen / "pages" else None
        if page and 0 < line <= len(page.origin) and page.origin[line - 1]:
            src, src_line = page.origin[line - 1]
            shown = rel(path)
            return (f"{src}:{src_line}:" if src_line else f"{src}:") + f" (generated {shown}:{line})"
        return m.group(0)

    problems = [re.sub(r"^(/[^:]+):(\d+):", where, l) for l in log.splitlines()
                if "warning" in l.lower() or "error" in l.lower()]
    if r.returncode != 0 or problems:
        raise BuildError("Doxygen reported problems (any warning fails the book):\n  "
                         + "\n  ".join(problems or log.splitlines()[-20:]))


def copy_mathjax(html):
    dest = html / "mathjax"
    for part in MATHJAX_PARTS:
        src = MATHJAX / part
        if src.is_dir():
            shutil.copytree(src, dest / part, dirs_exist_ok=True)
        else:
            (dest / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / part)
    return sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())


# ---- main ----------------------------------------------------------------------------------------

def build(out, data, programs):
    t0 = time.monotonic()
    exe, version = doxygen_version()
    check_theme()
    out = out.resolve()
    gen, html = out / "generated", out / "html"
    for d in (gen, html):
        if d.exists():
            shutil.rmtree(d)
    (gen / "pages").mkdir(parents=True)
    (gen / "figures").mkdir()
    html.mkdir()

    lessons = records.lessons()
    gpus = bookdata.load(data)
    mines = bookdata.load_mine(data)

    py, mpl, tried = matplotlib_python()
    say("drawing the charts of book/data/ ...")
    r = subprocess.run([py, str(BOOK / "charts.py"), str(gen / "figures"), "--data", str(data)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError("the charts failed:\n" + (r.stdout + r.stderr).strip())
    charts = json.loads((gen / "figures" / "charts.json").read_text())
    note = f" ({', '.join(tried)} cannot import it)" if tried else ""
    say(f"charts drawn with {py}, matplotlib {mpl}{note}")
    t1 = time.monotonic()
    figures = draw_figures(programs, lessons, gen / "course-figures")
    frames = sum(len(f["frames"]) for f in figures["by_id"].values())
    say(f"{len(figures['by_id'])} figures ({frames} frames) drawn by the lessons' own functions "
        f"in {time.monotonic() - t1:.1f} s")

    project = re.search(r'^PROJECT_NAME\s*=\s*"(.*)"', (BOOK / "Doxyfile").read_text(),
                        flags=re.M).group(1)
    titles = {l.num: chapter_title(l) for l in lessons}
    headers = sorted((ROOT / "common").glob("*.hpp"))
    book = {"project": project, "lessons": [l.num for l in lessons], "chapters": [],
            "charts": charts, "doxygen": ".".join(map(str, version)), "data": str(data),
            "gpus": [g.gpu for g in bookdata.ordered(gpus)], "mine": [m.gpu for m, _ in mines]}
    pages = [front_page(lessons, titles, charts, gpus, project, book)]
    for i, l in enumerate(lessons):
        prev = lessons[i - 1] if i > 0 else None
        nxt = lessons[i + 1] if i + 1 < len(lessons) else None
        pages.append(chapter_page(l, prev, nxt, titles, charts, book, gpus, mines, figures))
    pages.append(results_page(gpus, charts, book, mines))
    pages.append(harness_page(headers))
    for p in pages:
        p.write(gen / "pages")
    (gen / "book.json").write_text(json.dumps(book, indent=1) + "\n")

    write_header(exe, gen)
    write_doxyfile(gen, out, version, lessons, headers)
    book["figures"] = {fid: {"lesson": fid[:2], "frames": list(spec["frames"].values()),
                             "controls": [c["name"] for c in spec["controls"]]}
                       for fid, spec in figures["by_id"].items()}
    (gen / "book.json").write_text(json.dumps(book, indent=1) + "\n")
    unused = sorted(set(figures["by_id"]) - {f for fs in figures["used"].values() for f in fs})
    if unused:
        raise BuildError("figures drawn but shown in no chapter (a line `\\figure ID` places "
                         "one): " + ", ".join(unused))
    say(f"Doxygen: {len(pages)} pages and {len(headers)} headers into HTML (about 10 s) ...")
    run_doxygen(exe, gen, pages)
    write_figure_data(figures, html, gen / "course-figures")
    size = copy_mathjax(html)
    say(f"{len(lessons)} chapters, {len(headers)} harness headers, Doxygen "
        f"{'.'.join(map(str, version))}, MathJax {size / 1e6:.1f} MB copied; "
        f"{time.monotonic() - t0:.1f} s")
    return html


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=BOOK,
                    help="where generated/ and html/ go (default: book/)")
    ap.add_argument("--data", type=Path, default=BOOK / "data",
                    help="the measured results to chart (default: book/data/)")
    ap.add_argument("--check", action="store_true", help="then run book/check.py on the result")
    ap.add_argument("--build", type=Path, default=ROOT / "build",
                    help="the configured build folder whose figure programs draw the figures "
                         "(built first; default: build/)")
    ap.add_argument("--no-build", action="store_true",
                    help="use the figure programs as they are in BUILD/bin, building nothing")
    ap.add_argument("--skip-without-tools", action="store_true",
                    help="exit 77 (a skipped test for CTest) when a tool the book needs is missing")
    args = ap.parse_args()
    try:
        if not args.no_build:
            build_figure_programs(args.build.resolve(), records.lessons())
        html = build(args.out, args.data.resolve(), args.build.resolve() / "bin")
    except ToolMissing as e:
        if args.skip_without_tools:
            print(f"SKIPPED: the book cannot be built here: {e}")
            return 77
        print(f"book: FAILED: {e}", file=sys.stderr)
        return 1
    except (BuildError, bookdata.DataError) as e:
        print(f"book: FAILED: {e}", file=sys.stderr)
        return 1
    say(f"open {html / 'index.html'}")
    if args.check:
        return subprocess.run([sys.executable, str(BOOK / "check.py"), str(args.out)]).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
