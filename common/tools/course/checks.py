"""The course's own checks: `make check-repo` (the manifest, every record and what it names),
`make check-stubs` and `make self-check` (the graders against the stubs and the solutions)."""

import re
import tempfile
from pathlib import Path

from . import records
from .building import build_targets
from .judge import PartState, report_path, run_part
from .hints import check_hints
from .regions import regions_of, split_regions
from .report import ReportError, read_report
from .reset import exercise_untouched, shipped_stub
from .screens import SNIPPET
from .util import ROOT, SKIP_CODE, ordinal, probe_gpu, run

KNOWN_SANITIZERS = ("memcheck", "racecheck", "synccheck", "initcheck")
_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
TEST_CASE = re.compile(r"\bTEST_CASE\s*\(\s*((?:%s\s*)+),\s*((?:%s\s*)+)\)" % (_LITERAL, _LITERAL))
TASK_TAG = re.compile(r"^task_(\d+)$")
# A stub's "not implemented" call: course::not_implemented("what (file)") or COURSE_TODO_HD(...).
STUB_CALL = re.compile(r"\b(not_implemented|COURSE_TODO\w*)\s*\(\s*((?:%s\s*)+)" % _LITERAL)


def _join_literals(text):
    return "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', text))


def test_cases(folder):
    """[(file, line, name, [tags])] of every TEST_CASE in a grader's sources (its folder's, and
    those of its calls-yours/, which call your functions by name), and the problems of those that
    cannot be read."""
    out, problems = [], []
    sources = [p for glob in ("*.cpp", "*.cu", "calls-yours/*.cpp") for p in sorted(folder.glob(glob))]
    for path in sources:
        text = path.read_text()
        found = list(TEST_CASE.finditer(text))
        if len(found) != len(re.findall(r"\bTEST_CASE\s*\(", text)):
            problems.append(f"{path.relative_to(ROOT)}: a TEST_CASE whose name and tags are not "
                            f"two string literals")
        for m in found:
            line = text.count("\n", 0, m.start()) + 1
            tags = re.findall(r"\[([^\]]*)\]", _join_literals(m.group(2)))
            out.append((path, line, _join_literals(m.group(1)), tags))
    return out, problems


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


def check_stub_messages(folder, shown=None):
    """Every not_implemented / COURSE_TODO_* message in an exercise folder names the file it is
    in ("vector_add (exercises/02-dispatch/dispatch.cu)"): the learner reads it to know where to
    work. `shown`: the folder's name in the course (exercises/NN-slug), where `folder` is a copy."""
    problems = []
    shown = shown or folder.relative_to(ROOT).as_posix()
    for path in sorted(p for p in folder.iterdir() if p.suffix in (".cu", ".cpp", ".hpp", ".cuh")):
        text = path.read_text()
        here = f"{shown}/{path.name}"
        for m in STUB_CALL.finditer(text):
            what = _join_literals(m.group(2))
            named = re.findall(r"exercises/[\w./-]*\w", what)
            if named != [here]:
                line = text.count("\n", 0, m.start()) + 1
                problems.append(f"{here}:{line}: {m.group(1)}(\"{what}\") should name the file it "
                                f"is in, {here}" + (f", not {', '.join(named)}" if named else ""))
    return problems


def check_tasks(lesson, ex):
    """Tasks against regions, test tags and parts: every task names regions that exist (in `ex`,
    the exercise folder checked), every region belongs to a task, every test case has one part tag
    and one task tag, every task's tag is used, and the record's parts are the parts the test cases
    use."""
    problems = []
    where = f"lessons/{lesson.dir}/lesson.toml"
    regions = regions_of(ex)
    named = set()
    for t in lesson.tasks:
        for r in t.regions:
            named.add(r)
            if r not in regions:
                problems.append(f"{where}: task {t.number} names the region '{r}', which "
                                f"exercises/{lesson.dir}/ does not have")
    for r in regions:
        if r not in named:
            problems.append(f"exercises/{lesson.dir}/: the region '{r}' belongs to no task of "
                            f"{where}")
    cases, problems_cases = test_cases(ROOT / "tests" / lesson.dir)
    problems += problems_cases
    used_tasks, used_parts = set(), set()
    for path, line, name, tags in cases:
        at = f"{path.relative_to(ROOT)}:{line}"
        parts = [t for t in tags if t in records.PARTS]
        tasks = [t for t in tags if TASK_TAG.match(t)]
        if len(parts) != 1:
            problems.append(f"{at}: \"{name}\" has {len(parts)} of the tags [cpu] and [gpu]; a "
                            f"test case has exactly one")
        used_parts.update(parts)
        if len(tasks) != 1:
            problems.append(f"{at}: \"{name}\" has {len(tasks)} task tags {tasks}; a test case "
                            f"has exactly one [task_N] (a test of the whole kernel: the last task "
                            f"it needs)")
        for t in tasks:
            n = int(TASK_TAG.match(t).group(1))
            if lesson.task(n) is None:
                problems.append(f"{at}: \"{name}\" is tagged [{t}], but the record has "
                                f"{len(lesson.tasks)} task(s)")
            used_tasks.add(n)
        for t in tags:
            if re.match(r"^task", t) and not TASK_TAG.match(t):
                problems.append(f"{at}: \"{name}\": the tag [{t}] is spelled [task_N]")
    for t in lesson.tasks:
        if t.number not in used_tasks:
            problems.append(f"{where}: no test case of tests/{lesson.dir}/ is tagged [{t.tag}] "
                            f"(task {t.number}, {t.title})")
    if cases and sorted(used_parts) != sorted(lesson.parts):
        problems.append(f"{where}: parts = {lesson.parts}, but the test cases of tests/{lesson.dir}/ "
                        f"use {sorted(used_parts)}")
    return problems


def check_lesson(lesson, ex=None):
    """The problems of one lesson. `ex`: the exercise folder to check, where it is not
    exercises/NN-slug/ itself (a copy of the stub as shipped)."""
    problems = []
    shown = f"exercises/{lesson.dir}"
    for top in ("lessons", "exercises", "solutions", "tests"):
        if not (ROOT / top / lesson.dir).is_dir():
            problems.append(f"lesson {lesson.num}: missing folder {top}/{lesson.dir}")
    for f in (f"lessons/{lesson.dir}/main.cu", f"lessons/{lesson.dir}/README.md"):
        if not (ROOT / f).is_file():
            problems.append(f"lesson {lesson.num}: missing {f}")
    readme = ROOT / "lessons" / lesson.dir / "README.md"
    if readme.is_file():
        first = (readme.read_text().splitlines() or [""])[0]
        if f"{{#{lesson.chapter}}}" not in first:
            problems.append(f"{readme.relative_to(ROOT)}: the first line must end with "
                            f"{{#{lesson.chapter}}} (the chapter's anchor)")
        problems += check_snippets(readme)
    problems += check_hints(lesson)
    where = f"lessons/{lesson.dir}/lesson.toml"
    if lesson.kind == "gemm" and lesson.precision == "none":
        problems.append(f"{where}: a GEMM lesson's precision is fp32 or bf16, not none")
    for tool in lesson.sanitize:
        if tool not in KNOWN_SANITIZERS:
            problems.append(f"{where}: sanitize names '{tool}', not a compute-sanitizer tool "
                            f"({', '.join(KNOWN_SANITIZERS)})")
    if (lesson.learner_target_pct and lesson.solution_target_pct
            and lesson.learner_target_pct > lesson.solution_target_pct):
        problems.append(f"{where}: the learner target {lesson.learner_target_pct:g}% is above the "
                        f"solution target {lesson.solution_target_pct:g}%")
    ex, sol = ex or ROOT / "exercises" / lesson.dir, ROOT / "solutions" / lesson.dir
    if not (ex.is_dir() and sol.is_dir()):
        return problems

    def names(d):
        return sorted(p.name for p in d.iterdir() if p.suffix in (".cu", ".cpp", ".hpp", ".cuh"))

    if names(ex) != names(sol):
        problems.append(f"lesson {lesson.num}: exercise files {names(ex)} != solution files "
                        f"{names(sol)}")
        return problems
    count = 0
    for name in names(ex):
        try:
            ex_out, ex_names = split_regions(ex / name)
            sol_out, sol_names = split_regions(sol / name)
        except ValueError as e:
            problems.append(str(e).replace(str(ex), shown))
            continue
        count += len(ex_names)
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
                            f"the fill-in regions, at the {ordinal(n + 1)} line outside them:\n"
                            f"    exercise: {ex_out[n] if n < len(ex_out) else '<end>'}\n"
                            f"    solution: {sol_out[n] if n < len(sol_out) else '<end>'}")
        if "TODO" not in (ex / name).read_text() and ex_names:
            problems.append(f"{shown}/{name}: fill-in regions without a TODO")
    problems += check_stub_messages(ex, shown)
    if count == 0:
        problems.append(f"lesson {lesson.num}: no '// BEGIN EXERCISE:' region in "
                        f"exercises/{lesson.dir}")
    if (ROOT / "tests" / lesson.dir).is_dir():
        problems += check_tasks(lesson, ex)
    return problems


def write_files(folder, files):
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


def numbers(nums):
    """"01-03, 05" of ["01", "02", "03", "05"]."""
    runs = []
    for n in nums:
        if runs and int(n) == int(runs[-1][-1]) + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def shipped_notes(shipped, total):
    """One line for the exercises that hold the learner's work (their stubs as shipped were
    checked instead), and one for those git could not tell apart, from {lesson number: Shipped}."""
    lines = []
    work = [n for n, s in shipped.items() if s.work]
    if len(work) == 1:
        s = shipped[work[0]]
        lines.append(f"exercise {work[0]} holds your work: checked the shipped stub instead "
                     f"(commit {s.commit[:10]}, {s.how})")
    elif work:
        hows = sorted({shipped[n].how for n in work})
        lines.append(f"exercises {numbers(work)} hold your work: checked the shipped stubs "
                     f"instead ({', '.join(hows)})")
    errors = {n: s.error for n, s in shipped.items() if s.error}
    if errors and len(errors) == total and len(set(errors.values())) == 1:
        lines.append(f"every exercise is checked as it is, your work included: "
                     f"{next(iter(errors.values()))}")
    else:
        lines += [f"exercise {n} is checked as it is, your work included: {e}"
                  for n, e in errors.items()]
    return lines


def cmd_check_repo(_args):
    problems, shipped, count = [], {}, 0
    try:
        manifest = records.read_manifest()
    except records.RecordError as e:
        print(e)
        print("check-repo: the manifest cannot be read")
        return 1
    seen = set()
    for num, slug, line in manifest:
        count += 1
        if num in seen:
            problems.append(f"lessons/manifest.txt:{line}: lesson {num} listed twice")
        seen.add(num)
        try:
            lesson, record_problems = records.load_record(num, slug)
        except records.RecordError as e:
            problems.append(str(e))
            continue
        problems += record_problems
        if not record_problems:
            shipped[lesson.num] = s = shipped_stub(lesson)
            with tempfile.TemporaryDirectory(prefix="course-shipped-") as tmp:
                ex = write_files(Path(tmp) / lesson.dir, s.files) if s.files else None
                problems += check_lesson(lesson, ex)
    for n in shipped_notes(shipped, count):
        print(n)
    for p in problems:
        print(p)
    print(f"check-repo: {count} lessons, " +
          ("all consistent" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def cmd_check_stubs(args):
    if not args.no_build and not build_targets(Path(args.build), [], args.jobs, "the course"):
        return 1
    bad, order = 0, records.lessons()
    shipped_of = {lesson.num: shipped_stub(lesson) for lesson in order}
    for n in shipped_notes({k: s for k, s in shipped_of.items() if s.error}, len(order)):
        print(n)
    for lesson in order:
        binary = Path(args.build) / "bin" / f"grade{lesson.num}"
        shipped = shipped_of[lesson.num]
        if shipped.work:
            # The grader is built from the working copy: the stub as shipped is not in it.
            print(f"lesson {lesson.num}: stub not checked: exercise {lesson.num} holds your work "
                  f"(its grader is built from your copy)")
            continue
        checked, ok = False, True
        for part in records.PARTS:
            p = run_part(args.build, binary, part, lesson)
            if p.state in (PartState.NONE, PartState.SKIPPED):
                continue
            checked = True
            if p.state != PartState.NOT_STARTED:
                bad += 1
                ok = False
                print(f"lesson {lesson.num} [{part}]: the stub should fail every test with NOT "
                      f"IMPLEMENTED, but its grader says '{p.state}'"
                      f"{': ' + p.reason if p.reason else ''}:\n{p.out}")
        print(f"lesson {lesson.num}: stub " +
              ("not checked (no runnable part)" if not checked else
               "fails its grader with NOT IMPLEMENTED" if ok else "does NOT fail as a stub should"))
    return 1 if bad else 0


def gpu_unusable(build, lesson):
    """The reason no GPU part can run here (from the report of a grader run that selects no test
    case), or None."""
    binary = Path(build) / "bin" / f"test{lesson.num}"
    path = report_path(build, binary, "probe")
    path.parent.mkdir(parents=True, exist_ok=True)
    rc, out = run([str(binary), "[course-probe]", f"--gpu-min-cc={lesson.cc_digits}"],
                  timeout=120, env={"COURSE_REPORT": str(path)})
    try:
        return read_report(path).skipped
    except ReportError as e:
        return None if rc != SKIP_CODE else str(e)


def cmd_self_check(args):
    """On a GPU: every solution passes its grader; every untouched stub fails it with NOT
    IMPLEMENTED, not a crash. Exit 77 (skipped) without a usable GPU. --probe: only whether a GPU
    answers (exit 0, silent) or not (exit 77, said), what make self-check asks before it configures."""
    build = Path(args.build)
    if args.probe or not args.no_build:
        # Said at once, before a build of minutes that nothing could use.
        reason = probe_gpu()
        if reason:
            print(f"SKIPPED: {reason}; nothing was built")
            return SKIP_CODE
        if args.probe:
            return 0
    if not args.no_build and not build_targets(build, [], args.jobs, "the course"):
        return 1
    order = records.lessons()
    probe = next((l for l in order if "gpu" in l.parts), None)
    if probe is None:
        print("SKIPPED: no lesson has a GPU part")
        return SKIP_CODE
    reason = gpu_unusable(build, probe)
    if reason:
        print(f"SKIPPED: {reason}")
        return SKIP_CODE
    problems, notes = [], []
    for lesson in order:
        sol_states, stub_states = [], []
        for part in records.PARTS:
            p = run_part(build, build / "bin" / f"test{lesson.num}", part, lesson)
            if p.state == PartState.NONE:
                continue
            sol_states.append(f"{part} {p.state}")
            if p.state not in (PartState.PASSED, PartState.SKIPPED):
                problems.append(f"lesson {lesson.num} [{part}]: the reference solution should pass "
                                f"its grader, which says '{p.state}'"
                                f"{': ' + p.reason if p.reason else ''}:\n{p.out.rstrip()}")
        untouched, why = exercise_untouched(lesson)
        if not untouched:
            notes.append(f"lesson {lesson.num}: stub not checked: {why}")
        else:
            for part in records.PARTS:
                p = run_part(build, build / "bin" / f"grade{lesson.num}", part, lesson)
                if p.state == PartState.NONE:
                    continue
                stub_states.append(f"{part} {p.state}")
                if p.state not in (PartState.NOT_STARTED, PartState.SKIPPED):
                    what = "crashed" if p.state == PartState.CRASHED else f"says '{p.state}'"
                    problems.append(f"lesson {lesson.num} [{part}]: the untouched stub should fail "
                                    f"every test with NOT IMPLEMENTED, but its grader {what}:\n"
                                    f"{p.out.rstrip()[-3000:]}")
        print(f"lesson {lesson.num}: solution [{', '.join(sol_states) or 'nothing to run'}]; stub ["
              f"{', '.join(stub_states) if untouched else 'not checked'}]")
    for n in notes:
        print(n)
    for p in problems:
        print(p)
    print(f"self-check: {len(order)} lessons, " +
          ("all as they should be" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0
