#!/usr/bin/env python3
"""The course's helper for the Makefile: lesson lookup, hints, grading, repository checks.

Reads lessons/manifest.txt (the one list of lessons). Standard library only.

  course.py list                      the lessons, in order
  course.py resolve N                 "01" for 1 or 01; the lesson list and exit 2 otherwise
  course.py hint N [--build DIR]      the next hint of lesson N
  course.py grade [N] [--build DIR] [--solution]
                                      progress table (all lessons), or the full diagnosis of one
  course.py check-stubs [--build DIR] every exercise stub fails its grader with NOT IMPLEMENTED
  course.py check-repo                manifest, folders, chapters, hints, and exercise == solution
                                      outside the fill-in regions
"""

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "lessons" / "manifest.txt"
SKIP_CODE = 77
BEGIN = re.compile(r"^\s*// BEGIN EXERCISE: (.+?)\s*$")
END = re.compile(r"^\s*// END EXERCISE\s*$")


class Lesson:
    def __init__(self, num, slug, min_cc, title, hints):
        self.num, self.slug, self.min_cc, self.title, self.hints = num, slug, min_cc, title, hints

    @property
    def dir(self):
        return f"{self.num}-{self.slug}"

    @property
    def cc_digits(self):
        return self.min_cc.replace(".", "")


def lessons():
    out = []
    for line in MANIFEST.read_text().splitlines():
        if not re.match(r"^\d", line):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 5:
            sys.exit(f"{MANIFEST}: a lesson line needs 5 fields separated by '|': {line}")
        out.append(Lesson(*fields))
    return out


def lesson_table():
    rows = [f"  {l.num}  {l.slug:<14} {l.title}" for l in lessons()]
    return "lessons:\n" + "\n".join(rows)


def resolve(arg):
    for l in lessons():
        if arg.isdigit() and int(arg) == int(l.num):
            return l
    print(f"no lesson '{arg}'. Use a number from the list (1 and 01 both work):", file=sys.stderr)
    print(lesson_table(), file=sys.stderr)
    sys.exit(2)


def probe_gpu(build=None):
    """None when a CUDA GPU answers; otherwise a one-line reason for the tools that need one."""
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
    except FileNotFoundError:
        return "this needs a CUDA GPU: nvidia-smi is not installed (no NVIDIA driver here)"
    except subprocess.TimeoutExpired:
        return "this needs a CUDA GPU: nvidia-smi did not answer"
    if p.returncode != 0 or "GPU" not in p.stdout:
        first = (p.stdout.strip().splitlines() or ["no GPU listed"])[0]
        return f"this needs a CUDA GPU: nvidia-smi says: {first}"
    return None


# ---- hints ---------------------------------------------------------------------------------

def read_hints(lesson):
    text = (ROOT / lesson.hints).read_text()
    parts = re.split(r"^## +Hint +\d+.*$", text, flags=re.M)
    return [p.strip() for p in parts[1:] if p.strip()]


def cmd_hint(args):
    lesson = resolve(args.lesson)
    hints = read_hints(lesson)
    state = Path(args.build) / "hints" / f"{lesson.num}.seen"
    seen = int(state.read_text()) if state.exists() else 0
    if args.reset:
        seen = 0
    shown = min(seen + 1, len(hints))
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(str(shown))
    print(f"Lesson {lesson.num} ({lesson.title}), hint {shown} of {len(hints)}:\n")
    print(hints[shown - 1])
    if shown < len(hints):
        print(f"\n(make hint-{int(lesson.num)} again for the next one)")
    else:
        print(f"\n(that was the last hint; make hint-{int(lesson.num)} RESET=1 starts over)")


# ---- grading -------------------------------------------------------------------------------

def test_sources(lesson):
    d = ROOT / "tests" / lesson.dir
    return [p.read_text() for p in sorted(d.glob("*.cpp")) + sorted(d.glob("*.cu"))]


def has_tag(lesson, tag):
    return any(f"[{tag}]" in src for src in test_sources(lesson))


def run(cmd, timeout=1800):
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout
    except FileNotFoundError:
        return 127, f"{cmd[0]} not found: build first (make grade builds everything)"
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or "") + f"\n(timed out after {timeout} s)"


CASES = re.compile(r"test cases:\s*(\d+)(?:\s*\|\s*(\d+) passed)?(?:\s*\|\s*(\d+) failed)?")


def grade_part(binary, tag, lesson):
    """Runs one half ([cpu] or [gpu]) of a grader; returns (state, output, reason)."""
    if not has_tag(lesson, tag):
        return "none", "", ""
    cmd = [str(binary), f"[{tag}]"]
    if tag == "gpu":
        cmd.append(f"--gpu-min-cc={lesson.cc_digits}")
    rc, out = run(cmd)
    if rc == SKIP_CODE:
        reason = next((l[len("SKIPPED: "):] for l in out.splitlines() if l.startswith("SKIPPED: ")),
                      "skipped")
        return "skipped", out, reason
    if rc == 0:
        return "passed", out, ""
    m = CASES.search(out)
    passed_cases = int(m.group(2) or 0) if m else 0
    if "NOT IMPLEMENTED" in out and passed_cases == 0:
        return "not started", out, ""
    return "failing", out, ""


def speed(build, lesson, solution):
    """% of cuBLAS from the lesson program's JSON lines, when it prints one."""
    exe = Path(build) / "bin" / (f"lesson{lesson.num}" + ("_solution" if solution else ""))
    rc, out = run([str(exe), "--json"], timeout=600)
    if rc != 0:
        return None
    found = []
    for line in out.splitlines():
        if line.startswith("{") and "pct_of_cublas" in line:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    # The lesson's headline kernel when it names one, else the first kernel it measured.
    found.sort(key=lambda j: not j.get("headline", False))
    for j in found:
        if j.get("pct_of_cublas") is not None:
            return float(j["pct_of_cublas"])
    return None


def grade_lesson(build, lesson, solution):
    binary = Path(build) / "bin" / ((f"test{lesson.num}") if solution else f"grade{lesson.num}")
    parts = {tag: grade_part(binary, tag, lesson) for tag in ("cpu", "gpu")}
    states = [p[0] for p in parts.values() if p[0] not in ("none", "skipped")]
    if not states:
        status = "skipped"
    elif "failing" in states:
        status = "failing"
    elif "not started" in states:
        status = "not started" if "passed" not in states else "failing"
    else:
        status = "passed"
    gpu_state, _, gpu_reason = parts["gpu"]
    if gpu_state == "skipped":
        gpu = "skipped"
    elif gpu_state == "none":
        gpu = "no GPU part"
    else:
        gpu = gpu_state
    pct = None
    if status == "passed" and gpu_state == "passed":
        pct = speed(build, lesson, solution)
    return status, gpu, pct, parts, gpu_reason


def cmd_grade(args):
    build = Path(args.build)
    which = "reference solutions" if args.solution else "your exercises"
    if args.lesson:
        lesson = resolve(args.lesson)
        status, gpu, pct, parts, _ = grade_lesson(build, lesson, args.solution)
        for tag, (state, out, reason) in parts.items():
            if state == "none":
                continue
            print(f"==== lesson {lesson.num} [{tag}] grader: {state}" +
                  (f" ({reason})" if reason else ""))
            if state != "skipped":
                print(out.rstrip())
        print(f"\nlesson {lesson.num} {lesson.title} ({which}): {status.upper()}")
        if pct is not None:
            print(f"speed: {pct:.1f}% of cuBLAS")
        if status == "not started":
            print(f"The stub is untouched: open exercises/{lesson.dir}/ and look for BEGIN EXERCISE."
                  f" make hint-{int(lesson.num)} gives a hint.")
        elif status == "failing":
            print(f"Read the first failure above: it says where and the likely cause. "
                  f"make hint-{int(lesson.num)} gives a hint.")
        return 0 if status in ("passed", "skipped") else 1

    rows, reasons = [], set()
    for lesson in lessons():
        status, gpu, pct, _, reason = grade_lesson(build, lesson, args.solution)
        if reason:
            reasons.add(reason)
        rows.append((lesson.num, lesson.title, status, gpu, "-" if pct is None else f"{pct:.1f}%"))
    heads = ("lesson", "title", "status", "GPU part", "% of cuBLAS")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    print(f"Progress ({which}):")
    print("  ".join(h.ljust(w) for h, w in zip(heads, widths)))
    print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    for reason in sorted(reasons):
        print(f"\nGPU parts skipped: {reason}")
    done = sum(1 for r in rows if r[2] == "passed")
    print(f"\n{done} of {len(rows)} lessons passed. make grade-N shows the diagnosis of lesson N.")
    return 0


def cmd_check_stubs(args):
    bad = 0
    for lesson in lessons():
        binary = Path(args.build) / "bin" / f"grade{lesson.num}"
        checked = False
        for tag in ("cpu", "gpu"):
            state, out, reason = grade_part(binary, tag, lesson)
            if state in ("none", "skipped"):
                continue
            checked = True
            if state != "not started":
                bad += 1
                print(f"lesson {lesson.num} [{tag}]: the stub should fail every test with NOT "
                      f"IMPLEMENTED, but its grader says '{state}':\n{out}")
        print(f"lesson {lesson.num}: stub " + ("fails its grader with NOT IMPLEMENTED"
                                                if checked else "not checked (no runnable part)"))
    return 1 if bad else 0


# ---- repository checks ---------------------------------------------------------------------

def split_regions(path):
    """The text outside the fill-in regions, and the region names, of one source file."""
    outside, names, inside = [], [], False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if BEGIN.match(line):
            if inside:
                raise ValueError(f"{path}:{n}: BEGIN EXERCISE inside another region")
            inside = True
            names.append(BEGIN.match(line).group(1))
            outside.append(line)
        elif END.match(line):
            if not inside:
                raise ValueError(f"{path}:{n}: END EXERCISE without BEGIN")
            inside = False
            outside.append(line)
        elif not inside:
            outside.append(line)
    if inside:
        raise ValueError(f"{path}: BEGIN EXERCISE without END")
    return outside, names


SNIPPET = re.compile(r"\\snippet\s+(\S+)\s+(\S+)")


def check_snippets(page):
    """Every \\snippet of a chapter names a file from the top folder with exactly one pair of
    //! [name] markers around non-empty code."""
    problems = []
    for path, name in SNIPPET.findall(page.read_text()):
        src = ROOT / path
        where = f"{page.relative_to(ROOT)}: \\snippet {path} {name}"
        if not src.is_file():
            problems.append(f"{where}: no such file (paths start at the top folder)")
            continue
        lines = src.read_text().splitlines()
        marks = [i for i, l in enumerate(lines) if l.strip() == f"//! [{name}]"]
        if len(marks) != 2:
            problems.append(f"{where}: {len(marks)} '//! [{name}]' markers, expected 2")
        elif not any(l.strip() for l in lines[marks[0] + 1:marks[1]]):
            problems.append(f"{where}: the snippet is empty")
    return problems


def cmd_check_repo(_args):
    problems = []
    seen = set()
    for lesson in lessons():
        if lesson.num in seen:
            problems.append(f"manifest: lesson {lesson.num} listed twice")
        seen.add(lesson.num)
        for top in ("lessons", "exercises", "solutions", "tests"):
            if not (ROOT / top / lesson.dir).is_dir():
                problems.append(f"lesson {lesson.num}: missing folder {top}/{lesson.dir}")
        for f in (f"lessons/{lesson.dir}/main.cu", f"lessons/{lesson.dir}/README.md", lesson.hints):
            if not (ROOT / f).is_file():
                problems.append(f"lesson {lesson.num}: missing {f}")
        readme = ROOT / "lessons" / lesson.dir / "README.md"
        if readme.is_file() and f"{{#lesson{lesson.num}}}" not in readme.read_text().splitlines()[0]:
            problems.append(f"{readme.relative_to(ROOT)}: the first line must end with "
                            f"{{#lesson{lesson.num}}} (the chapter's anchor)")
        if readme.is_file():
            problems += check_snippets(readme)
        if (ROOT / lesson.hints).is_file() and not read_hints(lesson):
            problems.append(f"{lesson.hints}: no '## Hint 1' sections")
        ex, sol = ROOT / "exercises" / lesson.dir, ROOT / "solutions" / lesson.dir
        if not (ex.is_dir() and sol.is_dir()):
            continue
        names = lambda d: sorted(p.name for p in d.iterdir() if p.suffix in (".cu", ".cpp", ".hpp", ".cuh"))
        if names(ex) != names(sol):
            problems.append(f"lesson {lesson.num}: exercise files {names(ex)} != solution files {names(sol)}")
            continue
        regions = 0
        for name in names(ex):
            try:
                ex_out, ex_names = split_regions(ex / name)
                sol_out, sol_names = split_regions(sol / name)
            except ValueError as e:
                problems.append(str(e))
                continue
            regions += len(ex_names)
            if ex_names != sol_names:
                problems.append(f"{name} (lesson {lesson.num}): exercise regions {ex_names} != "
                                f"solution regions {sol_names}")
            elif ex_out != sol_out:
                for n, (a, b) in enumerate(zip(ex_out, sol_out)):
                    if a != b:
                        break
                else:
                    n = min(len(ex_out), len(sol_out))
                problems.append(f"{name} (lesson {lesson.num}): exercise and solution differ outside "
                                f"the fill-in regions, at the {n + 1}th line outside them:\n"
                                f"    exercise: {ex_out[n] if n < len(ex_out) else '<end>'}\n"
                                f"    solution: {sol_out[n] if n < len(sol_out) else '<end>'}")
            if "TODO" not in (ex / name).read_text() and ex_names:
                problems.append(f"exercises/{lesson.dir}/{name}: fill-in regions without a TODO")
        if regions == 0:
            problems.append(f"lesson {lesson.num}: no '// BEGIN EXERCISE:' region in exercises/{lesson.dir}")
    for p in problems:
        print(p)
    print(f"check-repo: {len(lessons())} lessons, " +
          ("all consistent" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("resolve")
    r.add_argument("lesson")
    h = sub.add_parser("hint")
    h.add_argument("lesson")
    h.add_argument("--build", default="build")
    h.add_argument("--reset", action="store_true")
    g = sub.add_parser("grade")
    g.add_argument("lesson", nargs="?")
    g.add_argument("--build", default="build")
    g.add_argument("--solution", action="store_true", help="grade the reference solutions")
    s = sub.add_parser("check-stubs")
    s.add_argument("--build", default="build")
    sub.add_parser("check-repo")
    args = ap.parse_args()
    if hasattr(args, "build"):
        args.build = str(Path(args.build).resolve())
    if args.cmd == "list":
        print(lesson_table())
        return 0
    if args.cmd == "resolve":
        print(resolve(args.lesson).num)
        return 0
    return {"hint": cmd_hint, "grade": cmd_grade, "check-stubs": cmd_check_stubs,
            "check-repo": cmd_check_repo}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
