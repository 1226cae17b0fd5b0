#!/usr/bin/env python3
"""What --alloc-sites costs (bench/README.md, "Allocation sites"): runs EXE with and without the
flag in alternating rounds and prints, per round, the whole run's wall time each way, and per
benchmark the diagnostic pass's time, allocations recorded and microseconds per recorded
allocation (capture included, symbolization not: that is in the wall time).

Usage: bench/alloc_sites_cost.py EXE [--rounds=5] [--min-time=0.2] [--filter=REGEX]
"""
import json
import statistics
import subprocess
import sys
import time


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    exe = args[0]
    rounds, extra = 5, ["--min-time=0.2"]
    for a in sys.argv[1:]:
        if a.startswith("--rounds="):
            rounds = int(a.split("=", 1)[1])
        elif a.startswith("--min-time=") or a.startswith("--filter="):
            extra = [e for e in extra if not e.startswith(a.split("=", 1)[0])] + [a]
    walls = {"plain": [], "sites": []}
    passes = {}
    for r in range(rounds):
        order = ["plain", "sites"] if r % 2 == 0 else ["sites", "plain"]
        for kind in order:
            argv = [exe, "--json=-"] + extra + (["--alloc-sites"] if kind == "sites" else [])
            t0 = time.monotonic()
            out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
            walls[kind].append(time.monotonic() - t0)
            if kind == "sites":
                for b in json.loads(out)["benchmarks"]:
                    p = b.get("alloc_sites_pass")
                    if p and p["allocations"] > 0:
                        passes.setdefault(b["name"], []).append(p)
    plain, sites = statistics.median(walls["plain"]), statistics.median(walls["sites"])
    print(f"whole run, median of {rounds}: {plain:.2f} s without, {sites:.2f} s with --alloc-sites "
          f"({sites / plain:.2f}x)")
    print("| benchmark | pass iterations | allocations recorded | pass s | µs per allocation |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, ps in passes.items():
        secs = statistics.median(p["seconds"] for p in ps)
        allocs = statistics.median(p["allocations"] for p in ps)
        iters = statistics.median(p["iterations"] for p in ps)
        print(f"| {name} | {iters:.0f} | {allocs:.0f} | {secs:.3f} | {1e6 * secs / allocs:.2f} |")


if __name__ == "__main__":
    main()
