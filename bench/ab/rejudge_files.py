#!/usr/bin/env python3
"""Re-judges the results files that `files.py --keep=DIR` kept, with other per-process figures
and with the old one-process comparison, so the choices of `tare compare A.json B.json` can be
checked on the same measurements (bench/studies.md, "Stored baselines").

For each figure of a process (its median, which tare uses; its mean, 25th or 10th percentile,
minimum) it compares every repetition's a1 file against its a2 file (A/A) and its slow50 file
(A/B) as tare does: Welch's t on the logs of the processes' figures, Welch-Satterthwaite degrees
of freedom, Benjamini-Hochberg at 5 % over the file's rows. Then the old way: the first process
of each file alone, Welch's t on the logs of its samples.

Usage: bench/ab/rejudge_files.py DIR
"""
import glob
import json
import math
import re
import sys


def beta_continued_fraction(a, b, x):
    # Numerical Recipes' betacf (modified Lentz).
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 301):
        for aa in (m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 3e-14:
            break
    return h


def incomplete_beta(x, a, b):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * beta_continued_fraction(a, b, x) / a
    return 1 - front * beta_continued_fraction(b, a, 1 - x) / b


def welch(base, head):
    """(mean log(head) - mean log(base), two-sided p-value)."""
    lb = [math.log(x) for x in base]
    lh = [math.log(x) for x in head]
    mb, mh = sum(lb) / len(lb), sum(lh) / len(lh)
    vb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1) / len(lb)
    vh = sum((x - mh) ** 2 for x in lh) / (len(lh) - 1) / len(lh)
    se = math.sqrt(vb + vh)
    if se == 0:
        return mh - mb, (1.0 if mh == mb else 0.0)
    df = (vb + vh) ** 2 / ((vb ** 2 / (len(lb) - 1)) + (vh ** 2 / (len(lh) - 1)))
    t = (mh - mb) / se
    return mh - mb, incomplete_beta(df / (df + t * t), df / 2, 0.5)


def benjamini_hochberg(p_values, q=0.05):
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    k = 0
    for rank, i in enumerate(order, 1):
        if p_values[i] <= q * rank / len(p_values):
            k = rank
    return set(order[:k])


def process_figures(b, figure):
    xs, at, out = b["samples_ns"], 0, []
    for p in b["processes"]:
        s = sorted(xs[at:at + p["samples"]])
        at += p["samples"]
        if figure == "median":
            out.append(p["median_ns"])
        elif figure == "mean":
            out.append(sum(s) / len(s))
        elif figure == "min":
            out.append(s[0])
        else:  # "p25", "p10"
            out.append(s[int(int(figure[1:]) / 100 * (len(s) - 1))])
    return out


def first_process_samples(b):
    return b["samples_ns"][:b["processes"][0]["samples"]]


def judge(files, values_of):
    """A/A false rows, A/B rows found slower, A/B rows found faster, rows per pair, and the A/A
    repetitions that --fail-on-regression=5 would fail (a row slower by more than 5 %)."""
    false_rows = found = wrong = rows = gate = 0
    for r in sorted({k[0] for k in files}):
        for pair, other in (("aa", "a2"), ("ab", "slow50")):
            if (r, "a1") not in files or (r, other) not in files:
                continue
            base = {b["name"]: b for b in files[(r, "a1")]["benchmarks"]}
            head = {b["name"]: b for b in files[(r, other)]["benchmarks"]}
            results = [welch(values_of(base[n]), values_of(head[n])) for n in base if n in head]
            selected = benjamini_hochberg([p for _, p in results])
            if pair == "aa":
                gate += any(i in selected and diff > math.log(1.05) for i, (diff, _) in enumerate(results))
            for i, (diff, _) in enumerate(results):
                if pair == "aa":
                    rows += 1
                    false_rows += i in selected
                else:
                    found += i in selected and diff > 0
                    wrong += i in selected and diff < 0
    return false_rows, found, wrong, rows, gate


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    files = {}
    for path in glob.glob(sys.argv[1] + "/*.json"):
        m = re.search(r"r(\d+)_(a1|a2|slow50)\.json$", path)
        if m:
            with open(path) as f:
                files[(int(m.group(1)), m.group(2))] = json.load(f)
    if not files:
        sys.exit(f"no rNN_a1/a2/slow50.json files in {sys.argv[1]}")
    runs = len({k[0] for k in files})
    print("| per process | A/A false rows | 5 % found | found faster | A/A runs failing --fail-on-regression=5 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for figure in ("median", "mean", "p25", "p10", "min"):
        f, found, wrong, rows, gate = judge(files, lambda b, fig=figure: process_figures(b, fig))
        print(f"| {figure} of each process (Welch over processes) | {f} / {rows} | {found} / {rows} | {wrong} "
              f"| {gate} / {runs} |")
    f, found, wrong, rows, gate = judge(files, first_process_samples)
    print(f"| one process a side (Welch over its samples) | {f} / {rows} | {found} / {rows} | {wrong} | {gate} / {runs} |")


if __name__ == "__main__":
    main()
