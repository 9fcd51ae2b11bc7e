#!/usr/bin/env python3
"""Compares OSU OpenSHMEM benchmark outputs of OSHMEM and symmem (bench/osu_net.sh).

usage: osu_compare.py DIR [--detail]

DIR holds oshmem_<test>_r<round>.txt and symmem_<test>_r<round>.txt. For each test and each row
(message size, or operation), the median over rounds of each library; the ratio is OSHMEM's
latency / symmem's (Messages/s: symmem's / OSHMEM's), so above 1 symmem is faster. Prints, per
test, the median, worst and best ratio; --detail adds every row.
"""
import glob
import os
import re
import statistics
import sys


def parse(path):
    """{row: (value, 'lat' | 'rate')} of one OSU output; rows a failed run never printed are absent."""
    rows, kind, col = {}, None, None
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('#'):
                if 'Messages/s' in line:
                    kind, col = 'rate', 1
                elif 'Million ops/s' in line:
                    kind, col = 'lat', 2
                elif 'Latency' in line:
                    kind, col = 'lat', 1
                continue
            words = line.split()
            if kind is None or not words:
                continue
            row, at = (words[0], col) if len(words) > 1 else ('-', 0)  # the barrier prints its latency alone
            if len(words) <= at:
                continue
            try:
                rows[row] = (float(words[at]), kind)
            except ValueError:
                continue
    return rows


def medians(files):
    per_row = {}
    for path in files:
        for row, (value, kind) in parse(path).items():
            per_row.setdefault(row, (kind, []))[1].append(value)
    return {row: (statistics.median(v), kind) for row, (kind, v) in per_row.items()}


def main():
    folder = sys.argv[1]
    detail = '--detail' in sys.argv
    tests = sorted({re.sub(r'^oshmem_(.*)_r\d+\.txt$', r'\1', os.path.basename(p))
                    for p in glob.glob(os.path.join(folder, 'oshmem_*_r*.txt'))})
    print(f"{'test':16} {'rows':>4} {'median':>7} {'worst (row: OSHMEM vs symmem)':>40} {'best':>6}")
    for test in tests:
        osh = medians(glob.glob(os.path.join(folder, f'oshmem_{test}_r*.txt')))
        sym = medians(glob.glob(os.path.join(folder, f'symmem_{test}_r*.txt')))
        pairs = []
        for row, (o, kind) in osh.items():
            if row in sym and o > 0 and sym[row][0] > 0:
                s = sym[row][0]
                pairs.append((row, o / s if kind == 'lat' else s / o, o, s))
        if not pairs:
            print(f"{test:16} no common rows (OSHMEM printed {len(osh)}, symmem {len(sym)})")
            continue
        ratios = [p[1] for p in pairs]
        worst = min(pairs, key=lambda p: p[1])
        print(f"{test:16} {len(pairs):4} {statistics.median(ratios):6.2f}x "
              f"{f'{worst[1]:.2f}x at {worst[0]} ({worst[2]:g} vs {worst[3]:g})':>40} {max(ratios):5.2f}x")
        if detail:
            for row, ratio, o, s in pairs:
                print(f"    {row:>10} {o:12g} {s:12g} {ratio:6.2f}x")
        only = sorted(set(sym) - set(osh))
        if only:
            print(f"    symmem only (OSHMEM's run ended before them): {', '.join(only)}")


if __name__ == '__main__':
    main()
