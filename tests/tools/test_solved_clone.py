#!/usr/bin/env python3
"""The learner's work never breaks the repository's own checks: in a clone of this course whose
every exercise is replaced by its reference solution (a learner who has done everything), `course.py
check-repo` (`make check-repo`, CTest's course.repo) passes, checking the stubs as the course shipped
them, and says so in one line; `course.py check-stubs` checks no grader built from the learner's
work and says so for each lesson.

The clone has the course's history (git clone of this checkout) and this checkout's files as they
are, exercises/ aside: what is checked is the course being worked on, not only its last commit.
CPU only, no build, a few seconds.

  python3 tests/tools/test_solved_clone.py [-v]
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "common" / "tools"))
from course import records  # noqa: E402


def git(*args, cwd=REPO):
    return subprocess.run(["git", *args], cwd=cwd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True).stdout


def have_history():
    if shutil.which("git") is None:
        return False
    return subprocess.run(["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=REPO,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


@unittest.skipUnless(have_history(), "needs git and this course's git history")
class SolvedClone(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="course-solved-clone-"))
        cls.clone = cls.tmp / "course"
        git("clone", "-q", str(REPO), str(cls.clone))
        # This checkout's files as they are (the course being worked on), its exercises aside.
        for name in git("ls-files", "-co", "--exclude-standard", "-z").split("\0"):
            if not name or name.startswith("exercises/") or not (REPO / name).is_file():
                continue
            dest = cls.clone / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest)
        # The learner has done everything.
        cls.lessons = records.lessons()
        for lesson in cls.lessons:
            ex = cls.clone / "exercises" / lesson.dir
            shutil.rmtree(ex, ignore_errors=True)
            shutil.copytree(REPO / "solutions" / lesson.dir, ex)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def course(self, *args):
        p = subprocess.run([sys.executable, "common/tools/course.py", *args], cwd=self.clone,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env={**os.environ, "NO_COLOR": "1"}, timeout=300)
        return p.returncode, p.stdout

    def test_every_exercise_holds_work(self):
        changed = git("status", "--porcelain", "--", "exercises", cwd=self.clone).splitlines()
        self.assertTrue(changed, "the solutions are the stubs")

    def test_check_repo_passes_on_the_shipped_stubs_and_says_so(self):
        rc, out = self.course("check-repo")
        self.assertEqual(rc, 0, out)
        lines = out.splitlines()
        self.assertEqual(lines[-1], f"check-repo: {len(self.lessons)} lessons, all consistent")
        first, last = self.lessons[0].num, self.lessons[-1].num
        self.assertEqual(len(lines), 2, out)
        self.assertTrue(lines[0].startswith(f"exercises {first}-{last} hold your work: checked the "
                                            f"shipped stubs instead ("), out)

    def test_check_stubs_checks_no_grader_built_from_the_learners_work(self):
        # Nothing is built or run: every lesson's grader would be built from the learner's work.
        rc, out = self.course("check-stubs", "--no-build", "--build", str(self.tmp / "no-build"))
        self.assertEqual(rc, 0, out)
        for lesson in self.lessons:
            self.assertIn(f"lesson {lesson.num}: stub not checked: exercise {lesson.num} holds "
                          f"your work (its grader is built from your copy)", out)


if __name__ == "__main__":
    unittest.main()
