"""The learner's own figures: `make lesson-N` runs lesson N's figure program, built against your
exercise (figuresNN; with SOLUTION=1 the reference's, figuresNN_solution), into
.course/figures/NN-slug/ and writes index.html beside it: the same figures and controls as the
book's chapter, drawn from your functions. A wrong mapping shows up as a wrong picture."""

import html
import json
import shutil
import subprocess
from pathlib import Path

from .util import ROOT, STATE_DIR, rel

BOOK = ROOT / "book"


def has_figures(lesson):
    return (ROOT / "lessons" / lesson.dir / "figures.cpp").is_file()


def target(lesson, solution):
    return f"figures{lesson.num}" + ("_solution" if solution else "")


def first_key(spec):
    """The key of the frame a figure shows first: its controls' initial values."""
    first = "|".join(c["initial"] for c in spec["controls"])
    return first if first in spec["frames"] else next(iter(spec["frames"]))


def figure_html(fid, spec, label=""):
    """The HTML of one figure (its first frame, its caption after `label`); book/figures.js adds
    the controls and the enlarging. The book and your own page both use it."""
    stub = (f' <span class="course-figure-stub">{html.escape(spec["error"])}</span>'
            if spec["error"] else "")
    return (f'<figure class="course-figure" id="figure-{html.escape(fid)}" '
            f'data-figure="{html.escape(fid)}"><div class="course-figure-controls"></div>'
            f'<img class="course-figure-img" src="{html.escape(spec["frames"][first_key(spec)])}" '
            f'alt="{html.escape(spec["title"])}"/><figcaption>{label}'
            f'{html.escape(spec["caption"])}{stub}</figcaption></figure>')


def script_data(specs):
    """What figures.js reads (window.COURSE_FIGURES): each figure's controls and frames by id."""
    return {s["id"]: {"title": s["title"], "controls": s["controls"], "frames": s["frames"],
                      "first": first_key(s), "error": s["error"]} for s in specs}


def page(title, specs):
    """A standalone page: every figure with its controls (book/figures.js chooses the frames)."""
    figures = [f'<h2>{html.escape(s["title"])} <small>({html.escape(s["id"])})</small></h2>\n'
               + figure_html(s["id"], s) + "\n" for s in specs]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title>\n<link rel=\"stylesheet\" href=\"figures.css\">\n"
            "<style>body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;max-width:960px;"
            "margin:1em auto;padding:0 1em}div.contents{display:block}</style>\n"
            "<script>window.COURSE_FIGURES = " + json.dumps(script_data(specs)) + ";</script>\n"
            "<script src=\"figures.js\"></script></head>\n<body><div class=\"contents\">\n"
            f"<h1>{html.escape(title)}</h1>\n" + "".join(figures) + "</div></body></html>\n")


def draw(lesson, build, solution):
    """Runs the figure program into .course/figures/NN-slug/; returns the line to print."""
    exe = Path(build) / "bin" / target(lesson, solution)
    out = STATE_DIR / "figures" / (lesson.dir + ("-solution" if solution else ""))
    if out.exists():
        shutil.rmtree(out)
    try:
        r = subprocess.run([str(exe), "--out", str(out)], capture_output=True, text=True,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"pictures of your code: not drawn ({e})"
    if r.returncode != 0:
        return f"pictures of your code: {exe.name} failed: {(r.stdout + r.stderr).strip()[:400]}"
    specs = json.loads((out / "figures.json").read_text())["figures"]
    for name in ("figures.js", "figures.css"):
        shutil.copyfile(BOOK / name, out / name)
    whose = "the reference solution's" if solution else "your"
    (out / "index.html").write_text(page(f"Lesson {lesson.num}: {whose} functions, drawn", specs))
    todo = sum(1 for s in specs if s["error"])
    note = (f"; {todo} wait{'s' if todo == 1 else ''} for a function still a TODO" if todo
            else "")
    who = "the reference's" if solution else "your code's"
    count = f"{len(specs)} figure" + ("" if len(specs) == 1 else "s")
    return (f"pictures of {who} functions: {rel(out / 'index.html')} "
            f"({count}{note}; open it in a browser)")
