#!/usr/bin/env python3
"""Records every sample of a comparison and takes the round's spread apart (bench/studies.md,
"Samples").

An experiment controller that speaks the worker protocol of docs/compare.md (the executables'
hidden --tare-worker mode; a gbw_* executable, a Google Benchmark suite with tare::gbench linked,
is started in its worker mode instead) the way `tare compare` does — fresh processes per round, one iteration
count for both sides, ABBA blocks, both workers on one CPU — but keeps every sample, so the
spread of the round's change can be split into what lies inside a round (the noise of its pairs)
and what lies between processes. Processes start in the kernel's layouts (no matched layouts).

    bench/ab/pairs.py record build-ab/bench/ab/ab_a1 build-ab/bench/ab/ab_a2 --samples=40 --out=a.json
    bench/ab/pairs.py analyse a.json b.json

`analyse` prints per file and benchmark: the standard deviation over rounds of the round's change
(the median of its adjacent pairs' log-ratios), the part of it inside a round (the bootstrap
standard error of that median, averaged over rounds), the rest (between processes), and the
spread of single pairs.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import time


class Worker:
    def __init__(self, exe, cpu):
        r1, w1 = os.pipe()  # controller -> worker (the worker reads fd 3)
        r2, w2 = os.pipe()  # worker -> controller (fd 4)

        def child():
            a, b = os.dup(r1), os.dup(w2)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
            if cpu is not None:
                os.sched_setaffinity(0, {cpu})

        # A Google Benchmark suite with tare::gbench linked serves when its environment says so.
        gbench = os.path.basename(exe).startswith("gbw_")
        argv = [exe] if gbench else [exe, "--tare-worker=3,4"]
        env = dict(os.environ, TARE_GBENCH_WORKER="1") if gbench else None
        self.p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  close_fds=False, preexec_fn=child, env=env)
        os.close(r1)
        os.close(w2)
        self.w = os.fdopen(w1, "w", buffering=1)
        self.r = r2
        self.buf = b""
        self.line()  # the greeting

    def line(self):
        while b"\n" not in self.buf:
            chunk = os.read(self.r, 65536)
            if not chunk:
                raise EOFError("the worker ended")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def skip(self, n):
        while len(self.buf) < n:
            self.buf += os.read(self.r, 65536)
        self.buf = self.buf[n:]

    def run(self, name, sample_ns, warmup_ns):
        self.w.write(f"run {sample_ns:.0f} {warmup_ns:.0f} {name}\n")
        reply = self.line()
        assert reply.startswith("calibrated"), reply
        return int(reply.split()[1])

    def sample(self, iterations):
        self.w.write(f"sample {iterations}\n")
        reply = self.line().split()
        assert reply[0] == "sample", reply
        return float(reply[2]) / int(reply[1])  # ns per iteration

    def stop(self):
        self.w.write("stop\n")
        self.skip(int(self.line().split()[1]))

    def quit(self):
        self.w.write("quit\n")
        self.p.wait()


def record(a):
    names = a.names.split(",")
    round_ns = a.min_time * 1e9 / a.rounds
    sample_ns = round_ns / a.samples
    cpu = os.sched_getaffinity(0)
    cpu = max(cpu) if a.cpu == "auto" else None
    data = {n: [] for n in names}
    t0 = time.monotonic()
    for r in range(a.rounds):
        first = r % 2  # which side starts, calibrates and leads the blocks alternates by round
        workers = [None, None]
        for k in (first, 1 - first):
            workers[k] = Worker([a.base, a.head][k], cpu)
        for n in names:
            order = [workers[first], workers[1 - first]]
            sizes = [w.run(n, sample_ns, 0.1 * round_ns) for w in order]
            iterations = max(1, round(math.sqrt(sizes[0] * sizes[1])))
            samples = []  # (side, ns per iteration); side 0 base, 1 head
            for b in range((a.samples + 1) // 2):
                for k in ([0, 1, 1, 0] if b % 2 == 0 else [1, 0, 0, 1]):
                    side = first if k == 0 else 1 - first
                    samples.append((side, order[k].sample(iterations)))
            for w in order:
                w.stop()
            data[n].append(samples)
        for w in workers:
            w.quit()
    with open(a.out, "w") as f:
        json.dump({"args": vars(a), "seconds": time.monotonic() - t0, "data": data}, f)


def analyse(a):
    rng = random.Random(1)
    for path in a.files:
        with open(path) as f:
            doc = json.load(f)
        for name, rounds in doc["data"].items():
            changes, inside, pair_sd = [], [], []
            for samples in rounds:
                base = [v for s, v in samples if s == 0]
                head = [v for s, v in samples if s == 1]
                pairs = [math.log(h / b) for b, h in zip(base, head)]
                changes.append(statistics.median(pairs))
                boot = [statistics.median(rng.choices(pairs, k=len(pairs))) for _ in range(200)]
                inside.append(statistics.pvariance(boot))
                pair_sd.append(statistics.pstdev(pairs))
            total = statistics.variance(changes)
            within = statistics.mean(inside)
            print(f"{os.path.basename(path)} {name:10} samples {doc['args']['samples']:4}: round sd "
                  f"{100 * math.sqrt(total):.2f} %, inside a round {100 * math.sqrt(within):.2f} %, "
                  f"between processes {100 * math.sqrt(max(total - within, 0)):.2f} %, one pair "
                  f"{100 * statistics.mean(pair_sd):.1f} %; {doc['seconds']:.1f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("base")
    r.add_argument("head")
    r.add_argument("--rounds", type=int, default=20)
    r.add_argument("--samples", type=int, default=40, help="per side per round")
    r.add_argument("--min-time", type=float, default=1.0)
    r.add_argument("--cpu", choices=["auto", "none"], default="auto")
    r.add_argument("--names", default="hash_64k,sort_2k,parse_csv,map_500")
    r.add_argument("--out", required=True)
    s = sub.add_parser("analyse")
    s.add_argument("files", nargs="+")
    a = ap.parse_args()
    record(a) if a.command == "record" else analyse(a)


if __name__ == "__main__":
    main()
