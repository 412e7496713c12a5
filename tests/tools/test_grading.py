"""Tests of the manifest and the repository's checks, grading, the speed verdicts, the
learner's state and the hints, on the fake course."""

from course_fixtures import *  # noqa: F401,F403 (the fake course, the tools' modules)


class ManifestAndRepo(Base):
    def test_unknown_lesson_lists_the_lessons_and_exits_2(self):
        for cmd in (["resolve", "7"], ["hint", "x"], ["grade", "9"], ["reset", "0"], ["watch", "5"]):
            rc, out, err = self.c.run(*cmd)
            self.assertEqual(rc, 2, cmd)
            self.assertIn("no lesson", err)
            self.assertIn("02  beta", err)

    def test_check_repo_passes_on_a_consistent_course(self):
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("all consistent", out)

    def test_check_repo_wants_a_hint_per_task_in_the_records_order(self):
        hints = self.c.root / "lessons" / "01-alpha" / "hints.md"
        text = hints.read_text()
        hints.write_text(text[:text.index("## Task 2")] + "## Task 2: twice the answer\n")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("task 2 has no hint", out)
        hints.write_text(text.replace("## Task 2: twice the answer", "## Task 3: more"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("its sections are tasks [1, 3], the record's tasks are [1, 2]", out)
        hints.write_text(text.replace("## Task 1: the answer", "## Task 1: an answer"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("'## Task 1: an answer', but the record calls task 1 'the answer'", out)
        hints.write_text(re.sub(r"### Hint", "## Hint", text.split("## Task 1")[0] + "\n## Hint 1\n"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("hints are not grouped by task", out)

    def test_check_repo_rejects_a_bad_target(self):
        self.c.edit(self.c.record("02"), "learner_target = 10", 'learner_target = "fast"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 'fast' is not a positive number", out)

    def test_check_repo_checks_the_solution_target(self):
        self.c.edit(self.c.record("02"), '"~12"', '">12"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the solution target '>12' is neither", out)
        self.c.edit(self.c.record("02"), '">12"', "8")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 10% is above the solution target 8%", out)

    def test_check_repo_checks_tasks_against_regions_tags_and_parts(self):
        self.c.edit(self.c.record("01"), 'regions = ["alpha_fn_twice"]', 'regions = ["alpha_twice"]')
        tests = self.c.root / "tests" / "02-beta" / "test.cpp"
        self.c.edit(tests, '"[cpu][task_1]"', '"[cpu]"')
        self.c.edit(tests, '"[gpu][task_1]"', '"[gpu][task1]"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("task 2 names the region 'alpha_twice', which exercises/01-alpha/ does not "
                      "have", out)
        self.assertIn("the region 'alpha_fn_twice' belongs to no task", out)
        self.assertIn('"beta_fn returns 42" has 0 task tags', out)
        self.assertIn("the tag [task1] is spelled [task_N]", out)
        self.assertIn("no test case of tests/02-beta/ is tagged [task_1]", out)
        self.c.edit(tests, '"[cpu]"', '"[gpu][task_1]"')
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("parts = ['cpu', 'gpu'], but the test cases of tests/02-beta/ use ['gpu']",
                      out)

    def test_check_repo_catches_drift_outside_the_regions(self):
        ex = self.c.exercise("01")
        ex.write_text(ex.read_text().replace("int alpha_fn()", "long alpha_fn()"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("differ outside the fill-in regions", out)
        self.assertIn("at the 2nd line outside them", out)

    def test_ordinals(self):
        from course.util import ordinal
        self.assertEqual([ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 71, 93, 111, 112)],
                         ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "71st", "93rd",
                          "111th", "112th"])

    def test_the_progress_table_fits_100_columns_with_the_real_titles(self):
        from course.screens import fit_table, table_width
        heads = ["lesson", "title", "status", "tasks", "GPU part", "passed on", "% of cuBLAS"]
        tasks = max(len(l.tasks) for l in records.lessons())
        rows = [[l.num, l.title, "written; GPU part not run", f"{tasks} of {tasks}", "not started",
                 "2026-11-27 22:19", "100.0%"] for l in records.lessons()]
        hs, rs = fit_table(heads, rows)
        self.assertLessEqual(table_width(hs, rs), 100, (hs, rs))
        self.assertIn("title", hs)
        self.assertIn("Tiling", [r[1] for r in rs])  # the titles up to their colon
        # PERF=1: two more columns.
        hs, rs = fit_table(heads + ["target", "performance"],
                           [r + ["100%", "not measured"] for r in rows])
        self.assertLessEqual(table_width(hs, rs), 100, (hs, rs))
        self.assertIn("performance", hs)
        # What fits is left whole.
        row = ["01", "Alpha: the first lesson", "passed", "2 of 2", "passed", "2026-11-27 22:19",
               "-"]
        self.assertEqual(fit_table(heads, [row]), (heads, [row]))

    def test_check_repo_wants_each_stub_message_to_name_its_file(self):
        ex = self.c.exercise("01")
        self.c.edit(ex, '"alpha_fn (exercises/01-alpha/alpha.cpp)"',
                    '"alpha_fn (exercises/01-alpha/other.cpp)"')
        self.c.edit(ex, 'course::not_implemented("alpha_fn_twice (exercises/01-alpha/alpha.cpp)")',
                    'course::not_implemented(\n      "alpha_fn_twice")')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn('exercises/01-alpha/alpha.cpp:6: not_implemented("alpha_fn (exercises/01-alpha/'
                      'other.cpp)") should name the file it is in, exercises/01-alpha/alpha.cpp, '
                      'not exercises/01-alpha/other.cpp', out)
        self.assertIn('exercises/01-alpha/alpha.cpp:13: not_implemented("alpha_fn_twice") should '
                      'name the file it is in, exercises/01-alpha/alpha.cpp\n', out)
        self.assertIn("2 problem(s)", out)

    def test_a_record_that_cannot_be_read_stops_every_tool_with_its_line(self):
        self.c.edit(self.c.record("02"), 'min_cc = "7.5"', "min_cc = 7.5.1")
        for cmd in (["grade"], ["list"], ["hint", "1"], ["next"]):
            rc, out, err = self.c.run(*cmd)
            self.assertEqual(rc, 2, cmd)
            self.assertIn("lessons/02-beta/lesson.toml:6:", err)
            self.assertNotIn("Traceback", err)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("lessons/02-beta/lesson.toml:6:", out)
        self.c.edit(self.c.record("02"), "min_cc = 7.5.1\n", "")
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 2)
        self.assertIn("lessons/02-beta/lesson.toml: no 'min_cc' (a string)", err)
        manifest = self.c.root / "lessons" / "manifest.txt"
        manifest.write_text(manifest.read_text() + "03 | gamma | 7.5\n")
        rc, out, err = self.c.run("list")
        self.assertIn("a lesson line is 'NN slug'", err)


class Grading(Base):
    def test_untouched_stubs_are_not_started_task_by_task_and_progress_is_recorded(self):
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("Progress (your exercises)", out)
        self.assertLessEqual(max(len(l) for l in out.splitlines()), 100, out)
        self.assertIn("not started", out)
        self.assertIn("0 of 2 lessons passed", out)
        self.assertIn("current lesson: 01", out)
        self.assertIn("GPU parts not run: no CUDA device (fake)", out)
        state = self.c.state()["lessons"]
        self.assertEqual(state["01"]["status"], "not started")
        self.assertEqual(state["01"]["tasks"]["2"]["status"], "not started")
        self.assertEqual(state["02"]["gpu"], "not run")
        rc, out, _ = self.c.run("grade", "1")
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: not started", out)
        # Task 2's test cases could not run here: its region still calls the stub.
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("alpha_fn  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("CPU part: not started (1 test case); GPU part: not run (no CUDA device "
                      "(fake))", out)
        self.assertIn("NOT STARTED", out)
        self.assertIn("make hint-1 gives a hint for task 1", out)

    def test_a_pass_is_dated_points_to_the_solution_and_moves_next(self):
        self.c.fill("01", SOLVED)
        gpu = {"FAKE_GPU": "1"}
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertEqual(rc, 0, out)
        self.assertIn("PASSED", out)
        self.assertIn("task 1 the answer: passed", out)
        self.assertIn("task 2 twice the answer: passed", out)
        self.assertIn("solutions/01-alpha/alpha.cpp: the chapter discusses it in \u00a7 The alpha "
                      "kernel (lessons/01-alpha/README.md:", out)
        self.assertIn("Next: lesson 02", out)
        state = self.c.state()["lessons"]["01"]
        passed_at = state["passed_at"]
        self.assertEqual(state["tasks"]["1"]["passed_at"], passed_at)
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertIn(passed_at, out)
        self.assertIn("-> 02", out)
        self.assertRegex(out, r"01 .*passed +2 of 2")
        self.assertIn("[###############...............] 1 of 2 lessons passed", out)
        rc, out, _ = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("Next: lesson 02, Beta", out)
        self.assertIn("chapter:  lessons/02-beta/README.md", out)
        self.assertIn("exercise: exercises/02-beta/beta.cpp", out)
        self.assertIn("task:     1 of 2, the answer (not started)", out)
        # The first pass keeps its date; a later failure does not erase it.
        self.c.fill("01", BUGGY)
        self.c.run("grade", "1", env=gpu)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], passed_at)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "failing")
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["1"]["status"], "failing")

    def test_a_failure_says_why_task_by_task_and_exits_1(self):
        self.c.fill("02", BUGGY)
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertIn("FAILING", out)
        self.assertIn('task 1 the answer: failing \u2014 "beta_fn returns 42"', out)
        self.assertIn("tests/02-beta/test.cpp:22: CHECK( r.passed ) failed", out)
        self.assertIn("likely cause: off by one", out)
        self.assertIn("(2 failing test cases in this task; this is the first)", out)
        # The counts: how many of the part's test cases fail, of how many.
        self.assertIn("CPU part: 1 of 1 test case failing; GPU part: 1 of 2 test cases failing",
                      out)
        self.assertIn("task 2 twice the answer: passed", out)
        self.assertIn("make hint-2 gives a hint for task 1", out)
        self.assertIn("(each test case's own output: build/reports/grade02-cpu.log", out)

    def test_one_task_done_the_next_not_started(self):
        self.c.fill("01", HALF)
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: passed", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("alpha_fn_twice  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("Task 2 (twice the answer) is next: make hint-1 gives a hint for it.", out)
        rc, out, _ = self.c.run("grade", "1")  # no GPU: task 2 is judged by its region
        self.assertIn("task 1 the answer: CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("still TODO (these regions still call not_implemented):\n"
                      "        alpha_fn_twice  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("Task 2 (twice the answer) is next: make hint-1 gives a hint for it.", out)

    @unittest.skipUnless(HAVE_GIT, "git is not installed")
    def test_a_region_as_shipped_is_not_started_where_its_tests_cannot_run(self):
        # A stub region that calls nothing (device code, say): without a GPU, only the course's
        # own version of the region (from git) tells that it is untouched.
        quiet = STUB.replace('  course::not_implemented("{fn}_twice (exercises/{dir}/{slug}.cpp)");\n',
                             "  return 0;\n")
        self.c.fill("01", quiet)
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        self.c.fill("01", quiet.replace("  course::not_implemented(\"{fn} (", "  return 42;  // (")
                    .replace("// TODO: return 42.", ""))
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("task 1 the answer: CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("still TODO (these regions are as the course shipped them):", out)
        self.c.edit(self.c.exercise("01"), "  return 0;\n", "  return 84;\n")
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("task 2 twice the answer: written; its tests need the GPU part, not run here",
                      out)
        self.assertIn("CPU part passed; GPU part not run", out)

    def test_a_crash_is_a_failure_not_a_traceback(self):
        self.c.fill("02", CRASHY)
        rc, out, err = self.c.run("grade", "2")
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: failing \u2014 the grader crashed (killed by SIGSEGV) "
                      "during the test case \"beta_fn returns 42\"", out)
        self.assertNotIn("Traceback", err)

    def test_next_with_everything_passed(self):
        self.c.fill("01", SOLVED)
        self.c.fill("02", SOLVED)
        self.c.run("grade", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("next")
        self.assertIn("Every lesson passed", out)

    def test_solution_grading_leaves_the_progress_alone(self):
        rc, out, _ = self.c.run("grade", "--solution", env={"FAKE_GPU": "1"})
        self.assertIn("2 of 2 lessons passed", out)
        self.assertFalse((self.c.root / ".course" / "progress.json").exists())

    def test_a_pass_whose_gpu_part_did_not_run_is_not_a_pass(self):
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: written; its tests need the GPU part, not run here",
                      out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "CPU part passed")
        self.assertNotIn("passed_at", self.c.state()["lessons"]["01"])
        rc, out, _ = self.c.run("grade")
        self.assertRegex(out, r"01 .*CPU part passed +0 of 2 +not run")
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("next")
        self.assertIn("Next: lesson 02", out)  # the work this machine can check moves on
        self.assertIn("waiting for their GPU part (no CUDA device (fake)): lesson 01", out)
        self.assertIn("0 of 2 lessons passed", out)
        # A later run with a GPU turns it into a pass.
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "passed")
        rc, out, _ = self.c.run("next")
        self.assertIn("1 of 2 lessons passed", out)

    def test_a_lesson_without_a_cpu_part_does_not_say_its_cpu_part_passed(self):
        self.c.edit(self.c.record("02"), 'parts = ["cpu", "gpu"]', 'parts = ["gpu"]')
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("PASSED", out)
        self.assertNotIn("CPU part passed", out)
        self.assertIn("lesson 02 Beta: the second (your exercises): written; GPU part not run", out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertNotIn("passed_at", self.c.state()["lessons"]["02"])
        rc, out, _ = self.c.run("grade")
        self.assertRegex(out, r"02 .*written; GPU part not run +0 of 2 +not run")
        self.assertNotIn("CPU part passed", out)
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("watch", "2", "--once", "--no-build")
        self.assertIn("status: written; GPU part not run", out)
        self.assertNotIn("CPU part passed", out)
        self.assertIn("0 of 2 lessons passed", out)

    def test_nothing_runs_after_a_failed_build(self):
        # Passed, then a compile error: grade-N and lesson-N show the error, exit non-zero, and
        # neither grade nor run nor record anything.
        self.c.fill("01", SOLVED)
        gpu = {"FAKE_GPU": "1"}
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertIn("PASSED", out)
        before = self.c.state()
        self.c.fill("01", SOLVED.replace("return 42;", "return 42  // SYNTAX_ERROR"))
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('alpha.cpp(3): error: expected a ";"', out)
        self.assertNotIn("PASSED", out)
        self.assertNotIn("task 1", out)
        self.assertNotIn("gmake", out)
        # make grade: that lesson's first error, then the table with it marked, the others as
        # they are; exit 1.
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertTrue(out.startswith("lesson 01 (your exercise): DOES NOT COMPILE"), out)
        self.assertIn('alpha.cpp(3): error: expected a ";"', out)
        self.assertLess(out.index("error: expected"), out.index("Progress"))
        self.assertRegex(out, r"\n   01 +Alpha: the first lesson +does not compile +- ")
        self.assertRegex(out, r"\n.. 02 +Beta: the second +passed +2 of 2 +passed ")
        self.assertIn("does not compile: lesson 01", out.splitlines()[-1])
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"), env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertNotIn("fake lesson program ran", out)
        self.assertEqual(self.c.state()["lessons"]["01"], before["lessons"]["01"])
        # Fixed again: the program runs, with the learner's options.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"),
                                "--args", "--size 64 --json")
        self.assertEqual(rc, 0, out)
        self.assertIn("fake lesson program ran: --size 64 --json", out)
        # No usable GPU here (3: none; 4: below the lesson's compute capability): the program said
        # so, and that is the expected end of make lesson-N on such a machine. Any other failure
        # of the program is the learner's to see.
        for code, expected in (("3", 0), ("4", 0), ("1", 1), ("2", 2)):
            rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"),
                                    env={"FAKE_EXIT": code})
            self.assertEqual(rc, expected, (code, out))

    def test_a_cpu_machine_does_not_undo_a_gpu_pass(self):
        self.c.fill("02", SOLVED)
        self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual(self.c.state()["lessons"]["02"]["gpu"], "passed")
        # Lesson 02 without its CPU part: on a machine without a GPU, nothing of it runs.
        self.c.edit(self.c.record("02"), 'parts = ["cpu", "gpu"]', 'parts = ["gpu"]')
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 0)
        self.assertIn("GPU part: not run (no CUDA device (fake))", out)
        self.assertNotIn("CPU part:", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["status"], "passed")
        self.assertEqual(self.c.state()["lessons"]["02"]["tasks"]["1"]["status"], "passed")

    def test_a_grader_without_a_report_is_not_graded_from_its_console(self):
        grader = self.c.root / "build" / "bin" / "grade01"
        grader.write_text("#!/bin/sh\necho 'All tests passed (1 assertion in 1 test case)'\n")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertNotIn("PASSED", out)
        self.assertIn("no report (build/reports/grade01-cpu.jsonl): the grader did not write one",
                      out)


class Performance(Base):
    def test_the_speed_is_a_timing_only_run_and_perf_a_separate_verdict(self):
        self.c.fill("01", SOLVED)
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "12.5"})
        self.assertEqual(rc, 0)
        self.assertIn("performance", out)
        self.assertRegex(out, r"02 .*passed .*12\.5% +10% +met")
        rc, out, _ = self.c.run("grade", "2", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "4"})
        self.assertEqual(rc, 0, "a missed target never fails the grade")
        self.assertIn("speed: 4.0% of cuBLAS (the headline kernel, timed alone)", out)
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10%)", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["perf"], "missed")
        rc, out, _ = self.c.run("grade", "1", "--perf", env={"FAKE_GPU": "1"})
        self.assertIn("performance: - (no performance target for this lesson)", out)

    def test_a_grade_builds_the_grader_and_the_program_only_to_time_a_pass(self):
        calls = self.c.root / "build" / "cmake-calls.log"
        self.c.fill("02", SOLVED)
        self.c.run("grade", "2")  # no GPU: nothing is timed
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade02"])
        calls.unlink()
        self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade02", "lesson02"])
        calls.unlink()
        self.c.run("grade", "2", "--solution", env={"FAKE_GPU": "1"})
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["test02", "lesson02_solution"])

    def test_a_save_is_graded_with_the_quick_grader_then_everything_once_it_passes(self):
        # A lesson with kernel configurations (its record's [configs]) has a save's grader,
        # gradeNN_quick.
        calls = self.c.root / "build" / "cmake-calls.log"
        lesson = self.c.root / "lessons" / "01-alpha"
        write(lesson / "alpha_configs.hpp", "#define ALPHA_CONFIGS(X) X(quick, 1) X(full, 2)\n")
        write(lesson / "calls-yours" / "alpha_kernel.cuh", "#define ALPHA_CONFIG(n)\n")
        with open(self.c.record("01"), "a") as record:
            record.write('\n[configs]\nheader = "alpha_configs.hpp"\nlist = "ALPHA_CONFIGS"\n'
                         'kernel = "calls-yours/alpha_kernel.cuh"\ninstance = "ALPHA_CONFIG"\n')
        shutil.copy(self.c.root / "build" / "bin" / "grade01",
                    self.c.root / "build" / "bin" / "grade01_quick")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")  # no GPU: the quick grader's verdict stands
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick"])
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("build/reports/grade01_quick-cpu.log", out)
        calls.unlink()
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})  # a pass: then everything
        self.assertEqual(rc, 0, out)
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick", "grade01", "lesson01"])
        self.assertIn("PASSED", out)
        calls.unlink()
        rc, out, _ = self.c.run("watch", "1", "--once", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick", "grade01", "lesson01"])
        calls.unlink()
        self.c.run("grade", "1", "--solution")  # the reference solution: its whole grader
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["test01"])

    def tracks(self):
        """Lesson 02 with two tracks, as lesson 11's record has them: a target on 9.0, none yet on
        10.0 and 12.0."""
        record = self.c.record("02")
        self.c.edit(record, "learner_target = 10\n", "")
        self.c.edit(record, 'min_cc = "7.5"', 'min_cc = "9.0"\nmin_cc_for = "TMA"')
        record.write_text(record.read_text() + (
            '\n[[track]]\nname = "wgmma"\ncc = ["9.0"]\nheadline = "hopper_gemm"\n'
            'runs = "every rung"\nlearner_target = 10\n'
            '\n[[track]]\nname = "portable"\ncc = ["10.0", "12.0"]\nheadline = "portable_gemm"\n'
            'runs = "the portable rung"\n'))
        self.c.fill("02", SOLVED)

    def test_the_target_is_the_gpus_tracks(self):
        self.tracks()
        # A Hopper GPU times the wgmma headline: held to its track's target.
        hopper = {"FAKE_GPU": "1", "FAKE_KERNEL": "hopper_gemm", "FAKE_PCT": "4"}
        rc, out, _ = self.c.run("grade", "2", "--perf", env=hopper)
        self.assertEqual(rc, 0, out)
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10% (wgmma track: "
                      "hopper_gemm))", out)
        # An RTX 50 series card times the portable headline, whose track has no target yet: never
        # "missed".
        rtx50 = {"FAKE_GPU": "1", "FAKE_KERNEL": "portable_gemm", "FAKE_PCT": "4"}
        rc, out, _ = self.c.run("grade", "2", "--perf", env=rtx50)
        self.assertEqual(rc, 0, out)
        flat = " ".join(out.split())
        self.assertIn("performance: no target for this GPU yet (4.0% of cuBLAS on this GPU, the "
                      "portable track (portable_gemm, compute capability 10.0 and 12.0): the "
                      "reference solution has not been measured on such a GPU, so no target is "
                      "set)", flat)
        self.assertNotIn("missed", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["perf"], "no target for this GPU yet")
        rc, out, _ = self.c.run("grade", "--perf", env=rtx50)
        self.assertRegex(out, r"02 .*4\.0% +- +no target for this GPU yet")
        self.assertNotIn("targets, by the GPU's track", out)
        rc, out, _ = self.c.run("watch", "2", "--once", "--perf", env=rtx50)
        self.assertIn("performance: no target for this GPU yet", out)
        # A headline no track names: no target either.
        rc, out, _ = self.c.run("grade", "2", "--perf", env=dict(rtx50, FAKE_KERNEL="other"))
        self.assertIn("performance: no target for this GPU yet (4.0% of cuBLAS on this GPU, with "
                      "other, a headline no track of the lesson's record names)", out)

    def test_without_a_gpu_every_tracks_target_is_said(self):
        self.tracks()
        rc, out, _ = self.c.run("grade", "2", "--perf")
        self.assertEqual(rc, 0, out)
        self.assertIn("performance: not measured (targets 10% of cuBLAS on compute capability 9.0 "
                      "(wgmma: hopper_gemm); none yet on 10.0 and 12.0 (portable: portable_gemm); "
                      "measuring it needs a GPU)", " ".join(out.split()))
        rc, out, _ = self.c.run("grade", "--perf")
        self.assertRegex(out, r"02 .* 10% / - +not measured")
        self.assertIn("lesson 02's targets, by the GPU's track: 10% of cuBLAS on compute capability "
                      "9.0 (wgmma: hopper_gemm); none yet on 10.0 and 12.0 (portable: "
                      "portable_gemm)", " ".join(out.split()))

    def test_perf_without_a_gpu_is_not_measured(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", "--perf")
        self.assertEqual(rc, 0)
        self.assertIn("performance: not measured (target 10% of cuBLAS; measuring it needs a GPU)", out)

    def test_no_perf_line_unless_asked_and_no_speed_for_other_lessons(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertIn("speed: 12.5% of cuBLAS", out)
        self.assertNotIn("performance:", out)
        self.c.edit(self.c.record("02"), 'kind = "gemm"', 'kind = "other"')
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        self.assertNotIn("speed:", out)


class State(Base):
    def progress(self):
        return self.c.root / ".course" / "progress.json"

    def check_rebuilt(self, text):
        self.progress().parent.mkdir(parents=True, exist_ok=True)
        self.progress().write_text(text)
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("warning: .course/progress.json", err)
        self.assertIn("rebuilt it", err)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "not started")
        # Rebuilt once: the next command is quiet.
        rc, out, again = self.c.run("next")
        self.assertNotIn("warning", again)
        return err

    def test_garbage(self):
        err = self.check_rebuilt("{ this is not json")
        self.assertIn("progress.json.corrupt", err)
        self.assertEqual((self.c.root / ".course" / "progress.json.corrupt").read_text(),
                         "{ this is not json")

    def test_wrong_shape(self):
        self.check_rebuilt("[1, 2, 3]")

    def test_bad_entries_are_dropped_good_ones_kept(self):
        self.progress().parent.mkdir(parents=True, exist_ok=True)
        self.progress().write_text(json.dumps({"lessons": {
            "01": {"status": "passed", "passed_at": "2026-01-02 03:04", "hints_seen": "two",
                   "tasks": {"1": {"status": "passed", "hints_seen": -1}, "x": {}}},
            "02": "nonsense", "x": {}}}))
        rc, out, err = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("had 5 unreadable entries", err)
        self.assertIn("Next: lesson 02", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], "2026-01-02 03:04")
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"], {"1": {"status": "passed"}})

    def test_binary_garbage_and_an_empty_file(self):
        for data in (b"\xff\xfe\x00garbage", b""):
            self.progress().parent.mkdir(parents=True, exist_ok=True)
            self.progress().write_bytes(data)
            rc, out, err = self.c.run("hint", "1")
            self.assertEqual(rc, 0, err)
            self.assertIn("rebuilt it", err)
            self.assertIn("hint 1 of 3", out)


class Hints(Base):
    def test_one_more_each_time_all_and_reset(self):
        outs = [self.c.run("hint", "1")[1] for _ in range(4)]
        self.assertIn("task 1: the answer, hint 1 of 3", outs[0])
        self.assertIn("Hint number 1 of lesson 01, task 1", outs[0])
        self.assertIn("hint 2 of 3", outs[1])
        self.assertIn("hint 3 of 3", outs[2])
        self.assertIn("that was the last hint for task 1", outs[2])
        self.assertIn("hint 3 of 3", outs[3])
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["1"]["hints_seen"], 3)
        rc, out, _ = self.c.run("hint", "1", "--reset")
        self.assertIn("hint 1 of 3", out)
        rc, out, _ = self.c.run("hint", "01", "--all")
        for i in (1, 2, 3):
            self.assertIn(f"Hint number {i} of lesson 01, task 1", out)
        self.assertIn("==== task 2: twice the answer (2 hints)", out)
        self.assertIn("Hint number 2 of lesson 01, task 2", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["2"]["hints_seen"], 2)
        # Lesson 02 has its own count.
        self.assertIn("hint 1 of 3", self.c.run("hint", "2")[1])

    def test_the_hints_follow_the_first_task_not_passed(self):
        self.c.fill("01", HALF)
        self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("hint", "1")
        self.assertIn("task 2: twice the answer, hint 1 of 2", out)
        self.assertIn("Hint number 1 of lesson 01, task 2", out)
        # On a machine without a GPU, task 1's CPU part passing is enough to move on.
        self.c.run("grade", "1")
        self.assertIn("task 2: twice the answer, hint 2 of 2", self.c.run("hint", "1")[1])

    def test_hint_and_grade_give_one_verdict(self):
        # Without a GPU, every task written: grade-1 says the lesson has not passed, and so does
        # hint-1, never that every task has.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertNotIn("PASSED", out)
        rc, out, _ = self.c.run("hint", "1")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("has passed", out)
        self.assertIn("(lesson 01 has not passed: no task of it fails here, but tasks 1 and 2 wait "
                      "for their GPU part (no CUDA device (fake)); the hints of task 1:)", out)
        self.assertIn("task 1: the answer, hint 1 of 3", out)
        # With a GPU the lesson passes, and then every task has.
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        rc, out, _ = self.c.run("hint", "1")
        self.assertIn("(every task of lesson 01 has passed; the last task's hints:)", out)
        self.assertIn("task 2: twice the answer, hint 1 of 2", out)

    def test_an_older_count_for_the_whole_lesson_is_spread_over_the_tasks(self):
        progress = self.c.root / ".course" / "progress.json"
        progress.parent.mkdir(parents=True, exist_ok=True)
        progress.write_text(json.dumps({"format": 1, "lessons": {
            "01": {"status": "failing", "hints_seen": 4}}}))
        rc, out, err = self.c.run("hint", "1")
        self.assertNotIn("warning", err)
        self.assertIn("task 1: the answer, hint 3 of 3", out)  # task 1's three were seen
        tasks = self.c.state()["lessons"]["01"]["tasks"]
        self.assertEqual((tasks["1"]["hints_seen"], tasks["2"]["hints_seen"]), (3, 1))
        self.assertNotIn("hints_seen", self.c.state()["lessons"]["01"])

    def test_the_old_count_in_the_build_folder_is_carried_over(self):
        write(self.c.root / "build" / "hints" / "01.seen", "2")
        self.assertIn("hint 3 of 3", self.c.run("hint", "1")[1])


# A fake `cmake --build` of `make test`: make's directory lines around a progress line, a warning,
# and with FAKE_BUILD_FAILS an error.


if __name__ == "__main__":
    unittest.main()
