#!/usr/bin/env python3
"""Tables of bench/gbench_studies/run.sh's results directory (bench/studies.md, "Third-party
Google Benchmark suites"): per suite, the verdicts of the two release comparisons row by row, the
A/A comparison's false verdicts, the intervals' half-widths and the seconds per benchmark and side."""
import json
import statistics
import sys
from pathlib import Path


def load(path):
    with open(path) as f:
        return json.load(f)


def half_width(row):
    c = row.get("change_pct")
    if not c or c.get("ci_low") is None or c.get("ci_high") is None:
        return None
    return (c["ci_high"] - c["ci_low"]) / 2


def seconds(results):
    out = {}
    p = results / "seconds.txt"
    if p.exists():
        for line in p.read_text().splitlines():
            name, _, s = line.rpartition(" ")
            out[name] = float(s)  # the last run of a name counts
    return out


def main():
    results = Path(sys.argv[1] if len(sys.argv) > 1 else "results")
    secs = seconds(results)
    for suite in ("json", "spdlog"):
        files = {k: results / f"{suite}-{k}.json" for k in ("ab1", "ab2", "aa")}
        if not all(p.exists() for p in files.values()):
            print(f"{suite}: missing comparisons, skipped")
            continue
        cmp = {k: load(p) for k, p in files.items()}
        rows = {k: {r["name"]: r for r in c["rows"]} for k, c in cmp.items()}
        names = [r["name"] for r in cmp["ab1"]["rows"]]
        n = len(names)
        print(f"## {suite}: {n} benchmarks")
        print("| benchmark | run 1 | change 1 (±) | run 2 | change 2 (±) | A/A | change A/A (±) |")
        print("| --- | --- | ---: | --- | ---: | --- | ---: |")
        for name in names:
            cells = []
            for k in ("ab1", "ab2", "aa"):
                r = rows[k].get(name)
                if r is None:
                    cells += ["—", ""]
                    continue
                c = r.get("change_pct") or {}
                hw = half_width(r)
                ch = "" if c.get("mean") is None else f"{c['mean']:+.1f} %"
                if hw is not None:
                    ch += f" (±{hw:.1f})"
                cells += [r["verdict"], ch]
            print(f"| {name} | " + " | ".join(cells) + " |")
        agree = sum(1 for x in names if x in rows["ab2"] and rows["ab1"][x]["verdict"] == rows["ab2"][x]["verdict"])
        print()
        for k in ("ab1", "ab2", "aa"):
            counts = {}
            for r in cmp[k]["rows"]:
                counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
            hws = [h for h in (half_width(r) for r in cmp[k]["rows"]) if h is not None]
            med = statistics.median(hws) if hws else float("nan")
            s = secs.get(f"{suite} {k}")
            per = f"{s / (2 * len(cmp[k]['rows'])):.2f} s per benchmark and side ({s:.0f} s)" if s else "no time"
            print(f"- {k}: verdicts {counts}; interval half-width median ±{med:.2f} pp "
                  f"(range {min(hws, default=float('nan')):.2f}-{max(hws, default=float('nan')):.2f}); {per}")
            families = {}
            for r in cmp[k]["rows"]:
                h = half_width(r)
                if h is not None:
                    families.setdefault(r["name"].split("/")[0], []).append(h)
            print("  - half-width median by family: " + ", ".join(
                f"{fam} ±{statistics.median(v):.2f} pp ({len(v)})" for fam, v in families.items()))
            for r in cmp[k]["rows"]:
                for f in ("allocs_per_iter", "bytes_per_iter", "peak_live_bytes"):
                    b, h = r["base"].get(f), r["head"].get(f)
                    if b is not None and h is not None and b != h:
                        print(f"  - memory differs: {r['name']} {f} {b:g} -> {h:g} ({h - b:+g})")
        print(f"- the two release comparisons agree on {agree} of {n} rows")
        run = results / f"{suite}-run.json"
        if run.exists():
            print()
            print("| benchmark (tare run, newer release) | allocs/iter | bytes/iter | peak live B | retained B/iter | faults/iter | warnings |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
            for b in load(run)["benchmarks"]:
                def g(k, fmt="{:.6g}"):
                    v = b.get(k)
                    return "—" if v is None else fmt.format(v)
                w = ",".join(x.get("kind", "") for x in b.get("warnings", []) or [])
                print(f"| {b.get('name')} | {g('allocs_per_iter')} | {g('bytes_per_iter')} | "
                      f"{g('peak_live_bytes')} | {g('retained_bytes_per_iter')} | {g('page_faults_per_iter')} | {w} |")
        print()
    for name, s in secs.items():
        if name.startswith("build") or name.endswith(" run"):
            print(f"- {name}: {s:.0f} s")


if __name__ == "__main__":
    main()
