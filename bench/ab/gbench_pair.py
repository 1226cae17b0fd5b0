#!/usr/bin/env python3
"""tare compare and Google Benchmark's compare.py on the SAME pair of Google Benchmark builds.

Issue 5's side-by-side: both tools get the GB executables gb_ab_<base> and gb_ab_<head> of
bench/ab (the study's bodies), alternately, --runs times; it prints every run's verdict per body
and the wall time, then a summary. tare compare runs them in rounds of fresh GB processes
(docs/compare.md, "process_rounds"); compare.py runs all of BASE, then all of HEAD, and tests
the repetitions with a U test.

    bench/ab/gbench_pair.py BUILD_DIR --pairs=a2,slow50 --runs=3
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study  # noqa: E402  (the study's runners and compare.py lookup)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--pairs", default="a2,slow20,slow50", help="heads to compare against gb_ab_a1")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--gb-repetitions", type=int, default=10)
    ap.add_argument("--gb-min-time", type=float, default=0.1)
    args = ap.parse_args()

    tare = os.path.join(args.build, "tare")
    exe = lambda v: os.path.join(args.build, "bench", "ab", "gb_ab_" + v)  # noqa: E731
    compare_py = study.find_compare_py()
    py = study.python_with_scipy()
    totals = {}
    for head in args.pairs.split(","):
        for run in range(args.runs):
            for tool in ("tare", "compare.py"):
                if tool == "tare":
                    rows, wall = study.run_tare(tare, exe("a1"), exe(head), args.rounds, args.samples, args.min_time)
                else:
                    rows, wall = study.run_gb(py, compare_py, exe("a1"), exe(head), args.gb_repetitions,
                                              args.gb_min_time, 0.05)
                cells = "  ".join(f"{r['name']}:{r['verdict'][:4]}{r['change']:+.1f}" for r in rows)
                print(f"a1 vs {head:6s} run {run}  {tool:10s} {wall:5.1f} s  {cells}", flush=True)
                t = totals.setdefault((head, tool), {"rows": 0, "slower": 0, "faster": 0, "wall": 0.0})
                t["rows"] += len(rows)
                t["slower"] += sum(r["verdict"] == "slower" for r in rows)
                t["faster"] += sum(r["verdict"] == "faster" for r in rows)
                t["wall"] += wall
    print()
    print("| pair | tool | rows | slower | faster | no change | s per run |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for (head, tool), t in totals.items():
        same = t["rows"] - t["slower"] - t["faster"]
        print(f"| a1 vs {head} | {tool} | {t['rows']} | {t['slower']} | {t['faster']} | {same} | "
              f"{t['wall'] / args.runs:.1f} |")


if __name__ == "__main__":
    main()
