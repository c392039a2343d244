import csv, re, sys
seed = open('/work/shared/seeds/001_f6bdddae3ffa31a9.txt').read()
seed = re.sub(r'Satoh, et al\.\s+Expires March 14, 2010 \[Page \d+\]\s*Internet-Draft ST Marking September 2009', ' ', seed)
def segment(tab, start_marker):
    cap = seed.index('Table %s:' % tab)
    st = seed.rindex(start_marker, 0, cap)
    return seed[st:cap]
specs = {  # table: (start marker, value columns)
 'b1': ('Case | CLE', ['case','cle_threshold','ewma_weight']),
 'b2': ('Traffic| Topo.', ['smallest_oa_pct','largest_oa_pct']),
 'b3': ('Type | Over Admission', ['stm_oa_pct','cl_oa_pct']),
 'b4': ('No. of |Expected', ['n_ingresses','expected_conn_per_pair','stm_oa_pct','stm_r_oa_pct','cl_oa_pct']),
 'b5': ('No. of |Expected', ['n_ingresses','expected_conn_per_pair','stm_oa_pct','cl_oa_pct']),
 'b6': ('No. of |Expected', ['n_ingresses','expected_conn_per_pair','stm_oa_pct','cl_oa_pct']),
 'b8': ('|Topo| Simulation', ['t10_s','t20_s','t30_s','t40_s','t50_s','t60_s','t70_s','t80_s']),
 'c1': ('Traffic | Load', ['stm_ot_pct','cl_ot_pct','stm_tt_s','cl_tt_s']),
 'c2': ('No. of |Load', ['stm_ot_pct','cl_ot_pct','stm_tt_s','cl_tt_s']),
 'c3': ('No. of |Load', ['stm_ot_pct','cl_ot_pct','stm_tt_s','cl_tt_s']),
 'c4': ('No. of |Load', ['stm_ot_pct','cl_ot_pct','stm_tt_s','cl_tt_s']),
}
ok = True
for t, (marker, cols) in specs.items():
    tab = t[0].upper() + '.' + t[1:]
    seg = segment(tab, marker)
    seg = re.sub(r'RTT\d+|PLT\d|PLT\(c\)', ' ', seg)
    toks = re.findall(r'-?\d+(?:\.\d+)?', seg)
    rows = list(csv.DictReader(open('table_%s.csv' % t)))
    pos = 0
    used = 0
    for r in rows:
        vals = [r[c] for c in cols]
        n = len(vals)
        found = -1
        for i in range(pos, len(toks) - n + 1):
            if toks[i:i+n] == vals:
                found = i; break
        if found < 0:
            print('MISMATCH', t, vals); ok = False
        else:
            pos = found + n; used += n
    # keys printed once per block (loads) are the only leftovers
    left = len(toks) - used
    print(t, 'rows', len(rows), 'tokens', len(toks), 'unmatched tokens', left)
print('ALL OK' if ok else 'FAILED')
