"""The commands that grade and run: make grade, make grade-N, make next, make lesson-N and what
make bench, profile-N, sanitize-N and sass-N build first. Each builds before it runs anything and
runs nothing when the build fails."""

import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

from . import figures as course_figures
from . import records
from .building import (build_targets, compile_errors, has_quick_grader, lesson_targets,
                       say_building, try_build)
from .hints import hints_seen
from .judge import Verdict, grade_lesson, perf_target, perf_verdict, target_cell
from .progress import Progress, Status, progress_bar
from .screens import (STATUS_COLOR, TABLE_WIDTH, fit_table, logs_line, parts_line,
                      status_label, status_words, task_lines, verdict_lines, waiting_lines)
from .util import EXIT_GPU_TOO_OLD, EXIT_NO_GPU, ROOT, SOURCE_SUFFIXES, paint

def say(text, width=TABLE_WIDTH):
    """A line under the progress table, wrapped as the table is to `width` columns, the lines after
    its first indented."""
    print("\n".join(textwrap.fill(part, width, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False) if part else part
                     for part in text.split("\n")))


def cmd_grade(args):
    build = Path(args.build)
    which = "reference solutions" if args.solution else "your exercises"
    if args.lesson:
        lesson = records.resolve(args.lesson)
        # The grader only (a save's, where the lesson has one): the lesson's program is built when
        # a pass is timed (grade_lesson).
        quick = not args.solution and has_quick_grader(lesson)
        if not args.no_build and not build_targets(
                build, lesson_targets(lesson, args.solution, programs=False, quick=quick),
                args.jobs,
                f"lesson {lesson.num} ({'the reference solution' if args.solution else 'your exercise'})"):
            return 1
        result = grade_lesson(build, lesson, args.solution, None if args.no_build else args.jobs,
                              quick=quick)
        who = "the reference solution" if args.solution else "your exercise"
        print(f"lesson {lesson.num} \u00b7 {lesson.title} ({who})")
        print(f"  {parts_line(result)}")
        print("\n".join("  " + l for l in task_lines(result)))
        print(f"\nlesson {lesson.num} {lesson.title} ({which}): "
              f"{paint(status_label(result.status, lesson), STATUS_COLOR[result.status])}")
        if result.pct is not None:
            print(f"speed: {result.pct:.1f}% of cuBLAS (the headline kernel, timed alone)")
        verdict = perf_verdict(result) if args.perf else None
        if verdict:
            print(f"performance: {verdict[0]} ({verdict[1]})")
        seen = None
        if not args.solution:
            progress = Progress()
            progress.record(lesson, result, verdict[0] if verdict else None)
            progress.save()
            seen = hints_seen(lesson, progress, args.build)
        judged = Verdict.from_result(result, args.solution)
        lines = verdict_lines(judged, seen(judged.next_task) if seen else None)
        gap = "\n" if judged.status in (Status.PASSED, Status.CPU_ONLY) else ""
        print(gap + "\n".join(lines))
        if result.status != Status.PASSED and logs_line(result):
            print(logs_line(result))
        return judged.exit_code

    broken = set()
    if not args.no_build:
        broken = build_every_grader(build, args.solution, args.jobs)
        if broken is None:
            return 1

    progress = None if args.solution else Progress()
    rows, statuses, reasons, results, per_track = [], [], set(), [], []
    for lesson in records.lessons():
        if lesson.num in broken:  # nothing of it ran: a row that says so, no record of it
            rows.append([lesson.num, lesson.title, Status.DOES_NOT_COMPILE, "-", "-", "-", "-"] +
                        (["-", "-"] if args.perf else []))
            statuses.append(Status.DOES_NOT_COMPILE)
            continue
        result = grade_lesson(build, lesson, args.solution)
        results.append(result)
        if result.gpu_reason:
            reasons.add(result.gpu_reason)
        verdict = perf_verdict(result) if args.perf else None
        if progress:
            progress.record(lesson, result, verdict[0] if verdict else None)
        passed_at = progress.get(lesson.num).get("passed_at", "-") if progress else "-"
        # The recorded status: a pass whose GPU part ran earlier stands on a machine without one.
        status = progress.get(lesson.num).get("status", result.status) if progress else \
            result.status
        done = sum(1 for t in result.tasks if t.status == Status.PASSED)
        row = [lesson.num, lesson.title, status_words(status, lesson),
               f"{done} of {len(result.tasks)}", result.gpu,
               passed_at if status == Status.PASSED else "-",
               "-" if result.pct is None else f"{result.pct:.1f}%"]
        if args.perf:
            row += [target_cell(result), verdict[0]]
            if lesson.tracks and perf_target(result)[1] is None:
                per_track.append(f"lesson {lesson.num}'s targets, by the GPU's track: "
                                 f"{lesson.targets_text()}")
        rows.append(row)
        statuses.append(status)
    if progress:
        progress.save()
    current = progress.current() if progress else None
    heads = ["lesson", "title", "status", "tasks", "GPU part", "passed on", "% of cuBLAS"]
    if args.perf:
        heads += ["target", "performance"]
    heads, rows = fit_table(heads, rows)
    status_col = heads.index("status")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    print(f"Progress ({which}):")
    print("   " + "  ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    print("   " + "-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r, status in zip(rows, statuses):
        mark = "-> " if current and r[0] == current.num and not args.solution else "   "
        cells = [c.ljust(w) for c, w in zip(r, widths)]
        cells[status_col] = paint(cells[status_col], STATUS_COLOR.get(status, "bold"))
        print(mark + "  ".join(cells).rstrip())
    for reason in sorted(reasons):
        say(f"\nGPU parts not run: {reason} (a lesson is not passed until they run)")
    done = statuses.count(Status.PASSED)
    print(f"\n{progress_bar(done, len(rows))}")
    if progress:
        for line in waiting_lines(progress):
            say(line)
    if args.solution:
        pass
    elif current:
        say(f"current lesson: {current.num} {current.title} (exercises/{current.dir}/): "
              f"make next, make watch-{current.n}; make grade-{current.n} shows its diagnosis")
    elif done == len(rows):
        print("Every lesson passed. Well done.")
    if args.perf:
        say("performance: % of cuBLAS on this GPU against the record's learner target; it never "
              "changes whether a lesson passes.")
        for line in per_track:
            say(line)
    if broken:
        say(f"does not compile: lesson{'s' if len(broken) > 1 else ''} {', '.join(sorted(broken))}"
              f" (the first error is above the table; make grade-N shows a lesson's)")
        return 1
    return 0

def build_every_grader(build, solution, jobs):
    """Builds the whole course before `make grade`. When that fails, builds each lesson's grader
    alone: {the lessons whose grader does not compile}, the first one's error shown, the others
    graded as they are. None (the error shown) when the failure is in no lesson's grader."""
    say_building(build, [], jobs, "the course")
    ok, out = try_build(build, [], jobs)
    if ok:
        return set()
    broken = {}
    for lesson in records.lessons():
        built, log = try_build(build, lesson_targets(lesson, solution, programs=False), jobs)
        if not built:
            broken[lesson.num] = log
    if not broken:
        print("the course: " + paint("DOES NOT COMPILE", "red") + " (nothing was run or graded)")
        print("\n".join("  " + l for l in compile_errors(out)))
        return None
    first = next(iter(broken))
    who = "the reference solution" if solution else "your exercise"
    print(f"lesson {first} ({who}): " + paint("DOES NOT COMPILE", "red") +
          " (nothing of it was run or graded)")
    print("\n".join("  " + l for l in compile_errors(broken[first])))
    print()
    return set(broken)

def cmd_next(_args):
    progress = Progress()
    lesson = progress.current()
    if lesson is None:
        if progress.waiting_for_gpu():
            print("Every lesson has passed what this machine can check.")
            print("\n".join(waiting_lines(progress)))
        else:
            print("Every lesson passed.")
        print(progress_bar(progress.passed_count(), len(records.lessons())))
        return 0
    e = progress.get(lesson.num)
    status = e.get("status")
    exercise = ROOT / "exercises" / lesson.dir
    files = sorted(p.name for p in exercise.iterdir() if p.suffix in SOURCE_SUFFIXES) \
        if exercise.is_dir() else []
    print(f"Next: lesson {lesson.num}, {lesson.title}")
    print(f"  chapter:  lessons/{lesson.dir}/README.md   (in the book: book/html/lesson{lesson.num}"
          f".html, after make book)")
    for i, f in enumerate(files):
        print(f"  {'exercise:' if i == 0 else '         '} exercises/{lesson.dir}/{f}")
    if status == Status.SKIPPED:
        print("  status:   skipped on this machine: its grader needs a CUDA GPU")
    elif status:
        print(f"  status:   {status} (graded {e.get('graded_at', '?')})")
    else:
        print("  status:   not graded yet")
    tasks = e.get("tasks", {})
    task = next((t for t in lesson.tasks
                 if tasks.get(t.key, {}).get("status") not in (Status.PASSED, Status.CPU_ONLY)), None)
    if task is not None:
        state = tasks.get(task.key, {}).get("status", "not graded yet")
        print(f"  task:     {task.number} of {len(lesson.tasks)}, {task.title} ({state})")
    print(f"  then:     make watch-{lesson.n} grades it on every save; make hint-{lesson.n} gives "
          f"a hint")
    for line in waiting_lines(progress):
        print(line)
    print(progress_bar(progress.passed_count(), len(records.lessons())))
    return 0

def cmd_run(args):
    """make lesson-N: builds lesson N's program and runs it with the learner's options; nothing
    runs when the build fails."""
    lesson = records.resolve(args.lesson)
    build = Path(args.build)
    target = lesson_targets(lesson, args.solution, graders=False)[0]
    # ARGS as a shell reads it: quotes group words; any word, a leading dash or '=' included,
    # reaches the program unchanged.
    try:
        extra = shlex.split(args.args or "")
    except ValueError as e:
        print(f"make lesson-{lesson.n}: ARGS cannot be read ({e}): {args.args}", file=sys.stderr)
        return 2
    # The lesson's figures, drawn from the same code (yours, or the reference's with SOLUTION=1).
    pictures = course_figures.has_figures(lesson)
    targets = [target] + ([course_figures.target(lesson, args.solution)] if pictures else [])
    if not build_targets(build, targets, args.jobs, f"lesson {lesson.num}'s program"):
        return 1
    print(f"== {target} {shlex.join(extra)}".rstrip(), flush=True)
    try:
        rc = subprocess.run([str(build / "bin" / target), *extra], cwd=build).returncode
    except KeyboardInterrupt:
        return 130
    if pictures:
        print(course_figures.draw(lesson, build, args.solution), flush=True)
    # 3 and 4: no usable GPU here (none, or below the lesson's compute capability). The program has
    # said so and what still runs; on such a machine that is the expected end, not an error.
    return 0 if rc in (EXIT_NO_GPU, EXIT_GPU_TOO_OLD) else rc

def cmd_build(args):
    """Builds what a command needs before it runs (make bench, profile-N, sanitize-N, sass-N):
    lesson N's reference program, and with --mine the learner's too; everything without N."""
    build = Path(args.build)
    if not args.lesson:
        return 0 if build_targets(build, [], args.jobs, "the course") else 1
    lesson = records.resolve(args.lesson)
    targets = lesson_targets(lesson, True, graders=False)
    if args.mine:
        targets += lesson_targets(lesson, False, graders=False)
    return 0 if build_targets(build, targets, args.jobs, f"lesson {lesson.num}") else 1
