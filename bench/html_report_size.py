#!/usr/bin/env python3
"""HTML report size and render time against the number of benchmarks.

Writes tare/1 files of N synthetic benchmarks (families of 4 arguments, 100 samples each, with
memory figures, a warning on every 9th and a far outlier on every 13th: the generator of
test/browser/check_reports.py), renders each with `tare report --html`, and opens the page in
headless Chromium at 1,280 x 900, timing navigation to the load event. Prints one row per N.

Usage: bench/html_report_size.py --tare build/tare [--sizes 100,1000,10000] [--out DIR]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "browser"))
import check_reports  # noqa: E402  (the browser driver and the generator)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tare", required=True)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("chromium is not installed (apt-get install chromium)")
    out = args.out or tempfile.mkdtemp(prefix="tare-html-size-")
    os.makedirs(out, exist_ok=True)
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "golden", "approved",
                          "typical.json")
    with open(source) as f:
        template = json.load(f)

    profile = tempfile.mkdtemp(prefix="tare-browser-")
    log = open(os.path.join(out, "chromium.log"), "w")
    browser = check_reports.Browser(chromium, profile, log)
    print("| benchmarks | page | bytes per benchmark | tare report | load in Chromium |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    try:
        for n in (int(x) for x in args.sizes.split(",")):
            doc = dict(template)
            doc["benchmarks"] = check_reports.synthetic_run(n)
            results = os.path.join(out, f"run_{n}.json")
            page = os.path.join(out, f"run_{n}.html")
            with open(results, "w") as f:
                json.dump(doc, f)
            start = time.monotonic()
            subprocess.run([args.tare, "report", results, "--html=" + page], check=True)
            render = time.monotonic() - start
            target, _, problems, seconds = check_reports.open_page(browser, page)
            browser.call("Target.closeTarget", {"targetId": target})
            size = os.path.getsize(page)
            print(f"| {n:,} | {size / 1e6:.2f} MB | {size / n:,.0f} B | {render:.2f} s | {seconds:.2f} s |"
                  + (f" {len(problems)} console problems" if problems else ""))
    finally:
        browser.close()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
