#!/usr/bin/env python3
"""Tables 12-16 of RFC 4828 compared at equal TCP drop rate instead of equal web sessions.

  python3 scenarios/rfc4828/equivalent_load.py [DIR] [TABLE ...]

DIR holds the CSVs of `qoslab reproduce rfc4828` (default out/reproduce/rfc4828; run
`qoslab reproduce rfc4828 --table 12` etc. first). The RFC does not state its web load, so
our web sessions need not carry the load of the RFC's. For each published row (N sessions,
TCP drop rate d) this finds where our own curve reaches the same TCP drop rate (log-log
interpolation between our rows, on the running maximum of our drop rates; "outside" if d
is below our lightest row) and prints the ratio N / N_ours and our other cells there beside
the published ones. If only the load per session differed, the ratio would be about
constant down a table and the other cells would agree at the equivalent load.
"""
import csv, math, os, sys
def load(path):
    rows={}
    for r in csv.DictReader(open(path)):
        n=int(r['web_sessions']); c=r['column']
        rows.setdefault(n,{})[c]=(float(r['ours_mean']), float(r['published']) if r['published'] else None)
    return rows
def interp(xs, ys, x):
    # log-log piecewise linear, xs increasing
    for i in range(len(xs)-1):
        if xs[i] <= x <= xs[i+1]:
            lx0,lx1=math.log(xs[i]),math.log(xs[i+1]); 
            f=(math.log(x)-lx0)/(lx1-lx0) if lx1>lx0 else 0
            y0,y1=ys[i],ys[i+1]
            if y0>0 and y1>0: return math.exp(math.log(y0)+f*(math.log(y1)-math.log(y0)))
            return y0+f*(y1-y0)
    return None
def inverse(ns, ds, d):
    # smallest N with our drop == d, on the running max of d (monotone envelope)
    env=[];m=0
    for x in ds: m=max(m,x); env.append(m)
    for i in range(len(ns)-1):
        if env[i] <= d <= env[i+1] and env[i+1]>env[i]:
            f=(math.log(d)-math.log(env[i]))/(math.log(env[i+1])-math.log(env[i]))
            return math.exp(math.log(ns[i])+f*(math.log(ns[i+1])-math.log(ns[i])))
    return None
args=sys.argv[1:]
d='out/reproduce/rfc4828'
if args and not args[0].isdigit():
    d=args.pop(0)
for t in args or ['12','13','14','15','16']:
    rows=load(os.path.join(d, f'table_{t}.csv'))
    ns=sorted(rows)
    cols=[c for c in rows[ns[0]] ]
    tcpd=[c for c in cols if c.startswith('tcp_drop')][0]
    print(f"\nTable {t}: published row -> our equivalent sessions (same TCP drop rate), then ours vs published there")
    for n in ns:
        dpub=rows[n][tcpd][1]
        neq=inverse(ns,[rows[k][tcpd][0] for k in ns],dpub) if dpub else None
        if not neq: print(f"  {n:5d}: TCP drop {dpub}: outside our range"); continue
        out=[]
        for c in cols:
            if c==tcpd: continue
            ours=interp(ns,[rows[k][c][0] for k in ns],neq); pub=rows[n][c][1]
            if pub is None or ours is None: continue
            out.append(f"{c.replace('_rate','').replace('_kbps','')}: {ours:.3g}/{pub:.3g} ({ours/pub if pub else float('nan'):.2f}x)")
        print(f"  {n:5d}: drop {dpub:.3f} ~ ours at {neq:6.1f} sessions (x{n/neq:.2f}) | "+" | ".join(out))
