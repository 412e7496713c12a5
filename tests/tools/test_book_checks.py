#!/usr/bin/env python3
"""The book's own checks, each shown to fail where it should (book/build.py, book/prose.py):
snippet markers that overlap or open with another snippet's code, a code span that crosses a line
break, a figure no program drew or one shown twice; and the prose counts on a small chapter.
Standard library only; no Doxygen, no build."""

import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book"))
sys.path.insert(0, str(ROOT / "common" / "tools"))
import build  # noqa: E402
import prose  # noqa: E402
import statements  # noqa: E402


class Lesson:
    num, dir = "04", "04-coalescing"


class SnippetMarkers(unittest.TestCase):
    def problem(self, text, name):
        with tempfile.TemporaryDirectory(dir=ROOT) as d:
            f = Path(d) / "x.cu"
            f.write_text(text)
            return build.snippet_markers_problem(str(f.relative_to(ROOT)), name)

    def test_nested_region_inside_is_fine(self):
        text = "//! [outer]\nint a;\n//! [inner]\nint b;\n//! [inner]\n//! [outer]\n"
        self.assertIsNone(self.problem(text, "outer"))
        self.assertIsNone(self.problem(text, "inner"))

    def test_a_region_that_opens_with_another_fails(self):
        text = "//! [setmaxnreg]\n//! [gpu_flags]\nint flag;\n//! [gpu_flags]\nint reg;\n" \
               "//! [setmaxnreg]\n"
        self.assertIn("opens with the code of [gpu_flags]", self.problem(text, "setmaxnreg"))

    def test_overlapping_regions_fail(self):
        text = "//! [a]\nint x;\n//! [b]\nint y;\n//! [a]\nint z;\n//! [b]\n"
        self.assertIn("overlap", self.problem(text, "a"))


class ChapterText(unittest.TestCase):
    def transform(self, text, figures=None):
        page = build.Page("x.md")
        build.transform_chapter(Lesson, text, "lessons/04-coalescing/README.md", page, [],
                                figures or {"by_id": {}, "used": {}})
        return page

    def test_a_code_span_across_a_line_break_fails(self):
        with self.assertRaisesRegex(build.BuildError, r"README.md:3: a code span crosses"):
            self.transform("# T\n\nRun `make lesson-2\nARGS=--help` now.\n")

    def test_code_spans_on_one_line_and_in_fences_pass(self):
        self.transform("# T\n\nRun `make lesson-2 ARGS=--help` now.\n\n```\na ` b\n```\n")

    def spec(self):
        return {"title": "t", "caption": "c", "error": "", "first": "",
                "frames": {"": "figures/04/04-x/0.svg"}, "controls": []}

    def test_a_figure_no_program_drew_fails(self):
        with self.assertRaisesRegex(build.BuildError, r"no figure '04-nope'"):
            self.transform("# T\n\n\\figure 04-nope\n")

    def test_a_figure_shown_twice_fails(self):
        figures = {"by_id": {"04-x": self.spec()}, "used": {}}
        with self.assertRaisesRegex(build.BuildError, r"shown twice"):
            self.transform("# T\n\n\\figure 04-x\n\n\\figure 04-x\n", figures)

    def test_a_figure_becomes_its_block_with_its_number(self):
        figures = {"by_id": {"04-x": self.spec()}, "used": {}}
        page = build.Page("x.md")
        build.transform_chapter(Lesson, "# T\n\n\\figure 04-x\n", "r.md", page, [], figures)
        self.assertEqual(figures["used"], {"04": ["04-x"]})


class Budget(unittest.TestCase):
    class Rec:
        chapter_lines, mandatory_lines = 10, 4

    class Lesson:
        pass

    def problem(self, text):
        lesson = self.Lesson()
        lesson.record = self.Rec()
        return build.budget_problem(lesson, text)

    def test_within_budget(self):
        self.assertIsNone(self.problem("# T\n\nOne.\n\n## Going further\n\nMore.\n"))

    def test_mandatory_part_over_budget(self):
        self.assertIn("before \"## Going further\"",
                      self.problem("# T\n\n1\n2\n3\n4\n## Going further\n"))

    def test_chapter_over_budget(self):
        self.assertIn("over its budget of 10", self.problem("# T\n" + "x\n" * 12))

    def test_no_going_further(self):
        self.assertIn("no \"## Going further\"", self.problem("# T\n\nOne.\n"))


class Statements(unittest.TestCase):
    def test_a_stale_statement_returns(self):
        text = "# T\n\nThe split is 24/240 registers, and nothing spills.\n"
        found = statements.problems("11", text)
        self.assertTrue(any("40 for the producer" in p for p in found))
        self.assertTrue(any("spills 8 bytes" in p for p in found))

    def test_a_kept_statement_goes(self):
        found = statements.problems("11", "# T\n\nNothing about that GPU here.\n")
        self.assertTrue(any("thread-block clusters" in p for p in found))

    def test_gpcs_are_not_clusters(self):
        self.assertTrue(statements.problems("01", "# T\n\nSMs sit in clusters of two.\n"))
        self.assertFalse(statements.problems("01", "# T\n\nLesson 11's thread-block clusters.\n"))

    def test_a_measured_figure_names_the_data_gpu(self):
        self.assertTrue(statements.problems("05", "# T\n\nOn the H100 it reached 19.2% of it.\n"))
        self.assertFalse(statements.problems("05", "# T\n\nThe H100's datasheet gives 3.35 TB/s.\n"))
        self.assertFalse(statements.problems("05", "# T\n\nOn the H200 it reached 19.2% of it.\n"))


class Prose(unittest.TestCase):
    def test_counts_prose_only(self):
        text = ("# Title\n\nOne two three. Four five six seven.\n\n```\nnot prose at all\n```\n\n"
                "| a | b |\n|---|---|\n\n- A list item here.\n\n\\snippet f.cu name\n\n"
                "<!-- BEGIN GENERATED: x -->\nnot counted\n<!-- END GENERATED: x -->\n")
        st = prose.stats(prose.paragraphs(text))
        self.assertEqual(st["words"], 11)
        self.assertEqual(st["sentences"], 3)
        self.assertEqual(st["longest"], 7)

    def test_dots_is_not_a_dot_block(self):
        text = "# T\n\nSum \\f$ 0 + \\dots + 31 \\f$ here.\n\nNext paragraph counts.\n"
        self.assertEqual(len(prose.paragraphs(text)), 2)


if __name__ == "__main__":
    unittest.main(verbosity=1)
