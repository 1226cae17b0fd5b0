#!/usr/bin/env python3
"""Warm samples, side by side: Google Benchmark rows whose runs start cold (gbench_warm_bench.cpp)
measured by Google Benchmark's own run, by `tare run` and by `tare compare`,
for each of several builds of tare (bench/README.md, "Warm samples").

    bench/gbench_warm.py BUILD [BUILD...] [--rounds=5]

A BUILD is a build tree holding `tare` and `bench/gbench_warm_bench`. Each round runs every build
once, in an order that alternates by round, so drift on a busy machine hits every build alike;
the table holds the medians over rounds of: Google Benchmark's own time and faults per iteration
(its run of --benchmark_min_time=0.5), tare run's at --min-time=0.5 with its seconds and
iterations per sample, and tare compare's seconds per benchmark and side, interval half-width and
samples per round and side (the suite against itself, the defaults: 20 rounds, --min-time=1).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time


def timed(argv):
    start = time.monotonic()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def google_benchmark(suite, name, scratch):
    out = os.path.join(scratch, "gb.json")
    timed([suite, "--benchmark_filter=^" + name + "$", "--benchmark_min_time=0.5", "--benchmark_out=" + out,
           "--benchmark_out_format=json"])
    with open(out) as f:
        row = json.load(f)["benchmarks"][0]
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[row["time_unit"]]
    return {"gb ms/iter": row["real_time"] * scale, "gb faults/iter": row["tare_faults_per_iter"]}


def tare_run(tare, suite, name, scratch):
    out = os.path.join(scratch, "run.json")
    seconds = timed([tare, "run", suite, "--filter=^" + name + "$", "--min-time=0.5", "--json=" + out])
    with open(out) as f:
        row = json.load(f)["benchmarks"][0]
    kinds = {w["kind"] for w in row["warnings"]}
    return {
        "run ms/iter": row["time_ns"]["median"] / 1e6,
        "run faults/iter": row["page_faults_per_iter"],
        "run iter/sample": row["iterations"] / len(row["samples_ns"]),
        "run fresh_memory": 1.0 if "fresh_memory" in kinds else 0.0,
        "run s": seconds,
    }


def tare_compare(tare, suite, name, scratch):
    out = os.path.join(scratch, "compare.json")
    seconds = timed([tare, "compare", suite, suite, "--filter=^" + name + "$", "--json=" + out])
    with open(out) as f:
        row = json.load(f)["rows"][0]
    return {"compare s/side": seconds / 2, "compare ± %": (row["change_pct"]["ci_high"] - row["change_pct"]["ci_low"]) / 2,
            "compare samples/round": row["base"]["samples"] / len(row["base"]["round_ns"])}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("builds", nargs="+")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    names = ["BM_dump_document", "BM_sum_field"]
    figures = {(n, b): {} for n in names for b in a.builds}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(a.rounds):
            order = a.builds if r % 2 == 0 else list(reversed(a.builds))
            for b in order:
                tare = os.path.join(b, "tare")
                suite = os.path.join(b, "bench", "gbench_warm_bench")
                for n in names:
                    for part in (google_benchmark(suite, n, scratch), tare_run(tare, suite, n, scratch),
                                 tare_compare(tare, suite, n, scratch)):
                        for k, v in part.items():
                            figures[(n, b)].setdefault(k, []).append(v)
    for n in names:
        keys = list(figures[(n, a.builds[0])].keys())
        print(f"\n{n}\n\n| figure | " + " | ".join(a.builds) + " |")
        print("| --- |" + " ---: |" * len(a.builds))
        for k in keys:
            print(f"| {k} | " + " | ".join(f"{statistics.median(figures[(n, b)][k]):.3g}" for b in a.builds) + " |")
        for b in a.builds:
            f = figures[(n, b)]
            ratio = [t / g for t, g in zip(f["run ms/iter"], f["gb ms/iter"])]
            print(f"{b}: tare run / Google Benchmark, time per iteration, median over rounds: "
                  f"{statistics.median(ratio):.3f} (rounds: " + ", ".join(f"{x:.3f}" for x in ratio) + ")")


if __name__ == "__main__":
    main()
