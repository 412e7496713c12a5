#!/usr/bin/env python3
"""Checks a built book (book/build.py) by reading its HTML, not its sources.

    check.py [OUT]        OUT is build.py's --out (default: book/), holding html/ and generated/

- every lesson of lessons/manifest.txt has its chapter page, in course order: in the tree, in the
  front page's table, and in each chapter's previous / next links;
- every \\snippet of every chapter came out as non-empty code, and the ones from solutions/ are
  folded away (inside a <details>); every hint is there, folded away too;
- every figure a page shows (img, object, embed, iframe, SVG image) is a file of the book, and
  every chart and \\image the pages asked for is a well-formed, non-empty file, and so is every
  frame of every figure a chapter places (`\\figure ID`), which is on its page;
- no page, stylesheet or script loads anything from the network (scripts, styles, fonts, images);
- pages with math load the local MathJax, whose files are present, and no raw \\f$ is left;
- every link of every HTML page (`href` of <a> and <area>) that stays in the book names a file of
  the book, and its fragment (`#id`) an element of the target page (an `id`, or an <a name>);
- with two GPUs' files in the data the book was built from: the ladder on the front page and on
  the results page names every GPU, each GPU's own ladder is on the results page, and every
  chapter whose lesson was measured names every GPU in its "Measured" section (lesson 01's too);
- with the learner's files (data/mine/): the ladder has a "yours" bar for each, and every chapter
  whose lesson the learner measured says "Your kernel" and names the learner's GPU.
Standard library only. Exit status 1 with one line per problem.
"""

import json
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

BOOK = Path(__file__).resolve().parent
sys.path.insert(0, str(BOOK))
import bookdata  # noqa: E402
from bookdata import records  # noqa: E402

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "param"}
REMOTE = re.compile(r"^\s*(https?:)?//", re.I)
CSS_REMOTE = re.compile(r"(@import\s+(url\()?\s*['\"]?\s*(https?:)?//|url\(\s*['\"]?\s*(https?:)?//)",
                        re.I)
# In scripts: an address of something a browser would load, or a known CDN.
JS_REMOTE = re.compile(r"(https?:)?//[\w.-]+/[^\s\"'<>]*\.(js|css|woff2?|ttf|otf|eot)\b|"
                       r"cdn\.jsdelivr|cdnjs\.|unpkg\.com|googleapis\.com|mathjax\.org/mathjax",
                       re.I)


# Links whose address is not a file of the book, and rightly so.
ELSEWHERE = {"http", "https", "ftp", "ftps", "sftp", "mailto", "javascript", "data", "tel", "news",
             "irc", "ircs"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], []

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def all_text(self):
        return "".join(n2 for n in self.iter() for n2 in n.text)

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def find_all(self, tag=None, cls=None):
        return [n for n in self.iter() if (tag is None or n.tag == tag)
                and (cls is None or cls in n.classes())]

    def ancestors(self):
        n = self.parent
        while n:
            yield n
            n = n.parent


class Tree(HTMLParser):
    """A forgiving DOM: enough for Doxygen's output."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text.append(data)


# Doxygen commands that should never reach the reader as text (outside code).
LEFTOVER = re.compile(r"\\(?:f\$|f\[|f\]|_form#\d+|ref\b|snippet\b|image\b|subpage\b|note\b|"
                      r"warning\b|htmlonly\b|endhtmlonly\b)")


def prose_text(node):
    """The text of a node outside code, preformatted blocks and scripts."""
    if node.tag in ("code", "pre", "script", "style") or "fragment" in node.classes():
        return ""
    return "".join(node.text) + "".join(prose_text(c) for c in node.children)


class Checker:
    def __init__(self, out):
        self.out = out
        self.html = out / "html"
        self.problems = []
        self.trees = {}

    def fail(self, msg):
        self.problems.append(msg)

    def tree(self, name):
        if name not in self.trees:
            self.trees[name] = Tree((self.html / name).read_text(errors="replace")).root
        return self.trees[name]

    # ---- chapters in order -----------------------------------------------------------------------
    def navtree_children(self):
        """The pages directly under the front page in the tree, in order."""
        js = (self.html / "navtreedata.js").read_text()
        js = js[js.index("var NAVTREE"):js.index("var NAVTREEINDEX")]
        out, depth = [], 0
        for tok in re.finditer(r'\[|\]|"((?:[^"\\]|\\.)*)", *"([^"]*)"', js):
            if tok.group(0) == "[":
                depth += 1
            elif tok.group(0) == "]":
                depth -= 1
            elif depth == 4:  # [ NAVTREE [ root [ children [ entry
                out.append(tok.group(2))
        return out

    def chapters(self, book, lessons):
        want = [l.num for l in lessons]
        have = [c["lesson"] for c in book["chapters"]]
        if have != want:
            self.fail(f"the book's chapters {have} are not the manifest's lessons {want}: "
                      "rebuild it (make book)")
        pages = [f"lesson{n}.html" for n in want]
        for p in pages:
            if not (self.html / p).is_file():
                self.fail(f"{p}: missing (no chapter page for this lesson)")
        tree = [h for h in self.navtree_children() if h.split("#")[0] in pages]
        if tree != pages:
            self.fail(f"the tree lists the chapters as {tree}, not in course order {pages}")
        front = []
        for a in self.tree("index.html").find_all("a"):
            h = (a.attrs.get("href") or "").split("#")[0]
            if h in pages and h not in front:
                front.append(h)
        if front != pages:
            self.fail(f"the front page links the chapters as {front}, not {pages}")
        for i, c in enumerate(book["chapters"]):
            page = c["page"]
            if not (self.html / page).is_file():
                continue
            root = self.tree(page)
            title = "".join(n.all_text() for n in root.find_all("div", "title")).strip()
            if not title.startswith(c["lesson"]):
                self.fail(f"{page}: the title {title!r} does not start with the lesson number")
            navs = root.find_all("div", "book-nav")
            if len(navs) != 2:
                self.fail(f"{page}: {len(navs)} previous/contents/next bars, expected 2")
            for nav in navs:
                links = [(a.attrs.get("href") or "").split("#")[0] for a in nav.find_all("a")]
                expect = ([pages[i - 1]] if i > 0 else []) + ["index.html"] + \
                         ([pages[i + 1]] if i + 1 < len(pages) else [])
                if links != expect:
                    self.fail(f"{page}: the navigation bar links {links}, expected {expect}")
            self.snippets(c, root)
            self.hints(c, root)

    # ---- snippets and hints ----------------------------------------------------------------------
    def snippets(self, c, root):
        page = c["page"]
        if c["snippets_in_source"] != len(c["snippets"]):
            self.fail(f"{c['source']}: {c['snippets_in_source']} \\snippet commands, but only "
                      f"{len(c['snippets'])} on a line of their own (the book folds and checks "
                      "those; put each \\snippet on its own line)")
        by_id = {n.attrs.get("id"): n for n in root.find_all("div", "book-snippet")}
        for s in c["snippets"]:
            where = f"{c['source']}:{s['line']}: \\snippet {s['file']} {s['name']}"
            node = by_id.get(f"book-snippet-{s['id']}")
            if node is None:
                self.fail(f"{where}: not found in {page}")
                continue
            frags = node.find_all("div", "fragment")
            lines = [l.all_text() for f in frags for l in f.find_all("div", "line")]
            if not frags or not any(l.strip() for l in lines):
                self.fail(f"{where}: came out empty in {page}")
            folded = any(a.tag == "details" and "book-solution" in a.classes()
                         for a in node.ancestors())
            if s["solution"] and not folded:
                self.fail(f"{where}: a reference solution shown unfolded in {page}")

    def hints(self, c, root):
        hints = root.find_all("details", "book-hint")
        if len(hints) != c["hints"]:
            self.fail(f"{c['page']}: {len(hints)} folded hints, the hints file has {c['hints']}")
        for n, h in enumerate(hints, 1):
            body = "".join(ch.all_text() for ch in h.children if ch.tag != "summary")
            if not body.strip():
                self.fail(f"{c['page']}: hint {n} is empty")

    # ---- figures ---------------------------------------------------------------------------------
    def local_file(self, page, ref):
        ref = ref.split("#")[0].split("?")[0]
        return (self.html / page).parent / ref

    def figures(self, book, pages):
        wanted = set(book["front"]["images"]) | set(book["results"]["images"])
        drawn = book.get("figures", {})
        for c in book["chapters"]:
            wanted |= set(c["images"])
            # Every frame of every figure the chapter shows (the lessons' figure programs drew them).
            for fid in c.get("figures", []):
                if fid not in drawn:
                    self.fail(f"{c['page']}: figure {fid} was drawn by no figure program")
                    continue
                wanted |= set(drawn[fid]["frames"])
                root = self.tree(c["page"])
                if not any(n.attrs.get("data-figure") == fid for n in root.find_all("figure")):
                    self.fail(f"{c['page']}: figure {fid} is not on the page")
        for name in sorted(wanted):
            f = self.html / name
            if not f.is_file() or f.stat().st_size == 0:
                self.fail(f"figure {name}: missing or empty in the book")
            elif f.suffix == ".svg":
                try:
                    ET.parse(f)
                except ET.ParseError as e:
                    self.fail(f"figure {name}: not well-formed SVG ({e})")
        shown = 0
        for page in pages:
            root = self.tree(page)
            for n in root.iter():
                refs = []
                if n.tag in ("img", "embed", "iframe", "source", "script") and n.attrs.get("src"):
                    refs.append(n.attrs["src"])
                if n.tag == "object" and n.attrs.get("data"):
                    refs.append(n.attrs["data"])
                if n.tag == "image":
                    refs += [n.attrs[k] for k in ("href", "xlink:href") if n.attrs.get(k)]
                if n.tag == "link" and n.attrs.get("href"):
                    refs.append(n.attrs["href"])
                for ref in refs:
                    if REMOTE.match(ref):
                        self.fail(f"{page}: <{n.tag}> loads {ref} from the network")
                    elif not re.match(r"(data|javascript):", ref) and \
                            not self.local_file(page, ref).is_file():
                        self.fail(f"{page}: <{n.tag}> refers to {ref}, which is not in the book")
                    elif n.tag in ("img", "object", "embed", "image"):
                        shown += 1
        return len(wanted), shown

    # ---- commands, as a reader copies them ------------------------------------------------------
    def commands(self, book):
        """Every `make ...` command a chapter's prose shows in a code span is in its page, as code,
        character for character (no dash for --, no curly quote), so that a copy of it runs."""
        n = 0
        fence = re.compile(r"^\s*(```|~~~)")
        for c in book["chapters"]:
            source = (BOOK.parent / c["source"]).read_text().split("\n")
            shown, in_fence = [], False
            for line in source:
                if fence.match(line):
                    in_fence = not in_fence
                    continue
                if not in_fence:
                    shown += [m for m in re.findall(r"`([^`]+)`", line) if m.startswith("make ")]
            root = self.tree(c["page"])
            codes = {n_.all_text() for n_ in root.find_all("code")}
            for cmd in shown:
                n += 1
                if cmd not in codes:
                    self.fail(f"{c['page']}: the command `{cmd}` of {c['source']} is not on the "
                              "page as code, character for character")
        return n

    # ---- the network -----------------------------------------------------------------------------
    def offline(self, pages):
        for page in pages:
            for n in self.tree(page).find_all("style"):
                if CSS_REMOTE.search(n.all_text()):
                    self.fail(f"{page}: an inline style loads from the network")
        for css in self.html.rglob("*.css"):
            m = CSS_REMOTE.search(css.read_text(errors="replace"))
            if m:
                self.fail(f"{css.relative_to(self.html)}: loads from the network: {m.group(0)}")
        for js in self.html.rglob("*.js"):
            m = JS_REMOTE.search(js.read_text(errors="replace"))
            if m:
                self.fail(f"{js.relative_to(self.html)}: refers to {m.group(0)} on the network")

    # ---- links -----------------------------------------------------------------------------------
    def anchors(self, page):
        """The fragments a link may name in `page`: its elements' ids and its <a name>s."""
        root = self.tree(page)
        out = set()
        for n in root.iter():
            if n.attrs.get("id"):
                out.add(n.attrs["id"])
            if n.tag == "a" and n.attrs.get("name"):
                out.add(n.attrs["name"])
        return out

    def links(self, pages):
        """Every local link names a file of the book, and its fragment an anchor of that page.
        Returns the number of local links checked."""
        checked, anchors = 0, {}
        for page in pages:
            for n in self.tree(page).iter():
                if n.tag not in ("a", "area") or n.attrs.get("href") is None:
                    continue
                href = n.attrs["href"].strip()
                if not href or REMOTE.match(href):
                    continue  # a link to the network (a link, not a load: allowed)
                scheme = re.match(r"([a-zA-Z][\w+.-]*):", href)
                if scheme and scheme.group(1).lower() in ELSEWHERE:
                    continue
                if scheme:
                    self.fail(f"{page}: the link {href!r} is a {scheme.group(1)}: address, not a "
                              "file of the book")
                    continue
                path, _, fragment = href.partition("#")
                path = urllib.parse.unquote(path.split("?")[0])
                target = (self.html / page).parent / path if path else self.html / page
                checked += 1
                try:
                    rel = target.resolve().relative_to(self.html.resolve()).as_posix()
                except ValueError:
                    self.fail(f"{page}: the link {href!r} leads out of the book")
                    continue
                if not target.is_file():
                    self.fail(f"{page}: the link {href!r} names {rel}, which is not in the book")
                    continue
                if not fragment or target.suffix != ".html":
                    continue
                if rel not in anchors:
                    anchors[rel] = self.anchors(rel)
                if urllib.parse.unquote(fragment) not in anchors[rel]:
                    self.fail(f"{page}: the link {href!r}: {rel} has no element with id "
                              f"{urllib.parse.unquote(fragment)!r}")
        return checked

    # ---- several GPUs, and the learner's kernels ---------------------------------------------------
    def svg_text(self, name):
        try:
            root = ET.parse(self.html / name).getroot()
        except (ET.ParseError, OSError):
            return ""
        return " ".join(t for t in root.itertext())

    def section_text(self, page, title):
        """The text of the section of `page` under the heading `title`, or None without one."""
        root = self.tree(page)
        for n in root.iter():
            if n.tag in ("h1", "h2", "h3") and n.all_text().strip() == title and n.parent:
                sibs = n.parent.children
                text = []
                for s in sibs[sibs.index(n) + 1:]:
                    if s.tag == n.tag:
                        break
                    text.append(s.all_text())
                return " ".join(" ".join(text).split())
        return None

    def compared(self, book):
        """What the data the book was built from asks of it: every GPU in the side-by-side ladder
        and in each measured chapter, the learner's kernels where the learner measured them.
        Returns (GPUs, learner's files) found in the data."""
        data = Path(book.get("data") or BOOK / "data")
        if not data.is_dir():
            self.fail(f"{data}: the data folder the book was built from is gone (rebuild it)")
            return 0, 0
        try:
            gpus, mines = bookdata.load(data), bookdata.load_mine(data)
        except bookdata.DataError as e:
            self.fail(f"the data: {e}")
            return 0, 0
        names = [g.gpu for g in gpus]
        measured = [c for c in book["chapters"]
                    if any(g.headline(c["lesson"], any_size=True) for g in gpus)]
        ladders = [f for f in book["front"]["images"] if "ladder" in f]
        if len(gpus) >= 2:
            if not any("-compare" in f for f in ladders):
                self.fail("index.html: two GPUs in the data but no side-by-side ladder on the "
                          "front page")
            results = set(book["results"]["images"])
            for f in [f for f in ladders if "-compare" in f]:
                if f not in results:
                    self.fail(f"results.html: the side-by-side ladder {f} is missing")
                text = self.svg_text(f)
                for name in names:
                    if name not in text:
                        self.fail(f"figure {f}: the ladder does not name the {name}")
            for g in gpus:
                if bookdata.ladder_figure(g) not in results:
                    self.fail(f"results.html: no ladder of the {g.gpu} "
                              f"({bookdata.ladder_figure(g)})")
            with_ceilings = [g for g in gpus if g.ridge("fp32")]
            first = next((c for c in book["chapters"] if c["lesson"] == "01"), None)
            if len(with_ceilings) >= 2 and first and first not in measured:
                measured.insert(0, first)
            for c in measured:
                text = self.section_text(c["page"], "Measured")
                if text is None:
                    self.fail(f"{c['page']}: no \"Measured\" section, though the data has "
                              f"lesson {c['lesson']}")
                    continue
                wanted = names if c["lesson"] != "01" else [g.gpu for g in with_ceilings]
                for name in wanted:
                    if name not in text:
                        self.fail(f"{c['page']}: the \"Measured\" section does not name the "
                                  f"{name}")
        for mine, _ in mines:
            if mine.ladder():
                if not ladders:
                    self.fail(f"index.html: no ladder, though {mine.rel} has your kernels")
                for f in ladders:
                    if f"yours on {mine.gpu}" not in self.svg_text(f):
                        self.fail(f"figure {f}: no bar of yours on the {mine.gpu} ({mine.rel})")
            for c in book["chapters"]:
                if not mine.headline(c["lesson"], any_size=True):
                    continue
                text = self.section_text(c["page"], "Measured") or ""
                if "Your kernel" not in text or mine.gpu not in text:
                    self.fail(f"{c['page']}: the \"Measured\" section has no \"Your kernel\" "
                              f"line on the {mine.gpu}, though {mine.rel} measured it")
        return len(gpus), len(mines)

    # ---- math ------------------------------------------------------------------------------------
    def math(self, pages):
        with_math = 0
        needed = ["mathjax/MathJax.js", "mathjax/jax/input/TeX/config.js",
                  "mathjax/jax/output/CommonHTML/jax.js", "mathjax/extensions/tex2jax.js",
                  "mathjax/fonts/HTML-CSS/TeX/woff/MathJax_Main-Regular.woff"]
        for name in needed:
            if not (self.html / name).is_file():
                self.fail(f"{name}: missing (the local MathJax is incomplete)")
        for page in pages:
            root = self.tree(page)
            body = "".join(n.all_text() for n in root.find_all("div", "contents"))
            prose = "".join(prose_text(n) for n in root.find_all("div", "contents"))
            for m in sorted(set(LEFTOVER.findall(prose))):
                self.fail(f"{page}: {m!r} is left unprocessed in the text (Doxygen runs no command "
                          "inside \"straight quotes\" spanning lines, for one)")
            if not re.search(r"\\\(|\\\[", body):
                continue
            with_math += 1
            srcs = [n.attrs.get("src", "") for n in root.find_all("script")]
            if not any(s.endswith("mathjax/MathJax.js") and not REMOTE.match(s) for s in srcs):
                self.fail(f"{page}: has math but does not load the local mathjax/MathJax.js")
            for f in re.findall(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", body, flags=re.S):
                tex = f[0] or f[1]
                if tex.replace("\\{", "").count("{") != tex.replace("\\}", "").count("}"):
                    self.fail(f"{page}: unbalanced braces in the formula {tex.strip()!r}")
        return with_math


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else BOOK
    c = Checker(out.resolve())
    book_json = c.out / "generated" / "book.json"
    if not book_json.is_file() or not (c.html / "index.html").is_file():
        print(f"check: no built book under {c.out} (run make book)", file=sys.stderr)
        return 1
    book = json.loads(book_json.read_text())
    lessons = records.lessons()
    pages = sorted(p.relative_to(c.html).as_posix() for p in c.html.glob("*.html"))
    every_page = sorted(p.relative_to(c.html).as_posix() for p in c.html.rglob("*.html"))
    c.chapters(book, lessons)
    n_figs, n_shown = c.figures(book, pages)
    n_cmds = c.commands(book)
    c.offline(pages)
    n_math = c.math(pages)
    n_links = c.links(every_page)
    n_gpus, n_mine = c.compared(book)
    for p in c.problems:
        print(f"check: {p}")
    n_snip = sum(len(ch["snippets"]) for ch in book["chapters"])
    n_hint = sum(ch["hints"] for ch in book["chapters"])
    summary = (f"{len(lessons)} chapters in course order, {n_snip} snippets, {n_hint} hints, "
               f"{n_figs} figures ({n_shown} images shown), {n_cmds} commands as written, "
               f"{n_math} pages with math, "
               f"{len(pages)} pages offline, {n_links} links within the book in "
               f"{len(every_page)} HTML files; {n_gpus} GPU(s)"
               + (" side by side" if n_gpus > 1 else "")
               + (f", {n_mine} file(s) of yours" if n_mine else ""))
    if c.problems:
        print(f"check: {len(c.problems)} problem(s); {summary}")
        return 1
    print(f"check: all good: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
