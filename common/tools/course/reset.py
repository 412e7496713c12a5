"""`make reset-N`: the exercise stub as the course shipped it, from git (the newest commit of the
course that the checkout contains; the learner's own commits never count), with a copy of what it
replaces under .course/backup/."""

import datetime
import shutil
import subprocess
import sys

from . import records
from .progress import Progress
from .regions import TODO_CALL, named_regions, region_texts
from .util import ROOT, SOURCE_SUFFIXES, STATE_DIR, rel, relevant

BACKUPS = STATE_DIR / "backup"


class GitError(Exception):
    pass


def git(args, text=True):
    try:
        p = subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=text)
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    return p.returncode, p.stdout


def looks_like_stub(files):
    """A version of an exercise folder is a stub when a fill-in region still throws NOT IMPLEMENTED
    (or has no regions at all: a placeholder)."""
    regions = [r for name, data in files.items() if name.endswith(SOURCE_SUFFIXES)
               for r in region_texts(data.decode(errors="replace"))]
    return not regions or any(TODO_CALL.search(r) for r in regions)


def course_base():
    """The commit holding the course's own version of the files, and how it was chosen: where the
    checkout follows a remote branch (a clone), the newest commit of the course that the checkout
    contains (git merge-base HEAD upstream): the learner's own commits are never in it. Otherwise
    HEAD."""
    rc, _ = git(["rev-parse", "--is-inside-work-tree"])
    if rc != 0:
        raise GitError("this folder is not a git checkout")
    rc, head = git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
    if rc != 0:
        raise GitError("this checkout has no commit")
    for ref in ("@{upstream}", "origin/HEAD", "origin/main", "origin/master"):
        rc, sha = git(["rev-parse", "--verify", "--quiet", ref + "^{commit}"])
        if rc != 0:
            continue
        rc, base = git(["merge-base", "HEAD", sha.strip()])
        if rc == 0 and base.strip():
            name = ref
            if ref == "@{upstream}":
                rc, n = git(["rev-parse", "--abbrev-ref", ref])
                name = n.strip() if rc == 0 else ref
            if base.strip() == sha.strip():
                return base.strip(), f"the course's {name}"
            # The checkout has not taken the newest commits of the course: name the commit it has.
            return base.strip(), f"the newest commit of the course's {name} in this checkout"
    return head.strip(), "HEAD"


def folder_at(commit, folder):
    rc, names = git(["ls-tree", "-r", "--name-only", commit, "--", folder + "/"])
    if rc != 0:
        raise GitError(f"git ls-tree {commit} failed")
    files = {}
    for name in names.splitlines():
        rc, data = git(["show", f"{commit}:./{name}"], text=False)
        if rc == 0:
            files[name[len(folder) + 1:]] = data
    return files


def pristine(lesson):
    """(commit, how chosen, {file name: bytes}) of lesson's exercise stub, as the course shipped it:
    among the course's commits (course_base) that touched exercises/NN-slug/, the newest whose
    version is still a stub. Raises GitError when git cannot say."""
    folder = f"exercises/{lesson.dir}"
    base, how = course_base()
    rc, log = git(["log", "--format=%H", base, "--", folder + "/"])
    commits = log.split() if rc == 0 else []
    if not commits:
        raise GitError(f"{folder}/ is not in the git history of {how}")
    for c in commits:
        files = folder_at(c, folder)
        if files and looks_like_stub(files):
            return c, how, files
    return commits[-1], how, folder_at(commits[-1], folder)


def working_files(folder):
    out = {}
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                out[p.relative_to(folder).as_posix()] = p
    return out


def stub_changes(lesson, files):
    """The files that differ from the stub: (changed or missing, extra source files)."""
    folder = ROOT / "exercises" / lesson.dir
    have = working_files(folder)
    changed = [n for n, data in files.items()
               if n not in have or have[n].read_bytes() != data]
    extra = [n for n in have if n not in files and relevant(n)]
    return changed, extra


def cmd_reset(args):
    lesson = records.resolve(args.lesson)
    folder = ROOT / "exercises" / lesson.dir
    try:
        commit, how, files = pristine(lesson)
    except GitError as e:
        print(f"make reset-{lesson.n}: cannot find the original stub: {e}. The stub comes from git "
              f"(the course's own commits); in a copy without git, download the course again.",
              file=sys.stderr)
        return 1
    changed, extra = stub_changes(lesson, files)
    source = f"commit {commit[:10]} ({how})"
    if not changed and not extra:
        print(f"exercises/{lesson.dir}/ is already the original stub ({source}): nothing to reset.")
        return 0
    print(f"make reset-{lesson.n} restores exercises/{lesson.dir}/ as the course ships it "
          f"({source}). It discards:")
    for n in changed:
        print(f"  your changes to exercises/{lesson.dir}/{n}")
    for n in extra:
        print(f"  exercises/{lesson.dir}/{n} (a file the stub does not have)")
    sys.stdout.flush()
    if not args.force:
        if not sys.stdin.isatty():
            print(f"It asks before discarding your work, and there is no terminal to ask on. "
                  f"make reset-{lesson.n} FORCE=1 resets without asking.", file=sys.stderr)
            return 1
        try:
            answer = input("Discard them? A copy is kept under .course/backup/. [y/N] ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            # The learner's own choice, an expected outcome: exit 0, so that make adds no error.
            print(f"Nothing changed: exercises/{lesson.dir}/ keeps your work.")
            return 0
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = BACKUPS / f"{lesson.dir}-{stamp}"
    have = working_files(folder)
    for n in changed + extra:
        if n in have:
            dest = backup / n
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(have[n], dest)
    for n in changed:
        dest = folder / n
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(files[n])
    for n in extra:
        have[n].unlink()
    progress = Progress()
    progress.reset_lesson(lesson)
    progress.save()
    print(f"Restored exercises/{lesson.dir}/ from {source}.")
    if backup.exists():
        print(f"Your version is kept in {rel(backup)}/.")
    return 0


def exercise_untouched(lesson):
    """(True, "") when exercises/NN-slug/ is the course's stub; (False, why) otherwise."""
    try:
        commit, how, files = pristine(lesson)
    except GitError as e:
        return False, str(e)
    changed, extra = stub_changes(lesson, files)
    if changed or extra:
        return False, (f"exercises/{lesson.dir}/ differs from the stub of commit {commit[:10]} "
                       f"({how}): it holds work, so its grader may well pass")
    return True, ""


def _regions(texts):
    """{region name: [its insides]} over {file name: source text}."""
    out = {}
    for name, text in sorted(texts.items()):
        if name.endswith(SOURCE_SUFFIXES):
            for region, inside in named_regions(text):
                out.setdefault(region, []).append(inside)
    return out


def holds_work(lesson, files):
    """True when exercises/NN-slug/ holds the learner's work against the stub `files`: a fill-in
    region that both have reads differently. A change outside the regions only (or a region or file
    the stub does not have yet) is a change of the course's own text, which its checks must see."""
    have = working_files(ROOT / "exercises" / lesson.dir)
    mine = _regions({n: p.read_text(errors="replace") for n, p in have.items()})
    shipped = _regions({n: data.decode(errors="replace") for n, data in files.items()})
    return any(mine[r] != shipped[r] for r in mine.keys() & shipped.keys())


class Shipped:
    """What the repository's checks look at for one exercise folder. `files` ({name: bytes}): the
    stub as shipped, where the working copy holds the learner's work (`work`), else None: the
    working copy, which is then the course's own text. `error`: why git could not tell (the working
    copy is then checked as it is)."""

    def __init__(self, files=None, work=False, commit="", how="", error=""):
        self.files, self.work, self.commit, self.how, self.error = files, work, commit, how, error


def shipped_stub(lesson):
    """The stub the repository's checks should look at for `lesson` (a Shipped)."""
    try:
        commit, how, files = pristine(lesson)
    except GitError as e:
        return Shipped(error=str(e))
    changed, extra = stub_changes(lesson, files)
    if not (changed or extra) or not holds_work(lesson, files):
        return Shipped(commit=commit, how=how)
    return Shipped(files=files, work=True, commit=commit, how=how)
