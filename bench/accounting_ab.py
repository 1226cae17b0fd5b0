#!/usr/bin/env python3
"""What allocation accounting costs, in two builds side by side: does a change of the hooks
(src/alloc) make malloc+free dearer? Runs `malloc_free_32` of tare_self_bench (accounting on)
and tare_self_bench_noaccounting (off) from BEFORE_BUILD and AFTER_BUILD in alternating rounds,
each pinned to CPU 1, and prints medians and per-round ratios (bench/README.md, "Allocation
accounting's cost").

Usage: bench/accounting_ab.py BEFORE_BUILD AFTER_BUILD [--rounds=41] [--cpu=1] [--body=malloc_free_32]
                              [--allocator=jemalloc]

--body=malloc_free_32_paused measures the paused path instead (both builds need that body).
--allocator=jemalloc runs tare_self_bench_jemalloc and its build without accounting, linked with
jemalloc (built when libjemalloc is installed).
"""
import json
import statistics
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    rounds, cpu, body, suffix = 41, "1", "malloc_free_32", ""
    for a in sys.argv[1:]:
        if a.startswith("--rounds="):
            rounds = int(a.split("=", 1)[1])
        elif a.startswith("--cpu="):
            cpu = a.split("=", 1)[1]
        elif a.startswith("--body="):
            body = a.split("=", 1)[1]
        elif a.startswith("--allocator="):
            allocator = a.split("=", 1)[1]
            suffix = "" if allocator == "glibc" else "_" + allocator
    exes = {}
    for label, build in (("before", args[0]), ("after", args[1])):
        exes[label + "_on"] = f"{build}/bench/tare_self_bench{suffix}"
        exes[label + "_off"] = f"{build}/bench/tare_self_bench{suffix}_noaccounting"
    values = {k: [] for k in exes}
    order = list(exes)
    for r in range(rounds):
        for k in order if r % 2 == 0 else order[::-1]:
            out = subprocess.run(["taskset", "-c", cpu, exes[k], f"--filter=^{body}$", "--min-time=0.3",
                                  "--json=-"], capture_output=True, text=True, check=True).stdout
            values[k].append(json.loads(out)["benchmarks"][0]["time_ns"]["median"])

    def ratio(a, b):
        return statistics.median([x / y for x, y in zip(values[a], values[b])])

    def added(a, b):
        return statistics.median([x - y for x, y in zip(values[a], values[b])])

    print(f"{body}{suffix}: rounds: {rounds}, CPU {cpu}; ns per iteration, median over rounds (min)")
    for k in exes:
        print(f"  {k:11s} {statistics.median(values[k]):6.2f} ({min(values[k]):.2f})")
    print(f"after on / before on:   {ratio('after_on', 'before_on'):.3f}")
    print(f"after:  on / off {ratio('after_on', 'after_off'):.3f}, added {added('after_on', 'after_off'):.2f} ns")
    print(f"before: on / off {ratio('before_on', 'before_off'):.3f}, added {added('before_on', 'before_off'):.2f} ns")


if __name__ == "__main__":
    main()
