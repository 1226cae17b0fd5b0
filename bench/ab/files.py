#!/usr/bin/env python3
"""The stored-baseline workflow: record each build once into a results file, compare the files
later. Does it call identical builds equal and find the 5 % slowdown, and what does it cost next
to comparing the executables? See bench/ab/README.md.

Each repetition records three files, each a separate `tare run BUILD/bench/ab/ab_SIDE
--processes=N --json=FILE` (N fresh processes of the executable in one file), for a1, a2 and
slow50, in an order that rotates every repetition (a1 a2 slow50, a2 slow50 a1, slow50 a1 a2, ...)
so drift of the machine hits all three alike. It then compares the repetition's files with
`tare compare BASE.json HEAD.json`, processes being the unit of replication:

  A/A   a1 file against a2 file: a false verdict is any verdict but no_change
  A/B   a1 file against slow50 file: "detected" counts "slower"; "faster" is a wrong-direction
        (false) verdict

(both comparisons of one repetition share its a1 file). As the cost reference, --exe-runs times
in all, spread evenly over the repetitions, it runs `tare compare BUILD/bench/ab/ab_a1
BUILD/bench/ab/ab_slow50` with tare's defaults (rounds of fresh worker processes), then prints:

  workflow | N | runs | rows | false verdicts (A/A) | detected 5 % | mean change A/B
           | s per file (recording) | s per compare

and per benchmark the counts behind it. Wall times are of the whole command (start-up and
calibration included). Each command waits until no compiler (cc1plus) runs, polling every 20 s,
and is flagged "disturbed" when one appeared while it ran or other processes used more than
--max-foreign cores on average meanwhile (as study.py); the table counts every command and says
how many were disturbed. The files of `tare compare` on two files should carry
context.mode "processes"; any other mode is reported.

Usage: bench/ab/files.py BUILD_DIR [--processes=5] [--runs=10] [--exe-runs=3] [--min-time=SECONDS]
       [--raw=PATH.json] [--keep=DIR] [--max-foreign=0.15] [--no-wait]
"""
import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import study  # bench/ab/study.py: waiting for quiet, and the disturbed-run monitor

SIDES = ["a1", "a2", "slow50"]
BODIES_NOTE = "hash_64k, sort_2k, parse_csv, map_500"
# docs/cli.md, "Exit status": none of them is a success here (`tare compare` runs without
# --fail-on-regression, so it exits 0 whatever the verdicts; `tare run` exits 1 for a failed
# benchmark, whose file would hold an error row).
EXIT_MEANING = {1: "a failed benchmark (tare run) or a regression beyond --fail-on-regression",
                2: "bad arguments or unreadable input", 3: "an executable could not be run to the end"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_checked(cmd, out, max_foreign):
    """Runs one tare command after waiting for quiet; aborts the study when it fails. Returns
    (the JSON document it wrote to out, its wall time, the measurement's circumstances)."""
    waited = study.wait_quiet(log)
    with study.Monitor() as m:
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        meaning = EXIT_MEANING.get(p.returncode, "not a status tare documents")
        sys.exit(f"files.py: aborting: `{' '.join(cmd)}` exited {p.returncode} ({meaning}); its standard "
                 "error is above")
    try:
        with open(out) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(p.stderr)
        sys.exit(f"files.py: aborting: `{' '.join(cmd)}` exited 0 but its --json file cannot be read: {e}")
    return doc, wall, {"waited": waited, "compiler": m.seen, "foreign": m.foreign,
                       "disturbed": m.seen or m.foreign > max_foreign}


def compare_rows(doc):
    rows = []
    for r in doc["rows"]:
        c = r.get("change_pct") or {}
        rows.append({"name": r["name"], "verdict": r["verdict"], "change": c.get("mean"),
                     "ci_low": c.get("ci_low"), "ci_high": c.get("ci_high")})
    return rows


def pct(k, n):
    return f"{k} / {n} ({100.0 * k / max(n, 1):.0f} %)"


def mean_or_nan(xs):
    xs = [x for x in xs if x is not None]
    return statistics.mean(xs) if xs else float("nan")


def summarize(records, workflow):
    cmps = [r for r in records if r["kind"] == "compare" and r["workflow"] == workflow]
    aa = [row for r in cmps if r["pair"] == "aa" for row in r["rows"]]
    ab = [row for r in cmps if r["pair"] == "slow50" for row in r["rows"]]
    per_body = {}
    for pair, rows in (("aa", aa), ("slow50", ab)):
        for row in rows:
            per_body.setdefault(row["name"], {}).setdefault(pair, []).append(row)
    recs = [r for r in records if r["kind"] == "record"] if workflow == "files" else []
    return {"runs": len({r["run"] for r in cmps if r["pair"] == "slow50"}) if workflow == "files"
            else sum(r["pair"] == "slow50" for r in cmps),
            "aa": aa, "ab": ab, "per_body": per_body,
            "aa_false": sum(row["verdict"] != "no_change" for row in aa),
            "ab_slower": sum(row["verdict"] == "slower" for row in ab),
            "ab_faster": sum(row["verdict"] == "faster" for row in ab),
            "mean_change": mean_or_nan([row["change"] for row in ab]),
            "s_file": mean_or_nan([r["wall"] for r in recs]),
            "s_compare": mean_or_nan([r["wall"] for r in cmps]),
            "rows_per_cmp": mean_or_nan([len(r["rows"]) for r in cmps if r["pair"] == "slow50"]),
            "modes": sorted({str(r["mode"]) for r in cmps}),
            "rounds": sorted({r["rounds"] for r in cmps if r.get("rounds") is not None})}


def report(records, processes):
    print("\n| workflow | N | runs | rows | false verdicts (A/A) | detected 5 % (rows slower / rows) "
          "| mean change A/B % | s per file (recording) | s per compare |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    summaries = {}
    for workflow, name in (("files", "stored files (tare run --processes, tare compare A.json B.json)"),
                           ("executables", "executables (tare compare ab_a1 ab_slow50)")):
        s = summarize(records, workflow)
        summaries[workflow] = s
        if not s["ab"] and not s["aa"]:
            continue
        if workflow == "files":
            n = f"{processes} processes"
            fv = f"{s['aa_false']} / {len(s['aa'])} ({100.0 * s['aa_false'] / max(len(s['aa']), 1):.1f} %)"
            s_file = f"{s['s_file']:.1f}"
            rows = f"{len(s['aa'])} A/A + {len(s['ab'])} A/B"
        else:
            n = ", ".join(f"{r} rounds" for r in s["rounds"]) or "-"
            fv = "- (no A/A run)"
            s_file = "-"
            rows = f"{len(s['ab'])}"
        det = pct(s["ab_slower"], len(s["ab"]))
        if s["ab_faster"]:
            det += f"; {s['ab_faster']} faster (wrong direction)"
        print(f"| {name} | {n} | {s['runs']} | {rows} | {fv} | {det} | {s['mean_change']:+.2f} | {s_file} "
              f"| {s['s_compare']:.1f} |")

    print("\nper benchmark (A/A: rows no_change / rows; A/B 5 %: rows slower / rows, faster, mean change %):")
    for workflow in ("files", "executables"):
        s = summaries[workflow]
        for body, by in sorted(s["per_body"].items()):
            parts = []
            if "aa" in by:
                v = by["aa"]
                parts.append(f"A/A {sum(x['verdict'] == 'no_change' for x in v)}/{len(v)} "
                             f"{mean_or_nan([x['change'] for x in v]):+.2f}")
            if "slow50" in by:
                v = by["slow50"]
                parts.append(f"A/B {sum(x['verdict'] == 'slower' for x in v)}/{len(v)}"
                             f" faster {sum(x['verdict'] == 'faster' for x in v)}"
                             f" {mean_or_nan([x['change'] for x in v]):+.2f}")
            print(f"  {workflow:11} {body:10} " + "  ".join(parts))

    f, e = summaries["files"], summaries["executables"]
    print("\ncost of one A/B (wall time, s):")
    if f["ab"]:
        print(f"  stored baseline: record HEAD {f['s_file']:.1f} + compare {f['s_compare']:.1f} = "
              f"{f['s_file'] + f['s_compare']:.1f} (both recorded now: {2 * f['s_file'] + f['s_compare']:.1f}); "
              f"{f['s_file'] / max(f['rows_per_cmp'] * processes, 1):.2f} s per benchmark per process")
    if e["ab"]:
        print(f"  executables: {e['s_compare']:.1f}; "
              f"{e['s_compare'] / max(2 * e['rows_per_cmp'], 1):.2f} s per benchmark per side")
    bad = [m for m in f["modes"] if m != "processes"]
    if bad:
        print(f"\nNOTE: tare compare on two files reported context.mode {', '.join(bad)}, not \"processes\": "
              "the files were not compared with processes as the unit of replication")
    disturbed = sum(r["disturbed"] for r in records)
    if disturbed:
        print(f"\n{disturbed} of {len(records)} commands were disturbed: a compiler ran meanwhile, or other "
              "processes used more than --max-foreign cores on average (see --raw for which)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--processes", type=int, default=5, help="tare run --processes: fresh processes per file")
    ap.add_argument("--runs", type=int, default=10, help="repetitions: three files and two file comparisons each")
    ap.add_argument("--exe-runs", type=int, default=3,
                    help="tare compare ab_a1 ab_slow50 (executables, tare's defaults), spread over the repetitions")
    ap.add_argument("--min-time", type=float, default=None,
                    help="tare run --min-time (per process; default: not passed, the executable's own)")
    ap.add_argument("--raw", help="write every command's rows to this JSON file")
    ap.add_argument("--keep", metavar="DIR", help="keep the recorded files (and the comparisons' JSON) in DIR")
    ap.add_argument("--max-foreign", type=float, default=0.15,
                    help="a command is 'disturbed' when other processes used more cores than this on average")
    ap.add_argument("--no-wait", action="store_true", help="do not wait for compilers (smoke tests only)")
    a = ap.parse_args()
    study.NO_WAIT = a.no_wait
    if a.processes < 1 or a.runs < 0 or a.exe_runs < 0:
        sys.exit("files.py: --processes must be at least 1, --runs and --exe-runs at least 0")

    build = os.path.abspath(a.build)
    tare = os.path.join(build, "tare")
    exe = {side: os.path.join(build, "bench", "ab", "ab_" + side) for side in SIDES}
    missing = [p for p in [tare] + list(exe.values()) if not os.access(p, os.X_OK)]
    if missing:
        sys.exit(f"files.py: not found or not executable: {', '.join(missing)} "
                 "(cmake --build BUILD_DIR --target tare_cli ab_a1 ab_a2 ab_slow50)")
    min_time = [f"--min-time={a.min_time:g}"] if a.min_time is not None else []
    # exe comparison j runs in repetition floor(j * runs / exe_runs): evenly spread, first one first.
    exe_at = {}
    for j in range(a.exe_runs):
        exe_at.setdefault(j * max(a.runs, 1) // a.exe_runs, []).append(j)

    print(f"stored-baseline study: tare run --processes={a.processes}"
          f"{' ' + min_time[0] if min_time else ''} of a1, a2, slow50 ({BODIES_NOTE}), {a.runs} repetitions, "
          f"files compared a1/a2 and a1/slow50; reference: {a.exe_runs} x tare compare ab_a1 ab_slow50 (defaults)")
    records = []
    t_start = time.monotonic()

    def keep(rec):
        records.append(rec)
        if a.raw:
            with open(a.raw, "w") as f:
                json.dump({"args": vars(a), "records": records}, f, indent=1)

    def compare(base, head, out, workflow, pair, i):
        doc, wall, circ = run_checked([tare, "compare", base, head, f"--json={out}"], out, a.max_foreign)
        ctx = doc.get("context", {})
        rec = {"kind": "compare", "workflow": workflow, "pair": pair, "run": i, "base": base, "head": head,
               "wall": wall, "mode": ctx.get("mode"), "rounds": ctx.get("rounds"), **circ,
               "rows": compare_rows(doc)}
        keep(rec)
        expected = "processes" if workflow == "files" else "rounds"
        verdicts = " ".join(f"{r['name']}:{r['verdict'][:4]}"
                            + (f"{r['change']:+.1f}" if r["change"] is not None else "") for r in rec["rows"])
        log(f"[{time.monotonic() - t_start:6.0f} s] compare {workflow:11} {pair:6} run {i} {wall:6.1f} s "
            f"mode {rec['mode']}{'' if rec['mode'] == expected else ' (expected ' + expected + ')'}"
            f"{' DISTURBED' if circ['disturbed'] else ''}  {verdicts}")

    with (contextlib.nullcontext(a.keep) if a.keep else tempfile.TemporaryDirectory()) as d:
        os.makedirs(d, exist_ok=True)
        for i in range(max(a.runs, 1 if a.exe_runs else 0)):
            if i < a.runs:
                files = {}
                order = SIDES[i % len(SIDES):] + SIDES[:i % len(SIDES)]
                for side in order:
                    path = os.path.join(d, f"r{i:02d}_{side}.json")
                    doc, wall, circ = run_checked([tare, "run", exe[side], f"--processes={a.processes}",
                                                   f"--json={path}"] + min_time, path, a.max_foreign)
                    files[side] = path
                    names = [b.get("name") for b in doc.get("benchmarks", [])]
                    got = doc.get("context", {}).get("processes")
                    keep({"kind": "record", "side": side, "run": i, "path": path, "wall": wall,
                          "processes": got, "benchmarks": names, **circ})
                    log(f"[{time.monotonic() - t_start:6.0f} s] record  {side:6} run {i} {wall:6.1f} s "
                        f"{len(names)} benchmarks{' DISTURBED' if circ['disturbed'] else ''}"
                        f"{'' if got in (None, a.processes) else f' (context.processes {got}, asked {a.processes})'}")
                compare(files["a1"], files["a2"], os.path.join(d, f"r{i:02d}_cmp_aa.json"), "files", "aa", i)
                compare(files["a1"], files["slow50"], os.path.join(d, f"r{i:02d}_cmp_slow50.json"), "files",
                        "slow50", i)
            for j in exe_at.get(i, []):
                compare(exe["a1"], exe["slow50"], os.path.join(d, f"exe{j:02d}_cmp_slow50.json"), "executables",
                        "slow50", i)

    print(f"\ntotal {time.monotonic() - t_start:.0f} s")
    report(records, a.processes)


if __name__ == "__main__":
    main()
