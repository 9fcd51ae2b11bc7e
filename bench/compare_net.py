#!/usr/bin/env python3
"""The collective and ucx_perftest part of compare_net.sh's comparison, and its plots.

Usage: compare_net.py DIR  (reads DIR/coll_*_r*.csv, DIR/perftest_r*.csv and, for the latency
plot, DIR/{oshmem,symmem}_r*.csv)

coll CSVs: impl,op,npes,bytes,usec (coll_bench; impl oshmem, symmem = the 1.5 team forms,
symmem-1.4 = the 1.4 active-set forms OSHMEM runs). perftest CSVs:
test,bytes,typical_us,average_us,MBps. shmem_bench CSVs: impl,npes,figure,size_bytes,value,unit.
Medians over the rounds; "better" is OSHMEM time / symmem time (> 1: symmem faster). With
matplotlib, writes DIR/latency.png (shmem_bench's latencies) and DIR/coll.png (OSHMEM / symmem
per collective and size).
"""
import csv
import glob
import os
import statistics
import sys

IMPLS = ("oshmem", "symmem", "symmem-1.4")


def coll_values(d):
    vals = {}
    for path in glob.glob(os.path.join(d, "coll_*_r*.csv")):
        for row in csv.reader(open(path)):
            if len(row) != 5 or row[0] == "impl":
                continue
            try:
                vals.setdefault((row[1], int(row[2]), int(row[3]), row[0]), []).append(float(row[4]))
            except ValueError:
                continue
    return {k: statistics.median(v) for k, v in vals.items()}


def ratio(o, s):
    return f"{o / s:7.2f}" if o and s else "      -"


def fmt(v):
    return f"{v:11.1f}" if v is not None else f"{'-':>11s}"


def coll(med):
    keys = sorted({(op, n, b) for op, n, b, _ in med})
    print(f"{'collective':12s} {'PEs':>4s} {'bytes':>8s} {'OSHMEM us':>11s} {'symmem us':>11s} {'better':>7s} "
          f"{'1.4 forms':>11s} {'better':>7s}")
    for op, n, b in keys:
        o, s, s14 = (med.get((op, n, b, i)) for i in IMPLS)
        print(f"{op:12s} {n:4d} {b:8d} {fmt(o)} {fmt(s)} {ratio(o, s)} {fmt(s14)} {ratio(o, s14)}")


def perftest(d):
    vals = {}
    for path in glob.glob(os.path.join(d, "perftest_r*.csv")):
        for row in csv.reader(open(path)):
            if len(row) != 5:
                continue
            try:
                vals.setdefault((row[0], int(row[1])), []).append([float(x) for x in row[2:]])
            except ValueError:
                continue
    print()
    print(f"{'ucx_perftest':14s} {'bytes':>8s} {'typical us':>11s} {'average us':>11s} {'MB/s':>9s}")
    for (t, b), rows in sorted(vals.items()):
        med = [statistics.median(c) for c in zip(*rows)]
        print(f"{t:14s} {b:8d} {med[0]:11.2f} {med[1]:11.2f} {med[2]:9.1f}")


def latencies(d):
    vals = {}
    for impl in ("oshmem", "symmem"):
        for path in glob.glob(os.path.join(d, f"{impl}_r*.csv")):
            for row in csv.DictReader(open(path)):
                if row.get("unit") == "us" and row.get("figure", "").find("bw") < 0:
                    try:
                        vals.setdefault((row["figure"], impl), []).append(float(row["value"]))
                    except (KeyError, ValueError):
                        continue
    return {k: statistics.median(v) for k, v in vals.items()}


def plot(d, med, lat):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: no plots)")
        return
    figs = [f for f in ("putmem+quiet", "long_p+quiet", "long_g", "atomic_fetch_add", "atomic_add_stream", "barrier_all",
                        "putmem_signal+quiet") if (f, "symmem") in lat]
    if figs:
        fig, ax = plt.subplots(figsize=(8, 4))
        w = 0.38
        for k, impl in enumerate(("oshmem", "symmem")):
            ys = [lat.get((f, impl), 0) for f in figs]
            ax.bar([i + (k - 0.5) * w for i in range(len(figs))], ys, w, label=impl)
        ax.set_xticks(range(len(figs)), figs, rotation=20, ha="right")
        ax.set_ylabel("us (lower is better)")
        ax.set_title("2 hosts x 1 PE over UCX tcp (veth): latency, median of rounds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(d, "latency.png"), dpi=110)
        plt.close(fig)
    ops = sorted({op for op, n, b, i in med if op != "barrier"})
    if ops:
        fig, axes = plt.subplots(1, len(ops), figsize=(3.2 * len(ops), 3.6), sharey=True)
        for ax, op in zip(axes if len(ops) > 1 else [axes], ops):
            for impl, style in (("symmem", "o-"), ("symmem-1.4", "s--")):
                pts = sorted((b, med[(op, 2, b, "oshmem")] / med[(op, 2, b, impl)]) for o2, n, b, i in med
                             if o2 == op and n == 2 and i == impl and (op, 2, b, "oshmem") in med)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=impl)
            ax.axhline(1.0, color="gray", lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_title(op)
            ax.set_xlabel("bytes")
        (axes[0] if len(ops) > 1 else axes).set_ylabel("OSHMEM time / symmem time")
        (axes[0] if len(ops) > 1 else axes).legend()
        fig.suptitle("collectives, 2 hosts x 1 PE: OSHMEM time / symmem time (above 1: symmem faster)")
        fig.tight_layout()
        fig.savefig(os.path.join(d, "coll.png"), dpi=110)
        plt.close(fig)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    med = coll_values(sys.argv[1])
    coll(med)
    perftest(sys.argv[1])
    plot(sys.argv[1], med, latencies(sys.argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
