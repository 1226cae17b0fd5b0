#!/usr/bin/env python3
"""The HTML reports in a real browser: Debian's headless Chromium, driven over the DevTools
protocol on a pipe (no web driver, no network port, no Python package beyond the standard
library).

For each page (`tare report` of a run with findings and an error row, of Google Benchmark
JSON, of comparisons with an error row and a threshold band, and of 1,000 synthetic
benchmarks; `tare history report` of a history with a slower build) it checks, at a 1,280 x 900 viewport:
  - no console error, no uncaught exception, no failed request (the page fetches nothing);
  - every plot present and drawn (non-empty box, a legend), one forest-plot row per compared
    benchmark, per measured benchmark a run-order plot with its samples' distribution;
  - the page does not scroll sideways, and every name, badge and verdict cell of the summary
    lies inside the viewport;
  - a comparison's table sorts by change when its header is clicked;
  - a flame graph (a profiled benchmark, docs/profiles.md) zooms to a clicked frame, its callers
    kept above it and the rest hidden, and back when "all" is clicked;
  - the page of 1,000 benchmarks stays under 5 MB (its load time is measured in
    bench/html_report_size.py, not asserted here).
A screenshot of each page is kept in the output folder; docs/images/compare-report.png, which the
README shows, is this test's compare_rounds.png.

Usage: check_reports.py --tare PATH --source-dir DIR --out DIR
Exit 0 when every check passes, 1 when one fails, 77 (skipped) when Chromium is missing and
TARE_REQUIRE_BROWSER is not set (CI sets it, so there a missing browser fails).
"""

import argparse
import base64
import json
import math
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

VIEWPORT = (1280, 900)
PAGE_TIMEOUT_S = 60

PROBE = r"""
(() => {
  const vw = document.documentElement.clientWidth;
  const box = e => e.getBoundingClientRect();
  const r = {viewport: vw, scroll_width: document.documentElement.scrollWidth, offscreen: [],
             plots: [], sections: [], forest_rows: 0, table_rows: 0, summary_rows: 0};
  document.querySelectorAll('svg').forEach(s => {
    const b = box(s);
    r.plots.push({cls: s.getAttribute('class') || '', width: b.width, height: b.height,
                  legend: !!s.querySelector('g.legend'), name: s.getAttribute('aria-label') || ''});
  });
  const must_show = '#summary td.name, #summary .badge, #rows td.name, #rows .badge, ' +
                    '#rows td.verdict, #comparisons td';
  document.querySelectorAll(must_show).forEach(e => {
    const b = box(e);
    if (b.right > vw + 0.5 || b.left < -0.5) r.offscreen.push(e.textContent.slice(0, 80));
  });
  r.change_marks = document.querySelectorAll('g.change').length;
  document.querySelectorAll('section.benchmark').forEach(s => {
    r.sections.push({id: s.id, plots: s.querySelectorAll('svg').length,
                     distributions: s.querySelectorAll('svg path.bar').length,
                     run_order: s.querySelectorAll('svg path.dots, svg circle.dot').length > 0,
                     failed: !!s.querySelector('li.error'),
                     no_samples: /^0 samples/.test((s.querySelector('dl.figures') || {}).textContent
                                                   ? [...s.querySelectorAll('dl.figures dd')]
                                                         .map(d => d.textContent).find(t => / samples?, /.test(t)) || ''
                                                   : '')
                                 // counted (--instrument), not timed: no samples to plot
                                 || /counted, not timed/.test((s.querySelector('dl.figures') || {}).textContent || '')
                                 // Google Benchmark's aggregates only: no samples in the file
                                 || /none in the file/.test((s.querySelector('dl.figures') || {}).textContent || '')});
  });
  r.forest_rows = document.querySelectorAll('svg.forest g.row').length;
  r.table_rows = document.querySelectorAll('#rows tbody tr').length;
  r.summary_rows = document.querySelectorAll('#summary tbody tr:not(.suite)').length;
  const t = performance.getEntriesByType('navigation')[0];
  r.load_ms = t ? t.loadEventEnd - t.startTime : null;
  return JSON.stringify(r);
})()
"""

# Clicks the change header and reads the rows' change values back in their new order.
SORT_PROBE = r"""
(() => {
  const th = document.querySelector('#rows th[data-sort="num"]');
  if (!th) return JSON.stringify({error: 'no sortable header'});
  th.click();
  const i = th.cellIndex;
  const values = [...document.querySelectorAll('#rows tbody tr')].map(tr => tr.cells[i].getAttribute('data-v'));
  return JSON.stringify({values: values, sort: th.getAttribute('aria-sort')});
})()
"""


# Clicks the widest frame below the body of the page's first flame graph, reads how it was drawn,
# then clicks "all" and reads whether the graph is whole again.
FLAME_PROBE = r"""
(() => {
  const svg = document.querySelector('svg.flame');
  const frames = [...svg.querySelectorAll('g.fr')];
  const depth = d => frames.filter(f => +f.dataset.d === d).sort((a, b) => b.dataset.w - a.dataset.w)[0];
  const target = depth(2) || depth(1);
  const root = depth(0);
  const click = f => f.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  click(target);
  const zoomed = {width: +target.querySelector('rect').getAttribute('width'),
                  root_above: root.classList.contains('above'),
                  hidden: frames.filter(f => f.style.display === 'none').length};
  click(root);
  const whole = frames.every(f => f.style.display !== 'none' &&
      Math.abs(+f.querySelector('rect').getAttribute('width') - Math.max(f.dataset.w * 1200 - 0.5, 0.1)) < 0.01);
  return JSON.stringify({frames: frames.length, zoomed: zoomed, whole: whole});
})()
"""


class Browser:
    """One headless Chromium, spoken to over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, exe, profile, log):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire():
            # Through fresh descriptors first: a pipe end that already is 3 or 4 would otherwise
            # be overwritten, or kept close-on-exec.
            read_end, write_end = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        args = [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
                "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=wire, close_fds=False, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=log)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:  # already gone, or not answering: the group is killed below
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # renderers and helpers too
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the browser did not answer in time")
            ready, _, _ = select.select([self.from_chrome], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=PAGE_TIMEOUT_S):
        self.next_id += 1
        request = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            request["sessionId"] = session
        os.write(self.to_chrome, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            message = self._read_message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_event(self, method, session, timeout=PAGE_TIMEOUT_S):
        deadline = time.monotonic() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            message = self._read_message(deadline)
            if message.get("method") == method and message.get("sessionId") == session:
                return message
            self.events.append(message)


def open_page(browser, path):
    """Loads `path` in a new tab; returns (target, session, what the console reported, seconds)."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(domain + ".enable", session=session)
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False},
                 session=session)
    browser.events.clear()
    start = time.monotonic()
    browser.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=session)
    browser.wait_event("Page.loadEventFired", session)
    seconds = time.monotonic() - start
    problems = []
    for e in browser.events:
        if e.get("sessionId") != session:
            continue
        method, p = e.get("method"), e.get("params", {})
        if method == "Runtime.exceptionThrown":
            problems.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            problems.append("console " + p["type"] + ": " + json.dumps(p.get("args", []))[:300])
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            problems.append("log: " + p["entry"].get("text", "")[:300])
        elif method == "Network.requestWillBeSent" and not p.get("request", {}).get("url", "").startswith("file:"):
            problems.append("request: " + p["request"]["url"][:200])
        elif method == "Network.loadingFailed":
            problems.append("failed load: " + json.dumps(p)[:200])
    return target, session, problems, seconds


def evaluate(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                          session=session)
    if "exceptionDetails" in result:
        raise RuntimeError("probe failed: " + json.dumps(result["exceptionDetails"])[:300])
    return json.loads(result["result"]["value"])


def screenshot(browser, session, path):
    data = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))


def synthetic_run(n, seed=7):
    """A tare/1 file of `n` benchmarks in families of 4 arguments, 100 samples each, with
    memory figures, a few warnings and an outlier now and then: the page a large suite makes."""
    rng = random.Random(seed)
    benchmarks = []
    for i in range(n):
        family, arg = divmod(i, 4)
        base = 50.0 * (1 + family % 17) * (10 ** (arg % 4)) ** 0.5
        samples = [base * (1 + rng.gauss(0, 0.02)) for _ in range(100)]
        if i % 13 == 0:
            samples[rng.randrange(100)] = base * 14  # one far outlier
        samples.sort(key=lambda _: rng.random())
        ordered = sorted(samples)
        mean = sum(samples) / len(samples)
        sd = (sum((x - mean) ** 2 for x in samples) / (len(samples) - 1)) ** 0.5
        half = 1.984 * sd / len(samples) ** 0.5
        iters = [1000] * 100
        warnings = []
        if i % 9 == 0:
            warnings.append({"kind": "noisy", "message": "samples spread ±9.7% around the mean"})
        benchmarks.append({
            "name": f"suite/family_{family}/{10 ** (arg % 4)}",
            "iterations": sum(iters),
            "time_ns": {"mean": mean, "median": ordered[50], "stddev": sd, "min": ordered[0],
                        "max": ordered[-1], "ci_low": mean - half, "ci_high": mean + half},
            "samples_ns": samples,
            "allocs_per_iter": float(arg), "bytes_per_iter": 64.0 * 10 ** arg,
            "peak_live_bytes": 64 * 10 ** arg, "retained_bytes_per_iter": 0.0,
            "page_faults_per_iter": 0.0, "counters": {}, "warnings": warnings, "error": None,
            "outliers": {"low_severe": 0, "low_mild": 0, "high_mild": 0, "high_severe": 0},
            "sample_iterations": iters,
            "sample_iterations_before": [1000 * k for k in range(100)],
            "sample_live_bytes": [0] * 100,
            "throughput": {"bytes_per_second": None, "items_per_second": None},
        })
    return benchmarks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tare", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        if os.environ.get("TARE_REQUIRE_BROWSER"):
            print("FAIL: chromium is not installed (scripts/deps --ci installs it)")
            return 1
        print("SKIP: chromium is not installed")
        return 77

    os.makedirs(args.out, exist_ok=True)
    golden = os.path.join(args.source_dir, "test", "golden", "approved")
    with open(os.path.join(golden, "typical.json")) as f:
        big = json.load(f)
    big["benchmarks"] = synthetic_run(1000)
    big_json = os.path.join(args.out, "run_1000.json")
    with open(big_json, "w") as f:
        json.dump(big, f)

    # A history of 14 runs made from typical.json: its first benchmark 20 % slower from the 8th.
    history_db = os.path.join(args.out, "history.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(history_db + suffix):
            os.remove(history_db + suffix)
    with open(os.path.join(golden, "typical.json")) as f:
        typical = json.load(f)
    for i in range(14):
        run = json.loads(json.dumps(typical))
        for k, b in enumerate(run["benchmarks"]):
            factor = (1 + 0.01 * math.sin(i * 2.4 + k)) * (1.2 if k == 0 and i >= 7 else 1)
            for key, value in (b.get("time_ns") or {}).items():
                if isinstance(value, (int, float)):
                    b["time_ns"][key] = value * factor
            b["samples_ns"] = [x * factor for x in b.get("samples_ns") or []]
        run_json = os.path.join(args.out, f"history_{i}.json")
        with open(run_json, "w") as f:
            json.dump(run, f)
        added = subprocess.run([args.tare, "history", "add", run_json, "--db=" + history_db, f"--commit=c{i:02d}f00d",
                                "--branch=main", f"--date=2026-11-{i + 1:02d}"], capture_output=True, text=True,
                               timeout=60)
        if added.returncode != 0:
            print("FAIL: tare history add:", added.stderr.strip())
            return 1

    # (page name, input, kind): kind decides the expectations.
    pages = [
        ("run_findings", os.path.join(golden, "findings.json"), "run"),
        ("run_typical", os.path.join(golden, "typical.json"), "run"),
        ("run_sites", os.path.join(golden, "sites.json"), "run"),
        ("run_variants", os.path.join(golden, "variants.json"), "run"),
        ("run_counted", os.path.join(golden, "counted.json"), "run"),
        ("gbench", os.path.join(args.source_dir, "test", "gbench", "data", "fixture.json"), "run"),
        ("compare_rounds", os.path.join(golden, "compare_rounds.json"), "compare"),
        ("compare_edges", os.path.join(golden, "compare_edges.json"), "compare"),
        ("compare_threshold", os.path.join(golden, "compare_threshold.json"), "compare"),
        ("compare_counted", os.path.join(golden, "compare_counted.json"), "compare"),
        ("run_1000", big_json, "big"),
        ("history", history_db, "history"),
    ]
    failures = []

    def check(ok, page, what):
        if not ok:
            failures.append(f"{page}: {what}")

    profile = tempfile.mkdtemp(prefix="tare-browser-")
    browser_log = open(os.path.join(args.out, "chromium.log"), "w")
    browser = Browser(chromium, profile, browser_log)
    try:
        for name, source, kind in pages:
            html = os.path.join(args.out, name + ".html")
            command = [args.tare, "report", source, "--html=" + html]
            if kind == "history":
                command = [args.tare, "history", "report", "--db=" + source, "--html=" + html]
            made = subprocess.run(command, capture_output=True, text=True, timeout=120)
            if made.returncode != 0:
                failures.append(f"{name}: tare report failed: {made.stderr.strip()}")
                continue
            target, session, problems, seconds = open_page(browser, html)
            for p in problems:
                failures.append(f"{name}: {p}")
            r = evaluate(browser, session, PROBE)
            screenshot(browser, session, os.path.join(args.out, name + ".png"))
            size = os.path.getsize(html)
            print(f"{name}: {size / 1e6:.2f} MB, loaded in {seconds:.2f} s "
                  f"(navigation timing {r['load_ms']:.0f} ms), {len(r['plots'])} plots")
            check(r["scroll_width"] <= r["viewport"], name,
                  f"the page scrolls sideways: {r['scroll_width']} px in a {r['viewport']} px viewport")
            check(not r["offscreen"], name, f"cells outside the viewport: {r['offscreen'][:5]}")
            for p in r["plots"]:
                check(p["width"] > 0 and p["height"] > 0, name, f"plot not drawn: {p['name']}")
                if p["cls"] != "flame":  # a flame graph's caption says what it shows: no series
                    check(p["legend"], name, f"plot without a legend: {p['name']}")
            if any(p["cls"] == "flame" for p in r["plots"]):
                z = evaluate(browser, session, FLAME_PROBE)
                check(z["frames"] >= 2 and abs(z["zoomed"]["width"] - 1199.5) < 0.01 and z["zoomed"]["root_above"],
                      name, f"a clicked flame-graph frame was not zoomed to the whole width: {z}")
                check(z["whole"], name, f"clicking \"all\" did not bring the whole flame graph back: {z}")
            if kind == "history":
                check(len(r["sections"]) == len(typical["benchmarks"]), name,
                      f"{len(r['sections'])} sections for {len(typical['benchmarks'])} benchmarks")
                for s in r["sections"]:
                    check(s["plots"] >= 1, name, f"{s['id']}: no trend plot")
                check(r["change_marks"] >= 1, name, "no change point marked")
                browser.call("Target.closeTarget", {"targetId": target})
                continue
            with open(source) as f:
                data = json.load(f)
            if kind == "compare":
                rows = len(data["rows"])
                check(r["forest_rows"] == rows, name, f"{r['forest_rows']} forest rows for {rows} rows")
                check(r["table_rows"] == rows, name, f"{r['table_rows']} table rows for {rows} rows")
                s = evaluate(browser, session, SORT_PROBE)
                numbers = [float(v) for v in s.get("values", []) if v not in (None, "")]
                check(s.get("sort") == "ascending" and numbers == sorted(numbers), name,
                      f"sorting by change gave {s}")
                missing = [v for v in s.get("values", []) if v in (None, "")]
                check(s.get("values", [])[len(numbers):] == missing, name, "rows without a change not last")
            else:
                benchmarks = data.get("benchmarks", [])
                if kind != "run" or "schema" in data:
                    check(len(r["sections"]) == len(benchmarks), name,
                          f"{len(r['sections'])} sections for {len(benchmarks)} benchmarks")
                    check(r["summary_rows"] == len(benchmarks), name, "summary rows")
                for s in r["sections"]:
                    if not s["failed"] and not s["no_samples"]:
                        check(s["run_order"] and s["distributions"] >= 1, name,
                              f"{s['id']}: no run-order plot with its distribution")
            if kind == "big":
                # The size is a property of the page; its load time is a measurement, which lives
                # in bench/html_report_size.py (bench/README.md), not in a timed test.
                check(size <= 5_000_000, name, f"{size} bytes for 1,000 benchmarks (at most 5 MB)")
            browser.call("Target.closeTarget", {"targetId": target})
    finally:
        browser.close()
        browser_log.close()
        shutil.rmtree(profile, ignore_errors=True)

    for f in failures:
        print("FAIL:", f)
    print(f"{len(pages)} pages, {len(failures)} failures; screenshots in {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
