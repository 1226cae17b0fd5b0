#!/usr/bin/env python3
"""tare compare's power on Google Benchmark suites with tare::gbench linked (worker mode),
side by side with the same bodies as tare executables and as plain Google Benchmark executables.

Each run compares ab_a1 with ab_<head> (tare), gbw_ab_a1 with gbw_ab_<head> (Google Benchmark,
tare::gbench linked: driven sample by sample) and, with --processes, gb_ab_a1 with gb_ab_<head>
(plain Google Benchmark: rounds of fresh processes), one after the other, at the same
--rounds and --min-time. It prints each run's intervals and verdicts as they come, then per
body and kind: the median half-width of the change's interval, its ratio to tare's, the rows
with a verdict other than "no change", and the wall time per run.

    bench/ab/gbench_workers.py BUILD_DIR --heads=a2,slow20 --runs=10
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study  # noqa: E402  (the study's runner of tare compare)

KINDS = {"tare": "ab_", "gb workers": "gbw_ab_", "gb processes": "gb_ab_"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--heads", default="a2,slow20", help="heads to compare against a1")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--samples", type=int, default=0, help="--samples of tare compare (0: its default)")
    ap.add_argument("--processes", action="store_true", help="also plain Google Benchmark executables")
    args = ap.parse_args()

    tare = os.path.join(args.build, "tare")
    kinds = [k for k in KINDS if k != "gb processes" or args.processes]
    half = {}    # (head, kind, body) -> [half-widths]
    judged = {}  # (head, kind, body) -> [verdicts]
    wall = {}    # (head, kind) -> [seconds]
    for head in args.heads.split(","):
        for run in range(args.runs):
            for kind in kinds:
                exe = lambda v: os.path.join(args.build, "bench", "ab", KINDS[kind] + v)  # noqa: E731
                rows, seconds = study.run_tare(tare, exe("a1"), exe(head), args.rounds, args.samples,
                                               args.min_time)
                wall.setdefault((head, kind), []).append(seconds)
                cells = []
                for r in rows:
                    key = (head, kind, r["name"])
                    if r["ci_low"] is not None:
                        half.setdefault(key, []).append((r["ci_high"] - r["ci_low"]) / 2)
                    judged.setdefault(key, []).append(r["verdict"])
                    cells.append(f"{r['name']}:{r['verdict'][:4]}{r['change']:+.2f}"
                                 f"±{(r['ci_high'] - r['ci_low']) / 2:.2f}")
                print(f"a1 vs {head:6s} run {run}  {kind:12s} {seconds:5.1f} s  {'  '.join(cells)}", flush=True)
    print()
    print("| pair | body | kind | median ± (pp) | × tare's | not \"no change\" | s per run |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for (head, kind, body), hw in sorted(half.items(), key=lambda kv: (kv[0][0], kv[0][2], kinds.index(kv[0][1]))):
        ref = half.get((head, "tare", body))
        ratio = statistics.median(hw) / statistics.median(ref) if ref else float("nan")
        verdicts = judged[(head, kind, body)]
        moved = sum(v != "no_change" for v in verdicts)
        print(f"| a1 vs {head} | {body} | {kind} | {statistics.median(hw):.2f} | {ratio:.2f} | "
              f"{moved}/{len(verdicts)} | {statistics.mean(wall[(head, kind)]):.1f} |")


if __name__ == "__main__":
    main()
