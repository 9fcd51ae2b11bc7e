#!/usr/bin/env python3
"""The collective and ucx_perftest part of compare_net.sh's comparison.

Usage: compare_net.py DIR  (reads DIR/coll_{oshmem,symmem}_r*.csv and DIR/perftest_r*.csv)

coll CSVs: impl,op,npes,bytes,usec (coll_bench). perftest CSVs: test,bytes,typical_us,average_us,MBps.
Medians over the rounds; "better" is OSHMEM time / symmem time (> 1: symmem faster).
"""
import csv
import glob
import os
import statistics
import sys


def coll(d):
    vals = {}
    for path in glob.glob(os.path.join(d, "coll_*_r*.csv")):
        for row in csv.reader(open(path)):
            if len(row) != 5 or row[0] == "impl":
                continue
            try:
                vals.setdefault((row[1], int(row[2]), int(row[3]), row[0]), []).append(float(row[4]))
            except ValueError:
                continue
    keys = sorted({(op, n, b) for op, n, b, _ in vals})
    print(f"{'collective':12s} {'PEs':>4s} {'bytes':>8s} {'OSHMEM us':>11s} {'symmem us':>11s} {'better':>7s}")
    for op, n, b in keys:
        o = vals.get((op, n, b, "oshmem"))
        s = vals.get((op, n, b, "symmem"))
        om = statistics.median(o) if o else None
        sm = statistics.median(s) if s else None
        ratio = f"{om / sm:7.2f}" if om and sm else "      -"
        print(f"{op:12s} {n:4d} {b:8d} {om if om is not None else float('nan'):11.1f} {sm if sm is not None else float('nan'):11.1f} {ratio}")


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


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    coll(sys.argv[1])
    perftest(sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
