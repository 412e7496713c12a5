#!/usr/bin/env python3
"""How long the chapters' prose is: words, sentences, words per sentence, the longest paragraph.

    prose.py [--rev REV] [--markdown]

Reads lessons/NN-slug/README.md (at git revision REV when given) and counts their prose only:
fenced and \\verbatim / \\code blocks, tables, headings, generated blocks (<!-- BEGIN GENERATED ...
END GENERATED -->), lines of Doxygen commands alone (\\snippet, \\image, \\figure, \\htmlonly ...),
math (\\f$ ... \\f$, \\f[ ... \\f]) and inline code spans are left out. A sentence ends at '.', '?'
or '!' followed by a space and a capital, a digit or an opening bracket, or at the end of a
paragraph; a list item is a paragraph of its own. Prints one row per chapter and the total.
"""

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "common" / "tools"))
from course import records  # noqa: E402

BLOCK = re.compile(r"\\(verbatim\b|code\b|htmlonly\b|latexonly\b|dot\b|f\[)")
BLOCK_END = {"verbatim": r"\endverbatim", "code": r"\endcode", "htmlonly": r"\endhtmlonly",
             "latexonly": r"\endlatexonly", "dot": r"\enddot", "f[": r"\f]"}
COMMAND_LINE = re.compile(r"^\s*\\(snippet|image|figure|htmlonly|ref|anchor|section|subsection|"
                          r"page|tableofcontents)\b")
SENTENCE_END = re.compile(r"(?<=[.?!])[\"')\]]*\s+(?=[A-Z0-9(\[`*_\"'])")


def text_of(rel, rev):
    if rev:
        return subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
    return (ROOT / rel).read_text()


def paragraphs(text):
    """The prose paragraphs of a chapter, each as one string."""
    out, cur = [], []
    fence = block = generated = None

    def flush():
        if cur:
            out.append(" ".join(cur))
            cur.clear()

    for line in text.split("\n")[1:]:  # the title is not prose
        s = line.strip()
        if generated:
            if "END GENERATED" in s:
                generated = None
            continue
        if fence:
            if s.startswith(fence):
                fence = None
            continue
        if block:
            if BLOCK_END[block] in line:
                block = None
            continue
        if "BEGIN GENERATED" in s:
            flush()
            generated = True
            continue
        if s.startswith("```") or s.startswith("~~~"):
            flush()
            fence = s[:3]
            continue
        m = BLOCK.search(line)
        if m and BLOCK_END[m.group(1)] not in line[m.end():]:
            flush()
            block = m.group(1)
            continue
        if not s or s.startswith("#") or s.startswith("|") or COMMAND_LINE.match(s) or \
                s.startswith("<!--"):
            flush()
            continue
        if re.match(r"^([-*+]|\d+\.)\s", s):  # a list item starts a paragraph of its own
            flush()
            s = re.sub(r"^([-*+]|\d+\.)\s+", "", s)
        cur.append(s)
    flush()
    return [clean(p) for p in out if clean(p)]


def clean(p):
    p = re.sub(r"\\f\$.*?\\f\$", "X", p)       # inline math counts as one word
    p = re.sub(r"`[^`]*`", "X", p)              # a code span too
    p = re.sub(r"\\\w+(\{[^}]*\})?", "", p)     # Doxygen commands within a line
    p = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", p)  # links: their text
    return re.sub(r"\s+", " ", p).strip()


def stats(paras):
    sentences = []
    for p in paras:
        sentences += [s for s in SENTENCE_END.split(p) if s.strip()]
    lengths = [len(s.split()) for s in sentences]
    words = sum(len(p.split()) for p in paras)
    longest = max((len(p.split()) for p in paras), default=0)
    q = sorted(lengths)
    p90 = q[min(len(q) - 1, int(round(0.9 * (len(q) - 1))))] if q else 0
    return {"words": words, "sentences": len(sentences),
            "median": statistics.median(lengths) if lengths else 0, "p90": p90,
            "longest": longest, "lengths": lengths}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", help="read the chapters at this git revision")
    args = ap.parse_args()
    rows, all_paras = [], []
    for lesson in records.lessons():
        rel = f"lessons/{lesson.dir}/README.md"
        text = text_of(rel, args.rev)
        paras = paragraphs(text)
        all_paras += paras
        st = stats(paras)
        st["lines"] = text.count("\n")
        rows.append((f"chapter {lesson.num}", st))
    total = stats(all_paras)
    total["lines"] = sum(r[1]["lines"] for r in rows)
    print("| | words of prose | sentences | median words per sentence | 90th percentile | "
          "longest paragraph (words) | lines |")
    print("|---|---|---|---|---|---|---|")
    for name, st in [("all 11 chapters", total)] + rows:
        print(f"| {name} | {st['words']:,} | {st['sentences']:,} | {st['median']:g} | {st['p90']} "
              f"| {st['longest']} | {st['lines']:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
