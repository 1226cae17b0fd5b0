#!/usr/bin/env python3
"""tare compare --instrument=instructions on the A/B study's builds (bench/ab/README.md).

For the identical pair (ab_a1, ab_a2) and each injected build (ab_slow1, ab_slow10, ab_slow20,
ab_slow50: 0.1 %, 1 %, 2 %, 5 % more elements), runs the comparison RUNS times and reports per
body: how many runs gave each verdict, the change measured (and whether every run measured the
same, to the last digit), and, for the injected builds, the change less the injected one. Also
the same comparison timed (tare compare at its defaults) once, for the time it takes beside the
counted one.

Usage: bench/ab/instrument_study.py BUILD_DIR [--runs=N]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

PAIRS = [("ab_a2", 0.0), ("ab_slow1", 0.1), ("ab_slow10", 1.0), ("ab_slow20", 2.0), ("ab_slow50", 5.0)]


def compare(tare, base, head, extra):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.json")
        start = time.monotonic()
        subprocess.run([tare, "compare", base, head, f"--json={path}"] + extra, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        wall = time.monotonic() - start
        with open(path) as f:
            return wall, {r["name"]: r for r in json.load(f)["rows"]}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = 10
    for arg in sys.argv[2:]:
        if arg.startswith("--runs="):
            runs = int(arg.split("=")[1])
    tare = os.path.join(build, "tare")
    ab = os.path.join(build, "bench", "ab")
    base = os.path.join(ab, "ab_a1")
    print("| head | injected | body | verdicts over runs | change | identical runs | change − injected |")
    print("| --- | ---: | --- | --- | ---: | :---: | ---: |")
    walls = []
    for head, injected in PAIRS:
        results = []
        for _ in range(runs):
            wall, rows = compare(tare, base, os.path.join(ab, head), ["--instrument=instructions"])
            walls.append(wall)
            results.append(rows)
        for name in results[0]:
            verdicts = {}
            changes = []
            for rows in results:
                verdicts[rows[name]["verdict"]] = verdicts.get(rows[name]["verdict"], 0) + 1
                changes.append(rows[name]["change_pct"]["mean"])
            text = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
            same = "yes" if len(set(changes)) == 1 else "no"
            print(f"| {head} | {injected:g} % | {name} | {text} | {changes[0]:+.4f} % | {same} | "
                  f"{changes[0] - injected:+.4f} |")
    timed_wall, _ = compare(tare, base, os.path.join(ab, "ab_slow20"), [])
    print(f"\ncounted comparison of the 4 bodies: {sum(walls) / len(walls):.1f} s a run (mean of {len(walls)}); "
          f"timed at the defaults: {timed_wall:.1f} s")


if __name__ == "__main__":
    main()
