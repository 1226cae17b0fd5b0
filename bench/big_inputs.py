#!/usr/bin/env python3
"""Time and peak memory of the `tare` commands that read files, against the file's size.

Writes tare/1 results files of N benchmarks (3 processes of one sample each, a counter and a
warning now and then: about 400 bytes a row), a second one with every time 2 % slower, and the
comparison of the two (`tare compare A B --json`); then runs, on each size, every command that
reads them: `tare report --html` of the run and of the comparison, `tare export` in each format
of both, `tare merge` of the run split in two shards and `tare compare A B`. Each command runs
once under /usr/bin/time (wall seconds, peak resident set); one that runs longer than --limit
seconds is stopped and shown as such. Prints one Markdown table: a row a command, a column a size.

With --gbench, the run file is Google Benchmark's JSON instead (`context`, then N rows of
`benchmarks` as GB 1.7.1 writes them: one repetition each, every third with bytes_per_second,
every fifth with a user counter; about 380 bytes a row), and only the commands that read one
file run: `tare report --html` and `tare export` in each format.

With several builds (`--tare before=PATH,after=PATH`), each command runs on each build in turn,
so that what else the machine does falls on both alike; the inputs are written by the last one.

With --samples=K, each process of a run row has K samples instead of one, each with its
iterations, the iterations before it and its live bytes: rows as tare's own loop writes them
(`tare run --processes=3` of the compare test's executable wrote about 100 a process), where
the samples are most of the file.

Usage: bench/big_inputs.py --tare [LABEL=]build/tare[,...] [--sizes 1000,10000,100000,1000000]
                           [--limit 300] [--out DIR] [--only report,export-bmf,...] [--gbench]
                           [--samples K] [--keep]
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile


def median(values):
    ordered = sorted(values)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def row(i, slower, rng, per_process=1):
    """One benchmark of 3 processes of `per_process` samples each, as `tare run --processes=3`
    writes it, with the optional fields left out (about 400 bytes at one sample a process: the
    rows of the largest file tare reads). With more, each sample has its iterations, the
    iterations before it and its live bytes, as a run of tare's own loop writes them (about
    38 bytes a sample)."""
    base = 100.0 * (1 + i % 17) * slower
    n = 3 * per_process
    samples = [round(base * (1 + rng.gauss(0, 0.02)), 2) for _ in range(n)]
    ordered = sorted(samples)
    mean = sum(samples) / n
    sd = (sum((x - mean) ** 2 for x in samples) / (n - 1)) ** 0.5
    half = (4.303 if n == 3 else 1.96) * sd / n ** 0.5
    r = {
        "name": f"suite/family_{i // 4}/{4 ** (i % 4)}",
        "iterations": 3000,
        "time_ns": {"mean": round(mean, 3), "median": median(samples), "stddev": round(sd, 3), "min": ordered[0],
                    "max": ordered[-1], "ci_low": round(max(mean - half, 0.0), 3), "ci_high": round(mean + half, 3)},
        "samples_ns": samples,
        "allocs_per_iter": float(i % 3), "bytes_per_iter": 64.0 * (i % 3),
        "processes": [{"samples": per_process, "median_ns": median(samples[p * per_process:(p + 1) * per_process])}
                      for p in range(3)],
    }
    if per_process > 1:
        r["sample_iterations"] = [1000] * n
        r["sample_iterations_before"] = [1000 * (k % per_process) for k in range(n)]
        r["sample_live_bytes"] = [64 * (k % 5) for k in range(n)]
    if i % 5 == 0:
        r["counters"] = {"items": float(i % 7)}
    if i % 9 == 0:
        r["warnings"] = [{"kind": "noisy", "message": "samples spread widely"}]
    return r


def write_run(path, template, n, slower, seed, first=0, count=None, per_process=1):
    """Written a row at a time: a million rows of many samples each would not fit in memory."""
    rng = random.Random(seed)
    count = n if count is None else count
    doc = dict(template)
    doc["benchmarks"] = "@rows@"
    head, tail = json.dumps(doc).split('"@rows@"')
    with open(path, "w") as f:
        f.write(head + "[")
        for i in range(n):
            r = row(i, slower, rng, per_process)
            if first <= i < first + count:
                f.write((", " if i > first else "") + json.dumps(r))
        f.write("]" + tail)


def gbench_row(i, rng):
    """One row of `benchmarks` as Google Benchmark 1.7.1 writes it for a run of one repetition."""
    name = f"BM_family_{i // 4}/{4 ** (i % 4)}"
    real = round(100.0 * (1 + i % 17) * (1 + rng.gauss(0, 0.02)), 3)
    r = {
        "name": name, "family_index": i // 4, "per_family_instance_index": i % 4, "run_name": name,
        "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
        "iterations": 1000 + i % 1000, "real_time": real, "cpu_time": round(real * 0.99, 3), "time_unit": "ns",
    }
    if i % 3 == 0:
        r["bytes_per_second"] = round(1e9 / real * 64, 1)
    if i % 5 == 0:
        r["items"] = float(i % 7)
    return r


def write_gbench(path, context, n, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        json.dump({"context": context, "benchmarks": [gbench_row(i, rng) for i in range(n)]}, f, indent=2)


def measure(argv, limit, log):
    """(seconds, peak MiB) of one run, or None when it failed or ran past `limit`."""
    timed = ["/usr/bin/time", "-f", "%e,%M", "-o", log] + argv
    try:
        done = subprocess.run(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=limit)
    except subprocess.TimeoutExpired:
        return f"> {limit} s"
    with open(log) as f:
        last = f.read().strip().splitlines()[-1]
    seconds, kib = last.split(",")
    if done.returncode not in (0, 1):
        return f"exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:80]}"
    return f"{float(seconds):.2f} s, {int(kib) / 1024:.0f} MiB"


def commands(tare, d):
    run, slow, cmp = f"{d}/a.json", f"{d}/b.json", f"{d}/compare.json"
    out = {
        "report": [tare, "report", run, f"--html={d}/run.html"],
        "report-compare": [tare, "report", cmp, f"--html={d}/compare.html"],
        "compare": [tare, "compare", run, slow, f"--json={d}/compare2.json"],
        "merge": [tare, "merge", f"{d}/shard1.json", f"{d}/shard2.json", f"--json={d}/merged.json"],
    }
    for fmt in ("bmf", "gab", "gab-bigger", "csv"):
        out[f"export-{fmt}"] = [tare, "export", run, f"--format={fmt}", f"--output={d}/run.{fmt}"]
        out[f"export-{fmt}-compare"] = [tare, "export", cmp, f"--format={fmt}", f"--output={d}/cmp.{fmt}"]
    return out


def run_gbench(args, builds, d, n, results):
    """The commands that read one file, on the Google Benchmark file `d`/a.json."""
    for name in ["report"] + [f"export-{fmt}" for fmt in ("bmf", "gab", "gab-bigger", "csv")]:
        if args.only and name not in args.only.split(","):
            continue
        for label, tare in builds:
            key = f"`{name}`" + (f" ({label})" if label else "")
            results.setdefault(key, {})[n] = measure(commands(tare, d)[name], args.limit, f"{d}/time.log")
            print(f"{n:>9,} {key:<32} {results[key][n]}", file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tare", required=True)
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--limit", type=float, default=300)
    parser.add_argument("--out", default=None)
    parser.add_argument("--only", default="", help="comma-separated command names (default: all)")
    parser.add_argument("--gbench", action="store_true", help="a Google Benchmark file: report and export")
    parser.add_argument("--samples", type=int, default=1, help="samples a process of each run row")
    parser.add_argument("--keep", action="store_true", help="keep the files written under --out (to profile)")
    args = parser.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time is not installed (apt-get install time)")
    out = args.out or tempfile.mkdtemp(prefix="tare-big-inputs-")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "golden", "approved",
                          "typical.json")
    with open(source) as f:
        template = json.load(f)
    template.pop("groups", None)
    template["context"]["processes"] = 3
    sizes = [int(x) for x in args.sizes.split(",")]
    builds = [tuple(b.split("=", 1)) if "=" in b else ("", b) for b in args.tare.split(",")]
    writer = builds[-1][1]
    results = {}
    files = {}
    with open(os.path.join(os.path.dirname(source), "..", "..", "gbench", "data", "fixture.json")) as f:
        gbench_context = json.load(f)["context"]
    for n in sizes:
        d = os.path.join(out, str(n))
        os.makedirs(d, exist_ok=True)
        if args.gbench:
            write_gbench(f"{d}/a.json", gbench_context, n, 1)
            files[n] = (os.path.getsize(f"{d}/a.json"), 0)
            run_gbench(args, builds, d, n, results)
            shutil.rmtree(d, ignore_errors=True)
            continue
        k = args.samples
        write_run(f"{d}/a.json", template, n, 1.0, 1, per_process=k)
        write_run(f"{d}/b.json", template, n, 1.02, 2, per_process=k)
        write_run(f"{d}/shard1.json", template, n, 1.0, 1, 0, n // 2, per_process=k)
        write_run(f"{d}/shard2.json", template, n, 1.0, 1, n // 2, n - n // 2, per_process=k)
        subprocess.run([writer, "compare", f"{d}/a.json", f"{d}/b.json", f"--json={d}/compare.json"],
                       stdout=subprocess.DEVNULL, check=False)
        files[n] = (os.path.getsize(f"{d}/a.json"), os.path.getsize(f"{d}/compare.json")
                    if os.path.exists(f"{d}/compare.json") else 0)
        for name in commands("tare", d):
            if args.only and name not in args.only.split(","):
                continue
            for label, tare in builds:
                argv = commands(tare, d)[name]
                key = f"`{name}`" + (f" ({label})" if label else "")
                results.setdefault(key, {})[n] = measure(argv, args.limit, f"{d}/time.log")
                print(f"{n:>9,} {key:<32} {results[key][n]}", file=sys.stderr, flush=True)
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)
    print("| command | " + " | ".join(f"{n:,} rows" for n in sizes) + " |")
    print("| --- | " + " | ".join("---:" for _ in sizes) + " |")
    if args.gbench:
        print("| (Google Benchmark file) | " + " | ".join(f"{files[n][0] / 1e6:.1f} MB" for n in sizes) + " |")
    else:
        print("| (run file, comparison file) | " +
              " | ".join(f"{files[n][0] / 1e6:.1f} MB, {files[n][1] / 1e6:.1f} MB" for n in sizes) + " |")
    for key, by_size in results.items():
        print(f"| {key} | " + " | ".join(by_size.get(n, "") for n in sizes) + " |")


if __name__ == "__main__":
    main()
