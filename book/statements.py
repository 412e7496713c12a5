"""Statements the chapters must not make again, and one they must keep: each was wrong or stale
once, and the book's build fails if it comes back (book/build.py calls problems() on every
chapter). Also: a measured figure in prose names the GPU of its data.

Each rule is a chapter, a pattern, and why the statement is wrong. Prose only: code, generated
blocks and tables are left out by prose.paragraphs().
"""

import re

import prose

# (chapters, pattern, why): a sentence of one of `chapters` that matches is a problem.
MUST_NOT = [
    (["11"], r"(setmaxnreg|multicast)[^.]*(Hopper'?s alone|only on Hopper|Hopper[- ]only|"
             r"only on (the )?sm_90a)",
     "setmaxnreg and TMA multicast are not Hopper's alone: the PTX ISA lists sm_100a and sm_120a "
     "targets too (CCCL's cuda::ptx pages mirror it)"),
    (["11"], r"\b24\s*/\s*240\b|\b24 and 240 registers",
     "the register split is the code's: 40 for the producer, 232 for the consumers"),
    (["11"], r"\bnothing spills\b",
     "one lab configuration spills 8 bytes: say which kernels spill nothing"),
    (["11"], r"keeps everything of rung 6",
     "the portable rung's epilogue and stage count differ from rung 6's"),
    (["07", "09"], r"hand-scheduled machine code|cuBLAS[^.]*\bis a CUTLASS kernel compiled",
     "NVIDIA does not publish cuBLAS's source: say only what a profiler shows"),
    (["09"], r"stops at 71\s?%",
     "a public ladder's figure needs its GPU (the same ladder reaches 93.7% on an A6000)"),
    (["10"], r"47\.8 TFLOP/s|the H100 we measure on",
     "lesson 09's final kernel takes the padded tile, and the reference GPU is the H200"),
    (["01"], r"(?<!thread-block )\bclusters?\b",
     "GPCs are not clusters: in this course the word is lesson 11's thread-block clusters"),
]

# (chapter, pattern, what it must say): a chapter that has no sentence matching is a problem.
MUST = [
    ("11", r"(sm_120|12\.0|RTX 50)[^.]*cluster|cluster[^.]*(sm_120|12\.0)",
     "that sm_120 (the RTX 50 series) has thread-block clusters and distributed shared memory"),
]

# A GPU other than the reference one, named beside a measured quantity.
GPU = re.compile(r"\b(H100|A100|B200|L4|T4|A6000|RTX\s?\d{4}(\s?Ti)?)\b")
MEASURED = re.compile(r"\d[\d.,]*\s*(%|TFLOP/s|GFLOP/s|GB/s|TB/s|µs|ms\b|MHz|GHz|W\b|J\b)")
# ... unless the sentence says where the number comes from: a datasheet or a cited article.
SOURCED = re.compile(r"datasheet|article|<https?://|\"[^\"]{8,}\"|Gordić|driver reports|peak",
                     re.I)


def sentences(text):
    for p in prose.paragraphs(text):
        for s in prose.SENTENCE_END.split(p):
            if s.strip():
                yield s


def problems(lesson_num, text, reference_gpu="H200"):
    """The problems of chapter `lesson_num`'s Markdown `text`, one line each."""
    out = []
    sents = list(sentences(text))
    for chapters, pattern, why in MUST_NOT:
        if lesson_num not in chapters:
            continue
        for s in sents:
            if re.search(pattern, s, re.I):
                out.append(f"says \"{s[:90]}...\": {why}")
    for chapter, pattern, what in MUST:
        if chapter == lesson_num and not any(re.search(pattern, s, re.I) for s in sents):
            out.append(f"no longer says {what}")
    for s in sents:
        gpus = {m.group(1) for m in GPU.finditer(s)} - {reference_gpu}
        if gpus and MEASURED.search(s) and not SOURCED.search(s):
            out.append(f"quotes a measured figure on {', '.join(sorted(gpus))}, not on the data's "
                       f"GPU ({reference_gpu}), without its source: \"{s[:90]}...\"")
    return out
