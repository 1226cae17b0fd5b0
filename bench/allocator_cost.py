#!/usr/bin/env python3
"""What allocation accounting costs on each allocator, in one build: the malloc-heavy bodies of
tare_self_bench (malloc_free_32, map_100_strings) with accounting on and off, on glibc and on a
linked jemalloc (tare_self_bench_jemalloc, built when libjemalloc is installed), in alternating
rounds pinned to one CPU; then tare_accounting_paths for each allocator, which times the same
bodies through the hook and calling the allocator directly, in one process (bench/README.md,
"Allocation accounting's cost", "On jemalloc").

Usage: bench/allocator_cost.py [BUILD] [--rounds=21] [--paths-rounds=41] [--cpu=1] [--min-time=0.3]

Prints, per allocator and body, the median over rounds of each side (ns per iteration), and the
per-round ratio on / off: its median, quartiles, and every round's.
"""
import json
import os
import statistics
import subprocess
import sys

BODIES = ("malloc_free_32", "map_100_strings")


def run(cpu, exe, min_time):
    out = subprocess.run(["taskset", "-c", cpu, exe, f"--filter=^({'|'.join(BODIES)})$",
                          f"--min-time={min_time}", "--json=-"],
                         capture_output=True, text=True, check=True).stdout
    return {b["name"]: b["time_ns"]["median"] for b in json.loads(out)["benchmarks"]}


def quartiles(values):
    v = sorted(values)
    return v[len(v) // 4], statistics.median(v), v[len(v) * 3 // 4]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    build = args[0] if args else "build"
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    rounds, paths_rounds = int(opts.get("rounds", 21)), opts.get("paths-rounds", "41")
    cpu, min_time = opts.get("cpu", "1"), opts.get("min-time", "0.3")
    exes = {}
    for allocator, suffix in (("glibc", ""), ("jemalloc", "_jemalloc")):
        on, off = f"{build}/bench/tare_self_bench{suffix}", f"{build}/bench/tare_self_bench{suffix}_noaccounting"
        if os.path.exists(on) and os.path.exists(off):
            exes[(allocator, "on")], exes[(allocator, "off")] = on, off
        else:
            print(f"{allocator}: {on} or {off} not built; skipped")
    values = {k: {b: [] for b in BODIES} for k in exes}
    order = list(exes)
    for r in range(rounds):
        for k in order if r % 2 == 0 else order[::-1]:
            for body, ns in run(cpu, exes[k], min_time).items():
                values[k][body].append(ns)
    print(f"rounds: {rounds}, CPU {cpu}, --min-time={min_time}; ns per iteration, median over rounds (min)")
    for allocator in dict.fromkeys(a for a, _ in exes):
        for body in BODIES:
            on, off = values[(allocator, "on")][body], values[(allocator, "off")][body]
            ratios = [a / b for a, b in zip(on, off)]
            low, mid, high = quartiles(ratios)
            added = statistics.median(a - b for a, b in zip(on, off))
            print(f"{allocator:8s} {body:16s} on {statistics.median(on):8.2f} ({min(on):.2f})  "
                  f"off {statistics.median(off):8.2f} ({min(off):.2f})  "
                  f"on/off x{mid:.3f} [{low:.3f}, {high:.3f}]  added {added:+.2f} ns")
            print("  per round: " + " ".join(f"{x:.3f}" for x in ratios))
    for suffix in ("", "_jemalloc"):
        exe = f"{build}/bench/tare_accounting_paths{suffix}"
        if os.path.exists(exe):
            print(subprocess.run(["taskset", "-c", cpu, exe, paths_rounds], capture_output=True, text=True,
                                 check=True).stdout, end="")


if __name__ == "__main__":
    main()
