"""`make watch`: rebuild and grade on every save of an exercise file (inotifywait when installed,
else polling); Ctrl-C stops."""

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import records
from .building import compile_errors, has_quick_grader, lesson_targets, say_building, try_build
from .judge import PartState, Verdict, grade_lesson, perf_verdict
from .screens import STATUS_COLOR, parts_line, status_label, task_lines, verdict_lines
from .hints import hints_seen
from .progress import Progress, Status, progress_bar
from .util import ROOT, paint, relevant


class Watcher:
    """Waits for a source file under some folders to change: inotifywait when installed (from
    inotify-tools), else polling the files' modification times."""

    def __init__(self, folders, poll=False, interval=1.0):
        self.folders = [f for f in folders if f.is_dir()]
        self.interval = interval
        self.proc = None
        self.events = queue.Queue()
        self.note = ""
        tool = None if poll else shutil.which("inotifywait")
        if tool:
            self._start_inotify(tool)
        elif not poll:
            self.note = "inotifywait is not installed (make setup installs inotify-tools)"
        if self.proc is None:
            self.how = f"polling every {interval:g} s"
            self.snap = self._snapshot()
        else:
            self.how = "inotifywait"

    def _start_inotify(self, tool):
        cmd = [tool, "-m", "-r", "-e", "close_write", "-e", "moved_to", "-e", "create",
               "-e", "delete", "--format", "%w%f"] + [str(f) for f in self.folders]
        try:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         stdin=subprocess.DEVNULL, text=True, errors="replace")
        except OSError as e:
            self.note = f"inotifywait did not start ({e})"
            return
        ready, said = threading.Event(), []

        def read_err():
            for line in self.proc.stderr:
                said.append(line.strip())
                if "Watches established" in line:
                    ready.set()
            ready.set()

        def read_out():
            for line in self.proc.stdout:
                self.events.put(line.rstrip("\n"))
            self.events.put(None)

        threading.Thread(target=read_err, daemon=True).start()
        threading.Thread(target=read_out, daemon=True).start()
        ready.wait(15)
        if self.proc.poll() is not None or not any("Watches established" in s for s in said):
            why = next((s for s in said if s and "Setting up" not in s), "no answer")
            self.note = f"inotifywait failed ({why})"
            self.close()
            self.proc = None

    def _snapshot(self):
        snap = {}
        for folder in self.folders:
            for p in folder.rglob("*"):
                if relevant(str(p)):
                    try:
                        st = p.stat()
                        snap[str(p)] = (st.st_mtime_ns, st.st_size)
                    except OSError:
                        pass
        return snap

    def changes(self):
        """Blocks until at least one source file changed; returns their paths (debounced)."""
        if self.proc is None:
            while True:
                time.sleep(self.interval)
                snap = self._snapshot()
                changed = {p for p in set(snap) | set(self.snap) if snap.get(p) != self.snap.get(p)}
                self.snap = snap
                if changed:
                    return changed
        changed = set()
        while not changed:
            try:
                path = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if path is None:  # inotifywait ended (a watched folder removed, say): poll instead
                self.close()
                self.proc, self.how = None, f"polling every {self.interval:g} s"
                self.note = "inotifywait stopped"
                self.snap = self._snapshot()
                return self.changes()
            if relevant(path):
                changed.add(path)
        deadline = time.time() + 0.3  # an editor's save is several events
        while time.time() < deadline:
            try:
                path = self.events.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                break
            if path and relevant(path):
                changed.add(path)
        return changed

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def lesson_of(path):
    for l in records.lessons():
        folder = ROOT / "exercises" / l.dir
        try:
            Path(path).resolve().relative_to(folder.resolve())
            return l
        except ValueError:
            continue
    return None


def watch_screen(lesson, args, watcher):
    """Builds and grades `lesson`; returns (text lines, exit code)."""
    build = Path(args.build)
    who = "the reference solution" if args.solution else "your exercise"
    code = f"solution: solutions/{lesson.dir}/" if args.solution else \
        f"exercise: exercises/{lesson.dir}/"
    out = [paint(f"lesson {lesson.num} \u00b7 {lesson.title}", "bold") + f"   ({who})",
           f"{code}   chapter: lessons/{lesson.dir}/README.md", ""]
    built, log = True, ""
    quick = not args.solution and has_quick_grader(lesson)  # a save's grader first
    if not args.no_build:
        targets = lesson_targets(lesson, args.solution, programs=False, quick=quick)
        say_building(build, targets, args.jobs, f"lesson {lesson.num} ({who})")
        built, log = try_build(build, targets, args.jobs)
    progress = None if args.solution else Progress()
    rc = 1
    if not built:
        out.append("status: " + paint("DOES NOT COMPILE", "red"))
        out += [""] + ["  " + l for l in compile_errors(log)]
    else:
        result = grade_lesson(build, lesson, args.solution,
                              None if args.no_build else args.jobs, quick=quick)
        verdict = perf_verdict(result) if args.perf else None
        if progress:
            progress.record(lesson, result, verdict[0] if verdict else None)
            progress.save()
        status = result.status
        out.append("status: " + paint(status_label(status, lesson), STATUS_COLOR[status]) +
                   f"   ({parts_line(result)})")
        if result.gpu_state == PartState.SKIPPED and status != Status.CPU_ONLY:
            out.append(f"        the GPU part did not run: {result.gpu_reason}")
        out += [""] + ["  " + l for l in task_lines(result)]
        if status == Status.PASSED:
            if result.pct is not None:
                out.append(f"speed:  {result.pct:.1f}% of cuBLAS on this GPU")
            if verdict:
                out.append(f"performance: {verdict[0]} ({verdict[1]})")
        # The verdict in the words of `make grade-N`: one verdict, one way to say it.
        judged = Verdict.from_result(result, args.solution)
        seen = hints_seen(lesson, progress, args.build)(judged.next_task) if progress else None
        out += [""] + verdict_lines(judged, seen, watching_all=watcher is not None and
                                    not args.lesson, in_watch=True)
        rc = judged.exit_code
    if progress:
        out += ["", progress_bar(progress.passed_count(), len(records.lessons()))]
    return out, rc


def cmd_watch(args):
    fixed = records.resolve(args.lesson) if args.lesson else None
    lesson = fixed or Progress().current() or records.lessons()[-1]
    folders = [ROOT / "exercises" / lesson.dir] if fixed else \
        [ROOT / "exercises" / l.dir for l in records.lessons()]
    clear = sys.stdout.isatty() and not args.once and os.environ.get("TERM") != "dumb"

    def on_term(*_):
        raise KeyboardInterrupt

    # Ctrl-C (SIGINT) and SIGTERM leave cleanly; SIGINT even when the shell that started us
    # ignores it (a script's background job), so that a script can stop the watch as a learner would.
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    watcher = None
    try:
        if not args.once:
            watcher = Watcher(folders, poll=args.poll, interval=args.interval)
        rounds, rc = 0, 0
        while True:
            if clear and rounds:
                # The old verdict goes at once: while the save builds, the screen says so.
                sys.stdout.write("\033[2J\033[H")
                print(f"{time.strftime('%H:%M:%S')}  saved: grading lesson {lesson.num} again ...",
                      flush=True)
            lines, rc = watch_screen(lesson, args, watcher)
            rounds += 1
            if watcher:
                where = f"exercises/{lesson.dir}/" if fixed else "exercises/"
                lines += ["", paint(f"{time.strftime('%H:%M:%S')}  watching {where} ({watcher.how}"
                                    f"{'; ' + watcher.note if watcher.note else ''}); "
                                    f"{'a save there grades it again' if fixed else 'a save grades its lesson'}"
                                    f". Ctrl-C stops.",
                                    "dim")]
            if clear:
                sys.stdout.write("\033[2J\033[H")
            print("\n".join(lines), flush=True)
            if args.once or (args.rounds and rounds >= args.rounds):
                return rc
            changed = watcher.changes()
            if not fixed:
                newest = max(changed, key=lambda p: os.path.getmtime(p) if os.path.exists(p) else 0)
                lesson = lesson_of(newest) or lesson
            if not clear:
                print("\n" + "=" * 78, flush=True)
    except KeyboardInterrupt:
        print("\nwatch: stopped.", flush=True)
        return 0
    finally:
        if watcher:
            watcher.close()
