#!/usr/bin/env python3
"""Finding 54, s16-pairs: ns-2.35 sink arrivals at the nack timer's real instant (the report + 1.5 x the rtt_ the
last arrived packet carried, rebuilt from the sender's RS lines: the rtt_ after the last feedback before that
packet's send), B.2 b = 0.02 traces /tmp/s16ca/b2r_{1..10}.tr of ../build_s16ca_trace_ns2.sh; nice -n 19."""
import collections,bisect
c=collections.Counter()
for i in range(1,11):
    fidof={}; ev=collections.defaultdict(list); rs=collections.defaultdict(list)
    for ln in open("/tmp/s16ca/b2r_%d.tr"%i):
        w=ln.split()
        if not w: continue
        if w[0]=="RS": rs[int(w[3])].append((float(w[1]),float(w[7])))
        elif w[0]=="SR": fidof[w[3]]=int(w[5]); ev[w[3]].append(("SR",float(w[1]),float(w[15]),w[9]))
        elif w[0]=="SP": ev[w[3]].append(("SP",float(w[1]),float(w[5]),float(w[7])))
    for s,L in ev.items():
        fid=fidof.get(s,99); g="sp14" if fid<=80 else "std14"
        R=rs[fid]; Rt=[x[0] for x in R]
        def carried(ts):
            k=bisect.bisect_right(Rt,ts)
            return R[k-1][1] if k else 0.0
        lastts=None; timer=None; prev_timer=None; sp_t=None
        for j,x in enumerate(L):
            if x[0]=="SR":
                tm = prev_timer if (sp_t is not None and abs(sp_t-x[1])<1e-12) else timer
                if tm is not None:
                    d=x[1]-tm
                    if abs(d)<1e-6:
                        tf = j>0 and L[j-1][0]=="SP" and abs(L[j-1][1]-x[1])<1e-12
                        c[(g,"tie <1e-12" if abs(d)<1e-12 else "within 1us","timer first" if tf else "arrival first","u="+x[3])]+=1
                lastts=x[2]; continue
            # SP: report; timer = now + 1.5*rtt_ (rtt_ carried by the last arrived packet)
            prev_timer=timer; sp_t=x[1]
            if lastts is not None:
                r=carried(lastts)
                timer = x[1]+1.5*r if r>0 else None
for k,v in sorted(c.items()): print(k,v)
