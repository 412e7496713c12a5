"""Tests of the suite, make watch, reset, the stub checks and self-check on the fake course,
and of the real build's graders when COURSE_TEST_BUILD names it."""

from course_fixtures import *  # noqa: F401,F403 (the fake course, the tools' modules)


SUITE_CMAKE = r"""#!/bin/sh
echo "gmake[1]: Entering directory '/x/build'"
echo "[ 50%] Building CUDA object CMakeFiles/x.dir/k.cu.o"
echo "k.cu(3): warning: variable \"y\" was declared but never referenced"
if [ -n "$FAKE_BUILD_FAILS" ]; then
  echo "k.cu(4): error: expected a \";\""
  echo "gmake[1]: Leaving directory '/x/build'"
  exit 2
fi
echo "gmake[1]: Leaving directory '/x/build'"
echo "[100%] Built target x"
"""
# A fake ctest: the list (-N), or a run that prints what CTest prints after its summary line, and
# its log as CTest writes it (a section a test; a skipped test is "Test Passed." there too). Two
# tests skip, each saying why in its own words; a test that passes may print "SKIPPED:" too.
SUITE_CTEST = r"""#!/bin/sh
if [ "$1" = "-N" ]; then echo "Total Tests: 4"; exit 0; fi
mkdir -p Testing/Temporary
for t in "1 common.cpu SKIPPED:_a_case_it_does_not_run" "2 common.gpu SKIPPED:_no_CUDA_device" \
         "3 planted.11 skipped:_no_GPU_here" "4 course.repo check-repo"; do
  set -- $t
  printf -- '----\n%s/4 Testing: %s\n%s/4 Test: %s\nOutput:\n----\n%s\nSKIPPED: no CUDA device\n<end of output>\nTest Passed.\n' \
    "$1" "$2" "$1" "$2" "$(echo "$3" | tr _ ' ')"
done > Testing/Temporary/LastTest.log
echo "1/4 Test #1: common.cpu ....   Passed    0.10 sec"
echo "2/4 Test #2: common.gpu ....***Skipped   0.01 sec"
echo "3/4 Test #3: planted.11 ....***Skipped   0.01 sec"
if [ -n "$FAKE_TEST_FAILS" ]; then
  echo "3/3 Test #3: course.repo ...***Failed    0.20 sec"
  echo "67% tests passed, 1 tests failed out of 3"
  echo ""
  echo "Total Test time (real) =   0.31 sec"
  echo "The following tests FAILED:"
  echo "	  3 - course.repo (Failed)"
  echo "Errors while running CTest"
  exit 8
fi
echo "3/3 Test #3: course.repo ...   Passed    0.20 sec"
echo "100% tests passed, 0 tests failed out of 3"
echo ""
echo "Total Test time (real) =   0.31 sec"
echo ""
echo "The following tests did not run:"
echo "	  2 - common.gpu (Skipped)"
echo "	  3 - planted.11 (Skipped)"
"""


class Suite(Base):
    """`make test` (course.py test): the plan first, a quiet build, CTest's summary and the next
    step last."""

    def run_suite(self, **env):
        write(self.c.root / "build" / "CMakeCache.txt", "")
        write(self.c.root / "fakebin" / "cmake", SUITE_CMAKE, 0o755)
        write(self.c.root / "fakebin" / "ctest", SUITE_CTEST, 0o755)
        write(self.c.root / "fakebin" / "make",
              "#!/bin/sh\nfor i in 1 2 3 4; do echo \"nvcc -c k$i.cu -o k$i.cu.o\"; done\n", 0o755)
        return self.c.run("test", "--build", str(self.c.root / "build"), "--jobs", "2", env=env)

    def test_the_plan_first_the_summary_and_the_next_step_last(self):
        rc, out, _ = self.run_suite()
        self.assertEqual(rc, 0, out)
        lines = out.splitlines()
        self.assertEqual(lines[0], "the course's own suite: builds 4 files (about 10 seconds on 2 "
                         "cores), then runs 4 tests; without a GPU the GPU tests are skipped, with "
                         "the reason.")
        self.assertNotIn("directory", out)
        self.assertIn("[ 50%] Building CUDA object", out)
        self.assertIn('warning: variable "y"', out)
        # The tests CTest says it skipped, each once, with the reason it gave in its own words.
        self.assertEqual(lines[-4:-2], ["skipped 1 test(s): no CUDA device",
                                        "skipped 1 test(s): no GPU here"])
        self.assertEqual(lines[-2], "100% tests passed, 0 tests failed out of 3")
        self.assertTrue(lines[-1].startswith("The course's own suite passed. Next: make next"))
        self.assertLess(out.index("Total Test time"), out.index("100% tests passed"))
        self.assertLess(out.index("common.gpu (Skipped)"), out.index("100% tests passed"))

    def test_a_failing_test_is_said_last_with_how_to_run_it_again(self):
        rc, out, _ = self.run_suite(FAKE_TEST_FAILS="1")
        self.assertEqual(rc, 1, out)
        lines = out.splitlines()
        self.assertEqual(lines[-2], "67% tests passed, 1 tests failed out of 3")
        self.assertIn("-R NAME --output-on-failure", lines[-1])
        self.assertLess(out.index("course.repo (Failed)"), out.index("67% tests passed"))

    def test_a_build_error_runs_no_test(self):
        rc, out, _ = self.run_suite(FAKE_BUILD_FAILS="1")
        self.assertEqual(rc, 1, out)
        self.assertNotIn("Test #", out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('error: expected a ";"', out.splitlines()[-1])


class Watch(Base):
    def test_once_on_an_untouched_stub(self):
        rc, out, err = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 1, err)
        self.assertIn("lesson 01 \u00b7 Alpha", out)
        self.assertIn("NOT STARTED", out)
        self.assertIn("task 1 the answer: not started", out)
        self.assertIn("alpha_fn  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertIn("make hint-1 gives a hint for task 1 (0 of 3 seen)", out)

    def test_watch_and_grade_say_the_verdict_in_the_same_words(self):
        for template, env in ((BUGGY, {}), (HALF, {"FAKE_GPU": "1"}), (SOLVED, {}),
                              (STUB, {})):
            self.c.fill("01", template)
            rc_grade, grade, _ = self.c.run("grade", "1", env=env)
            rc_watch, watch, _ = self.c.run("watch", "1", "--once", "--no-build", env=env)
            self.assertEqual(rc_grade, rc_watch, (template, grade, watch))
            # The grade's words for what comes next, every line of them, are the watch's.
            tail = grade.split("(your exercises): ", 1)[1].splitlines()[1:]
            said = [l for l in tail if l.strip() and not l.startswith("(each test case")]
            self.assertTrue(said, grade)
            for line in said:
                self.assertIn(line.replace(" make grade-1 shows the whole report.", ""), watch)

    def test_once_on_a_failure_shows_the_diagnosis(self):
        self.c.fill("01", BUGGY)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 1)
        self.assertIn("FAILING", out)
        self.assertIn("got 41, expected 42", out)
        self.assertIn("likely cause: off by one", out)

    def test_once_on_a_pass_without_a_gpu(self):
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 0)
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertNotIn("% of cuBLAS", out)
        self.assertIn("Next: lesson 02, Beta", out)
        self.assertIn("0 of 2 lessons passed", out)

    def test_once_on_a_pass_with_a_gpu_shows_the_speed(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("watch", "2", "--once", "--no-build", "--perf",
                                env={"FAKE_GPU": "1", "FAKE_PCT": "11"})
        self.assertEqual(rc, 0)
        self.assertIn("speed:  11.0% of cuBLAS on this GPU", out)
        self.assertIn("performance: met", out)
        self.assertIn("That was the last lesson", out)

    def test_a_compile_error_is_shown(self):
        # --no-build left out: the build is "cmake --build", which fails on this fake build folder.
        fake_bin = self.tmp / "fakebin"
        write(fake_bin / "cmake", "#!/bin/sh\necho 'exercises/01-alpha/alpha.cpp(5): error: "
                                  "identifier \"x\" is undefined'\necho 'make: *** [all] Error 2'\n"
                                  "exit 2\n", 0o755)
        rc, out, _ = self.c.run("watch", "1", "--once",
                                env={"PATH": f"{fake_bin}:{os.environ['PATH']}"})
        self.assertEqual(rc, 1)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('error: identifier "x" is undefined', out)
        self.assertNotIn("make: ***", out)

    def test_a_build_over_two_seconds_says_so_first(self):
        # A configured build folder whose dry run ("make -n") would compile N CUDA files (5 s of one
        # core each): a first build, a save whose given code calls yours, a save of one file.
        write(self.c.root / "build" / "CMakeCache.txt", "")
        for files, estimate in ((5, "about 10 seconds"), (2, "about 5 seconds"),
                                (1, "about 5 seconds")):
            write(self.c.root / "fakebin" / "make",
                  f"#!/bin/sh\nfor i in $(seq {files}); do echo \"nvcc -c k$i.cu -o k$i.cu.o\"; "
                  "done\n", 0o755)
            rc, out, _ = self.c.run("watch", "1", "--once", "--jobs", "2")
            self.assertEqual(rc, 1, out)
            self.assertTrue(out.startswith(
                f"building lesson 01 (your exercise): {files} file{'s' if files > 1 else ''} to "
                f"compile, {estimate} on 2 cores..."), out)
            self.assertIn("NOT STARTED", out)
        # Nothing to compile: nothing said.
        write(self.c.root / "fakebin" / "make", "#!/bin/sh\necho 'make: Nothing to be done'\n",
              0o755)
        rc, out, _ = self.c.run("watch", "1", "--once", "--jobs", "2")
        self.assertFalse(out.startswith("building"), out)
        self.assertIn("NOT STARTED", out)

    def start(self, *args, ignore_sigint=False):
        e = {**os.environ, "NO_COLOR": "1"}
        e.pop("FAKE_GPU", None)
        # A script's background job starts with SIGINT ignored; the watch still stops on it.
        pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
        p = subprocess.Popen([sys.executable, str(self.c.root / "common/tools/course.py"), "watch",
                              *args, "--no-build", "--build", str(self.c.root / "build")],
                             cwd=self.c.root, env=e, stdin=subprocess.DEVNULL, preexec_fn=pre,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        threading.Thread(target=lambda: [lines.append(l) for l in p.stdout], daemon=True).start()
        return p, lines

    def wait_for(self, lines, text, count=1, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if "".join(lines).count(text) >= count:
                return
            time.sleep(0.05)
        self.fail(f"no {count} x {text!r} in:\n{''.join(lines)}")

    def save_and_regrade(self, *mode):
        p, lines = self.start("1", "--rounds", "2", "--interval", "0.2", *mode)
        try:
            self.wait_for(lines, "Ctrl-C stops")
            time.sleep(0.3)
            self.c.fill("01", SOLVED)
            self.assertEqual(p.wait(30), 0, "".join(lines))
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
        out = "".join(lines)
        self.assertIn("NOT STARTED", out)
        self.assertIn("CPU part passed; GPU part not run", out.split("=" * 78)[-1])
        return out

    def test_polling_regrades_on_save(self):
        out = self.save_and_regrade("--poll")
        self.assertIn("polling every 0.2 s", out)

    @unittest.skipUnless(shutil.which("inotifywait"), "inotifywait (inotify-tools) not installed")
    def test_inotify_regrades_on_save(self):
        out = self.save_and_regrade()
        if "inotifywait failed" in out:  # no inotify here (a container's limits): it polled
            self.skipTest("inotifywait is installed but cannot watch here")
        self.assertIn("(inotifywait)", out)

    def test_without_inotifywait_it_polls_and_says_so(self):
        e_path = self.tmp / "nopath"
        e_path.mkdir()
        for tool in ("bash", "sh", "grep", "cat", "kill"):
            found = shutil.which(tool)
            if found:
                os.symlink(found, e_path / tool)
        e = {**os.environ, "NO_COLOR": "1", "PATH": str(e_path)}
        p = subprocess.Popen([sys.executable, str(self.c.root / "common/tools/course.py"), "watch",
                              "1", "--no-build", "--rounds", "1",
                              "--build", str(self.c.root / "build")],
                             cwd=self.c.root, env=e, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        out, _ = p.communicate(timeout=30)
        self.assertIn("polling every 1 s; inotifywait is not installed", out)

    def test_whole_course_mode_follows_the_lesson_saved(self):
        p, lines = self.start("--rounds", "2", "--interval", "0.2", "--poll")
        try:
            self.wait_for(lines, "Ctrl-C stops")
            self.assertIn("lesson 01", "".join(lines))
            time.sleep(0.3)
            self.c.fill("02", BUGGY)
            self.assertEqual(p.wait(30), 1)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
        last = "".join(lines).split("=" * 78)[-1]
        self.assertIn("lesson 02 \u00b7 Beta", last)
        self.assertIn("likely cause", last)

    def test_ctrl_c_leaves_cleanly(self):
        modes = [(["--poll"], False), (["--poll"], True)]
        if shutil.which("inotifywait"):
            modes.append(([], False))
        for mode, ignore_sigint in modes:
            p, lines = self.start("1", *mode, ignore_sigint=ignore_sigint)
            try:
                self.wait_for(lines, "Ctrl-C stops")
                p.send_signal(signal.SIGINT)
                self.assertEqual(p.wait(10), 0)
            finally:
                if p.poll() is None:
                    p.kill()
            out = "".join(lines)
            self.assertIn("watch: stopped.", out)
            self.assertNotIn("Traceback", out)


@unittest.skipUnless(HAVE_GIT, "git is not installed")
class Reset(Base):
    def setUp(self):
        super().setUp()
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        self.stub = self.c.exercise("01").read_text()

    def test_nothing_to_reset(self):
        rc, out, _ = self.c.run("reset", "1")
        self.assertEqual(rc, 0)
        self.assertIn("already the original stub", out)

    def test_refuses_without_a_terminal_unless_forced(self):
        self.c.fill("01", BUGGY)
        work = self.c.exercise("01").read_text()
        rc, out, err = self.c.run("reset", "1")
        self.assertEqual(rc, 1)
        self.assertIn("your changes to exercises/01-alpha/alpha.cpp", out)
        self.assertIn("no terminal to ask on", err)
        self.assertIn("FORCE=1", err)
        self.assertEqual(self.c.exercise("01").read_text(), work)
        self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.c.exercise("01").read_text(), self.stub)
        backups = list((self.c.root / ".course" / "backup").glob("01-alpha-*/alpha.cpp"))
        self.assertEqual(len(backups), 1)
        self.assertEqual(backups[0].read_text(), work)
        self.assertIn("Your version is kept in .course/backup/01-alpha-", out)
        state = self.c.state()["lessons"]["01"]
        self.assertEqual((state["status"], state["tasks"]["2"]["status"]),
                         ("not started", "not started"))

    def test_asks_on_a_terminal(self):
        import pty
        self.c.fill("01", BUGGY)
        for answer, restored in ((b"n\n", False), (b"y\n", True)):
            self.c.fill("01", BUGGY)
            pid, fd = pty.fork()
            if pid == 0:
                os.chdir(self.c.root)
                os.execv(sys.executable, [sys.executable, "common/tools/course.py", "reset", "1"])
            out = b""
            deadline = time.time() + 20
            while b"[y/N]" not in out and time.time() < deadline:
                try:
                    out += os.read(fd, 1024)
                except OSError:
                    break
            os.write(fd, answer)
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            _, status = os.waitpid(pid, 0)
            self.assertIn(b"Discard them?", out)
            self.assertEqual(self.c.exercise("01").read_text() == self.stub, restored, out)
            # Declining is the learner's choice, not a failure: exit 0 (make adds no "Error 1").
            self.assertEqual(os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1, 0)
            if not restored:
                self.assertIn(b"Nothing changed: exercises/01-alpha/ keeps your work.", out)

    def test_extra_source_files_go_too(self):
        extra = self.c.exercise("01").with_name("mine.cpp")
        extra.write_text("int mine();\n")
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0)
        self.assertFalse(extra.exists())
        self.assertTrue(list((self.c.root / ".course" / "backup").glob("01-alpha-*/mine.cpp")))

    def test_committed_work_is_not_the_stub(self):
        # The learner commits their solution; there is no remote: the stub is the newest version
        # in the history that still throws NOT IMPLEMENTED.
        self.c.fill("01", SOLVED)
        self.c.commit_all("my work on lesson 01")
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.c.exercise("01").read_text(), self.stub)

    def test_a_clone_resets_from_the_course_it_follows(self):
        clone = self.tmp / "clone"
        subprocess.run(["git", "clone", "-q", str(self.c.root), str(clone)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        learner = FakeCourse.__new__(FakeCourse)
        learner.root = clone
        # The course improves its stub upstream; the learner pulls it, then commits a half-done
        # exercise that still throws NOT IMPLEMENTED (so only the upstream can tell it apart).
        improved = self.stub.replace("// TODO: return 42.", "// TODO: return 42, the answer.")
        self.c.exercise("01").write_text(improved)
        self.c.commit_all("a better stub")
        learner.git("pull", "-q")
        half = improved.replace("// TODO: return 42", "int half = 21;  // TODO: return 42")
        learner.exercise("01").write_text(half)
        learner.commit_all("half done")
        rc, out, _ = learner.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertIn("the course's origin/main", out)
        self.assertEqual(learner.exercise("01").read_text(), improved)

    def test_without_git_it_says_so(self):
        shutil.rmtree(self.c.root / ".git")
        rc, out, err = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 1)
        self.assertIn("cannot find the original stub", err)
        self.assertIn("not a git checkout", err)


class Stubs(Base):
    def test_check_stubs(self):
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub fails its grader with NOT IMPLEMENTED", out)
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 1, out)
        self.assertIn("lesson 02 [cpu]: the stub should fail every test with NOT IMPLEMENTED, but "
                      "its grader says 'passed'", out)



@unittest.skipUnless(HAVE_GIT, "git is not installed")
class ShippedStubs(Base):
    """The repository's checks look at the stubs as the course shipped them (git), not at the
    learner's work in exercises/, and say so in one line."""

    def setUp(self):
        super().setUp()
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")

    def test_check_repo_checks_the_shipped_stub_of_an_exercise_that_holds_work(self):
        self.c.fill("01", SOLVED)
        ex = self.c.exercise("01")
        # The learner's work may change the text outside the regions too.
        ex.write_text(ex.read_text().replace("// Lesson 01", "// My lesson 01"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("exercise 01 holds your work: checked the shipped stub instead (commit ", out)
        self.assertNotIn("exercise 02", out)
        self.assertEqual(out.splitlines()[-1], "check-repo: 2 lessons, all consistent")
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("exercises 01-02 hold your work: checked the shipped stubs instead (HEAD)\n",
                      out)

    def test_the_shipped_stub_is_what_is_checked(self):
        ex = self.c.exercise("01")
        self.c.edit(ex, "// TODO: return 42.\n", "")
        self.c.edit(ex, "// TODO: return 84.\n", "")
        self.c.commit_all("a stub without its TODOs")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1, out)
        self.assertIn("exercises/01-alpha/alpha.cpp: fill-in regions without a TODO", out)

    def test_a_change_outside_the_regions_is_the_courses_own_and_checked(self):
        # No region differs from the stub: a change of the course's text, not yet committed.
        ex = self.c.exercise("01")
        ex.write_text(ex.read_text().replace("int alpha_fn()", "long alpha_fn()"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("differ outside the fill-in regions", out)
        self.assertNotIn("holds your work", out)

    def test_check_stubs_does_not_check_an_exercise_that_holds_work(self):
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub fails its grader with NOT IMPLEMENTED", out)
        self.assertIn("lesson 02: stub not checked: exercise 02 holds your work (its grader is "
                      "built from your copy)", out)

    def test_without_git_the_exercises_are_checked_as_they_are_and_it_says_so(self):
        shutil.rmtree(self.c.root / ".git")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("every exercise is checked as it is, your work included: this folder is not "
                      "a git checkout", out)

# A fake nvidia-smi that lists a GPU: self-check then asks the graders whether they can use it.
NVIDIA_SMI = "#!/bin/sh\necho 'GPU 0: Fake GPU (UUID: GPU-0)'\n"


class SelfCheck(Base):
    def setUp(self):
        super().setUp()
        write(self.c.root / "fakebin" / "nvidia-smi", NVIDIA_SMI, 0o755)

    def test_without_a_driver_it_says_so_before_building(self):
        write(self.c.root / "fakebin" / "nvidia-smi",
              "#!/bin/sh\necho 'NVIDIA-SMI has failed: no driver'\nexit 9\n", 0o755)
        rc, out, _ = self.c.run("self-check")
        self.assertEqual(rc, 77)
        self.assertEqual(out.splitlines(), [
            "SKIPPED: this needs a CUDA GPU: nvidia-smi says: NVIDIA-SMI has failed: no driver; "
            "nothing was built"])
        self.assertFalse((self.c.root / "build" / "cmake-calls.log").exists())
        rc, out, _ = self.c.run("self-check", "--probe")
        self.assertEqual(rc, 77)
        write(self.c.root / "fakebin" / "nvidia-smi", NVIDIA_SMI, 0o755)
        rc, out, _ = self.c.run("self-check", "--probe")
        self.assertEqual((rc, out), (0, ""))

    def test_skipped_without_a_gpu(self):
        rc, out, _ = self.c.run("self-check")
        self.assertEqual(rc, 77)
        self.assertIn("SKIPPED: no CUDA device (fake)", out)

    @unittest.skipUnless(HAVE_GIT, "git is not installed")
    def test_on_a_gpu(self):
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: solution [cpu passed, gpu passed]; stub [cpu not started, gpu not "
                      "started]", out)
        # The learner's work: that lesson's stub is not checked, and nothing fails.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub not checked", out)
        # A stub that crashes (as shipped) is a problem.
        self.c.fill("02", CRASHY.replace("return", "course::not_implemented(\"\"); return"))
        self.c.commit_all("a crashing stub")
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1, out)
        self.assertIn("lesson 02 [cpu]: the untouched stub should fail every test with NOT "
                      "IMPLEMENTED, but its grader crashed", out)

    def test_without_git_stubs_are_skipped_with_a_note(self):
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("stub not checked: this folder is not a git checkout", out)


# ---- the real build ------------------------------------------------------------------------------

@unittest.skipUnless(os.environ.get("COURSE_TEST_BUILD"), "COURSE_TEST_BUILD not set")
class RealBuild(unittest.TestCase):
    def setUp(self):
        self.build = Path(os.environ["COURSE_TEST_BUILD"])

    def real_report(self, binary, *args):
        exe = self.build / "bin" / binary
        if not exe.exists():
            self.skipTest(f"{binary} is not built")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "report.jsonl"
            p = subprocess.run([str(exe), *args], env={**os.environ, "COURSE_REPORT": str(path)},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=600)
            return p, report.read_report(path)

    def test_the_real_graders_report_every_test_case_with_its_task(self):
        p, r = self.real_report("test01", "[cpu]")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("All tests passed", p.stdout)  # the console report is Catch2's own
        self.assertTrue(r.complete)
        self.assertTrue(r.cases)
        lesson = records.find("1")
        for c in r.cases:
            self.assertTrue(c.passed and c.part == "cpu", c.name)
            self.assertEqual(sum(1 for t in c.tags if t.startswith("task_")), 1, c.name)
            self.assertIn(lesson.task_of_tags(c.tags), lesson.tasks)

    def test_the_real_stubs_grader_says_not_implemented(self):
        # The learner's grader is built from exercises/: the stub's, unless it holds their work.
        if reset.shipped_stub(records.find("1")).work:
            self.skipTest("exercise 01 holds your work: its grader is not the stub's")
        # Every test case fails with NOT IMPLEMENTED, marked as such.
        p, r = self.real_report("grade01", "[cpu]")
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(r.cases and all(not c.passed and c.todo for c in r.cases))
        failure = r.cases[0].failures[0]
        self.assertEqual(failure.kind, "exception")
        self.assertIn("NOT IMPLEMENTED: ", failure.message)
        self.assertTrue(failure.file.endswith(".cpp") and failure.line > 0)

    def test_a_gpu_part_that_cannot_run_lists_its_test_cases(self):
        p, r = self.real_report("grade03", "[gpu]", "--gpu-min-cc=999")
        self.assertEqual(p.returncode, 77, p.stdout)
        self.assertTrue(r.skipped)  # no CUDA device here, or one below compute capability 99.9
        self.assertTrue(r.cases)
        self.assertTrue(all(c.skipped and "task_1" in c.tags for c in r.cases))

    def test_watch_once_on_the_real_lesson_01_solution(self):
        if not (self.build / "bin" / "test01").exists():
            self.skipTest("test01 is not built")
        p = subprocess.run([sys.executable, str(COURSE), "watch", "1", "--once", "--solution",
                            "--no-build", "--build", str(self.build)], cwd=REPO,
                           env={**os.environ, "NO_COLOR": "1"}, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("CPU part: passed", p.stdout)
        if re.search(r"GPU part: passed", p.stdout):
            self.assertIn("status: PASSED", p.stdout)
        else:  # no GPU here: never a pass
            self.assertIn("status: CPU part passed; GPU part not run", p.stdout)
            self.assertNotIn("PASSED", p.stdout)


if __name__ == "__main__":
    unittest.main()
