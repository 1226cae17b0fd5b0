#!/usr/bin/env python3
"""What --profile costs (docs/profiles.md): the time of a counted run with it against one without,
side by side, and the size of the reports of 100 profiled benchmarks.

Time: `tare run EXE --instrument=instructions` with and without `--profile=DIR`, alternating, R
rounds; the median wall seconds of each and their ratio. Both are counted by Callgrind; the profile
adds the simulation of each body's setup (Callgrind learns the call stack only from simulated
calls), the reading of the call graph and the allocation stacks' short timed run with its sites
pass.

Size: the profiled rows of that run, copied under new names to 100 benchmarks, as a tare/1 file
and through `tare report --html`; and a counted comparison of the A/B study's two builds with
profiles, copied to 100 rows, through `tare report --html` (its differential flame graphs).

Usage: bench/profile_cost.py --tare build/tare --exe build/bench/ab/ab_a1 --head build/bench/ab/ab_slow20
                             [--rounds 5] [--out DIR]
"""

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(argv):
    start = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(" ".join(argv) + ": " + r.stderr[-400:])
    return time.monotonic() - start


def copies(rows, n, name_key="name"):
    out = []
    for i in range(n):
        row = copy.deepcopy(rows[i % len(rows)])
        row[name_key] = f"{row[name_key]}/{i}"
        out.append(row)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tare", required=True)
    parser.add_argument("--exe", required=True)
    parser.add_argument("--head", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="tare-profile-cost-")
    os.makedirs(out, exist_ok=True)

    plain, profiled = [], []
    for _ in range(args.rounds):
        plain.append(timed([args.tare, "run", args.exe, "--instrument=instructions"]))
        profiled.append(timed([args.tare, "run", args.exe, "--instrument=instructions",
                               "--profile=" + os.path.join(out, "profiles")]))
    a, b = statistics.median(plain), statistics.median(profiled)
    print(f"| counted run of {os.path.basename(args.exe)} | median of {args.rounds} | |")
    print("| --- | ---: | ---: |")
    print(f"| --instrument=instructions | {a:.2f} s | 1.00 |")
    print(f"| with --profile | {b:.2f} s | {b / a:.2f} |")

    # Each document, its rows copied to 100, and its page.
    def hundred(command, rows_key, name):
        path = os.path.join(out, name + ".json")
        subprocess.run(command + ["--json=" + path], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(path) as f:
            doc = json.load(f)
        doc[rows_key] = copies(doc[rows_key], 100)
        bigger = os.path.join(out, name + "_100.json")
        with open(bigger, "w") as f:
            json.dump(doc, f)
        subprocess.run([args.tare, "report", bigger, "--html=" + bigger + ".html"], check=True,
                       stdout=subprocess.DEVNULL)
        return bigger

    run_100 = hundred([args.tare, "run", args.exe, "--instrument=instructions", "--profile=" + out + "/p"],
                      "benchmarks", "run")
    compare_100 = hundred([args.tare, "compare", "--instrument=instructions", "--profile=" + out + "/c", args.exe,
                           args.head], "rows", "compare")

    print()
    print("| 100 profiled benchmarks | tare/1 or tare-compare/1 JSON | HTML page |")
    print("| --- | ---: | ---: |")
    for label, path in (("a counted run", run_100), ("a counted comparison", compare_100)):
        print(f"| {label} | {os.path.getsize(path) / 1e6:.2f} MB | {os.path.getsize(path + '.html') / 1e6:.2f} MB |")


if __name__ == "__main__":
    main()
