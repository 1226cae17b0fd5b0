#!/usr/bin/env python3
"""--profile's files in the viewers they are for (docs/profiles.md).

A counted run (--instrument=instructions) and a timed run of instrument_bench write their
profiles; then:
  - every speedscope file is valid against speedscope's published file-format schema (the
    schema the `speedscope` npm package ships, dist/release/file-format-schema.json);
  - each is opened by that package's own viewer in Debian's headless Chromium, as its command
    line opens a file (a script that hands the file to `speedscope.loadFileFromBase64`, named in
    the page's #localProfilePath): the viewer names the profile in the page's title, draws its
    flame graph, and reports no error; a screenshot is kept.
The package is fetched once with `npm pack` (a pinned version) into the output folder.

Usage: check_profiles.py --bench PATH --out DIR
Exit 0 when every check passes, 1 when one fails, 77 (skipped) when Chromium or the package
cannot be had and TARE_REQUIRE_BROWSER is not set (CI sets it: there they fail).
"""

import argparse
import base64
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_reports import Browser, evaluate, open_page, screenshot  # noqa: E402

SPEEDSCOPE = "speedscope@1.25.0"

# What the viewer shows once the profile is loaded: the title it sets and the drawn canvases.
VIEW_PROBE = r"""
(() => JSON.stringify({
  title: document.title,
  canvases: [...document.querySelectorAll('canvas')].map(c => [c.width, c.height]),
  text: document.body.innerText.slice(0, 400)
}))()
"""


def unavailable(what):
    if os.environ.get("TARE_REQUIRE_BROWSER"):
        print("FAIL: " + what)
        return 1
    print("SKIP: " + what)
    return 77


def fetch_speedscope(out):
    """The unpacked package's dist/release folder, fetched on first use; None when npm fails."""
    release = os.path.join(out, "speedscope", "package", "dist", "release")
    if os.path.exists(os.path.join(release, "index.html")):
        return release
    folder = os.path.join(out, "speedscope")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    tarballs = []
    for attempt in range(3):  # a registry's hiccup is not a failure of the profiles
        try:
            packed = subprocess.run(["npm", "pack", SPEEDSCOPE, "--silent"], cwd=folder, capture_output=True,
                                    text=True, timeout=180)
            tarballs = glob.glob(os.path.join(folder, "*.tgz"))
            if packed.returncode == 0 and tarballs:
                break
            print(f"npm pack (attempt {attempt + 1}):", packed.stderr.strip()[-400:])
        except (OSError, subprocess.TimeoutExpired) as e:
            print(f"npm pack (attempt {attempt + 1}):", e)
        time.sleep(5)
    if not tarballs:
        return None
    with tarfile.open(tarballs[0]) as t:
        t.extractall(folder, filter="data")
    return release


def make_profiles(bench, out):
    profiles = os.path.join(out, "profiles")
    shutil.rmtree(profiles, ignore_errors=True)
    runs = [[bench, "--instrument=instructions", "--filter=^calls_two$", "--profile=" + profiles],
            [bench, "--filter=^one_allocation$", "--min-time=0.05", "--profile=" + profiles]]
    for argv in runs:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError(" ".join(argv) + ": " + r.stderr.strip()[-400:])
    return sorted(glob.glob(os.path.join(profiles, "*.speedscope.json")))


def view(browser, release, path, out, failures):
    name = os.path.basename(path)
    with open(path, "rb") as f:
        loader = os.path.join(out, name + ".js")
        with open(loader, "w") as js:
            js.write("speedscope.loadFileFromBase64(%s, %s)" %
                     (json.dumps(name), json.dumps(base64.b64encode(f.read()).decode())))
    page = os.path.join(release, "index.html") + "#localProfilePath=" + loader
    target, session, problems, _ = open_page(browser, page)
    state = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the viewer loads the file after the page's load event
        state = evaluate(browser, session, VIEW_PROBE)
        if name.split(".")[0] in state["title"] and any(w > 0 and h > 0 for w, h in state["canvases"]):
            break
        time.sleep(0.2)
    screenshot(browser, session, os.path.join(out, name + ".png"))
    browser.call("Target.closeTarget", {"targetId": target})
    # The browser's own notes on its software WebGL (speedscope draws with WebGL; there is no GPU
    # here) are not the viewer's.
    problems = [p for p in problems if "WebGL" not in p]
    if problems:
        failures.append(f"{name}: the viewer reported: {problems}")
    if name.split(".")[0] not in state.get("title", ""):
        failures.append(f"{name}: the viewer did not load the profile (title {state.get('title')!r}, "
                        f"page: {state.get('text', '')[:200]!r})")
    if not any(w > 0 and h > 0 for w, h in state.get("canvases", [])):
        failures.append(f"{name}: no flame graph was drawn")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        return unavailable("chromium is not installed (scripts/deps --ci installs it)")
    if not shutil.which("valgrind"):
        return unavailable("valgrind is not installed: no instruction profile to view")
    release = fetch_speedscope(out)
    if release is None:
        return unavailable("the speedscope package could not be fetched with npm (" + SPEEDSCOPE + ")")
    try:
        import jsonschema
    except ImportError:
        return unavailable("python3-jsonschema is not installed (scripts/deps installs it)")

    files = make_profiles(args.bench, out)
    failures = []
    if len(files) != 2:
        failures.append(f"expected 2 speedscope files, found {files}")
    with open(os.path.join(release, "file-format-schema.json")) as f:
        schema = json.load(f)
    for path in files:
        with open(path) as f:
            document = json.load(f)
        for error in jsonschema.Draft7Validator(schema).iter_errors(document):
            failures.append(f"{os.path.basename(path)}: {error.message} at {list(error.absolute_path)}")

    browser = Browser(chromium, os.path.join(out, "chromium-profile"), subprocess.DEVNULL)
    try:
        for path in files:
            view(browser, release, path, out, failures)
    finally:
        browser.close()
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"ok: {len(files)} speedscope files valid and drawn by {SPEEDSCOPE}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
