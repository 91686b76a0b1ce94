#!/usr/bin/env python3
"""Old-vs-new sweep runs of one call: per case the best of each side's runs (comma-separated
CSV lists), against the PyTorch time of the first old run. Prints the cases that moved more
than 5 %, the time geomean new/old, the ratio geomeans and the counts below 0.70.

    python3 compare.py old1.csv,old2.csv new1.csv,new2.csv
"""
import csv, math, sys


def load(f):
    return {(r['precision'], r['layout'], r['m'], r['n'], r['k']): (float(r['ours_ms']), float(r['torch_ms']), r['group'], r['launch_bound']) for r in csv.DictReader(open(f))}


old = [load(f) for f in sys.argv[1].split(',')]
new = [load(f) for f in sys.argv[2].split(',')]
for prec in sorted({k[0] for k in old[0]}):
    rs, gm, below = [], {'old': [], 'new': []}, {'old': 0, 'new': 0}
    for k in old[0]:
        if k[0] != prec:
            continue
        to, tn, t = min(o[k][0] for o in old), min(n[k][0] for n in new), old[0][k][1]
        rs.append(tn / to)
        for v, x in (('old', to), ('new', tn)):
            gm[v].append(math.log(t / x))
            below[v] += old[0][k][3] == 'false' and t / x < 0.7
        if abs(tn / to - 1) > 0.05:
            print('%s %s %s %sx%sx%s old %.1f new %.1f torch %.1f' % (prec, old[0][k][2], k[1], k[2], k[3], k[4], to * 1e3, tn * 1e3, t * 1e3))
    g = lambda xs: math.exp(sum(xs) / len(xs))
    print('%s: new/old time geomean %.4f over %d; ratio geomean old %.3f new %.3f; below 0.70 old %d new %d' % (prec, g(list(map(math.log, rs))), len(rs), g(gm['old']), g(gm['new']), below['old'], below['new']))
