#!/usr/bin/env python3
"""tare's overhead, measured side by side in one run.

Runs, in alternating rounds (so drift on a noisy machine hits every side alike):
  tare_self_bench               tare, allocation accounting on
  tare_self_bench_noaccounting  the same bodies, no interposer
  gbench_self_bench             the same bodies under Google Benchmark
and prints, as medians over rounds of per-round figures:
  - tare's loop overhead and a one-instruction body against Google Benchmark's (ratio);
  - what untimed inputs add per iteration (tare) against PauseTiming/ResumeTiming (GB);
  - what accounting adds to one malloc+free (ratio and ns).

Usage: bench/overhead.py BUILD_DIR [--rounds=N] [--min-time=S]
"""
import json
import statistics
import subprocess
import sys


def run_tare(exe, min_time):
    out = subprocess.run([exe, "--json=-", f"--min-time={min_time}"], capture_output=True, text=True,
                         check=True).stdout
    return {b["name"]: b["time_ns"]["median"] for b in json.loads(out)["benchmarks"] if b["error"] is None}


def run_gbench(exe, min_time):
    out = subprocess.run([exe, "--benchmark_format=json", f"--benchmark_min_time={min_time}"],
                         capture_output=True, text=True, check=True).stdout
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    return {b["name"]: b["real_time"] * scale[b["time_unit"]] for b in json.loads(out)["benchmarks"]}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    rounds, min_time = 5, 0.3
    for arg in sys.argv[2:]:
        if arg.startswith("--rounds="):
            rounds = int(arg.split("=")[1])
        elif arg.startswith("--min-time="):
            min_time = float(arg.split("=")[1])
    tare_exe = f"{build}/bench/tare_self_bench"
    bare_exe = f"{build}/bench/tare_self_bench_noaccounting"
    gb_exe = f"{build}/bench/gbench_self_bench"
    rows = {k: [] for k in ["loop", "increment", "inputs_added", "pause_added", "alloc_ratio", "alloc_added",
                            "alloc_on", "alloc_off", "tare_loop", "gb_loop", "tare_inc", "gb_inc"]}
    for r in range(rounds):
        # Balanced order: ABC, CBA, ... so no side always runs first.
        order = [("tare", tare_exe), ("bare", bare_exe), ("gb", gb_exe)]
        if r % 2:
            order.reverse()
        res = {}
        for name, exe in order:
            res[name] = run_gbench(exe, min_time) if name == "gb" else run_tare(exe, min_time)
        t, b, g = res["tare"], res["bare"], res["gb"]
        rows["tare_loop"].append(t["loop_overhead"])
        rows["gb_loop"].append(g["loop_overhead"])
        rows["loop"].append(t["loop_overhead"] / g["loop_overhead"])
        rows["tare_inc"].append(t["increment"])
        rows["gb_inc"].append(g["increment"])
        rows["increment"].append(t["increment"] / g["increment"])
        rows["inputs_added"].append(t["increment_with_inputs"] - t["increment"])
        rows["pause_added"].append(g["increment_with_pause"] - g["increment"])
        rows["alloc_on"].append(t["malloc_free_32"])
        rows["alloc_off"].append(b["malloc_free_32"])
        rows["alloc_ratio"].append(t["malloc_free_32"] / b["malloc_free_32"])
        rows["alloc_added"].append(t["malloc_free_32"] - b["malloc_free_32"])
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"rounds: {rounds}, --min-time={min_time}; medians over rounds")
    print(f"loop overhead        tare {med['tare_loop']:.3f} ns  GB {med['gb_loop']:.3f} ns  "
          f"ratio tare/GB {med['loop']:.2f}")
    print(f"one-instruction body tare {med['tare_inc']:.3f} ns  GB {med['gb_inc']:.3f} ns  "
          f"ratio tare/GB {med['increment']:.2f}")
    print(f"per-iteration inputs tare with_inputs adds {med['inputs_added']:.2f} ns;  "
          f"GB PauseTiming+ResumeTiming adds {med['pause_added']:.1f} ns")
    print(f"malloc+free(32)      accounting on {med['alloc_on']:.2f} ns  off {med['alloc_off']:.2f} ns  "
          f"ratio {med['alloc_ratio']:.3f}  added {med['alloc_added']:.2f} ns")


if __name__ == "__main__":
    main()
