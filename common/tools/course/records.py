"""The lessons: lessons/manifest.txt (their order) and each lesson's record,
lessons/NN-slug/lesson.toml (everything the build and the tools know about it).

The manifest lists the lessons in course order, one line each, `NN slug`. The record's keys are
described in the manifest's header; it is TOML, read by tomllib (Python 3.11 and later) or, on an
older Python, by the subset reader of tomlsubset.py. A record
that cannot be read stops every tool with the file, the line and what is wrong (RecordError);
`course.py check-repo` also checks that what a record names exists (folders, files, regions, test
tags, hints).
"""

import re
import shlex
import sys
from pathlib import Path

from . import schema, tomlsubset
from .schema import INT, LIST, NUM, STR, TABLE, TABLES
from .util import ROOT

try:
    import tomllib
except ImportError:  # Python < 3.11: the subset reader
    tomllib = None

MANIFEST = ROOT / "lessons" / "manifest.txt"
RECORD = "lesson.toml"
PRECISIONS = ("fp32", "bf16", "none")
KINDS = ("gemm", "other")
PARTS = ("cpu", "gpu")
# The measurement of a GEMM lesson without its own `ragged`: a small problem, ragged everywhere,
# checked and not timed (no cuBLAS under the sanitizers).
GEMM_RAGGED = ["--m", "257", "--n", "255", "--k", "300", "--check-only"]

# key: (what it must be, required), from the schema's typed fields (schema.py).
TOP_KEYS = schema.keys(schema.Record)
MEASURE_KEYS = schema.keys(schema.Measure)
CONFIGS_KEYS = schema.keys(schema.Configs)
METRIC_KEYS = schema.keys(schema.Metric)
TASK_KEYS = schema.keys(schema.Task)
TRACK_KEYS = schema.keys(schema.Track)


class RecordError(Exception):
    """The manifest or a record cannot be read: the message names the file and the line."""


def _is(value, what):
    if what == STR:
        return isinstance(value, str)
    if what == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if what == NUM:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if what == LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if what == TABLE:
        return isinstance(value, dict)
    if what == TABLES:
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _check_keys(table, spec, where):
    problems = []
    for key, (what, required) in spec.items():
        if key not in table:
            if required:
                problems.append(f"{where}: no '{key}' ({what})")
        elif not _is(table[key], what):
            problems.append(f"{where}: '{key}' must be {what}, not {table[key]!r}")
    for key in table:
        if key not in spec:
            problems.append(f"{where}: unknown key '{key}' (known: {', '.join(spec)})")
    return problems


def parse_target(value, approx_allowed):
    """(percent, about) of a target: 12 -> (12.0, False); "~1" -> (1.0, True); None for none."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (float(value), False) if value > 0 else None
    if approx_allowed and isinstance(value, str) and value.startswith("~"):
        try:
            v = float(value[1:])
        except ValueError:
            return None
        return (v, True) if v > 0 else None
    return None


SHAPE = re.compile(r"^([1-9][0-9]*)(?:x([1-9][0-9]*)x([1-9][0-9]*))?$")


def parse_shape(text):
    """"4096" -> (4096, 4096, 4096); "8192x7168x2048" -> (8192, 7168, 2048); None otherwise."""
    m = SHAPE.match(text.strip())
    if not m:
        return None
    if m.group(2):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    return (int(m.group(1)),) * 3


def size_args(size):
    """The lesson program's arguments for a size or shape: ["--size", "4096"] for a cube,
    ["--m", "8192", "--n", "7168", "--k", "2048"] for another shape."""
    m, n, k = parse_shape(size)
    return ["--size", str(m)] if m == n == k else ["--m", str(m), "--n", str(n), "--k", str(k)]


def size_value(size):
    """What a stored line's "size" says: 4096 for a cube, None for another shape."""
    m, n, k = parse_shape(size)
    return m if m == n == k else None


def shape_value(size):
    """What a stored line's "shape" says: "4096x4096x4096", "8192x7168x2048"."""
    return "x".join(str(d) for d in parse_shape(size))


def volume(size):
    m, n, k = parse_shape(size)
    return m * n * k


class Task:
    """One task of a lesson's exercise: its fill-in regions, its test tag, its hints (hints.py)."""

    def __init__(self, number, title, tag, regions):
        self.number, self.title, self.tag, self.regions = number, title, tag, list(regions)

    @property
    def key(self):
        """The task's key in .course/progress.json: "1"."""
        return str(self.number)

    def label(self):
        return f"task {self.number} {self.title}"

    def __repr__(self):
        return f"Task({self.number}, {self.title!r})"


class Lesson:
    """One lesson: its manifest line and its record (schema.Record)."""

    def __init__(self, num, slug, record, path):
        self.num, self.slug, self.path = num, slug, path
        self.record = record
        self.title = record.title
        self.chapter = record.chapter
        self.min_cc = record.min_cc
        self.precision = record.precision
        self.kind = record.kind
        self.parts = list(record.parts)
        self.hints_file = record.hints
        self.solution_target = record.solution_target
        self.learner_target = record.learner_target
        self.min_cc_for = record.min_cc_for
        self.tracks = list(record.track)
        self.ragged_args = record.measure.ragged
        self.sanitize = list(record.measure.sanitize)
        self.bench = list(record.measure.bench)
        self.sweep = record.measure.sweep
        self.profile = list(record.measure.profile)
        self.configs = record.configs
        self.metrics = [(m.name, m.shows) for m in record.metric]
        self.tasks = [Task(i, t.title, t.tag, t.regions) for i, t in enumerate(record.task, 1)]

    @property
    def dir(self):
        return f"{self.num}-{self.slug}"

    @property
    def n(self):
        """The number as the make targets spell it: 3 for 03."""
        return int(self.num)

    @property
    def cc_digits(self):
        return self.min_cc.replace(".", "")

    @property
    def hints(self):
        """The hints file, from the top of the course: lessons/NN-slug/hints.md."""
        return f"lessons/{self.dir}/{self.hints_file}"

    @property
    def ragged(self):
        """The arguments of the lesson program's small ragged run (make sanitize-N)."""
        if self.ragged_args is not None:
            return shlex.split(self.ragged_args)
        return list(GEMM_RAGGED) if self.kind == "gemm" else []

    @property
    def bench_shapes(self):
        """The record's `bench` list as (M, N, K) shapes, in order."""
        return [parse_shape(s) for s in self.bench if parse_shape(s)]

    @property
    def learner_target_pct(self):
        """The learner's performance target, % of cuBLAS (`make grade PERF=1`), or None; in a
        lesson with tracks, the first track's (the reference GPU's): track_target() gives each
        GPU's."""
        value = self.tracks[0].learner_target if self.tracks else self.learner_target
        parsed = parse_target(value, approx_allowed=False)
        return parsed[0] if parsed else None

    def track_of(self, kernel):
        """The track whose headline kernel is `kernel` (what the GPU timed), or None (no tracks, or
        a kernel none of them names)."""
        return next((t for t in self.tracks if t.headline == kernel), None)

    def track_target(self, track):
        """The learner's target on the GPUs of `track`, % of cuBLAS, or None while it has none."""
        parsed = parse_target(track.learner_target, approx_allowed=False)
        return parsed[0] if parsed else None

    def targets_text(self):
        """The learner's targets of a lesson with tracks, as a line says them: "80% of cuBLAS on
        compute capability 9.0 (wgmma: hopper_gemm); none yet on 10.0 and 12.0 (portable:
        portable_gemm)"; "" without tracks."""
        parts = []
        for i, t in enumerate(self.tracks):
            target = self.track_target(t)
            on = ("compute capability " if i == 0 else "") + and_list(t.cc)
            parts.append(f"{f'{target:g}% of cuBLAS' if target is not None else 'none yet'} on {on} "
                         f"({t.name}: {t.headline})")
        return "; ".join(parts)

    @property
    def solution_target_pct(self):
        """The reference solution's target, % of cuBLAS on the H100, or None."""
        parsed = parse_target(self.solution_target, approx_allowed=True)
        return parsed[0] if parsed else None

    @property
    def solution_target_approx(self):
        """True when the reference solution's target is 'about N' ("~N"), not 'at least N'."""
        parsed = parse_target(self.solution_target, approx_allowed=True)
        return bool(parsed and parsed[1])

    # The learner's target under its older name, for the grading code.
    @property
    def target_pct(self):
        return self.learner_target_pct

    def task(self, number):
        return next((t for t in self.tasks if t.number == int(number)), None)

    def task_of_tags(self, tags):
        """The task a test case with these tags belongs to: its [task_N] tag, else the last task
        (a whole-lesson test)."""
        for t in self.tasks:
            if t.tag in tags:
                return t
        return self.tasks[-1] if self.tasks else None


def and_list(items):
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def read_manifest(path=None):
    """[(number, slug, line)] of lessons/manifest.txt, in course order."""
    path = path or MANIFEST
    try:
        text = path.read_text()
    except OSError as e:
        raise RecordError(f"{path}: cannot be read ({e})") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = re.fullmatch(r"(\d\d)\s+([a-z0-9][a-z0-9-]*)", stripped)
        if not m:
            raise RecordError(f"{path.name}:{n}: a lesson line is 'NN slug' (e.g. '03 naive'), "
                              f"not {stripped!r}")
        out.append((m.group(1), m.group(2), n))
    return out


def record_problems(num, slug, record, where):
    """What is wrong with a record's keys and values (it can be read, but not used)."""
    problems = _check_keys(record, TOP_KEYS, where)
    if _is(record.get("measure"), TABLE):
        problems += _check_keys(record["measure"], MEASURE_KEYS, f"{where} [measure]")
    if _is(record.get("configs"), TABLE):
        configs = record["configs"]
        problems += _check_keys(configs, CONFIGS_KEYS, f"{where} [configs]")
        if set(configs) != set(CONFIGS_KEYS):
            problems.append(f"{where} [configs]: it names all of {', '.join(CONFIGS_KEYS)} or is "
                            f"left out")
        folder = ROOT / "lessons" / f"{num}-{slug}"
        for key in ("header", "kernel"):
            if _is(configs.get(key), STR) and not (folder / configs[key]).is_file():
                problems.append(f"{where} [configs]: {key} {configs[key]!r} is not a file of "
                                f"lessons/{num}-{slug}/")
    for i, m in enumerate(record.get("metric", []) if _is(record.get("metric"), TABLES) else [], 1):
        problems += _check_keys(m, METRIC_KEYS, f"{where} [[metric]] {i}")
    tasks = record.get("task", []) if _is(record.get("task"), TABLES) else []
    for i, t in enumerate(tasks, 1):
        problems += _check_keys(t, TASK_KEYS, f"{where} [[task]] {i}")
        if t.get("tag") is not None and t.get("tag") != f"task_{i}":
            problems.append(f"{where} [[task]] {i}: its tag is 'task_{i}' (the Catch2 tag "
                            f"[task_{i}]), not {t.get('tag')!r}")
        if _is(t.get("regions"), LIST) and not t["regions"]:
            problems.append(f"{where} [[task]] {i}: 'regions' names no fill-in region")
    problems += track_problems(record, where)
    if "task" in record and not tasks:
        problems.append(f"{where}: no [[task]]: a lesson has at least one task")
    if _is(record.get("number"), INT) and record["number"] != int(num):
        problems.append(f"{where}: number = {record['number']}, but the manifest lists it as {num}")
    if _is(record.get("slug"), STR) and record["slug"] != slug:
        problems.append(f"{where}: slug = {record['slug']!r}, but the manifest says {slug!r}")
    if _is(record.get("min_cc"), STR) and not re.fullmatch(r"\d+\.\d", record["min_cc"]):
        problems.append(f"{where}: min_cc must be a compute capability like \"7.5\", not "
                        f"{record['min_cc']!r}")
    for key, allowed in (("precision", PRECISIONS), ("kind", KINDS)):
        if _is(record.get(key), STR) and record[key] not in allowed:
            problems.append(f"{where}: {key} must be one of {', '.join(allowed)}, not "
                            f"{record[key]!r}")
    parts = record.get("parts")
    if _is(parts, LIST) and (not parts or any(p not in PARTS for p in parts)
                             or len(set(parts)) != len(parts)):
        problems.append(f"{where}: parts must list \"cpu\" and/or \"gpu\" once each, not {parts!r}")
    if "solution_target" in record and parse_target(record["solution_target"], True) is None:
        problems.append(f"{where}: the solution target {record['solution_target']!r} is neither a "
                        f"positive number (at least that % of cuBLAS) nor '~' and one (about "
                        f"that %); leave the key out for none")
    if "learner_target" in record and parse_target(record["learner_target"], False) is None:
        problems.append(f"{where}: the learner target {record['learner_target']!r} is not a "
                        f"positive number (% of cuBLAS); leave the key out for none")
    chapter = record.get("chapter")
    if _is(chapter, STR) and chapter != f"lesson{num}":
        problems.append(f"{where}: chapter must be the chapter's anchor 'lesson{num}', not "
                        f"{chapter!r}")
    measure = record.get("measure") if _is(record.get("measure"), TABLE) else {}
    for s in measure.get("bench", []) if _is(measure.get("bench"), LIST) else []:
        if parse_shape(s) is None:
            problems.append(f"{where} [measure]: bench entry {s!r} is neither a size \"4096\" nor "
                            f"a shape \"MxNxK\"")
    if "sweep" in measure and measure["sweep"] not in measure.get("bench", []):
        problems.append(f"{where} [measure]: sweep {measure['sweep']!r} is not one of the bench "
                        f"sizes")
    bench = measure.get("bench", []) if _is(measure.get("bench"), LIST) else []
    for s in measure.get("profile", []) if _is(measure.get("profile"), LIST) else []:
        if s not in bench:
            problems.append(f"{where} [measure]: profile entry {s!r} is not one of the bench "
                            f"sizes (make bench profiles only where it times)")
    profile = measure.get("profile") if _is(measure.get("profile"), LIST) else []
    if len(set(profile)) != len(profile):
        problems.append(f"{where} [measure]: profile names a size twice: {profile!r}")
    if _is(measure.get("ragged"), STR):
        try:
            shlex.split(measure["ragged"])
        except ValueError as e:
            problems.append(f"{where} [measure]: ragged cannot be split into arguments ({e})")
    return problems


def cc_value(cc):
    """A compute capability as a number to compare: "12.0" -> (12, 0)."""
    major, minor = cc.split(".")
    return int(major), int(minor)


def track_problems(record, where):
    """What is wrong with a record's [[track]] tables: their compute capabilities (valid, at least
    min_cc, each in one track), their headline kernels (each in one track), their targets."""
    tracks = record.get("track", []) if _is(record.get("track"), TABLES) else []
    min_cc = record.get("min_cc") if _is(record.get("min_cc"), STR) else None
    problems, seen_cc, seen_headline = [], {}, {}
    for i, t in enumerate(tracks, 1):
        at = f"{where} [[track]] {i}"
        problems += _check_keys(t, TRACK_KEYS, at)
        ccs = t.get("cc") if _is(t.get("cc"), LIST) else []
        if "cc" in t and not ccs:
            problems.append(f"{at}: 'cc' names no compute capability")
        for cc in ccs:
            if not re.fullmatch(r"\d+\.\d", cc):
                problems.append(f"{at}: cc {cc!r} is not a compute capability like \"9.0\"")
                continue
            if min_cc and re.fullmatch(r"\d+\.\d", min_cc) and cc_value(cc) < cc_value(min_cc):
                problems.append(f"{at}: cc {cc} is below the lesson's min_cc {min_cc}")
            if cc in seen_cc:
                problems.append(f"{at}: cc {cc} is in track {seen_cc[cc]} too: a GPU takes one track")
            seen_cc.setdefault(cc, i)
        headline = t.get("headline")
        if _is(headline, STR):
            if headline in seen_headline:
                problems.append(f"{at}: the headline {headline!r} is track "
                                f"{seen_headline[headline]}'s too")
            seen_headline.setdefault(headline, i)
        if "learner_target" in t and parse_target(t["learner_target"], False) is None:
            problems.append(f"{at}: the learner target {t['learner_target']!r} is not a positive "
                            f"number (% of cuBLAS); leave the key out while there is none")
    if tracks and "learner_target" in record:
        problems.append(f"{where}: learner_target is given per track ([[track]]) in a lesson with "
                        f"tracks, not for the whole lesson")
    return problems


def load_record(num, slug, root=None):
    """(Lesson, []) of lessons/NN-slug/lesson.toml, or (None, what is wrong with it); raises
    RecordError when it cannot be read at all."""
    path = (root or ROOT) / "lessons" / f"{num}-{slug}" / RECORD
    where = f"lessons/{num}-{slug}/{RECORD}"
    try:
        text = path.read_text()
    except OSError as e:
        raise RecordError(f"{where}: the lesson's record cannot be read ({e.strerror or e})") \
            from None
    table = read_toml(text, where)
    problems = record_problems(num, slug, table, where)
    if problems:  # not usable: the problems say why
        return None, problems
    return Lesson(num, slug, schema.build(schema.Record, table), path), []


def read_toml(text, where):
    """A record's text as a dict: Python's own TOML reader (tomllib, Python 3.11 and later), else
    the course's subset of it (tomlsubset.py, for Python 3.8 to 3.10). RecordError, with the file
    and the line, when it is not TOML."""
    if tomllib is None:
        try:
            return tomlsubset.loads(text, where)
        except tomlsubset.TomlError as e:
            raise RecordError(str(e)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # "Invalid value (at line 6, column 10)" -> "lessons/...:6: invalid value (column 10)"
        m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(e))
        if m:
            raise RecordError(f"{where}:{m.group(2)}: {m.group(1)[:1].lower()}{m.group(1)[1:]} "
                              f"(column {m.group(3)}): not TOML") from None
        raise RecordError(f"{where}: {e}") from None


_cache = {}


def lessons():
    """Every lesson, in course order. Raises RecordError on a manifest or record that cannot be
    used (check-repo lists every problem; this stops at the first)."""
    if "all" not in _cache:
        out = []
        for num, slug, _ in read_manifest():
            lesson, problems = load_record(num, slug)
            if problems:
                raise RecordError(problems[0])
            out.append(lesson)
        _cache["all"] = out
    return list(_cache["all"])


def lesson_table():
    rows = [f"  {l.num}  {l.slug:<16} {l.title}" for l in lessons()]
    return "lessons:\n" + "\n".join(rows)


def find(arg):
    """The lesson numbered `arg` ("3" or "03"), or None."""
    return next((l for l in lessons() if arg.isdigit() and int(arg) == int(l.num)), None)


def resolve(arg):
    """The lesson numbered `arg`; otherwise the lesson list on stderr and exit 2."""
    lesson = find(arg)
    if lesson is None:
        print(f"no lesson '{arg}'. Use a number from the list (1 and 01 both work):", file=sys.stderr)
        print(lesson_table(), file=sys.stderr)
        sys.exit(2)
    return lesson


def next_lesson(lesson):
    order = lessons()
    for i, l in enumerate(order):
        if l.num == lesson.num:
            return order[i + 1] if i + 1 < len(order) else None
    return None


def cmake_records(out):
    """Writes `out`, the CMake file the build includes at configure time: each lesson's number,
    slug, min_cc and parts, from the manifest and the records (so that CMake reads no TOML), and
    the files it was made from (a change to one configures again). RecordError when a record
    cannot be used."""
    lines = ["# Made by `course.py cmake-records` from lessons/manifest.txt and the lessons' records",
             "# at configure time (CMakeLists.txt includes it); not to be edited.", ""]
    nums, sources = [], [str(MANIFEST), str(Path(schema.__file__).resolve())]
    for lesson in lessons():
        nums.append(lesson.num)
        sources.append(str(lesson.path))
        lines += [f"set(course_lesson_{lesson.num}_slug {lesson.slug})",
                  f"set(course_lesson_{lesson.num}_min_cc {lesson.min_cc})",
                  f"set(course_lesson_{lesson.num}_parts \"{';'.join(lesson.parts)}\")"]
        c = lesson.configs
        if c.list:
            lines.append(f"set(course_lesson_{lesson.num}_configs "
                         f"\"{c.header};{c.list};{c.kernel};{c.instance}\")")
    lines += [f"set(course_lessons \"{';'.join(nums)}\")",
              f"set(course_record_files \"{';'.join(sources)}\")", ""]
    text = "\n".join(lines)
    out = Path(out)
    if not out.exists() or out.read_text() != text:  # unchanged: CMake sees no new file
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
