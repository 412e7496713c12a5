"""The fill-in regions of the exercises: `// BEGIN EXERCISE: name` ... `// END EXERCISE`."""

import re

from .util import SOURCE_SUFFIXES

BEGIN = re.compile(r"^\s*// BEGIN EXERCISE: (.+?)\s*$")
END = re.compile(r"^\s*// END EXERCISE\s*$")
# What a stub does in a fill-in region it has not filled: common/todo.hpp.
TODO_CALL = re.compile(r"not_implemented\s*\(|COURSE_TODO")


def split_regions(path):
    """The text outside the fill-in regions, and the region names, of one source file."""
    outside, names, inside = [], [], False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if BEGIN.match(line):
            if inside:
                raise ValueError(f"{path}:{n}: BEGIN EXERCISE inside another region")
            inside = True
            names.append(BEGIN.match(line).group(1))
            outside.append(line)
        elif END.match(line):
            if not inside:
                raise ValueError(f"{path}:{n}: END EXERCISE without BEGIN")
            inside = False
            outside.append(line)
        elif not inside:
            outside.append(line)
    if inside:
        raise ValueError(f"{path}: BEGIN EXERCISE without END")
    return outside, names


def named_regions(text):
    """[(name, the region's inside)] of one source text, in order."""
    out, name, cur = [], None, []
    for line in text.splitlines():
        m = BEGIN.match(line)
        if m:
            name, cur = m.group(1), []
        elif END.match(line) and name is not None:
            out.append((name, "\n".join(cur)))
            name = None
        elif name is not None:
            cur.append(line)
    return out


def region_texts(text):
    """The insides of the fill-in regions of one source text."""
    return [inside for _, inside in named_regions(text)]


def source_files(folder):
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(SOURCE_SUFFIXES)) \
        if folder.is_dir() else []


def regions_of(folder):
    """{region name: [its insides]} over the source files of one exercise or solution folder."""
    out = {}
    for path in source_files(folder):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for name, inside in named_regions(text):
            out.setdefault(name, []).append(inside)
    return out


def still_stubs(folder, names):
    """[(region, file)] of the regions among `names` that still call the stub's not_implemented
    (or COURSE_TODO), in the order of `names`."""
    found = {}
    for path in source_files(folder):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for name, inside in named_regions(text):
            if TODO_CALL.search(inside):
                found.setdefault(name, path)
    return [(n, found[n]) for n in names if n in found]
