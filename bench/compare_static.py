#!/usr/bin/env python3
"""Side-by-side table of static_bench CSVs: heap and static data, symmem and OSHMEM.

Usage: compare_static.py [--out DIR] CSV [CSV ...]

For every figure and size: OSHMEM on the heap and on static data, symmem on both, then
  static/heap  symmem's cost of static data against its heap: static time / heap time, or heap
               rate / static rate (1.00 = the same; the target is <= 1.10);
  vs OSHMEM    how many times better symmem is than OSHMEM on the same memory, heap and static
               (> 1: symmem better).
Several CSVs of one implementation and PE count are reduced to the median. Writes DIR/table.txt.
"""
import argparse
import csv
import os
import statistics
import sys

TIME_UNITS = {"ns", "us", "ms", "s"}


def load(paths):
    vals, units, order = {}, {}, []
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                key = (int(r["npes"]), r["figure"], int(r["size_bytes"]))
                if key not in order:
                    order.append(key)
                vals.setdefault((r["impl"], r["memory"]) + key, []).append(float(r["value"]))
                units[key] = r["unit"]
    return {k: statistics.median(v) for k, v in vals.items()}, units, order


def cost(heap, static, unit):
    """How much more static data costs than the heap (1.0 = the same)."""
    if heap is None or static is None or heap <= 0 or static <= 0:
        return None
    return static / heap if unit in TIME_UNITS else heap / static


def advantage(base, new, unit):
    if base is None or new is None or base <= 0 or new <= 0:
        return None
    return base / new if unit in TIME_UNITS else new / base


def fmt(v, digits=4):
    return "-" if v is None else f"{v:.{digits}g}"


def size_text(n):
    if n == 0:
        return "-"
    for shift, suffix in ((20, "MiB"), (10, "KiB")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {suffix}"
    return f"{n} B"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    data, units, order = load(a.csv)
    lines = []
    hdr = (f"{'figure':<24}{'size':>8}  {'unit':<7}{'osh heap':>10}{'osh static':>11}{'sym heap':>10}"
           f"{'sym static':>11}{'static/heap':>12}{'vs osh heap':>12}{'vs osh stat':>12}")
    worst = []
    for npes in sorted({k[0] for k in order}):
        lines += [f"== {npes} PEs", hdr]
        for key in [k for k in order if k[0] == npes]:
            u = units[key]
            oh, os_ = data.get(("oshmem", "heap") + key), data.get(("oshmem", "static") + key)
            sh, ss = data.get(("symmem", "heap") + key), data.get(("symmem", "static") + key)
            c = cost(sh, ss, u)
            if c is not None:
                worst.append((c, key))
            lines.append(f"{key[1]:<24}{size_text(key[2]):>8}  {u:<7}{fmt(oh):>10}{fmt(os_):>11}{fmt(sh):>10}"
                         f"{fmt(ss):>11}{fmt(c, 3):>12}{fmt(advantage(oh, sh, u), 3):>12}"
                         f"{fmt(advantage(os_, ss, u), 3):>12}")
    if worst:
        worst.sort(reverse=True)
        over = [w for w in worst if w[0] > 1.10]
        lines.append(f"symmem static/heap: median {statistics.median(w[0] for w in worst):.3f}, "
                     f"{len(over)} of {len(worst)} figures above 1.10"
                     + (": " + ", ".join(f"{k[1]} {size_text(k[2])} {c:.2f}" for c, k in over[:8]) if over else ""))
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(os.path.join(a.out, "table.txt"), "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
