#!/usr/bin/env python3
"""Tests of book/readme.py (`make readme`, the course.readme test) and of the figures it takes from
book/bookdata.py: a small data file and README in a temporary folder, the real records' targets.
CPU only, standard library only, well under a second.

  python3 tests/tools/test_readme.py [-v]
"""

import json
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "book"))
import bookdata  # noqa: E402
import readme  # noqa: E402

META = {"meta": True, "gpu": "NVIDIA H100 80GB HBM3", "sm_count": 132, "cuda": "13.0",
        "driver": "1.2.3", "date": "2026-01-02"}


def gemm(lesson, kernel, size, pct, headline=True, precision="fp32", build="solution"):
    """A measurement line as a lesson program prints it (common/report.hpp), as bench stores it."""
    cublas = 50.0 if precision == "fp32" else 800.0
    return {"schema": "course.measurement/1", "lesson": lesson, "kernel": kernel, "M": size,
            "N": size, "K": size, "ms": 1.0, "spread": 0.01, "tflops": cublas * pct / 100,
            "cublas_ms": pct / 100, "cublas_tflops": cublas, "pct_of_cublas": pct, "checked": True,
            "passed": True, "headline": headline, "gpu": META["gpu"], "precision": precision,
            "size": size, "build": build}


LINES = [META,
         gemm("03", "naive_sgemm", 4096, 0.96),
         gemm("03", "naive_sgemm", 2048, 1.6),  # not a target size: never quoted
         gemm("07", "vectorized", 4096, 85.72),
         gemm("07", "thread_tile_2d", 4096, 58.3, headline=False),
         gemm("07", "vectorized", 4096, 99.0, build="mine"),  # the learner's build: never quoted
         gemm("11", "hopper_gemm", 4096, 90.22, precision="bf16"),
         gemm("11", "hopper_gemm", 8192, 96.06, precision="bf16")]

README = """# Title

<!-- BEGIN GENERATED: claim (make readme) -->
<!-- END GENERATED: claim -->

Text.

<!-- BEGIN GENERATED: results -->
old
<!-- END GENERATED: results -->
"""


class Readme(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="readme-test-"))
        self.data = self.tmp / "data"
        self.data.mkdir()
        (self.data / "nvidia-h100-80gb-hbm3.jsonl").write_text(
            "".join(json.dumps(l) + "\n" for l in LINES))
        self.readme = self.tmp / "README.md"
        self.readme.write_text(README)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_headline_figures_at_the_target_sizes_of_the_solution(self):
        gpu = bookdata.reference_gpu(bookdata.load(self.data))
        self.assertEqual([l["pct_of_cublas"] for l in gpu.headline("03")], [0.96])
        self.assertEqual([l["pct_of_cublas"] for l in gpu.headline("07")], [85.72])
        self.assertEqual([l["M"] for l in gpu.headline("11")], [4096, 8192])
        self.assertEqual(gpu.headline("05"), [])

    def test_verdicts_follow_the_records(self):
        lessons = {l.num: l for l in bookdata.records.lessons()}
        gpu = bookdata.reference_gpu(bookdata.load(self.data))
        self.assertEqual(bookdata.target_text(lessons["03"]), "≈ 1%")
        self.assertEqual(bookdata.target_verdict(lessons["03"], gpu.headline("03")), "met")
        self.assertEqual(bookdata.target_verdict(lessons["11"], gpu.headline("11")), "missed")
        self.assertIsNone(bookdata.target_verdict(lessons["05"], []))

    def test_update_then_check(self):
        self.assertTrue(readme.update(self.readme, self.data))
        text = self.readme.read_text()
        flat = " ".join(text.split())
        self.assertIn("reaches 90.2–96.1% of cuBLAS's bf16 GEMM in burst timing, cuBLAS timed first", flat)
        self.assertIn("short of its target of ≥ 100%", flat)
        self.assertIn("| 03 | naive | `naive_sgemm` | 4096 | 0.96% |", text)
        self.assertIn("| 07 | register-tiling | `vectorized` | 4096 | 85.7% |", text)
        self.assertIn("| 90.2% / 96.1% |", text)
        self.assertIn("| **missed** |", text)
        self.assertIn("| 05 | tiling | | | not measured | | | ≥ 18% | |", text)
        self.assertNotIn("99.0", text)
        self.assertIn("Text.", text)
        self.assertEqual(readme.check(self.readme, self.data), [])
        self.assertFalse(readme.update(self.readme, self.data))

    def test_check_fails_on_a_figure_edited_by_hand(self):
        readme.update(self.readme, self.data)
        self.readme.write_text(self.readme.read_text().replace("| 85.7% |", "| 88.0% |"))
        problems = readme.check(self.readme, self.data)
        self.assertTrue(problems)
        self.assertIn("run `make readme`", problems[0])
        self.assertTrue(any("88.0%" in p for p in problems))

    def test_a_missing_block_is_an_error(self):
        self.readme.write_text(README.replace("<!-- BEGIN GENERATED: claim (make readme) -->\n", ""))
        with self.assertRaises(readme.ReadmeError):
            readme.check(self.readme, self.data)

    def test_without_data_it_says_so(self):
        empty = self.tmp / "empty"
        empty.mkdir()
        readme.update(self.readme, empty)
        self.assertIn("No measurement", self.readme.read_text())


if __name__ == "__main__":
    unittest.main()
