#!/usr/bin/env python3
"""Combine shmem_bench CSVs of two implementations into one table and a bandwidth plot.

Usage: compare.py [--base oshmem] [--new symmem] [--out DIR] CSV [CSV ...]

Each CSV has the columns impl,npes,figure,size_bytes,value,unit (written by shmem_bench).
Several CSVs of the same implementation and PE count (repeated runs) are reduced to the median.
Prints, per PE count, every figure with both values and two ratios:
  new/base   the plain ratio of the values;
  advantage  how many times better the new implementation is: base/new for times
             (us, ms), new/base for bandwidths (GB/s). advantage > 1 means "new better".
Writes DIR/combined.csv and, when matplotlib imports, DIR/bandwidth_np<N>.png.
"""
import argparse
import csv
import os
import statistics
import sys

TIME_UNITS = {"ns", "us", "ms", "s"}


def fmt_size(n):
    if n <= 0:
        return "-"
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


def fmt_val(v):
    if v is None:
        return "-"
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:.1f}"
    if abs(v) >= 1:
        return f"{v:.3f}"
    return f"{v:.4g}"


def load(paths):
    """(impl, npes, figure, size) -> (value, unit); several runs (rounds) of the same
    implementation and PE count are reduced to the median of their values."""
    values = {}
    units = {}
    order = []  # (npes, figure, size) in first-seen order
    seen = set()
    for p in paths:
        try:
            with open(p, newline="") as f:
                for r in csv.DictReader(f):
                    key = (int(r["npes"]), r["figure"], int(r["size_bytes"]))
                    values.setdefault((r["impl"],) + key, []).append(float(r["value"]))
                    units[(r["impl"],) + key] = r["unit"]
                    if key not in seen:
                        seen.add(key)
                        order.append(key)
        except (OSError, KeyError, ValueError) as e:
            print(f"compare.py: skipping {p}: {e}", file=sys.stderr)
    data = {k: (statistics.median(v), units[k]) for k, v in values.items()}
    rounds = max((len(v) for v in values.values()), default=0)
    if rounds > 1:
        print(f"(values are the median over up to {rounds} runs of each implementation)")
    return data, order


def better_factor(b, n, unit):
    if b is None or n is None or b <= 0 or n <= 0:
        return None
    return b / n if unit in TIME_UNITS else n / b


def table(data, order, base, new, out_dir):
    rows = []
    npes_list = sorted({k[0] for k in order})
    hdr = f"{'figure':<18} {'size':>8} {base:>12} {new:>12} {'unit':<5} {new + '/' + base:>14} {'advantage':>10}  better"
    for npes in npes_list:
        print(f"\n== {npes} PEs ==")
        print(hdr)
        print("-" * len(hdr))
        for (np_, fig, size) in order:
            if np_ != npes:
                continue
            b = data.get((base, npes, fig, size))
            n = data.get((new, npes, fig, size))
            unit = (b or n)[1]
            bv = b[0] if b else None
            nv = n[0] if n else None
            ratio = nv / bv if (bv and nv is not None) else None
            adv = better_factor(bv, nv, unit)
            who = "-" if adv is None else (new if adv > 1.05 else base if adv < 1 / 1.05 else "~same")
            print(f"{fig:<18} {fmt_size(size):>8} {fmt_val(bv):>12} {fmt_val(nv):>12} {unit:<5} "
                  f"{fmt_val(ratio):>14} {fmt_val(adv):>10}  {who}")
            rows.append([npes, fig, size, unit, bv, nv, ratio, adv])
    print(f"\nnew/base: {new} value / {base} value (for us/ms lower is better, for GB/s higher is better).")
    print(f"advantage: how many times better {new} is than {base} ({base}/{new} for times, "
          f"{new}/{base} for bandwidth); > 1 means {new} is better, < 1 means {base} is better;"
          f" 'better' calls ties within 5%.")
    if out_dir:
        path = os.path.join(out_dir, "combined.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["npes", "figure", "size_bytes", "unit", base, new, f"{new}_over_{base}", f"{new}_advantage"])
            for r in rows:
                w.writerow(["" if x is None else x for x in r])
        print(f"combined table: {path}")
    return npes_list


def plot(data, order, base, new, out_dir, npes_list):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # ImportError, or a broken backend
        print(f"compare.py: matplotlib not available ({e}); skipping the plot "
              f"(apt-get install -y python3-matplotlib)")
        return
    styles = {"putmem_bw": "-", "getmem_bw": "--"}
    colors = {base: "tab:blue", new: "tab:red"}
    for npes in npes_list:
        fig, ax = plt.subplots(figsize=(9, 5.5))
        drawn = False
        for figure, ls in styles.items():
            for impl in (base, new):
                pts = sorted((s, data[(impl, npes, f_, s)][0]) for (n_, f_, s) in order
                             if n_ == npes and f_ == figure and (impl, npes, f_, s) in data)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker="o", ms=3,
                            color=colors[impl], label=f"{impl} {figure.replace('_bw', '')}")
                    drawn = True
        # memcpy reference: from the new run if present, else the base run.
        for impl in (new, base):
            pts = sorted((s, data[(impl, npes, f_, s)][0]) for (n_, f_, s) in order
                         if n_ == npes and f_ == "memcpy_bw" and (impl, npes, f_, s) in data)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ":", marker=".", color="gray",
                        label=f"memcpy (local, {impl} run)")
                break
        if not drawn:
            plt.close(fig)
            continue
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("bandwidth (GB/s, 1e9 B/s)")
        ax.set_title(f"shmem_bench: putmem/getmem bandwidth, PE 0 <-> PE 1, {npes} PEs")
        ticks = sorted({s for (n_, f_, s) in order if n_ == npes and f_.endswith("_bw")})
        ax.set_xticks(ticks)
        ax.set_xticklabels([fmt_size(t).replace(" ", "") for t in ticks], rotation=45)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out_dir or ".", f"bandwidth_np{npes}.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        print(f"plot: {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="oshmem", help="impl name of the baseline (default oshmem)")
    ap.add_argument("--new", default="symmem", help="impl name compared against it (default symmem)")
    ap.add_argument("--out", default="", help="directory for combined.csv and the plots")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    data, order = load(a.csv)
    if not order:
        print("compare.py: no data", file=sys.stderr)
        return 1
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    npes_list = table(data, order, a.base, a.new, a.out)
    if not a.no_plot:
        plot(data, order, a.base, a.new, a.out, npes_list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
