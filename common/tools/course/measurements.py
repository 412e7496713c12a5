"""The measurement lines the lesson programs print with --json, read in one place.

Their one declaration is common/report.hpp (GemmMeasurement, measurement_line()): every line
carries "schema": "course.measurement/2" and is either

- a GEMM kernel, checked and timed next to cuBLAS (no "what" key): the GEMM_FIELDS below, and
  "intensity" (FLOP per byte the kernel loads by design) when the lesson states it; or
- a lesson's own measurement, with "lesson" and "what" (lesson 01's "copy_bandwidth" and
  "cublas_sgemm" ceilings, lesson 06's "occupancy", a "sweep" row, ...) and fields of its own;
- or, written by `make profile-N RECORD=1` and `make bench` (not by a program), one kernel's
  figures under Nsight Compute: "what": "profile", the PROFILE_FIELDS below (profiles.py says
  what they hold);
- or, written by `make bench` (not by a program), what `make lesson-N SOLUTION=1` printed on the
  GPU, the transcript a chapter shows: "what": "printed", the PRINTED_FIELDS below (printed.py
  says what they hold). It is no measurement to chart: bookdata.py keeps it apart.

A GEMM line of version 2 names its regime ("burst" or "sustained", common/timing.hpp), whether the
kernel took the first turn of the interleaving, and what NVML saw (the SM clock, and sustained the
power and the energy per GEMM; null where unknown). Version 1 lines (the H100 data of
2026-11-21..24) are still read: they were timed in burst, all of cuBLAS's repetitions first, then
all of the kernel's (METHOD_V1); regime() and method() say so.

`make bench` adds "size" and "build" to each line of a program that it stores in book/data/ (a
transcript has "build" alone), and writes a first line {"meta": true, ...} describing the run;
both are kept as they are. `make grade`, `make bench` and the book (book/bookdata.py) read the
lines through this module, which checks the schema.
"""

import json
import re

SCHEMA = "course.measurement/2"
SCHEMA_V1 = "course.measurement/1"
REGIMES = ("burst", "sustained")
METHOD = "interleaved"
METHOD_V1 = "sequential (all of cuBLAS's repetitions, then all of the kernel's)"
_NUM = (int, float)
GEMM_FIELDS = {
    "lesson": str, "kernel": str, "M": int, "N": int, "K": int, "ms": _NUM, "spread": _NUM,
    "tflops": _NUM, "cublas_ms": _NUM, "cublas_tflops": _NUM, "pct_of_cublas": _NUM,
    "checked": bool, "passed": bool, "headline": bool, "gpu": str, "precision": str,
}
# "blocks", "cublas_blocks": a sustained run's trace, [[from_s, to_s, sm_clock_mhz, power_w], ...].
OPTIONAL_GEMM_FIELDS = {"intensity": _NUM, "blocks": list, "cublas_blocks": list}
# Version 2's GEMM fields besides version 1's; the readings are null where NVML was not there.
GEMM_FIELDS_V2 = {"regime": str, "samples": int, "kernel_first": bool, "sm_clock_mhz": _NUM,
                  "cublas_sm_clock_mhz": _NUM, "power_w": _NUM, "cublas_power_w": _NUM,
                  "energy_j": _NUM, "cublas_energy_j": _NUM}
PRECISIONS = ("fp32", "bf16")
# A recorded profile line ("what": "profile"): its fields, each required ("size" may be null, a
# metric's figure too, where ncu gave none).
PROFILE = "profile"
PROFILE_FIELDS = {
    "lesson": str, "kernel": str, "M": int, "N": int, "K": int, "shape": str, "size": int,
    "metrics": dict, "launches": int, "baseline": bool, "headline": bool, "gpu": str, "date": str,
    "clocks": str, "build": str,
}
# A recorded transcript ("what": "printed"): its fields, each required; "text" is not empty and
# "date" is a day, YYYY-MM-DD.
PRINTED = "printed"
PRINTED_FIELDS = {
    "lesson": str, "command": str, "text": str, "gpu": str, "date": str, "driver": str,
    "cuda": str, "build": str,
}
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class SchemaError(ValueError):
    """A line that is not a measurement of this schema."""


def _type_ok(value, want):
    if value is None and want is _NUM:
        return True  # JSON has no NaN: a measurement that is not a number is written as null
    if want is bool:
        return isinstance(value, bool)
    return isinstance(value, want) and not isinstance(value, bool)


def check(line):
    """`line` (a dict) when it is a valid measurement line; raises SchemaError otherwise."""
    if not isinstance(line, dict):
        raise SchemaError("a measurement line is a JSON object")
    if line.get("meta") is True:
        return line
    if line.get("schema") not in (SCHEMA, SCHEMA_V1):
        raise SchemaError(f"the line's schema is {line.get('schema')!r}, not {SCHEMA!r} (a "
                          f"program or a data file older than the schema: run it again)")
    if "what" in line:
        for key in ("lesson", "what"):
            if not isinstance(line.get(key), str):
                raise SchemaError(f"a measurement with 'what' needs '{key}' as a string")
        if line["what"] == PROFILE:
            return check_profile(line)
        return check_printed(line) if line["what"] == PRINTED else line
    required = dict(GEMM_FIELDS, **(GEMM_FIELDS_V2 if line["schema"] == SCHEMA else {}))
    _check_fields(line, required, f"the GEMM line of {line.get('kernel', '?')!r}")
    for key, want in OPTIONAL_GEMM_FIELDS.items():
        if key in line and not _type_ok(line[key], want):
            raise SchemaError(f"the GEMM line of {line.get('kernel', '?')!r}: '{key}' is "
                              f"{line[key]!r}")
    if line["precision"] not in PRECISIONS:
        raise SchemaError(f"the GEMM line of {line['kernel']!r}: precision {line['precision']!r}")
    if regime(line) not in REGIMES:
        raise SchemaError(f"the GEMM line of {line['kernel']!r}: regime {line['regime']!r}")
    return line


def _check_fields(line, fields, who, may_be_null=()):
    """Raises SchemaError, naming `who`, when `line` lacks a key of `fields` ({key: the types it
    may have}) or holds a value of another type (None allowed for the keys in `may_be_null`)."""
    for key, want in fields.items():
        if key not in line:
            raise SchemaError(f"{who} lacks '{key}'")
        if not (_type_ok(line[key], want) or (key in may_be_null and line[key] is None)):
            raise SchemaError(f"{who}: '{key}' is {line[key]!r}")


def check_profile(line):
    """`line` when it is a valid profile line; raises SchemaError otherwise."""
    who = f"the profile line of {line.get('kernel', '?')!r}"
    _check_fields(line, PROFILE_FIELDS, who, may_be_null=("size",))
    for name, value in line["metrics"].items():
        if not isinstance(name, str) or not _type_ok(value, _NUM):
            raise SchemaError(f"{who}: the metric {name!r} is {value!r}, not a number or null")
    if line["shape"] != f"{line['M']}x{line['N']}x{line['K']}":
        raise SchemaError(f"{who}: its shape {line['shape']!r} is not M x N x K")
    return line


def check_printed(line):
    """`line` when it is a valid transcript line; raises SchemaError otherwise."""
    who = f"the printed line of lesson {line.get('lesson', '?')}"
    _check_fields(line, PRINTED_FIELDS, who)
    if not line["text"].strip():
        raise SchemaError(f"{who}: its text is empty")
    if not _DAY.match(line["date"]):
        raise SchemaError(f"{who}: its date {line['date']!r} is not YYYY-MM-DD")
    return line


def is_printed(line):
    """True for a recorded transcript's line ("what": "printed")."""
    return line.get("what") == PRINTED and not line.get("meta")


def regime(line):
    """"burst" or "sustained": the regime a line was timed in (version 1 lines: burst)."""
    return line.get("regime", "burst")


def method(line):
    """How a line's kernel and cuBLAS took turns: METHOD, or METHOD_V1 for a version 1 line."""
    return METHOD if line.get("schema") == SCHEMA else METHOD_V1


def is_gemm(line):
    """True for a GEMM kernel's line (not a lesson's own measurement, not bench's meta line)."""
    return "what" not in line and not line.get("meta")


def parse_line(text):
    """The measurement of one line of a program's output, None when the line is not JSON (a
    table, a message); raises SchemaError for a JSON line that is not a valid measurement."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    return check(obj)


def from_output(text):
    """Every measurement line of a lesson program's output, in order (SchemaError on a bad one)."""
    out = []
    for line in text.splitlines():
        m = parse_line(line)
        if m is not None:
            out.append(m)
    return out


def headline(lines):
    """The headline kernel's GEMM line among `lines`, else the first GEMM line, else None."""
    gemm = [l for l in lines if is_gemm(l)]
    return next((l for l in gemm if l.get("headline")), gemm[0] if gemm else None)


def method_outside(m):
    """Whether a line of lesson 01's check of the method ("what": "method") is an interleaved row
    outside its noise band, in time or (sustained) in joules per GEMM: what `make bench` flags."""
    return m.get("order") == "interleaved" and (
        not m.get("within_band") or m.get("energy_within_band") is False)
