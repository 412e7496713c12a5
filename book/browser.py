#!/usr/bin/env python3
"""Reads the built book as a reader would: every page in a real headless Chromium.

    browser.py [OUT] [--shots DIR]     OUT is build.py's --out (default: book/), holding html/

For the front page, every chapter and the results page it waits for MathJax to finish, then fails
on any of these:
- a JavaScript error, or a resource that failed to load, in the browser's console;
- an image (a figure or a chart) that did not load;
- a figure whose control, moved, does not change the figure: the frame shown must change to
  another file, load, and differ from the one before.
It keeps a screenshot of each page in DIR (default: OUT/screens/), and of each interactive
figure before and after its first control moves.

Needs Chromium, its driver and Selenium (Debian: chromium, chromium-driver, python3-selenium;
`make setup` installs them). Without them it exits 77, which CTest reports as skipped, with the
reason.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BOOK = Path(__file__).resolve().parent
SKIP = 77


def skip(why):
    print(f"SKIPPED: the book's browser test cannot run here: {why}")
    sys.exit(SKIP)


def selenium_or_reexec():
    """Selenium from this Python, else from the system's /usr/bin/python3 (where Debian's
    python3-selenium lives): the script runs itself again under it."""
    try:
        import selenium  # noqa: F401
        return
    except ImportError:
        pass
    for py in ["/usr/bin/python3", shutil.which("python3")]:
        if py and Path(py).exists() and os.path.realpath(py) != os.path.realpath(sys.executable):
            ok = subprocess.run([py, "-c", "import selenium"], capture_output=True).returncode == 0
            if ok:
                os.execv(py, [py, __file__] + sys.argv[1:])
    skip("no Python here imports selenium (run `make setup`: the package python3-selenium)")


def find_browser():
    chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                   if shutil.which(n)), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver") if Path(p).exists()),
        None)
    if not chrome:
        skip("no Chromium (run `make setup`: the package chromium)")
    if not driver:
        skip("no chromedriver (run `make setup`: the package chromium-driver)")
    return chrome, driver


def start(chrome, driver):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--allow-file-access-from-files", "--window-size=1280,1000",
              "--hide-scrollbars", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(driver), options=opts)
    except Exception as e:  # a browser that does not start here is not the book's fault
        skip(f"Chromium did not start: {str(e).splitlines()[0]}")


WAIT_MATHJAX = """
var done = arguments[arguments.length - 1];
if (!window.MathJax || !MathJax.Hub) { done("none"); return; }
MathJax.Hub.Queue(function () { done("typeset"); });
"""

IMAGES = """
return Array.prototype.map.call(document.images, function (i) {
  return [i.getAttribute('src'), i.complete, i.naturalWidth];
});
"""


def wait_for(driver, script, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = driver.execute_script(script)
        if v:
            return v
        time.sleep(0.05)
    return None


class Reader:
    def __init__(self, driver, html, shots):
        self.d, self.html, self.shots = driver, html, shots
        self.problems, self.pages, self.images, self.controls, self.figures = [], 0, 0, 0, 0
        self.errors = 0

    def fail(self, msg):
        self.problems.append(msg)

    def console(self, page):
        for entry in self.d.get_log("browser"):
            if entry.get("level") == "SEVERE":
                self.errors += 1
                self.fail(f"{page}: the console says: {entry.get('message', '')[:300]}")

    def images_loaded(self, page):
        for src, complete, width in self.d.execute_script(IMAGES):
            self.images += 1
            if not complete or not width:
                self.fail(f"{page}: the image {src} did not load")

    def frame_file(self, src):
        return self.html / src.split("html/", 1)[-1] if "html/" in src else self.html / src

    def controls_change(self, page):
        from selenium.webdriver.common.by import By
        for fig in self.d.find_elements(By.CSS_SELECTOR, "figure.course-figure"):
            fid = fig.get_attribute("data-figure")
            self.figures += 1
            controls = fig.find_elements(By.CSS_SELECTOR, ".course-figure-control")
            if not controls:
                continue
            self.d.execute_script("arguments[0].scrollIntoView({block: 'start'});", fig)
            if self.shots:
                fig.screenshot(str(self.shots / f"figure-{fid}-before.png"))
            for n, row in enumerate(controls):
                self.controls += 1
                img = fig.find_element(By.CSS_SELECTOR, "img.course-figure-img")
                before = img.get_attribute("src")
                sliders = row.find_elements(By.CSS_SELECTOR, "input[type=range]")
                if sliders:
                    # One step forward (or back, at the end), as a reader's arrow key would.
                    row.find_elements(By.CSS_SELECTOR, "button")[
                        1 if sliders[0].get_attribute("value") != sliders[0].get_attribute("max")
                        else 0].click()
                else:
                    choices = [b for b in row.find_elements(By.CSS_SELECTOR, "button")
                               if b.get_attribute("aria-checked") != "true"]
                    if not choices:
                        self.fail(f"{page}: figure {fid}: control {n + 1} has a single value")
                        continue
                    choices[0].click()
                after = img.get_attribute("src")
                what = f"{page}: figure {fid}: control {n + 1} ({row.text.split(':')[0]})"
                if after == before:
                    self.fail(f"{what} did not change the figure")
                    continue
                ok = wait_for(self.d, f"var i = document.querySelector('figure[data-figure="
                                      f"\"{fid}\"] img.course-figure-img'); "
                                      f"return i.complete && i.naturalWidth > 0;", 5.0)
                if not ok:
                    self.fail(f"{what}: the new frame {after} did not load")
                    continue
                a, b = self.frame_file(before), self.frame_file(after)
                if a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes():
                    self.fail(f"{what}: the new frame is the same picture as the one before")
                if n == 0 and self.shots:
                    fig.screenshot(str(self.shots / f"figure-{fid}-after.png"))

    def read(self, name):
        page = self.html / name
        self.d.get(page.as_uri())
        wait_for(self.d, "return document.readyState === 'complete';")
        self.d.set_script_timeout(30)
        try:
            self.d.execute_async_script(WAIT_MATHJAX)
        except Exception:
            self.fail(f"{name}: MathJax did not finish within 30 s")
        self.pages += 1
        self.images_loaded(name)
        self.controls_change(name)
        self.console(name)
        if self.shots:
            # Doxygen's theme scrolls the page inside #doc-content: the page is as tall as that.
            height = self.d.execute_script(
                "var c = document.getElementById('doc-content');"
                "return Math.max(document.documentElement.scrollHeight,"
                " c ? c.scrollHeight + c.getBoundingClientRect().top : 0);")
            self.d.set_window_size(1280, min(max(int(height), 800), 16000))
            self.d.execute_script("window.scrollTo(0, 0);")
            self.d.save_screenshot(str(self.shots / name.replace(".html", ".png")))
            self.d.set_window_size(1280, 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", type=Path, default=BOOK)
    ap.add_argument("--shots", type=Path, help="where the screenshots go (default OUT/screens)")
    args = ap.parse_args()
    html = args.out.resolve() / "html"
    book_json = args.out.resolve() / "generated" / "book.json"
    if not (html / "index.html").is_file() or not book_json.is_file():
        skip(f"no book in {html} (the test 'book' builds it; it was skipped or failed)")
    selenium_or_reexec()
    chrome, driver_path = find_browser()
    book = json.loads(book_json.read_text())
    names = ["index.html"] + [c["page"] for c in book["chapters"]] + ["results.html"]
    names = [n for n in names if (html / n).is_file()]
    shots = (args.shots or args.out.resolve() / "screens").resolve()
    if shots.exists():
        shutil.rmtree(shots)
    shots.mkdir(parents=True)
    t0 = time.monotonic()
    d = start(chrome, driver_path)
    r = Reader(d, html, shots)
    try:
        for n in names:
            r.read(n)
    finally:
        d.quit()
    for p in r.problems:
        print(f"browser: {p}")
    print(f"browser: {r.pages} pages read in Chromium in {time.monotonic() - t0:.0f} s: "
          f"{r.errors} JavaScript errors, {r.images} images loaded, {r.figures} figures, "
          f"{r.controls} controls moved; {len(r.problems)} problems; screenshots in {shots}")
    return 1 if r.problems else 0


if __name__ == "__main__":
    sys.exit(main())
