#!/usr/bin/env python3
"""How much of a comparison's spread is the address-space layout, or the samples' length
(bench/studies.md, "Layouts" and "Samples").

Runs `tare compare BASE HEAD` under several settings, interleaved, N times each, and prints per
benchmark the median width of the change's interval, the mean and spread of the change, and the
verdicts:

  kernel    --layout=kernel: every process in the kernel's own random layout (ASLR)
  fixed     setarch -R, --layout=kernel: no randomisation, one layout for every process
  matched   --layout=matched (the default): both sides of a round in one random layout
  sN        --samples=N (e.g. s40, s320): N samples a side per round, the defaults otherwise

    bench/ab/layouts.py build-ab --filter='^parse_csv$' --runs=5
    bench/ab/layouts.py build-ab --head=slow10 --runs=4
    bench/ab/layouts.py build-ab --head=slow20 --settings=s40,s320 --runs=5
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SETTINGS = {
    "kernel": ([], ["--layout=kernel"]),
    "fixed": (["setarch", os.uname().machine, "-R"], ["--layout=kernel"]),
    "matched": ([], ["--layout=matched"]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--base", default="a1")
    ap.add_argument("--head", default="a2")
    ap.add_argument("--filter", default=".")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--settings", default="kernel,fixed,matched")
    a = ap.parse_args()
    settings = a.settings.split(",")
    for s in settings:
        if s not in SETTINGS and s[:1] == "s" and s[1:].isdigit():
            SETTINGS[s] = ([], [f"--samples={s[1:]}"])
        elif s not in SETTINGS:
            sys.exit(f"unknown setting {s}: kernel, fixed, matched or sN")
    if "fixed" in settings and shutil.which("setarch") is None:
        sys.exit("the fixed setting needs setarch (util-linux)")
    exe = lambda side: os.path.join(a.build, "bench", "ab", "ab_" + side)
    results = {s: [] for s in settings}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        for i in range(a.runs):
            for s in settings:
                prefix, flags = SETTINGS[s]
                t0 = time.monotonic()
                subprocess.run(prefix + [os.path.join(a.build, "tare"), "compare", exe(a.base), exe(a.head),
                                         "--filter", a.filter, "--json", out] + flags,
                               stdout=subprocess.DEVNULL, check=True)
                wall = time.monotonic() - t0
                with open(out) as f:
                    doc = json.load(f)
                for r in doc["rows"]:
                    c = r["change_pct"]
                    results[s].append({"name": r["name"], "width": c["ci_high"] - c["ci_low"], "change": c["mean"],
                                       "verdict": r["verdict"], "per_side": wall / len(doc["rows"]) / 2})
                print(f"run {i} {s:8} " + " ".join(f"{x['name']}:{x['verdict'][:4]}{x['change']:+.2f}"
                                                   for x in results[s][-len(doc['rows']):]),
                      file=sys.stderr, flush=True)
    print(f"tare compare {a.base} {a.head}, {a.runs} runs of each setting, interleaved")
    print("| setting | benchmark | median interval width % | mean change % | sd of change % | verdicts "
          "| s/bench/side |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for s in settings:
        for name in sorted({x["name"] for x in results[s]}):
            xs = [x for x in results[s] if x["name"] == name]
            verdicts = ", ".join(f"{v} {sum(x['verdict'] == v for x in xs)}"
                                 for v in ("slower", "no_change", "faster") if any(x["verdict"] == v for x in xs))
            sd = statistics.stdev([x["change"] for x in xs]) if len(xs) > 1 else float("nan")
            print(f"| {s} | {name} | {statistics.median(x['width'] for x in xs):.2f} "
                  f"| {statistics.mean(x['change'] for x in xs):+.2f} | {sd:.2f} | {verdicts} "
                  f"| {statistics.mean(x['per_side'] for x in xs):.2f} |")


if __name__ == "__main__":
    main()
