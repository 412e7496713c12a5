"""The schema of a lesson's record, lessons/NN-slug/lesson.toml: one typed field per key, with what
it means. The reader (records.py) checks a record against these fields (their types, and which may
be left out: those with a default); the build gets what it needs from them through `course.py
cmake-records` (CMakeLists.txt); the manifest's header points here.

Every test case of a grader carries exactly one [task_N] tag (a test of the whole kernel carries
the tag of the last task it needs), every fill-in region belongs to a task, and the hints file has
one section per task: `## Task N: title`, then `### Hint 1`, `### Hint 2`, ...
"""

import dataclasses
import typing
from typing import List, Optional, Union


@dataclasses.dataclass
class Measure:
    """[measure]: what `make sanitize-N`, `make profile-N` and `make bench` run."""

    ragged: Optional[str] = None
    """The lesson program's arguments for a small ragged run, as one string (GEMM lessons default
    to "--m 257 --n 255 --k 300 --check-only")."""

    sanitize: List[str] = dataclasses.field(default_factory=lambda: ["memcheck", "racecheck"])
    """The compute-sanitizer tools to run."""

    bench: List[str] = dataclasses.field(default_factory=list)
    """The sizes ("4096": M = N = K) or shapes ("8192x7168x2048": M x N x K) that `make bench`
    times; default 1024, 2048, 4096 (FP32) or 4096, 8192 (bf16)."""

    sweep: Optional[str] = None
    """One of the `bench` sizes at which `make bench` also passes `--sweep` (burst regime): the
    lesson program then checks and times the variants the chapter compares (lesson 11's lab), and
    their lines are recorded like the ladder's. None: no sweep."""

    profile: List[str] = dataclasses.field(default_factory=list)
    """Where `make bench` profiles the lesson with Nsight Compute and records the figures in
    book/data/ (`make profile-N SIZE=S RECORD=1`, one run each): sizes or shapes of the `bench`
    list, each one of them. The first profiles the whole ladder, every kernel the program times
    and cuBLAS's; the others the headline kernel and cuBLAS's alone (`--headline-only`). The
    first is also `make profile-N`'s size when SIZE is not given. Empty: no profile recorded."""


@dataclasses.dataclass
class Configs:
    """A lesson's kernel configurations: one list, an X-macro with a line a configuration,
    X(quick or full, its arguments...). The build compiles each line in a file of its own, written
    into the build folder; a save's grader compiles the quick lines alone, together in one file.
    The given code lists what its library compiled with COURSE_BUILT_CONFIGS(X), the same lines
    (built_configs.hpp, written by the build)."""

    header: Optional[str] = None
    """The file of the lesson's folder that defines the list, "warptiled_sgemm.hpp"."""

    list: Optional[str] = None
    """The X-macro, "LESSON08_CONFIGS"."""

    kernel: Optional[str] = None
    """The file of the lesson's folder that compiles a configuration (it includes yours),
    "calls-yours/warptiled_kernel.cuh"."""

    instance: Optional[str] = None
    """Its macro, given a line's arguments after the tag: "LESSON08_CONFIG"."""


@dataclasses.dataclass
class Metric:
    """[[metric]]: one Nsight Compute metric `make profile-N` shows, in order."""

    name: str
    """The metric's name."""

    shows: str
    """What it shows, and which way the lesson's optimization should move it."""


@dataclasses.dataclass
class Task:
    """[[task]]: one task of the exercise, in order (a lesson has at least one)."""

    title: str
    """What the task is, in a few words ("the ring")."""

    tag: str
    """"task_N" for the Nth task: its test cases carry the Catch2 tag [task_N]."""

    regions: List[str]
    """The `// BEGIN EXERCISE: name` regions of exercises/NN-slug/ it fills in (an "every edge"
    task may name regions of an earlier task again)."""


@dataclasses.dataclass
class Track:
    """[[track]]: one of the kernels a lesson times as its headline, where GPUs differ in what they
    run (lesson 11: "wgmma" on compute capability 9.0, "portable" on 10.0 and 12.0). A GPU's track
    is the one whose headline kernel its lesson program timed. The first track is the reference
    GPU's, where `solution_target` is measured. Without tracks, a lesson has one headline kernel on
    every GPU from min_cc, and `learner_target` is its target."""

    name: str
    """The track's name, in a word ("wgmma", "portable")."""

    cc: List[str]
    """The compute capabilities of the GPUs that take it ("9.0"; each at least min_cc, in one
    track only): the README's and the book's GPU lines name them."""

    headline: str
    """The headline kernel the lesson program times on those GPUs, as its measurement lines name
    it ("hopper_gemm"): `make grade PERF=1` knows the GPU's track by it."""

    runs: str
    """What those GPUs run of the lesson, in a few words ("the portable rung (TMA, mma.sync)"):
    the README's and the book's GPU lines say it."""

    learner_target: Optional[float] = None
    """What `make grade PERF=1` holds your headline kernel to on those GPUs, % of cuBLAS. Left out
    while no reference solution has been measured on such a GPU: the verdict is then "no target
    for this GPU yet"."""


@dataclasses.dataclass
class Record:
    """A lesson's record. Neither target ever decides whether a lesson passes: correctness alone
    does."""

    number: int
    """The lesson's number, as a whole number (3 for 03)."""

    slug: str
    """The slug, as the manifest spells it."""

    title: str
    """The chapter's title."""

    chapter: str
    """The chapter's anchor, "lessonNN" (the first line of lessons/NN-slug/README.md)."""

    min_cc: str
    """The minimum compute capability, e.g. "7.5" (the build: COURSE_LESSON_MIN_CC, and the
    grader's GPU part skips below it; the README's and the book's GPU lines)."""

    precision: str
    """"fp32", "bf16" or "none": the precision of the lesson's GEMM kernels."""

    kind: str
    """"gemm" when the lesson program prints the measurement lines of its GEMM kernels
    (common/gemm_driver.hpp: `make bench` and `make grade PERF=1` time its headline kernel),
    "other" otherwise."""

    parts: List[str]
    """The grader's parts, ["cpu", "gpu"], ["cpu"] or ["gpu"]: every test case is tagged [cpu] or
    [gpu], and each part is its own CTest test."""

    hints: str
    """The hints file in the lesson's folder, "hints.md"."""

    task: List[Task]
    """The exercise's tasks, in order."""

    solution_target: Union[float, str, None] = None
    """The reference solution's target in % of cuBLAS (SGEMM for FP32 lessons, the bf16 GEMM for
    bf16 ones) for the headline kernel on an H100 SXM, at M = N = K = 4096 (FP32) or 4096 and 8192
    (bf16): N means at least N%, "~N" about N% (met when the measurement rounds to N). `make
    readme` and the book set it against book/data/."""

    learner_target: Optional[float] = None
    """What `make grade PERF=1` holds your own kernel to on your own GPU (met or missed), somewhat
    under what the reference solution reaches. A lesson with tracks gives it per track instead."""

    chapter_lines: Optional[int] = None
    """The most lines the chapter (README.md) may have: `make book` fails above it."""

    mandatory_lines: Optional[int] = None
    """The most lines the chapter may have before its "## Going further" heading (what a learner
    must read to do the exercises): `make book` fails above it, and without the heading."""

    min_cc_for: Optional[str] = None
    """What needs min_cc, in a few words, where it is above the course's lowest ("bf16 mma.sync",
    "TMA"): the README's and the book's GPU lines say it."""

    track: List[Track] = dataclasses.field(default_factory=list)
    """The lesson's tracks, where GPUs differ in the headline kernel they time (lesson 11); empty:
    one headline on every GPU."""

    measure: Measure = dataclasses.field(default_factory=Measure)
    """What the measuring targets run."""

    metric: List[Metric] = dataclasses.field(default_factory=list)
    """The Nsight Compute metrics `make profile-N` shows."""

    configs: Configs = dataclasses.field(default_factory=Configs)
    """The kernel configurations the build compiles one a file (lessons 08 to 11); none by
    default."""


STR, INT, NUM, LIST, TABLE, TABLES = "a string", "a whole number", "a number", \
    "an array of strings", "a table", "an array of tables"
TARGET = "a number or a string '~N'"


def _what(annotation):
    """How a field's type reads in a message about a record, and is checked."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Union:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _what(rest[0])
        return TARGET
    if origin in (list, List):
        return TABLES if dataclasses.is_dataclass(args[0]) else LIST
    if dataclasses.is_dataclass(annotation):
        return TABLE
    return {str: STR, int: INT, float: NUM}[annotation]


def keys(cls):
    """{key: (what it must be, required)} of a record's table, from its dataclass."""
    hints = typing.get_type_hints(cls)
    out = {}
    for f in dataclasses.fields(cls):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out[f.name] = (_what(hints[f.name]), required)
    return out


def build(cls, table):
    """The dataclass `cls` from a checked table (records.record_problems found nothing wrong)."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in table:
            continue
        value, annotation = table[f.name], hints[f.name]
        args = typing.get_args(annotation)
        if dataclasses.is_dataclass(annotation):
            value = build(annotation, value)
        elif typing.get_origin(annotation) in (list, List) and dataclasses.is_dataclass(args[0]):
            value = [build(args[0], v) for v in value]
        values[f.name] = value
    return cls(**values)
