"""Tests of the records and their reader (course/tomlsubset.py, course/records.py) and of
PartState."""

from course_fixtures import *  # noqa: F401,F403 (the fake course, the tools' modules)


class TomlSubset(unittest.TestCase):
    SAMPLE = '''# a comment
number = 3
title = "a \\"quoted\\" title # not a comment"  # a comment
path = 'C:\\literal'
ratio = 0.5
big = 1_000
negative = -2.5e-3
flag = true
parts = ["cpu",
  "gpu", # the second
]
empty = []

[measure]
ragged = "--m 257"

[[task]]
title = "one"
regions = ["a", "b"]

[[task]]
title = "two \\u00e9"
regions = []
'''

    def test_a_sample_of_every_feature(self):
        doc = tomlsubset.loads(self.SAMPLE)
        self.assertEqual(doc["number"], 3)
        self.assertEqual(doc["title"], 'a "quoted" title # not a comment')
        self.assertEqual(doc["path"], "C:\\literal")
        self.assertEqual(doc["big"], 1000)
        self.assertEqual(doc["parts"], ["cpu", "gpu"])
        self.assertEqual(doc["measure"], {"ragged": "--m 257"})
        self.assertEqual([t["title"] for t in doc["task"]], ["one", "two \u00e9"])
        if tomllib:
            self.assertEqual(doc, tomllib.loads(self.SAMPLE))

    @unittest.skipUnless(tomllib, "tomllib needs Python 3.11")
    def test_agrees_with_tomllib_on_every_lesson_record(self):
        paths = sorted((REPO / "lessons").glob("*/lesson.toml"))
        self.assertTrue(paths)
        for path in paths:
            text = path.read_text()
            self.assertEqual(tomlsubset.loads(text, str(path)), tomllib.loads(text), path)

    def test_what_is_not_in_the_subset_is_an_error_with_its_line(self):
        for text, message in (("a = 1\nb = 03\n", "r:2: a value must be"),
                              ('a = """x"""', "multi-line strings"),
                              ("a.b = 1", "dotted keys"),
                              ("a = {x = 1}", "inline tables"),
                              ("a = 1\na = 2", "r:2: the key 'a' is defined twice"),
                              ("[t]\n[t]", "[t]: 't' is already defined"),
                              ("a = [1,\n 2", "never closed"),
                              ('a = "x', "must end on its line"),
                              ("a = 1 2", "expected the end of the line"),
                              ("a = 1979-05-27", "a value must be"),
                              ("[a.b]", "dotted keys")):
            with self.assertRaises(tomlsubset.TomlError) as cm:
                tomlsubset.loads(text, "r")
            self.assertIn(message, str(cm.exception), text)


class Records(unittest.TestCase):
    def test_the_real_records(self):
        lessons = records.lessons()
        self.assertEqual([l.num for l in lessons][:3], ["01", "02", "03"])
        naive = records.find("3")
        self.assertEqual((naive.kind, naive.precision, naive.parts), ("gemm", "fp32", ["gpu"]))
        self.assertEqual((naive.solution_target_pct, naive.solution_target_approx), (1.0, True))
        self.assertEqual(naive.ragged[:2], ["--m", "257"])
        self.assertTrue(naive.metrics)
        for l in lessons:
            self.assertTrue(l.tasks, l.num)
            self.assertEqual([t.tag for t in l.tasks],
                             [f"task_{i}" for i in range(1, len(l.tasks) + 1)])

    def test_targets_and_shapes(self):
        self.assertEqual(records.parse_target(12, False), (12.0, False))
        self.assertEqual(records.parse_target("~1", True), (1.0, True))
        self.assertIsNone(records.parse_target("~1", False))
        self.assertIsNone(records.parse_target(-3, True))
        self.assertEqual(records.parse_shape("4096"), (4096, 4096, 4096))
        self.assertEqual(records.parse_shape("8192x7168x2048"), (8192, 7168, 2048))
        self.assertIsNone(records.parse_shape("0"))
        self.assertIsNone(records.parse_shape("8192x7168"))

    def test_the_problems_of_a_record(self):
        rec = tomlsubset.loads('number = 4\nslug = "x"\ntitle = 1\nmin_cc = "9"\nkind = "fast"\n'
                               'parts = []\ncolour = "red"\n[[task]]\ntitle = "t"\ntag = "task_2"\n'
                               'regions = []\n')
        text = "\n".join(records.record_problems("03", "naive", rec, "r"))
        for message in ("number = 4, but the manifest lists it as 03", "slug = 'x'",
                        "'title' must be a string", "min_cc must be a compute capability",
                        "kind must be one of gemm, other", "parts must list",
                        "unknown key 'colour'", "no 'precision'", "its tag is 'task_1'",
                        "'regions' names no fill-in region"):
            self.assertIn(message, text)

    def test_the_profile_sizes_are_bench_sizes(self):
        lesson11 = records.find("11")
        self.assertEqual(lesson11.profile[0], "4096")
        self.assertTrue(set(lesson11.profile) <= set(lesson11.bench))
        base = ('number = 3\nslug = "naive"\ntitle = "t"\nchapter = "lesson03"\nmin_cc = "7.5"\n'
                'precision = "fp32"\nkind = "gemm"\nparts = ["gpu"]\nhints = "hints.md"\n'
                '[measure]\nbench = ["1024", "8192x7168x2048"]\nprofile = PROFILE\n'
                '[[task]]\ntitle = "t"\ntag = "task_1"\nregions = ["r"]\n')

        def problems(profile):
            rec = tomlsubset.loads(base.replace("PROFILE", profile), "r")
            return records.record_problems("03", "naive", rec, "r")

        self.assertEqual(problems('["8192x7168x2048", "1024"]'), [])
        self.assertEqual(problems("[]"), [])
        text = "\n".join(problems('["1024", "2048"]'))
        self.assertIn("r [measure]: profile entry '2048' is not one of the bench sizes", text)
        self.assertIn("names a size twice", "\n".join(problems('["1024", "1024"]')))
        self.assertIn("'profile' must be an array of strings", "\n".join(problems('"1024"')))


    def test_the_configurations_are_named_whole(self):
        # A lesson's [configs] names its list, the file of it, the kernel's file and its macro, all
        # four or none; the files are the lesson's. Lessons 08 to 11 have one, and a save's grader.
        base = ('number = 8\nslug = "warp-shuffle"\ntitle = "t"\nchapter = "lesson08"\n'
                'min_cc = "7.5"\nprecision = "fp32"\nkind = "gemm"\nparts = ["gpu"]\n'
                'hints = "hints.md"\n[configs]\nCONFIGS\n'
                '[[task]]\ntitle = "t"\ntag = "task_1"\nregions = ["r"]\n')

        def problems(configs):
            rec = tomlsubset.loads(base.replace("CONFIGS", configs), "r")
            return "\n".join(records.record_problems("08", "warp-shuffle", rec, "r"))

        whole = ('header = "warptiled_sgemm.hpp"\nlist = "LESSON08_CONFIGS"\n'
                 'kernel = "calls-yours/warptiled_kernel.cuh"\ninstance = "LESSON08_CONFIG"')
        self.assertEqual(problems(whole), "")
        self.assertIn("r [configs]: it names all of header, list, kernel, instance",
                      problems('list = "LESSON08_CONFIGS"'))
        self.assertIn("r [configs]: kernel 'calls-yours/nothing.cuh' is not a file of "
                      "lessons/08-warp-shuffle/",
                      problems(whole.replace("warptiled_kernel.cuh", "nothing.cuh")))
        self.assertEqual([n for n in ("07", "08", "09", "10", "11")
                          if building.has_quick_grader(records.find(n))],
                         ["08", "09", "10", "11"])

    def test_the_tracks_of_lesson_11(self):
        lesson11 = records.find("11")
        self.assertEqual([(t.name, t.cc, t.headline) for t in lesson11.tracks],
                         [("wgmma", ["9.0"], "hopper_gemm"),
                          ("portable", ["10.0", "12.0"], "portable_gemm")])
        self.assertEqual((lesson11.min_cc, lesson11.min_cc_for), ("9.0", "TMA"))
        self.assertEqual(records.find("10").min_cc_for, "bf16 mma.sync")
        # The first track's target is the lesson's (the reference GPU's); the portable track has
        # none until a reference is measured on such a GPU.
        self.assertEqual(lesson11.learner_target_pct, 80.0)
        self.assertEqual(lesson11.track_target(lesson11.track_of("hopper_gemm")), 80.0)
        self.assertIsNone(lesson11.track_target(lesson11.track_of("portable_gemm")))
        self.assertIsNone(lesson11.track_of("some_kernel"))
        self.assertIsNone(records.find("10").track_of("hopper_gemm"))

    def test_the_problems_of_tracks(self):
        base = ('number = 3\nslug = "naive"\ntitle = "t"\nchapter = "lesson03"\nmin_cc = "9.0"\n'
                'precision = "fp32"\nkind = "gemm"\nparts = ["gpu"]\nhints = "hints.md"\nTOP\n'
                '[[task]]\ntitle = "t"\ntag = "task_1"\nregions = ["r"]\n'
                '[[track]]\nname = "a"\ncc = ["9.0"]\nheadline = "k1"\nruns = "all"\n'
                'learner_target = 50\n'
                '[[track]]\nname = "b"\ncc = CC\nheadline = "K2"\nruns = "some"\n')

        def problems(cc='["10.0", "12.0"]', top="", headline="k2"):
            rec = tomlsubset.loads(base.replace("CC", cc).replace("TOP", top)
                                   .replace("K2", headline), "r")
            return "\n".join(records.record_problems("03", "naive", rec, "r"))

        self.assertEqual(problems(), "")
        self.assertIn("r [[track]] 2: cc 8.9 is below the lesson's min_cc 9.0", problems('["8.9"]'))
        self.assertIn("r [[track]] 2: cc 9.0 is in track 1 too", problems('["9.0"]'))
        self.assertIn("cc '12' is not a compute capability", problems('["12"]'))
        self.assertIn("'cc' names no compute capability", problems("[]"))
        self.assertIn("the headline 'k1' is track 1's too", problems(headline="k1"))
        self.assertIn("learner_target is given per track", problems(top="learner_target = 5"))
        rec = tomlsubset.loads(base.replace("CC", '["10.0"]').replace("TOP", "")
                               .replace("K2", "k2").replace("learner_target = 50", "runs2 = 1"),
                               "r")
        self.assertIn("r [[track]] 1: unknown key 'runs2'",
                      "\n".join(records.record_problems("03", "naive", rec, "r")))


class PartStates(unittest.TestCase):
    def test_the_states_of_a_part_are_an_enum(self):
        from course import judge
        self.assertEqual([s.value for s in judge.PartState],
                         ["none", "skipped", "passed", "not started", "failing", "crashed"])
        self.assertEqual(f"{judge.PartState.NOT_STARTED}", "not started")
        self.assertEqual(judge.PartState("skipped"), "skipped")


if __name__ == "__main__":
    unittest.main()
