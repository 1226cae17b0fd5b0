#!/usr/bin/env python3
"""Judge the tare rows of a study.py --raw file again under both family controls.

study.py keeps, per tare row, the change and its interval at the level the run used. Each row's
t statistic follows from them (standard error = interval width on the log scale / 2 t quantile),
so the same measurements can be judged under Bonferroni (every interval at 1 - 0.05/m) and under
Benjamini-Hochberg with its matching intervals (R of m selected, every interval at 1 - 0.05 R/m;
docs/statistics.md, "Many rows") without measuring again. Prints, per pair and body, how many
rows each control calls slower / faster.

Usage: bench/ab/rejudge.py RAW.json [--alpha=0.05]
"""
import argparse
import collections
import json
import math


def t_cdf(t, df):
    """P(T <= t) by Simpson's rule on the density (ample for |t| < 50, df >= 2)."""
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    n, x = 4000, abs(t)
    h = x / n
    f = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)
    s = f(0) + f(x) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    v = 0.5 + s * h / 3
    return v if t >= 0 else 1 - v


def t_quantile(p, df):
    lo, hi = 0.0, 60.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("--alpha", type=float, default=0.05)
    a = ap.parse_args()
    with open(a.raw) as f:
        raw = json.load(f)
    rounds = raw["args"]["rounds"]
    df = rounds - 1
    counts = collections.defaultdict(collections.Counter)
    for rec in raw["records"]:
        if rec["tool"] != "tare":
            continue
        rows = [r for r in rec["rows"] if r.get("ci_low") is not None]
        m = len(rows)
        # The level the run used: study E ran with Bonferroni, later runs with the default (FDR);
        # the row's own confidence is not in the raw file, so take it from the run's family.
        used = raw["args"].get("family", "fwer")
        if used != "fwer":
            raise SystemExit("rejudge.py needs a run made with --family=fwer (every interval at 1 - alpha/m)")
        t_used = t_quantile(1 - a.alpha / (2 * m), df)
        stats = []
        for r in rows:
            mu = math.log1p(r["change"] / 100)
            se = (math.log1p(r["ci_high"] / 100) - math.log1p(r["ci_low"] / 100)) / (2 * t_used)
            p = 2 * (1 - t_cdf(abs(mu) / se, df)) if se > 0 else (0.0 if mu != 0 else 1.0)
            stats.append((r["name"], mu, se, p))
        ps = sorted(s[3] for s in stats)
        selected = max([k for k in range(1, m + 1) if ps[k - 1] <= k * a.alpha / m], default=0)
        t_bh = t_quantile(1 - a.alpha * max(selected, 1) / (2 * m), df)
        for name, mu, se, _ in stats:
            for family, t in (("bonferroni", t_used), ("bh", t_bh)):
                v = "slower" if mu - t * se > 0 else "faster" if mu + t * se < 0 else "no_change"
                counts[(rec["pair"], name)][f"{family}:{v}"] += 1
                counts[(rec["pair"], "all")][f"{family}:{v}"] += 1
            counts[(rec["pair"], name)]["rows"] += 1
            counts[(rec["pair"], "all")]["rows"] += 1
    print("| pair | body | rows | Bonferroni slower | Bonferroni faster | BH slower | BH faster |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for (pair, body), c in sorted(counts.items()):
        print(f"| {pair} | {body} | {c['rows']} | {c['bonferroni:slower']} | {c['bonferroni:faster']} "
              f"| {c['bh:slower']} | {c['bh:faster']} |")


if __name__ == "__main__":
    main()
