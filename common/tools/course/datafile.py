"""book/data/<gpu>.jsonl: one GPU's measurements, the file `make bench` and `make profile-N
RECORD=1` write, and its one writer.

The file is named after the GPU (its name in lower case, runs of other characters as one "-":
"NVIDIA H200" -> nvidia-h200.jsonl); the learner's own go to book/data/mine/ instead, which git
ignores. Its first line describes `make bench`'s run ({"meta": true, ...}) when one wrote it; every
other line is a measurement (measurements.py reads and checks them). A tool that measures part of
what the file holds replaces those lines and keeps the others: update() takes the new lines and a
test of which old ones they replace (bench: the lessons, sizes and regimes it times; a recorded
profile: the profile lines of its lesson and shape; a transcript, what a lesson program printed:
the one of its lesson, printed.py).
"""

import json
import os
import re
from pathlib import Path

MINE_DIR = "mine"


def gpu_slug(gpu):
    """The file name's stem for a GPU: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3"."""
    return re.sub(r"[^a-z0-9]+", "-", gpu.lower()).strip("-") or "gpu"


def data_dir(out, mine=False):
    """The folder of the data files under `out` (book/data/): `out` itself for the reference
    solutions, out/mine/ for the learner's runs."""
    return Path(out) / MINE_DIR if mine else Path(out)


def path_of(directory, gpu):
    """The data file of `gpu` in `directory`."""
    return Path(directory) / f"{gpu_slug(gpu)}.jsonl"


def read(path):
    """(the first line's description of the run or None, the other lines) of a data file; a line
    that is not a JSON object is left out. ([None, []] when there is no file.)"""
    path = Path(path)
    if not path.is_file():
        return None, []
    meta, lines = None, []
    for text in path.read_text().splitlines():
        try:
            obj = json.loads(text)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        if obj.get("meta"):
            meta = meta or obj
        else:
            lines.append(obj)
    return meta, lines


def update(path, lines, replaces, meta=None):
    """Writes the data file `path`: the description of the run (`meta`; None keeps the file's own,
    or none), then `lines`, then the lines the file already holds that `replaces(line)` does not
    claim, in their order. Written whole to a file beside it, then moved over it: a run stopped
    half-way leaves the file as it was or as it is now, never cut."""
    path = Path(path)
    old_meta, old = read(path)
    meta = old_meta if meta is None else meta
    kept = [l for l in old if not replaces(l)]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w") as f:
        if meta is not None:
            f.write(json.dumps(meta) + "\n")
        for l in list(lines) + kept:
            f.write(json.dumps(l) + "\n")
    os.replace(tmp, path)
    return path
