#!/usr/bin/env python3
"""The A/B study: does `tare compare` call identical builds equal and find a 1 %, 2 %, 5 % slowdown,
and how does Google Benchmark's compare.py do on the same bodies? See bench/ab/README.md.

For every configuration (A/A, and A against the 1 %, 2 %, 5 % slower builds) it runs
`tare compare` and compare.py many times, interleaved (tare, GB, GB, tare, ... and the pairs
round-robin) so drift of the machine hits both tools alike, then prints one table:

  tool | pair | runs | rows | false verdicts | detected | all rows found | mean change | s/bench/side

- A/A: a false verdict is any verdict but no_change. A/B: "faster" is a wrong-direction (false)
  verdict; "detected" counts "slower".
- compare.py: a row is significant when its U-test p-value (real time) is below --gb-alpha
  (0.05, compare.py's default, per row, no multiple-comparison correction: that is how the tool
  is used); its direction is the sign of the change of the medians.
- s/bench/side: the wall time of the whole command (start-up, calibration, warm-up included)
  divided by rows x 2 sides.

Each run waits until no compiler (cc1plus) is running, polling every 20 s, and is flagged
"disturbed" when one appeared while it ran or other processes used more than --max-foreign
cores on average meanwhile (machine busy time from /proc/stat less this script's own children);
the first table counts every run, a second one leaves the disturbed ones out.

--calibrate first measures the real injected ratio of each slow build against a1 with one long
`tare compare` per build (--calib-rounds, --calib-min-time).

Usage: bench/ab/study.py BUILD_DIR [--runs-aa=10] [--runs=10] [--runs-slow50=N]
       [--rounds=20] [--samples=N] [--min-time=1] [--family=fdr|fwer] [--gb-repetitions=10] [--gb-min-time=0.1]
       [--pairs=aa,slow10,slow20,slow50] [--tools=tare,gb] [--calibrate] [--calibrate-only]
       [--calib-rounds=40] [--calib-min-time=4] [--raw=PATH.json] [--label=TEXT] [--max-wait=S] [--no-wait]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

COMPARE_PY_CANDIDATES = ["/usr/share/benchmark/compare.py"]
PERMILLE = {"aa": 0, "slow10": 10, "slow20": 20, "slow50": 50}


def compiler_running():
    r = subprocess.run(["pgrep", "-c", "cc1plus"], capture_output=True, text=True)
    return r.stdout.strip() not in ("", "0")


NO_WAIT = False
MAX_WAIT = None


def wait_quiet(log):
    waited = 0
    if NO_WAIT:
        return 0
    while compiler_running() and (MAX_WAIT is None or waited < MAX_WAIT):
        if waited == 0:
            log("  waiting for compilers to finish ...")
        time.sleep(20)
        waited += 20
    return waited


def busy_ticks():
    """CPU time of the whole machine (all cores), seconds, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]  # idle + iowait
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class Monitor:
    """While a measured command runs: polls for a compiler every 2 s, and measures the CPU that
    other processes used (the machine's busy time less this script's and its children's), in
    cores on average ("foreign load")."""

    def __init__(self):
        self.seen = False
        self.foreign = 0.0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        while not self._stop.wait(2.0):
            if compiler_running():
                self.seen = True

    def __enter__(self):
        self._busy0, self._own0, self._w0 = busy_ticks(), sum(os.times()[:4]), time.monotonic()
        self._t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()
        wall = time.monotonic() - self._w0
        own = sum(os.times()[:4]) - self._own0
        self.foreign = max(0.0, (busy_ticks() - self._busy0 - own) / max(wall, 1e-9))


def find_compare_py():
    for c in COMPARE_PY_CANDIDATES:
        if os.path.exists(c):
            return c
    out = subprocess.run(["dpkg", "-L", "libbenchmark-tools"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.endswith("/compare.py"):
            return line
    sys.exit("compare.py not found: apt-get install libbenchmark-tools")


def python_with_scipy():
    # compare.py needs scipy; Debian's python3-scipy is visible to /usr/bin/python3 only.
    for py in ["/usr/bin/python3", sys.executable, "python3"]:
        if subprocess.run([py, "-c", "import scipy"], capture_output=True).returncode == 0:
            return py
    sys.exit("compare.py needs scipy: apt-get install python3-scipy")


def run_tare(tare, base, head, rounds, samples, min_time, family="fdr", layout="matched"):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        cmd = [tare, "compare", base, head, f"--rounds={rounds}", f"--min-time={min_time}", f"--family={family}",
               f"--layout={layout}", f"--json={out}"] + ([f"--samples={samples}"] if samples else [])
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
        with open(out) as f:
            doc = json.load(f)
    rows = []
    for r in doc["rows"]:
        c = r.get("change_pct") or {}
        rows.append({"name": r["name"], "verdict": r["verdict"], "change": c.get("mean"),
                     "ci_low": c.get("ci_low"), "ci_high": c.get("ci_high")})
    return rows, wall


def run_gb(py, compare_py, base, head, repetitions, min_time, alpha):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "d.json")
        cmd = [py, compare_py, "--no-color", f"--alpha={alpha}", f"--dump_to_json={out}", "benchmarks", base,
               head, f"--benchmark_repetitions={repetitions}", f"--benchmark_min_time={min_time}"]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
        with open(out) as f:
            diff = json.load(f)
    medians = {e["name"]: e["measurements"][0]["time"] for e in diff
               if e.get("run_type") == "aggregate" and e.get("aggregate_name") == "median"}
    rows = []
    for e in diff:
        if e.get("run_type") == "aggregate" or not e.get("utest"):
            continue
        p_value = e["utest"]["time_pvalue"]
        change = 100.0 * medians.get(e["name"] + "_median", 0.0)
        if p_value < alpha:
            verdict = "slower" if change > 0 else "faster"
        else:
            verdict = "no_change"
        rows.append({"name": e["name"], "verdict": verdict, "change": change, "p": p_value})
    return rows, wall


def summarize(records, tool, pair):
    rs = [r for r in records if r["tool"] == tool and r["pair"] == pair]
    if not rs:
        return None
    rows = [row for r in rs for row in r["rows"]]
    n_rows = len(rows)
    if pair == "aa":
        false = sum(row["verdict"] != "no_change" for row in rows)
        detected = None
        all_found = None
        runs_clean = sum(all(row["verdict"] == "no_change" for row in r["rows"]) for r in rs)
    else:
        false = sum(row["verdict"] == "faster" for row in rows)
        detected = sum(row["verdict"] == "slower" for row in rows)
        all_found = sum(all(row["verdict"] == "slower" for row in r["rows"]) for r in rs)
        runs_clean = None
    changes = [row["change"] for row in rows if row["change"] is not None]
    per_side = [r["wall"] / (2 * len(r["rows"])) for r in rs if r["rows"]]
    per_body = {}
    for row in rows:
        per_body.setdefault(row["name"], []).append(row)
    return {"runs": len(rs), "rows": n_rows, "false": false, "detected": detected, "all_found": all_found,
            "runs_clean": runs_clean, "mean_change": statistics.mean(changes) if changes else float("nan"),
            "s_per_side": statistics.mean(per_side) if per_side else float("nan"),
            "per_body": {k: (sum(x["verdict"] == ("no_change" if pair == "aa" else "slower") for x in v), len(v),
                             statistics.mean([x["change"] for x in v if x["change"] is not None] or [float("nan")]))
                         for k, v in per_body.items()}}


TOOL_NAMES = {"tare": "tare compare", "tare-kernel": "tare compare --layout=kernel",
              "tare-40": "tare compare --samples=40", "tare-320": "tare compare --samples=320", "gb": "compare.py"}


def print_table(records, pairs, tools, title):
    print(f"\n{title}")
    hdr = ("| tool | pair | runs | rows | false verdicts | detected (slower) | runs with every row right "
           "| mean change % | s per benchmark per side |")
    print(hdr)
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    label = {"aa": "A/A", "slow10": "A/B 1 %", "slow20": "A/B 2 %", "slow50": "A/B 5 %"}
    for pair in pairs:
        for tool in tools:
            s = summarize(records, tool, pair)
            if s is None:
                continue
            tname = TOOL_NAMES[tool]
            fv = f"{s['false']} ({100.0 * s['false'] / max(s['rows'], 1):.1f} %)"
            if pair == "aa":
                det = "-"
                allr = f"{s['runs_clean']} / {s['runs']}"
            else:
                det = f"{s['detected']} / {s['rows']} ({100.0 * s['detected'] / max(s['rows'], 1):.0f} %)"
                allr = f"{s['all_found']} / {s['runs']}"
            print(f"| {tname} | {label[pair]} | {s['runs']} | {s['rows']} | {fv} | {det} | {allr} | "
                  f"{s['mean_change']:+.2f} | {s['s_per_side']:.2f} |")
    print("\nper body (rows right / rows, mean change %):")
    for pair in pairs:
        for tool in tools:
            s = summarize(records, tool, pair)
            if s is None:
                continue
            body = "  ".join(f"{k} {a}/{n} {c:+.2f}" for k, (a, n, c) in sorted(s["per_body"].items()))
            print(f"  {tool:11} {pair:6} {body}")


def calibrate(tare, build, rounds, min_time, pairs, log):
    print(f"\ncalibration: tare compare ab_a1 ab_slowN --rounds={rounds} --min-time={min_time} "
          "(change % with its Bonferroni 95 % interval)")
    out = {}
    for pair in pairs:
        if pair == "aa":
            continue
        waited = wait_quiet(log)
        with Monitor() as m:
            rows, wall = run_tare(tare, f"{build}/bench/ab/ab_a1", f"{build}/bench/ab/ab_{pair}", rounds, None,
                                  min_time)
        out[pair] = rows
        nominal = PERMILLE[pair] / 10.0
        print(f"  {pair} (nominal +{nominal:.1f} % elements), {wall:.0f} s, foreign load {m.foreign:.2f} cores"
              f"{', compiler ran meanwhile' if m.seen else ''}{f', waited {waited} s' if waited else ''}")
        for r in rows:
            print(f"    {r['name']:10} {r['change']:+.2f} %  [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]  {r['verdict']}")
        sys.stdout.flush()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--runs-aa", type=int, default=10)
    ap.add_argument("--runs", type=int, default=10, help="runs per slowdown")
    ap.add_argument("--runs-slow50", type=int, default=None, help="runs for the 5 %% pair (default --runs)")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--samples", type=int, default=None, help="tare compare's --samples (default: its own)")
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--family", choices=["fdr", "fwer"], default="fdr",
                    help="tare compare's --family (rejudge.py re-judges a fwer run under both)")
    ap.add_argument("--gb-repetitions", type=int, default=10)
    ap.add_argument("--gb-min-time", type=float, default=0.1)
    ap.add_argument("--gb-alpha", type=float, default=0.05)
    ap.add_argument("--pairs", default="aa,slow10,slow20,slow50")
    ap.add_argument("--tools", default="tare,gb",
                    help="of tare (the defaults: matched layouts), tare-kernel (--layout=kernel), tare-40, tare-320 "
                         "(--samples=40 or 320), gb (compare.py)")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--calibrate-only", action="store_true")
    ap.add_argument("--calib-rounds", type=int, default=40)
    ap.add_argument("--calib-min-time", type=float, default=4.0)
    ap.add_argument("--raw", help="write every run's rows to this JSON file")
    ap.add_argument("--label", default="")
    ap.add_argument("--max-foreign", type=float, default=0.15,
                    help="a run is 'disturbed' when other processes used more cores than this on average")
    ap.add_argument("--max-wait", type=float, default=None,
                    help="wait at most this many seconds for compilers, then run anyway (the run is marked)")
    ap.add_argument("--table-from", metavar="RAW.json", help="print the tables of an earlier run's --raw file")
    ap.add_argument("--no-wait", action="store_true", help="do not wait for compilers (smoke tests only)")
    a = ap.parse_args()
    global NO_WAIT, MAX_WAIT
    NO_WAIT, MAX_WAIT = a.no_wait, a.max_wait

    if a.table_from:
        with open(a.table_from) as f:
            raw = json.load(f)
        r_args, records = raw["args"], raw["records"]
        print(f"A/B study {r_args['label']}: tare compare --rounds={r_args['rounds']} --samples={r_args['samples'] or 'default'} "
              f"--min-time={r_args['min_time']}; compare.py --benchmark_repetitions={r_args['gb_repetitions']} "
              f"--benchmark_min_time={r_args['gb_min_time']} (from {a.table_from})")
        report(records, r_args["pairs"].split(","), r_args["tools"].split(","), r_args["max_foreign"])
        return

    build = os.path.abspath(a.build)
    tare = f"{build}/tare"
    pairs = a.pairs.split(",")
    tools = a.tools.split(",")
    py, compare_py = python_with_scipy(), find_compare_py()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    print(f"A/B study {a.label}: tare compare --rounds={a.rounds} --samples={a.samples or 'default'} --min-time={a.min_time}; "
          f"compare.py --benchmark_repetitions={a.gb_repetitions} --benchmark_min_time={a.gb_min_time} "
          f"(U test, alpha {a.gb_alpha})")
    calib = None
    if a.calibrate or a.calibrate_only:
        calib = calibrate(tare, build, a.calib_rounds, a.calib_min_time, pairs, log)
        if a.calibrate_only:
            return

    runs = {p: (a.runs_aa if p == "aa" else (a.runs_slow50 if p == "slow50" and a.runs_slow50 is not None
                                            else a.runs)) for p in pairs}
    records = []
    t_start = time.monotonic()
    step = 0
    for i in range(max(runs.values())):
        for pair in pairs:
            if i >= runs[pair]:
                continue
            # A/A: a1 and a2 swap sides every run; A/B: the A side alternates between a1 and a2.
            a_side = "a1" if i % 2 == 0 else "a2"
            if pair == "aa":
                base, head = ("a1", "a2") if i % 2 == 0 else ("a2", "a1")
            else:
                base, head = a_side, pair
            order = tools if step % 2 == 0 else list(reversed(tools))
            step += 1
            for tool in order:
                waited = wait_quiet(log)
                load = os.getloadavg()[0]
                with Monitor() as m:
                    if tool in ("tare", "tare-kernel", "tare-40", "tare-320"):
                        samples = {"tare-40": 40, "tare-320": 320}.get(tool, a.samples)
                        rows, wall = run_tare(tare, f"{build}/bench/ab/ab_{base}", f"{build}/bench/ab/ab_{head}",
                                              a.rounds, samples, a.min_time,
                                              a.family, "kernel" if tool == "tare-kernel" else "matched")
                    else:
                        rows, wall = run_gb(py, compare_py, f"{build}/bench/ab/gb_ab_{base}",
                                            f"{build}/bench/ab/gb_ab_{head}", a.gb_repetitions, a.gb_min_time,
                                            a.gb_alpha)
                rec = {"tool": tool, "pair": pair, "run": i, "base": base, "head": head, "wall": wall,
                       "disturbed": m.seen or m.foreign > a.max_foreign, "compiler": m.seen,
                       "foreign": m.foreign, "waited": waited, "load1": load, "rows": rows}
                records.append(rec)
                verdicts = " ".join(f"{r['name']}:{r['verdict'][:4]}{r['change']:+.1f}" for r in rows)
                log(f"[{time.monotonic() - t_start:6.0f} s] {tool:11} {pair:6} run {i} {wall:5.1f} s "
                    f"load {load:.2f} foreign {m.foreign:.2f}{' DISTURBED' if rec['disturbed'] else ''}  {verdicts}")
                if a.raw:
                    with open(a.raw, "w") as f:
                        json.dump({"args": vars(a), "calibration": calib, "records": records}, f, indent=1)

    print(f"\ntotal {time.monotonic() - t_start:.0f} s")
    report(records, pairs, tools, a.max_foreign)


def report(records, pairs, tools, max_foreign):
    print_table(records, pairs, tools, "all runs")
    disturbed = sum(r["disturbed"] for r in records)
    if disturbed:
        print(f"\n{disturbed} of {len(records)} runs were disturbed: a compiler ran meanwhile, or other "
              f"processes used more than {max_foreign} cores on average")
        print_table([r for r in records if not r["disturbed"]], pairs, tools, "undisturbed runs only")


if __name__ == "__main__":
    main()
