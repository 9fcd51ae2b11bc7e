#!/usr/bin/env python3
"""osu_plot.py CSV PNG: OSHMEM's time / symmem's by message size for OSU's collective programs,
one panel per TCP congestion control, from a CSV with the columns tcp_cc, lib, test, round, bytes,
us (one row per OSU figure; docs/bench/osu_net_large_coll_2026-12-06.csv). Each point is the ratio
of the two libraries' medians over the rounds; above 1, symmem is faster. Needs matplotlib."""
import csv
import statistics
import sys
from collections import defaultdict


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs = defaultdict(list)  # (cc, lib, test, bytes) -> times
    for r in csv.DictReader(open(sys.argv[1])):
        runs[(r["tcp_cc"], r["lib"], r["test"], int(r["bytes"]))].append(float(r["us"]))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("osu_plot.py: no matplotlib (apt-get install python3-matplotlib)")
    ccs = sorted({k[0] for k in runs})
    tests = sorted({k[2] for k in runs})
    fig, axes = plt.subplots(1, len(ccs), figsize=(6 * len(ccs), 4.2), sharey=True, squeeze=False)
    for ax, cc in zip(axes[0], ccs):
        for t in tests:
            sizes = sorted({k[3] for k in runs if k[0] == cc and k[2] == t})
            xs, ys = [], []
            for s in sizes:
                o, m = runs.get((cc, "oshmem", t, s)), runs.get((cc, "symmem", t, s))
                if o and m:
                    xs.append(s)
                    ys.append(statistics.median(o) / statistics.median(m))
            ax.plot(xs, ys, marker="o", label=t)
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(f"2 hosts x 1 PE, TCP {cc}")
        ax.set_xlabel("bytes")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("OSHMEM time / symmem time")
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"wrote {sys.argv[2]}")


if __name__ == "__main__":
    main()
