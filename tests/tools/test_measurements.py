"""Tests of what the tools read and write of measurements: the graders' reports, the
measurement lines, Nsight Compute profiles, printed transcripts, data files and make bench."""

from course_fixtures import *  # noqa: F401,F403 (the fake course, the tools' modules)


class Reports(unittest.TestCase):
    RUN = {"schema": report.SCHEMA, "type": "run", "program": "grade03", "filters": ["[cpu]"]}

    def parse(self, *objs, tail=""):
        return report.parse_report("".join(json.dumps(o) + "\n" for o in objs) + tail)

    def test_cases_failures_and_the_end(self):
        failure = {"kind": "expression", "macro": "CHECK", "expression": "r.passed",
                   "expanded": "false", "message": "", "info": ["FAILED x\nlikely cause: y"],
                   "file": "/nowhere/t.cpp", "line": 7, "todo": False}
        r = self.parse(self.RUN, {"type": "start", "name": "a"},
                       {"type": "case", "name": "a", "tags": ["cpu", "task_1"], "passed": True,
                        "skipped": False, "todo": False, "failures": []},
                       {"type": "start", "name": "b"},
                       {"type": "case", "name": "b", "tags": ["cpu", "task_2"], "passed": False,
                        "skipped": False, "todo": False, "failures": [failure]},
                       {"type": "end", "passed": 1, "failed": 1})
        self.assertTrue(r.complete)
        self.assertIsNone(r.crashed_in)
        self.assertEqual([(c.name, c.passed, c.part) for c in r.cases],
                         [("a", True, "cpu"), ("b", False, "cpu")])
        lines = r.cases[1].failures[0].lines()
        self.assertEqual(lines[0], "/nowhere/t.cpp:7: CHECK( r.passed ) failed, with expansion: "
                                   "false")
        self.assertIn("likely cause: y", lines)

    def test_a_crash_leaves_the_running_case_unfinished(self):
        r = self.parse(self.RUN, {"type": "start", "name": "a", "tags": ["gpu", "task_2"]},
                       tail='{"type": "ca')
        self.assertFalse(r.complete)
        self.assertEqual((r.crashed_in.name, r.crashed_in.tags), ("a", ["gpu", "task_2"]))

    def test_a_stub_is_todo_and_a_skip_has_its_reason(self):
        r = self.parse(dict(self.RUN, skipped="no CUDA device"),
                       {"type": "case", "name": "g", "tags": ["gpu"], "passed": False,
                        "skipped": True, "failures": []})
        self.assertEqual(r.skipped, "no CUDA device")
        self.assertFalse(r.cases[0].ran)
        r = self.parse(self.RUN, {"type": "case", "name": "s", "tags": [], "passed": False,
                                  "failures": [{"kind": "exception", "message": "NOT IMPLEMENTED: "
                                                "f (x.cu) is still a TODO stub", "todo": True}]})
        self.assertTrue(r.cases[0].todo)

    def test_not_a_report(self):
        for text in ("", '{"schema": "something/2", "type": "run"}\n', "[1]\n{}\n"):
            with self.assertRaises(report.ReportError):
                report.parse_report(text)
        with self.assertRaises(report.ReportError):
            report.read_report(Path(tempfile.gettempdir()) / "no-such-report.jsonl")


class Measurements(unittest.TestCase):
    GEMM = {"schema": measurements.SCHEMA, "lesson": "03", "kernel": "naive_sgemm", "M": 64,
            "N": 64, "K": 64, "ms": 1.0, "spread": 0.01, "tflops": 0.5, "cublas_ms": 0.01,
            "cublas_tflops": 50.0, "pct_of_cublas": 1.0, "checked": True, "passed": True,
            "headline": True, "gpu": "g", "precision": "fp32", "regime": "burst", "samples": 10,
            "kernel_first": False, "sm_clock_mhz": 1980, "cublas_sm_clock_mhz": 1980,
            "power_w": None, "cublas_power_w": None, "energy_j": None, "cublas_energy_j": None}

    def test_gemm_and_what_lines(self):
        self.assertTrue(measurements.is_gemm(measurements.check(dict(self.GEMM))))
        what = {"schema": measurements.SCHEMA, "lesson": "06", "what": "occupancy", "x": 1}
        self.assertFalse(measurements.is_gemm(measurements.check(what)))
        self.assertTrue(measurements.check({"meta": True, "gpu": "g"}))
        self.assertTrue(measurements.check(dict(self.GEMM, ms=None)))  # NaN is written as null

    def test_the_line_the_cpp_declaration_writes(self):
        # What tests/common/test_cli_report.cpp checks GemmMeasurement::json() writes.
        line = ('{"schema": "course.measurement/2", "lesson": "03", "kernel": "naive_sgemm", '
                '"M": 4096, "N": 2048, "K": 1024, "ms": 2.5, "spread": 0.01, "tflops": 6.9, '
                '"cublas_ms": 0.05, "cublas_tflops": 340, "pct_of_cublas": 2, "checked": true, '
                '"passed": true, "headline": true, "gpu": "G", "precision": "fp32", '
                '"intensity": 0.25, "regime": "burst", "samples": 0, "kernel_first": false, '
                '"sm_clock_mhz": null, "cublas_sm_clock_mhz": null, "power_w": null, '
                '"cublas_power_w": null, "energy_j": null, "cublas_energy_j": null}')
        parsed = measurements.parse_line(line)
        self.assertEqual(set(parsed) - {"schema", "intensity"},
                         set(measurements.GEMM_FIELDS) | set(measurements.GEMM_FIELDS_V2))
        self.assertEqual(measurements.method(parsed), measurements.METHOD)

    def test_version_1_lines_are_the_old_method_in_burst(self):
        old = dict({k: v for k, v in self.GEMM.items() if k not in measurements.GEMM_FIELDS_V2},
                   schema=measurements.SCHEMA_V1)
        self.assertTrue(measurements.is_gemm(measurements.check(old)))
        self.assertEqual(measurements.regime(old), "burst")
        self.assertEqual(measurements.method(old), measurements.METHOD_V1)
        # Version 2 names its regime, and only the two there are.
        for bad in ({k: v for k, v in self.GEMM.items() if k != "regime"},
                    dict(self.GEMM, regime="warm")):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    def test_the_schema_is_checked(self):
        for bad in (dict(self.GEMM, schema=None), {k: v for k, v in self.GEMM.items() if k != "ms"},
                    dict(self.GEMM, M="64"), dict(self.GEMM, headline=1),
                    dict(self.GEMM, precision="fp64"),
                    {"schema": measurements.SCHEMA, "what": "occupancy"}):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    PROFILE = {"schema": measurements.SCHEMA, "lesson": "11", "what": "profile",
               "kernel": "ring_gemm_kernel<Cfg<128, 256>>", "M": 512, "N": 8192, "K": 8192,
               "shape": "512x8192x8192", "size": None,
               "metrics": {"gpu__time_duration.sum": 1500.0, "lts__t_bytes.sum": None},
               "launches": 2, "baseline": False, "headline": True, "gpu": "g",
               "date": "2026-12-01", "clocks": "left alone", "build": "solution"}

    def test_profile_lines(self):
        self.assertFalse(measurements.is_gemm(measurements.check(dict(self.PROFILE))))
        self.assertTrue(measurements.check(dict(self.PROFILE, size=512, M=512, N=512, K=512,
                                                shape="512x512x512")))
        for bad in ({k: v for k, v in self.PROFILE.items() if k != "launches"},
                    dict(self.PROFILE, baseline=None), dict(self.PROFILE, size="512"),
                    dict(self.PROFILE, metrics=[1.0]), dict(self.PROFILE, metrics={"m": "1"}),
                    dict(self.PROFILE, shape="512x8192")):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    PRINTED = {"schema": measurements.SCHEMA, "lesson": "09", "what": "printed",
               "command": "make lesson-9 SOLUTION=1", "text": "seed: 1\n\nkernel  ms\n------",
               "gpu": "NVIDIA H200", "date": "2026-11-27", "driver": "580.159.04", "cuda": "13.0",
               "build": "solution"}

    def test_printed_lines(self):
        line = measurements.check(dict(self.PRINTED))
        self.assertTrue(measurements.is_printed(line))
        self.assertFalse(measurements.is_gemm(line))
        self.assertFalse(profiles.is_profile(line))
        for bad in ({k: v for k, v in self.PRINTED.items() if k != "text"},
                    {k: v for k, v in self.PRINTED.items() if k != "driver"},
                    dict(self.PRINTED, text=""), dict(self.PRINTED, text=" \n "),
                    dict(self.PRINTED, text=["seed: 1"]), dict(self.PRINTED, command=None),
                    dict(self.PRINTED, date="27.11.2026"), dict(self.PRINTED, cuda=13.0)):
            with self.subTest(bad=bad), self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    def test_a_programs_output(self):
        other = dict(self.GEMM, kernel="other", headline=False)
        out = "a table\n{not json\n" + json.dumps(other) + "\n" + json.dumps(self.GEMM) + "\n"
        lines = measurements.from_output(out)
        self.assertEqual([l["kernel"] for l in lines], ["other", "naive_sgemm"])
        self.assertEqual(measurements.headline(lines)["kernel"], "naive_sgemm")
        with self.assertRaises(measurements.SchemaError):
            measurements.from_output(json.dumps({"kernel": "k"}) + "\n")


def ncu_csv(rows):
    """ncu --csv's output for `rows` of (launch ID, kernel name, metric, unit, value): its header,
    then one quoted row a launch and metric, as ncu prints them after the program's own output."""
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
            "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name",
            "Metric Unit", "Metric Value"]
    out = [",".join(f'"{h}"' for h in head)]
    for launch, kernel, metric, unit, value in rows:
        cells = [str(launch), "4242", "lesson11_solution", "127.0.0.1", kernel, "1", "7",
                 "(384, 1, 1)", "(132, 1, 1)", "0", "9.0", "Command line profiler metrics",
                 metric, unit, value]
        out.append(",".join(f'"{c}"' for c in cells))
    return "\n".join(out) + "\n"


# Kernel names as ncu 2025.3 prints them: a template's with "void", the timing's hold kernel and
# a kernel of an anonymous namespace with "<unnamed>".
LADDER = "void lesson11::tma_wgmma_kernel<lesson11::Cfg<(int)128, 1>>(int)"
HEADLINE = "lesson11::<unnamed>::ring_gemm_kernel<lesson11::RingConfig<128, 256, 4>>(int *)"
CUBLAS = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"
HOLD = "course::<unnamed>::hold_kernel(unsigned long long)"
TIME = "gpu__time_duration.sum"
L2 = "lts__t_bytes.sum"
# A ladder of two kernels with cuBLAS beside each, the timing's hold between the launches: what
# `ncu --csv` prints of it (in base units, as --csv asks for; some scaled, as ncu may print them).
NCU_OUTPUT = ("==PROF== Connected to process 4242\n{\"gpu\": \"x\"}\n" + ncu_csv([
    (0, HOLD, TIME, "ns", "1,568"),
    (1, CUBLAS, TIME, "usecond", "177.40"), (1, CUBLAS, L2, "Gbyte", "1.05"),
    (2, LADDER, TIME, "us", "372.30"), (2, LADDER, L2, "byte", "2,775,000,000"),
    (3, CUBLAS, TIME, "ns", "177,500"), (3, CUBLAS, L2, "byte", "1,047,000,000"),
    (4, LADDER, TIME, "ms", "0.3725"), (4, LADDER, L2, "Mbyte", "2,776.00"),
    (5, CUBLAS, TIME, "ns", "177,600"), (5, CUBLAS, L2, "byte", "n/a"),
    (6, HEADLINE, TIME, "ns", "181,300"), (6, HEADLINE, L2, "byte", "1,284,000,000"),
    (7, HOLD, TIME, "ns", "1,920"),
    (8, HEADLINE, TIME, "ns", "181,500"), (8, HEADLINE, L2, "byte", "1,286,000,000")]))


class Profiles(unittest.TestCase):
    """ncu's CSV read into each kernel's medians, and the lines recorded of them."""

    def test_the_csv_gives_each_kernels_medians_and_whose_it_is(self):
        kernels = profiles.parse_csv(NCU_OUTPUT)
        self.assertEqual([k.short for k in kernels],
                         [CUBLAS, "tma_wgmma_kernel<Cfg<128, 1>>",
                          "ring_gemm_kernel<RingConfig<128, 256, 4>>"])  # no hold_kernel
        self.assertEqual(profiles.kind_of(HOLD), profiles.HELPER)
        cublas, ladder, headline = kernels
        self.assertEqual([k.kind for k in kernels],
                         [profiles.BASELINE, profiles.COURSE, profiles.COURSE])
        self.assertEqual(len(cublas.launches), 3)
        self.assertAlmostEqual(cublas.median(TIME), 177500.0)  # ns, from usecond and ns
        self.assertAlmostEqual(cublas.median(L2), (1.05e9 + 1.047e9) / 2)  # n/a left out
        self.assertAlmostEqual(ladder.median(TIME), 372400.0)  # from us and ms
        self.assertAlmostEqual(ladder.median(L2), 2.7755e9)  # bytes and Mbytes
        self.assertAlmostEqual(headline.median(TIME), 181400.0)
        self.assertIsNone(headline.median("dram__bytes_read.sum"))
        self.assertEqual(profiles.kind_of("void cutlass::Kernel2<cutlass_80_tensorop>(int)"),
                         profiles.BASELINE)
        self.assertEqual(profiles.kind_of("void lesson06::tuned_kernel<32>(int)"), profiles.COURSE)
        self.assertEqual(profiles.parse_csv("no kernel was profiled\n"), [])

    def test_the_recorded_lines(self):
        kernels = profiles.parse_csv(NCU_OUTPUT)
        lines = profiles.lines_of(kernels, [TIME, L2, "dram__bytes_read.sum"], lesson="11",
                                  size="8192x7168x2048", gpu="NVIDIA H200", date="2026-12-01",
                                  build="solution",
                                  headline={"ring_gemm_kernel<RingConfig<128, 256, 4>>"})
        for l in lines:
            measurements.check(json.loads(json.dumps(l)))  # valid, and JSON as written
            self.assertEqual((l["M"], l["N"], l["K"], l["shape"], l["size"]),
                             (8192, 7168, 2048, "8192x7168x2048", None))
            self.assertEqual((l["what"], l["clocks"], l["schema"]),
                             ("profile", "left alone", measurements.SCHEMA))
        self.assertEqual([(l["baseline"], l["headline"]) for l in lines],
                         [(True, False), (False, False), (False, True)])
        self.assertEqual([l["launches"] for l in lines], [3, 2, 2])
        self.assertEqual(lines[2]["metrics"], {TIME: 181400.0, L2: 1.285e9,
                                               "dram__bytes_read.sum": None})
        cube = profiles.lines_of(kernels[:1], [TIME], lesson="11", size="4096", gpu="g",
                                 date="d", build="mine", headline=set())
        self.assertEqual((cube[0]["shape"], cube[0]["size"], cube[0]["build"]),
                         ("4096x4096x4096", 4096, "mine"))


class Measure(unittest.TestCase):
    """measure.py's answers to bad input, before it profiles anything."""

    def measure(self, *args, path=None):
        env = {**os.environ, "PATH": path} if path else None
        p = subprocess.run([sys.executable, str(TOOLS / "measure.py"), *args], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        return p.returncode, p.stdout

    def test_bad_input_is_said_and_exit_2(self):
        for args, message in ((("profile", "11", "--size", "8192x7168"),
                               "--size takes a size (4096) or a shape MxNxK"),
                              (("profile", "11", "--size", "0"), "not '0'"),
                              (("profile", "2", "--record"), "--record is for the GEMM lessons'"),
                              (("profile", "2", "--headline-only"), "--headline-only is for"),
                              (("profile", "11", "--timeout", "0"), "--timeout takes"),
                              (("sanitize", "11", "--record"), "sanitize: --record is profile's"),
                              (("sass", "11", "--size", "4096", "--headline-only"),
                               "--size, --headline-only are profile's"),
                              (("profile", "99"), "no lesson '99'")):
            with self.subTest(args=args):
                rc, out = self.measure(*args)
                self.assertEqual(rc, 2, out)
                self.assertIn(message, out)
                self.assertNotIn("Traceback", out)

    def test_record_without_a_gpu(self):
        tmp = Path(tempfile.mkdtemp(prefix="measure-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        write(tmp / "nvidia-smi", "#!/bin/sh\necho 'No devices were found'\nexit 6\n", 0o755)
        rc, out = self.measure("profile", "11", "--record", path=str(tmp))
        self.assertEqual(rc, 3, out)
        self.assertIn("this needs a CUDA GPU: nvidia-smi says: No devices were found", out)


class Printed(unittest.TestCase):
    """What `make lesson-N SOLUTION=1` printed, as a line of book/data/ (course/printed.py)."""

    OUTPUT = ("== lesson02_solution\ndevice: NVIDIA H200 (compute capability 9.0)\n\n"
              "picture: /home/you/course/build/dispatch-grid.svg\n\n")

    def test_the_text_is_the_programs_without_makes_line_or_the_courses_folder(self):
        text = printed.program_text(self.OUTPUT, "2", root="/home/you/course")
        self.assertEqual(text, "device: NVIDIA H200 (compute capability 9.0)\n\n"
                               "picture: build/dispatch-grid.svg")
        # The program's own output (what bench runs) is kept whole; a trailing "/" on the root
        # changes nothing, and a root elsewhere is left alone.
        self.assertEqual(printed.program_text(self.OUTPUT.split("\n", 1)[1], "02",
                                              root="/home/you/course/"), text)
        self.assertIn("/home/you/course/build",
                      printed.program_text(self.OUTPUT, "02", root="/elsewhere"))
        # Build chatter before make's line is not the program's.
        self.assertEqual(printed.program_text("building lesson 02 ...\n" + self.OUTPUT, "02",
                                              root="/home/you/course"), text)
        # Lesson 08's own "== " headings are its output, not make's line.
        self.assertEqual(printed.program_text("== the shuffles\nlane 0", "08"),
                         "== the shuffles\nlane 0")

    def test_a_run_with_options_or_nothing_is_refused(self):
        with self.assertRaises(printed.PrintedError):
            printed.program_text("== lesson10_solution --sweep\nrows\n", "10")
        for empty in ("", "== lesson03_solution\n\n"):
            with self.assertRaises(printed.PrintedError):
                printed.program_text(empty, "03")

    def test_the_line_and_its_record(self):
        line = printed.line("2", self.OUTPUT, gpu="NVIDIA H200", date="2026-11-27",
                            driver="580.159.04", cuda="13.0", root="/home/you/course")
        self.assertEqual((line["lesson"], line["what"], line["command"], line["build"]),
                         ("02", "printed", "make lesson-2 SOLUTION=1", "solution"))
        self.assertEqual(measurements.check(json.loads(json.dumps(line))), line)
        tmp = Path(tempfile.mkdtemp(prefix="printed-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        meta = {"meta": True, "gpu": "NVIDIA H200", "date": "2026-11-24"}
        old = [dict(line, date="2026-11-24", text="old 02"), dict(line, lesson="09", text="09"),
               dict(Measurements.GEMM, lesson="09")]
        path = datafile.update(tmp / "nvidia-h200.jsonl", old, lambda l: True, meta=meta)
        self.assertEqual(printed.record(tmp, 2, self.OUTPUT, gpu="NVIDIA H200", date="2026-11-27",
                                        driver="580.159.04", cuda="13.0",
                                        root="/home/you/course"), path)
        kept_meta, lines = datafile.read(path)
        self.assertEqual(kept_meta, meta)
        self.assertEqual(lines, [line] + old[1:])  # its lesson's replaced, the rest kept


class DataFile(unittest.TestCase):
    """The one writer of book/data/<gpu>.jsonl: bench's and a recorded profile's."""

    def profile(self, lesson, shape, kernel, build="solution"):
        m, n, k = map(int, shape.split("x"))
        return dict(Measurements.PROFILE, lesson=lesson, shape=shape, M=m, N=n, K=k,
                    size=m if m == n == k else None, kernel=kernel, build=build)

    def test_a_profile_replaces_its_lesson_and_shapes_lines_and_keeps_the_rest(self):
        tmp = Path(tempfile.mkdtemp(prefix="datafile-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        path = datafile.path_of(datafile.data_dir(tmp, mine=False), "NVIDIA H200")
        self.assertEqual(path, tmp / "nvidia-h200.jsonl")
        self.assertEqual(datafile.path_of(datafile.data_dir(tmp, mine=True), "NVIDIA H100 80GB HBM3"),
                         tmp / "mine" / "nvidia-h100-80gb-hbm3.jsonl")
        meta = {"meta": True, "gpu": "NVIDIA H200", "date": "2026-11-27"}
        gemm = dict(Measurements.GEMM, lesson="11", size=4096, shape="4096x4096x4096",
                    build="solution")
        old = [self.profile("11", "4096x4096x4096", "a"), self.profile("11", "4096x4096x4096", "b"),
               self.profile("11", "8192x7168x2048", "c"), self.profile("10", "4096x4096x4096", "d"),
               gemm]
        datafile.update(path, old, lambda line: True, meta=meta)
        self.assertEqual(datafile.read(path), (meta, old))
        new = [self.profile("11", "4096x4096x4096", "e")]
        datafile.update(path, new, profiles.replaced_by("11", "4096x4096x4096"))
        kept_meta, lines = datafile.read(path)
        self.assertEqual(kept_meta, meta)  # the run's description stays as it was
        self.assertEqual([l.get("kernel") for l in lines], ["e", "c", "d", gemm["kernel"]])
        self.assertFalse(any(f.name.endswith(".tmp") for f in tmp.iterdir()))
        # Without a file: the lines alone, no description.
        other = tmp / "other.jsonl"
        datafile.update(other, new, profiles.replaced_by("11", "4096x4096x4096"))
        self.assertEqual(datafile.read(other), (None, new))


class Bench(unittest.TestCase):
    """make bench on fake lesson programs: the records say which lessons and sizes, the
    measurement reader reads what they print."""

    LINE = ('{"schema": "course.measurement/1", "lesson": "NN", "kernel": "kNN", "M": 64, "N": 64, '
            '"K": 64, "ms": 1.0, "spread": 0.01, "tflops": 5.0, "cublas_ms": 0.5, '
            '"cublas_tflops": 10.0, "pct_of_cublas": 50.0, "checked": true, "passed": true, '
            '"headline": true, "gpu": "Fake GPU", "precision": "PREC"}')

    def fake_build(self):
        """A build folder of fake lesson programs (each prints one measurement line and logs its
        arguments), in a temporary folder: the folder."""
        tmp = Path(tempfile.mkdtemp(prefix="bench-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        write(tmp / "bin" / "lesson01_solution",
              f"#!/bin/sh\necho \"$*\" >> {tmp / 'args.log'}\n"
              "echo '{\"schema\": \"course.measurement/1\", \"lesson\": \"01\", "
              "\"what\": \"copy_bandwidth\", \"value\": 3000.0, \"unit\": \"GB/s\", \"peak\": "
              "3350.0, \"pct_of_peak\": 89.5, \"gpu\": \"Fake GPU\", \"sm_count\": 132, "
              "\"sm_clock_mhz\": 1980}'\n", 0o755)
        # Lesson 02 prints text only, and a path in the course's folder (whose root bench takes
        # out of the text it records).
        write(tmp / "bin" / "lesson02_solution",
              f"#!/bin/sh\n[ -f {tmp / 'fail02'} ] && exit 1\necho 'device: Fake GPU'\n"
              f"echo 'picture: {REPO}/build/dispatch-grid.svg'\n", 0o755)
        for lesson in records.lessons():
            if lesson.kind != "gemm":
                continue
            line = self.LINE.replace("NN", lesson.num).replace("PREC", lesson.precision)
            write(tmp / "bin" / f"lesson{lesson.num}_solution",
                  f"#!/bin/sh\necho \"args: $*\"\necho \"$*\" >> {tmp / 'args.log'}\n"
                  f"echo '{line}'\n"
                  f"echo '{{\"schema\": \"course.measurement/1\", \"lesson\": \"{lesson.num}\", "
                  f"\"what\": \"config\"}}'\n", 0o755)
        return tmp

    def bench(self, tmp, *args):
        """(exit code, output) of bench.py on the fake build `tmp`, into tmp/out."""
        import bench
        argv, probe = sys.argv, bench.probe_gpu
        sys.argv = ["bench.py", "--build", str(tmp), "--out", str(tmp / "out"), "--rest", "0",
                    *args]
        bench.probe_gpu = lambda build=None: None
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                rc = bench.main()
        finally:
            sys.argv, bench.probe_gpu = argv, probe
        return rc, said.getvalue()

    def test_sizes_shapes_and_the_stored_lines(self):
        tmp = self.fake_build()
        rc, said = self.bench(tmp, "--lessons", "3,11", "--no-profile")
        self.assertNotIn("profile", said)
        self.assertEqual(rc, 0, said)
        self.assertIn("lesson 11 (solution) at 8192x7168x2048", said)
        lines = [json.loads(l) for l in (tmp / "out" / "fake-gpu.jsonl").read_text().splitlines()]
        meta, rest = lines[0], lines[1:]
        self.assertEqual(meta["sizes_of"]["03"], ["1024", "2048", "4096"])
        self.assertEqual(meta["sizes_of"]["11"], records.find("11").bench or ["4096", "8192"])
        gemm = [l for l in rest if measurements.is_gemm(measurements.check(l))]
        shapes = [l["shape"] for l in gemm if l["lesson"] == "11"]
        # Each shape twice: burst, then the headline alone in the sustained regime.
        self.assertEqual(len(shapes), 2 * len(meta["sizes_of"]["11"]))
        # (The runs without arguments are those of the transcripts.)
        args = [a for a in (tmp / "args.log").read_text().splitlines() if a]
        sustained = [a for a in args if "--regime sustained" in a]
        self.assertEqual(len(sustained), len(args) // 2)
        self.assertTrue(all("--headline-only" in a for a in sustained))
        # Lesson 01 first: the ceilings, and the check of the method.
        self.assertIn("--method", args[0])
        for l in gemm:
            self.assertEqual(l["size"], int(l["shape"].split("x")[0])
                             if len(set(l["shape"].split("x"))) == 1 else None)
        # A lesson's own measurements are kept from its largest problem only.
        self.assertEqual(sum(1 for l in rest if l.get("what") == "config"), 2)

    def printed_lines(self, tmp, mine=False):
        data = datafile.data_dir(tmp / "out", mine=mine) / "fake-gpu.jsonl"
        return {l["lesson"]: l for l in datafile.read(data)[1] if measurements.is_printed(l)}

    def test_transcripts_replaced_only_by_a_new_one_of_their_lesson(self):
        tmp = self.fake_build()
        old = {num: dict(Measurements.PRINTED, lesson=num, command=printed.command(num),
                         text=f"old {num}", gpu="Fake GPU", date="2000-01-01")
               for num in ("01", "02", "03", "09")}
        datafile.update(tmp / "out" / "fake-gpu.jsonl", list(old.values()), lambda l: True,
                        meta={"meta": True, "gpu": "Fake GPU", "date": "2000-01-01"})
        # --no-printed records none and keeps every one, with or without --lessons.
        for args in (("--lessons", "3"), ()):
            rc, said = self.bench(tmp, *args, "--regimes", "burst", "--no-profile",
                                  "--no-printed")
            self.assertEqual(rc, 0, said)
            self.assertEqual(self.printed_lines(tmp), old)
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile")
        self.assertEqual(rc, 0, said)
        self.assertIn("printed: make lesson-3 SOLUTION=1", said)
        found = self.printed_lines(tmp)
        # 01, 02 and the lesson run now: new; lesson 09, not run now: as it was.
        self.assertEqual(sorted(found), ["01", "02", "03", "09"])
        self.assertEqual(found["09"], old["09"])
        for num in ("01", "02", "03"):
            line = found[num]
            self.assertNotEqual(line["date"], "2000-01-01")
            self.assertEqual((line["command"], line["gpu"], line["build"]),
                             (printed.command(num), "Fake GPU", "solution"))
        # Lesson 02's path is the course's own: its folder is taken out.
        self.assertEqual(found["02"]["text"], "device: Fake GPU\npicture: build/dispatch-grid.svg")
        self.assertIn('"what": "config"', found["03"]["text"])  # the whole output
        # No transcript is taken for a GEMM measurement, nor a measurement for a transcript.
        lines = datafile.read(tmp / "out" / "fake-gpu.jsonl")[1]
        self.assertEqual(sum(1 for l in lines if measurements.is_printed(l)), 4)
        # A run that fails records nothing, keeps the transcript before, and fails the bench.
        (tmp / "fail02").write_text("")
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile")
        self.assertEqual(rc, 1, said)
        self.assertIn("printed output not recorded, the run FAILED (exit 1)", said)
        self.assertEqual(self.printed_lines(tmp)["02"], found["02"])
        # Your builds' file gets no transcript.
        (tmp / "fail02").unlink()
        write(tmp / "bin" / "lesson03", (tmp / "bin" / "lesson03_solution").read_text(), 0o755)
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile",
                              "--mine")
        self.assertEqual(rc, 0, said)
        self.assertEqual(self.printed_lines(tmp, mine=True), {})
        self.assertNotIn("printed:", said)

    def test_profiles_after_the_timings_and_skipped_without_counters(self):
        tmp = self.fake_build()
        tools = tmp / "tools"
        # nvidia-smi says a GPU is here; ncu runs the program, then prints its CSV (a ladder of
        # two kernels, or the headline alone with --headline-only), or refuses the counters.
        write(tools / "nvidia-smi", "#!/bin/sh\n[ \"$1\" = -L ] && echo 'GPU 0: Fake GPU'\n", 0o755)
        ladder = ncu_csv([(1, CUBLAS, TIME, "usecond", "177.4"), (2, LADDER, TIME, "usecond", "372"),
                          (3, CUBLAS, TIME, "usecond", "177.6"), (4, HEADLINE, TIME, "usecond", "181"),
                          (5, HOLD, TIME, "usecond", "100")])
        alone = ncu_csv([(1, CUBLAS, TIME, "usecond", "90"), (2, HEADLINE, TIME, "usecond", "95")])
        write(tmp / "ladder.csv", ladder)
        write(tmp / "alone.csv", alone)
        write(tools / "ncu",
              "#!/bin/sh\n"
              f"echo \"$*\" >> {tmp / 'ncu.log'}\n"
              f"if [ -f {tmp / 'refuse'} ]; then echo '==ERROR== ERR_NVGPUCTRPERM - no access'; "
              "exit 1; fi\n"
              'while [ "$1" != --metrics ]; do shift; done\nshift 2\n"$@"\n'
              f'case " $* " in *" --headline-only "*) cat {tmp / "alone.csv"};; '
              f'*) cat {tmp / "ladder.csv"};; esac\n', 0o755)
        path = os.environ["PATH"]
        os.environ["PATH"] = f"{tools}{os.pathsep}{path}"
        self.addCleanup(os.environ.__setitem__, "PATH", path)
        rc, said = self.bench(tmp, "--lessons", "11", "--only-sizes", "4096,8192x7168x2048,2048")
        self.assertEqual(rc, 0, said)
        data = tmp / "out" / "fake-gpu.jsonl"
        lines = [measurements.check(json.loads(l)) for l in data.read_text().splitlines()]
        found = [l for l in lines if profiles.is_profile(l)]
        # The record's profile list, where the run measured: 4096^3 the ladder, the others the
        # headline and cuBLAS; in the order the record lists them.
        self.assertEqual(sorted({l["shape"] for l in found}),
                         ["2048x2048x2048", "4096x4096x4096", "8192x7168x2048"])
        at4096 = [l for l in found if l["shape"] == "4096x4096x4096"]
        self.assertEqual([(l["kernel"], l["baseline"], l["headline"]) for l in at4096],
                         [(CUBLAS, True, False), ("tma_wgmma_kernel<Cfg<128, 1>>", False, False),
                          ("ring_gemm_kernel<RingConfig<128, 256, 4>>", False, True)])
        self.assertEqual(at4096[0]["metrics"][TIME], 177500.0)
        shapes = [l for l in found if l["shape"] == "8192x7168x2048"]
        self.assertEqual([(l["baseline"], l["headline"], l["size"]) for l in shapes],
                         [(True, False, None), (False, True, None)])
        calls = (tmp / "ncu.log").read_text().splitlines()
        self.assertEqual(sum("--headline-only" not in c for c in calls), 1)  # the ladder once
        self.assertTrue(all("--clock-control none" in c and "--reps 1" in c for c in calls))
        self.assertIn("--m 8192 --n 7168 --k 2048", " ".join(calls))
        self.assertIn("recorded 3 kernel(s) of lesson 11 at 4096x4096x4096 (the ladder)", said)
        # Timed again where ncu may not read the counters: one line says so, the bench goes on,
        # and the profiles recorded before are kept beside the new timings.
        (tmp / "refuse").write_text("")
        rc, said = self.bench(tmp, "--lessons", "11", "--only-sizes", "4096")
        self.assertEqual(rc, 0, said)
        self.assertEqual(said.count("profiles skipped: ncu may not read the GPU's performance "
                                    "counters"), 1, said)
        again = [json.loads(l) for l in data.read_text().splitlines()]
        self.assertEqual([l for l in again if profiles.is_profile(l)], found)
        self.assertEqual(len([l for l in again if measurements.is_gemm(l)]),
                         len([l for l in lines if measurements.is_gemm(l)]))


# ---- the fake course -----------------------------------------------------------------------------


if __name__ == "__main__":
    unittest.main()
