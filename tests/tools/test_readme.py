#!/usr/bin/env python3
"""Tests of book/readme.py (`make readme`, the course.readme test) and of the figures it takes from
book/bookdata.py: a small data file and README in a temporary folder, the real records' targets.
CPU only, standard library only, well under a second.

  python3 tests/tools/test_readme.py [-v]
"""

import json
import shutil
import types
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

TENSOR = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"


def profile(kernel, shape, ns, l2, dram, busy, baseline=False, headline=False):
    """A profile line as `make profile-11 RECORD=1` records it (common/tools/course/profiles.py)."""
    m, n, k = shape
    metrics = {name: None for name, _ in bookdata.profiles.metrics_of(bookdata.records.find("11"))}
    metrics.update({"gpu__time_duration.sum": ns, "lts__t_bytes.sum": l2,
                    "dram__bytes_read.sum": dram, TENSOR: busy,
                    "sm__inst_executed_pipe_tensor_op_gmma.sum": 1048576.0})
    return {"schema": "course.measurement/2", "lesson": "11", "what": "profile", "kernel": kernel,
            "M": m, "N": n, "K": k, "shape": f"{m}x{n}x{k}", "size": m if m == n == k else None,
            "metrics": metrics, "launches": 2, "baseline": baseline, "headline": headline,
            "gpu": META["gpu"], "date": "2026-12-01", "clocks": "left alone", "build": "solution"}


CUBE, WIDE = (4096, 4096, 4096), (8192, 7168, 2048)
PROFILES = [profile("tma_wgmma_kernel<Cfg<128, 1>>", CUBE, 372300.0, 2.775e9, 1.745e8, 43.76),
            profile("ring_gemm_kernel<RingConfig<128, 256, 4>>", CUBE, 181300.0, 1.284e9, 1.486e8,
                    93.12, headline=True),
            profile("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT", CUBE, 177400.0, 1.047e9,
                    1.51e8, 94.85, baseline=True),
            profile("ring_gemm_kernel<RingConfig<128, 256, 4>>", WIDE, 150000.0, 1.0e9, 1.0e8, 90.0,
                    headline=True),
            # cuBLAS in two kernels at this shape: their times and bytes add up.
            profile("nvjet_a", WIDE, 140000.0, 0.8e9, 0.9e8, 95.0, baseline=True),
            profile("nvjet_b", WIDE, 10000.0, 0.1e9, 0.1e8, 10.0, baseline=True),
            dict(profile("mine_kernel", CUBE, 1.0, 1.0, 1.0, 1.0), build="mine")]

README = """# Title

<!-- BEGIN GENERATED: claim (make readme) -->
<!-- END GENERATED: claim -->

## Requirements

<!-- BEGIN GENERATED: gpus (make readme) -->
<!-- END GENERATED: gpus -->

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

    def test_kept_lessons_keep_their_day(self):
        # `make bench LESSONS=11` on a later day: lesson 03's lines, kept, were measured before.
        meta = dict(META, date="2026-01-05",
                    dates_of={"01": "2026-01-05", "03": "2026-01-02", "11": "2026-01-05"})
        (self.data / "nvidia-h100-80gb-hbm3.jsonl").write_text(
            "".join(json.dumps(l) + "\n" for l in [meta] + LINES[1:]))
        gpus = bookdata.load(self.data)
        self.assertIn("(NVIDIA H100 80GB HBM3, 2026-01-02, burst)",
                      " ".join(readme.naive_measured_block(gpus).split()))
        self.assertIn("2026-01-05; burst", " ".join(readme.l11_ladder_block(gpus).split()))

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

    def test_the_profile_blocks_without_profiles(self):
        gpus = bookdata.load(self.data)
        for block in (readme.l11_profile_shapes_block, readme.l11_profile_ladder_block):
            text = block(gpus)
            self.assertEqual(text.count("\n"), 0, text)  # one line
            self.assertIn("NVIDIA H100 80GB HBM3", text)
            self.assertIn("has not been profiled yet", text)
            self.assertIn("`make profile-11 SIZE=4096 RECORD=1`", text)
            self.assertIn("`make bench`", text)
        self.assertIn("has not been profiled yet", readme.l11_profile_ladder_block([]))

    def test_the_profile_blocks_with_profiles(self):
        with (self.data / "nvidia-h100-80gb-hbm3.jsonl").open("a") as f:
            f.write("".join(json.dumps(l) + "\n" for l in PROFILES))
        gpus = bookdata.load(self.data)
        shapes = readme.l11_profile_shapes_block(gpus)
        rows = [l for l in shapes.splitlines() if l.startswith("| ")]
        self.assertEqual(len(rows), 3, shapes)  # the header, 4096^3, 8192 x 7168 x 2048
        self.assertEqual(rows[1], "| 4096³ | 181.3 | 177.4 | 1.022 | 1.284 / 1.047 | 0.149 / 0.151 "
                                  "| 0.067 | 93.1% / 94.8% | "
                                  "`nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT` |")
        # Two kernels of cuBLAS: times and bytes summed, the busy share weighted by time.
        self.assertEqual(rows[2], "| 8192×7168×2048 | 150.0 | 150.0 | 1.000 | 1.000 / 0.900 "
                                  "| 0.100 / 0.100 | 0.063 | 90.0% / 89.3% | `nvjet_a`, `nvjet_b` |")
        flat = " ".join(shapes.split())
        self.assertIn("Not profiled on the NVIDIA H100 80GB HBM3 yet: 8192³, 2048³, 16384³, 4000³, "
                      "512×8192×8192", flat)
        self.assertIn("2026-12-01", flat)
        ladder = readme.l11_profile_ladder_block(gpus)
        rows = [l for l in ladder.splitlines() if l.startswith("| ")]
        metrics = bookdata.profiles.metrics_of(bookdata.records.find("11"))
        self.assertEqual(rows[0], "| kernel | " + " | ".join(f"m{i}" for i in
                                                            range(1, len(metrics) + 1)) + " |")
        self.assertEqual([r.split(" | ")[0] for r in rows[1:]],
                         ["| `tma_wgmma_kernel<Cfg<128, 1>>`",
                          "| **`ring_gemm_kernel<RingConfig<128, 256, 4>>`**",
                          "| `nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT` (cuBLAS)"])
        self.assertTrue(rows[2].startswith("| **`ring_gemm_kernel<RingConfig<128, 256, 4>>`** | "
                                           "**181.3** | **–** |"), rows[2])
        self.assertIn("| 1,048,576 |", rows[1])
        flat = " ".join(ladder.split())
        self.assertIn("m1 kernel time, µs (`gpu__time_duration.sum`)", flat)
        self.assertIn(f"tensor pipe busy, % (`{TENSOR}`)", flat)
        self.assertIn("L2 traffic, GB (`lts__t_bytes.sum`)", flat)
        self.assertIn(f"m{len(metrics)} ", flat)
        self.assertNotIn("mine_kernel", shapes + ladder)  # the learner's build: never quoted
        self.assertNotIn("None", shapes + ladder)
        # Profiles at other shapes only: the ladder block says which size it waits for.
        (self.data / "nvidia-h100-80gb-hbm3.jsonl").write_text("".join(
            json.dumps(l) + "\n" for l in LINES + [p for p in PROFILES if p["M"] == 8192]))
        text = readme.l11_profile_ladder_block(bookdata.load(self.data))
        self.assertIn("The ladder at 4096³ has not been profiled on the NVIDIA H100 80GB HBM3 yet", text)

    def test_a_long_kernel_name_stands_one_policy_per_line(self):
        name = "k<Cfg<Mainloop<Consumer<128, 256, 2>, 4>, StreamedEpilogue<Slices>, WholeTiles>>"
        self.assertEqual(readme._wrapping_code(name),
                         "`k<Cfg<`<br>`Mainloop<Consumer<128, 256, 2>, 4>,`<br>"
                         "`StreamedEpilogue<Slices>,`<br>`WholeTiles>>`")
        self.assertEqual(readme._wrapping_code("k<Cfg<128, 1>>"), "`k<Cfg<128, 1>>`")
        self.assertEqual(readme._wrapping_code("x" * 60), "`" + "x" * 60 + "`")

    def test_the_flags_of_the_method_are_said(self):
        def method(order, regime, pct, joules=None):
            return {"schema": "course.measurement/2", "lesson": "01", "what": "method",
                    "precision": "bf16", "n": 8192, "regime": regime, "order": order,
                    "b_pct_of_a": pct, "band_pct": 2.0, "within_band": abs(pct - 100) <= 2,
                    "b_energy_pct_of_a": joules,
                    "energy_within_band": None if joules is None else abs(joules - 100) <= 2,
                    "gpu": META["gpu"]}
        lines = LINES + [method("interleaved", "burst", 100.1),
                         method("sequential", "sustained", 95.0, 100.0),  # the unfair order
                         method("interleaved", "sustained", 99.0, 96.5)]  # joules outside
        (self.data / "nvidia-h100-80gb-hbm3.jsonl").write_text(
            "".join(json.dumps(l) + "\n" for l in lines))
        readme.update(self.readme, self.data)
        text = " ".join(self.readme.read_text().split())
        self.assertIn("flagged 1 row on this GPU: cuBLAS against itself, interleaved, read 99.0% "
                      "(bf16 8192³, sustained; 96.5% in joules per GEMM)", text)
        # Without a flagged row, nothing is said.
        (self.data / "nvidia-h100-80gb-hbm3.jsonl").write_text(
            "".join(json.dumps(l) + "\n" for l in lines[:-1]))
        readme.update(self.readme, self.data)
        self.assertNotIn("flagged", self.readme.read_text())

    def printed(self, num, date, text, gpu=META["gpu"]):
        return {"schema": "course.measurement/2", "lesson": num, "what": "printed",
                "command": f"make lesson-{int(num)} SOLUTION=1", "text": text, "gpu": gpu,
                "date": date, "driver": "580.159.04", "cuda": "13.0", "build": "solution"}

    def test_what_it_printed(self):
        block = readme.printed_block("09")
        # Without a transcript: a sentence that says so, and how to record one.
        self.assertEqual(" ".join(block(bookdata.load(self.data)).split()),
                         "No output of `make lesson-9 SOLUTION=1` on a GPU is recorded in "
                         "`book/data/` yet: `make bench` on a GPU records it.")
        with (self.data / "nvidia-h100-80gb-hbm3.jsonl").open("a") as f:
            f.write(json.dumps(self.printed("09", "2026-01-02", "kernel  ms\n--------  <==")) + "\n")
            f.write(json.dumps(self.printed("01", "2026-01-02", "device 0: G")) + "\n")
        gpus = bookdata.load(self.data)
        said, shown = block(gpus).split("\n\n", 1)
        self.assertEqual(" ".join(said.split()),
                         "On the NVIDIA H100 80GB HBM3 (2026-01-02, driver 580.159.04, CUDA 13.0; "
                         f"recorded in `{gpus[0].rel}`), `make lesson-9 SOLUTION=1` printed:")
        self.assertEqual(shown, "\\verbatim\nkernel  ms\n--------  <==\n\\endverbatim")
        # A transcript is no measurement: not a ceiling, no lesson measured for it.
        self.assertEqual(gpus[0].ceilings, {})
        self.assertNotIn("09", gpus[0].lessons_measured())
        self.assertEqual(sorted(gpus[0].printed), ["01", "09"])
        # Of several GPUs' files, the newest transcript.
        (self.data / "nvidia-h200.jsonl").write_text(json.dumps(
            self.printed("09", "2026-01-03", "newer", gpu="NVIDIA H200")) + "\n")
        text = block(bookdata.load(self.data))
        self.assertIn("On the NVIDIA H200 (2026-01-03,", text)
        self.assertIn("\\verbatim\nnewer\n\\endverbatim", text)
        # In a chapter: the block between its lines, the rest of the chapter as it was.
        chapter = ("## What it printed\n\nThe program prints:\n\n"
                   "<!-- BEGIN GENERATED: printed-09 (make readme) -->\nold\n"
                   "<!-- END GENERATED: printed-09 -->\n\nThe kernels.\n")
        new = readme.render(chapter, {"printed-09": text}, "chapter")
        self.assertEqual(new, chapter.replace("old", text))
        # Every chapter has one.
        for rel, generators in readme.CHAPTER_GENERATORS.items():
            self.assertIn(f"printed-{Path(rel).parent.name[:2]}", generators)

    def test_the_gpu_line_comes_from_the_records(self):
        text = " ".join(bookdata.gpu_requirements().split())
        for said in ("A CUDA GPU for the GPU parts: lessons 01 to 09 from compute capability 7.5 "
                     "(T4, RTX 20 series);",
                     "lesson 10 from 8.0 (A100) for bf16 mma.sync;",
                     "lesson 11 from 9.0 for TMA: on 9.0 (H100, H200) every rung (wgmma and the "
                     "portable rung); on 10.0 and 12.0 (B200, RTX 50 series) the portable rung",
                     "A GPU of compute capability 8.9 (L4, RTX 40 series) runs lessons 01 to 10 "
                     "and no part of lesson 11 (it has no TMA)."):
            self.assertIn(said, text)
        # In the README: the block between its lines, and nothing of it depends on book/data/.
        readme.update(self.readme, self.data)
        flat = " ".join(self.readme.read_text().split())
        self.assertIn("- A CUDA GPU for the GPU parts: lessons 01 to 09 from compute capability 7.5",
                      flat)
        empty = self.tmp / "empty"
        empty.mkdir()
        self.assertEqual(readme.blocks(empty)["gpus"], readme.blocks(self.data)["gpus"])
        # The book's front page, lesson by lesson.
        self.assertEqual(bookdata.gpu_needed(bookdata.records.find("03")), "compute capability 7.5")
        self.assertEqual(bookdata.gpu_needed(bookdata.records.find("10")),
                         "compute capability 8.0 (bf16 mma.sync)")
        self.assertEqual(bookdata.gpu_needed(bookdata.records.find("11")),
                         "compute capability 9.0 (TMA): 9.0 every rung (wgmma and the portable "
                         "rung); 10.0 and 12.0 the portable rung (TMA, mma.sync)")

    def test_the_gpu_line_follows_a_change_of_record(self):
        def lesson(num, cc, why=None, tracks=()):
            return types.SimpleNamespace(num=num, min_cc=cc, min_cc_for=why, tracks=list(tracks))
        track = types.SimpleNamespace(cc=["8.6", "8.9"], runs="the new kernel")
        text = " ".join(bookdata.gpu_requirements(
            [lesson("01", "7.5"), lesson("02", "8.0", "cp.async"), lesson("03", "7.5"),
             lesson("04", "8.6", "something", [track])]).split())
        self.assertEqual(text, "A CUDA GPU for the GPU parts: lessons 01 and 03 from compute "
                               "capability 7.5 (T4, RTX 20 series); lesson 02 from 8.0 (A100) for "
                               "cp.async; lesson 04 from 8.6 for something: on 8.6 and 8.9 (RTX 30 "
                               "series, L4, RTX 40 series) the new kernel. A GPU of compute "
                               "capability 8.0 (A100) runs lessons 01 to 03 and no part of lesson "
                               "04 (it has no something).")
        # One minimum for every lesson: nothing to say of older GPUs.
        self.assertEqual(bookdata.gpu_requirements([lesson("01", "7.5"), lesson("02", "7.5")]),
                         "A CUDA GPU for the GPU parts: lessons 01 and 02 from compute capability "
                         "7.5 (T4, RTX 20 series).")

    def test_your_target_in_the_book_is_your_gpus_track(self):
        import compare
        lesson11 = bookdata.records.find("11")
        mine_dir = self.data / bookdata.MINE_DIR
        mine_dir.mkdir()

        def paragraph(kernel, gpu):
            line = dict(gemm("11", kernel, 4096, 50.0, precision="bf16", build="mine"), gpu=gpu)
            (mine_dir / "mine.jsonl").write_text(json.dumps(dict(META, gpu=gpu)) + "\n"
                                                 + json.dumps(line) + "\n")
            (mine, same), = bookdata.load_mine(self.data)
            return " ".join(compare.mine_paragraph(lesson11, mine, same,
                                                   bookdata.load(self.data)).split())

        text = paragraph("hopper_gemm", META["gpu"])
        self.assertIn("Your target for this lesson (`make grade PERF=1`) is ≥ 80% of cuBLAS: not "
                      "met yet.", text)
        text = paragraph("portable_gemm", "NVIDIA GeForce RTX 5090")
        self.assertIn("No target is set yet for your GPU's track (portable)", text)
        self.assertNotIn("80%", text)

    def test_without_data_it_says_so(self):
        empty = self.tmp / "empty"
        empty.mkdir()
        readme.update(self.readme, empty)
        self.assertIn("No measurement", self.readme.read_text())


if __name__ == "__main__":
    unittest.main()
