#!/usr/bin/env python3
"""What --instrument=instructions costs, measured side by side in one run.

For every example suite (tare executables under BUILD_DIR/examples), and the A/B study's build:
  - the whole suite's wall time natively (default --min-time) and counted under Callgrind;
  - per benchmark, the slowdown of one iteration: the counted pass's seconds per iteration
    (instrument_seconds / instrument_iterations) over the native time per iteration, and the
    seconds each benchmark took counted, Valgrind's start included (the suite's wall time
    over its benchmarks).
Prints Markdown tables (bench/README.md, "Instruction counts").

Usage: bench/instrument_cost.py BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time

SUITES = ["quickstart/quickstart_bench", "buffers/buffers_bench", "round_trip/round_trip_after",
          "skip_records/skip_records_bench", "stream_encoder/stream_encoder_bench",
          "zstd_contexts/zstd_contexts_bench"]


def run(exe, extra):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        start = time.monotonic()
        subprocess.run([exe, f"--json={path}"] + extra, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        wall = time.monotonic() - start
        with open(path) as f:
            return wall, {b["name"]: b for b in json.load(f)["benchmarks"]}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    suites = [os.path.join(build, "examples", s) for s in SUITES] + [os.path.join(build, "bench/ab/ab_a1")]
    print("| suite | benchmarks | native wall | counted wall | counted per benchmark |")
    print("| --- | ---: | ---: | ---: | ---: |")
    rows = []
    for exe in suites:
        if not os.path.exists(exe):
            continue
        native_wall, native = run(exe, [])
        counted_wall, counted = run(exe, ["--instrument=instructions"])
        n = len(counted)
        print(f"| {os.path.basename(exe)} | {n} | {native_wall:.1f} s | {counted_wall:.1f} s | "
              f"{counted_wall / max(n, 1):.2f} s |")
        for name, c in counted.items():
            b = native.get(name)
            if c.get("error") or not b or b.get("error") or not c.get("instrument_iterations"):
                continue
            per_iter = c["instrument_seconds"] / c["instrument_iterations"]
            ns = b["time_ns"]["mean"]
            rows.append((os.path.basename(exe), name, ns, c["instrument_iterations"], per_iter * 1e9,
                         per_iter * 1e9 / ns if ns > 0 else float("nan")))
    print()
    print("| suite | benchmark | native ns/iter | counted iterations | counted ns/iter | slowdown |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for suite, name, ns, iters, counted_ns, slow in rows:
        print(f"| {suite} | {name} | {ns:,.0f} | {iters:,} | {counted_ns:,.0f} | {slow:.0f}x |")
    slowdowns = sorted(r[5] for r in rows)
    if slowdowns:
        print(f"\nslowdown per iteration: median {slowdowns[len(slowdowns) // 2]:.0f}x, "
              f"range {slowdowns[0]:.0f}x to {slowdowns[-1]:.0f}x over {len(slowdowns)} benchmarks")


if __name__ == "__main__":
    main()
