#!/usr/bin/env python3
"""Compares the perf.csv that perftest_side.sh writes: for each perftest figure (program, PE count,
variant, size) the best of the rounds for each library (--median: the median of the rounds), then
ratio = symmem speed / NVSHMEM speed (above 1: symmem faster). Prints one row per program and PE
count (figures, worst, median, best, where the worst is) and, with --all, every figure.
   perftest_cmp.py perf.csv [--all] [--below X] [--median]"""
import csv
import statistics
import sys
from collections import defaultdict


def main():
    path = sys.argv[1]
    show_all = "--all" in sys.argv
    below = float(sys.argv[sys.argv.index("--below") + 1]) if "--below" in sys.argv else None
    use_median = "--median" in sys.argv
    better = {}
    values = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["test"], int(row["np"]), row["figure"])
            better[key] = row["better"]
            values[(row["lib"],) + key].append(float(row["value"]))
    # Each library's figure over the rounds: their median, or the best round.
    pick = lambda k, v: statistics.median(v) if use_median else (max(v) if better[k[1:]] == "higher" else min(v))
    best = {k: pick(k, v) for k, v in values.items()}
    rows = defaultdict(list)
    for (lib, test, np, fig), v in best.items():
        if lib != "symmem":
            continue
        nv = best.get(("nvshmem", test, np, fig))
        if nv is None or v == 0 or nv == 0:
            continue
        ratio = v / nv if better[(test, np, fig)] == "higher" else nv / v
        rows[(test, np)].append((ratio, fig, nv, v))
    print(f"{'perftest':34} {'PEs':>3} {'n':>4} {'worst':>6} {'median':>6} {'best':>6} "
          f"{'<1.0':>4}  worst figure (NVSHMEM vs symmem)")
    for (test, np) in sorted(rows):
        r = sorted(rows[(test, np)])
        ratios = [x[0] for x in r]
        w = r[0]
        print(f"{test:34} {np:3d} {len(r):4d} {w[0]:6.2f} {statistics.median(ratios):6.2f} "
              f"{r[-1][0]:6.2f} {sum(x < 1.0 for x in ratios):4d}  {w[1]}: {w[2]:.3f} vs {w[3]:.3f}")
    if show_all or below is not None:
        for (test, np) in sorted(rows):
            for ratio, fig, nv, v in sorted(rows[(test, np)], key=lambda x: x[1]):
                if below is None or ratio < below:
                    print(f"  {np} {fig:70} {nv:10.3f} {v:10.3f} {ratio:6.2f}")
    missing = sorted({(k[1], k[2]) for k in best if k[0] == "nvshmem"} -
                     {(k[1], k[2]) for k in best if k[0] == "symmem"})
    if missing:
        print("no symmem figures for:", ", ".join(f"{t} np{n}" for t, n in missing))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # piped into head
        sys.stderr.close()
