#!/usr/bin/env python3
"""The RIO seed's queue figures (Hori et al. 2001, Figs. 2-6) in ns-2.35 and in qoslab.

Both simulators write the G1->G2 queue every 10 ms (packets waiting; and RIO's Out average,
which in coupled RIO is the average of the whole queue) and the queue seen by arrivals
(5..20 s). ns-2.35 is the build of bench/ns2/build_riototal_ns2.sh (dsRED's p_a capped, Out
average = the paper's, `setMREDMode RIO-C-TOTAL`); ours is base.toml in RFC mode
(ns2_compat = false, the like-for-like column of README section 1) and, as a second column,
with ns-2's timeout ssthresh rule (rto_ssthresh = "ns2-half-window", finding 43).

The figures' cases: Fig. 2/3 (minth_out 60, maxth 200, maxp 1/10, w_qout 0.002; Reno,
NewReno, SACK), Fig. 4 (Reno, maxp 1/2..1/100), Fig. 5 (Reno, the queue and its average),
Fig. 6 (Reno, prompt feedback: w_qout 1). The series are not compared point by point (the
two simulators draw different random numbers): per seed, the arrival-seen queue's mean,
10/50/90/99th percentiles and empty fraction; over the 10 ms samples in 5..20 s their mean,
amplitude (95th - 5th percentile), the period of the oscillation (lag of the first maximum of
the autocorrelation after its first zero crossing, searched up to 5 s), that maximum's height
(acf_peak: near 0, no regular oscillation) and the Out average's standard deviation;
means ± 95 % CI over seeds (ci.py), verdict with the issue's 10 % bound.

usage: python3 bench/ns2/seeds/probes/s13-rio4b_queue_figs.py [--seeds N] [--out DIR]
         [--ns PATH] [--qoslab PATH] [--cache DIR] [--cases reno,newreno,...]
Writes DIR/*.svg (default bench/ns2/seeds/measured/rio_figs/) and prints the tables.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS_DIR = os.path.dirname(HERE)
sys.path.insert(0, SEEDS_DIR)
import ci  # noqa: E402
import qoslab_run  # noqa: E402
import rio_hori2001 as rio  # noqa: E402
import rio_riototal as rt  # noqa: E402

WARM, DUR = 5.0, 20.0
CASES = {
    # name: (tcp, minth, maxth, den, w_out)
    "reno": ("Reno", 60, 200, 10, 0.002),
    "newreno": ("Newreno", 60, 200, 10, 0.002),
    "sack": ("Sack", 60, 200, 10, 0.002),
    "reno_prompt": ("Reno", 60, 200, 10, 1.0),
    "reno_p2": ("Reno", 60, 200, 2, 0.002),
    "reno_p5": ("Reno", 60, 200, 5, 0.002),
    "reno_p20": ("Reno", 60, 200, 20, 0.002),
    "reno_p50": ("Reno", 60, 200, 50, 0.002),
    "reno_p100": ("Reno", 60, 200, 100, 0.002),
}
SIDES = ("ns2", "rfc", "rfc+hw")
# Fig. 4's extra cases: distributions only (no series statistics).
CDF_ONLY = ("reno_p2", "reno_p5", "reno_p20", "reno_p50", "reno_p100")


def pct_of_hist(hist, frac):
    n = sum(hist)
    target = max(math.ceil(frac * n), 1)
    acc = 0
    for k, c in enumerate(hist):
        acc += c
        if acc >= target:
            return k
    return len(hist) - 1


def series_stats(ts, q, avg):
    """Mean, amplitude (p95 - p5), period (s) of the 10 ms samples in [WARM, DUR), and the
    average's standard deviation."""
    xs = [v for t, v in zip(ts, q) if WARM <= t < DUR]
    av = [v for t, v in zip(ts, avg) if WARM <= t < DUR]
    n = len(xs)
    m = sum(xs) / n
    s = sorted(xs)
    amp = s[min(n - 1, int(0.95 * n))] - s[int(0.05 * n)]
    d = [x - m for x in xs]
    var = sum(x * x for x in d)
    acf = [sum(d[i] * d[i + k] for i in range(n - k)) / var for k in range(min(n // 2, 500))]
    period, peak = float("nan"), float("nan")
    k0 = next((k for k in range(1, len(acf)) if acf[k] < 0), None)
    if k0 is not None:
        best = max(range(k0, len(acf)), key=lambda k: acf[k])
        period, peak = best * 0.01, acf[best]
    am = sum(av) / len(av)
    astd = math.sqrt(sum((x - am) ** 2 for x in av) / len(av))
    return {"s_mean": m, "s_amp": amp, "s_period": period, "acf_peak": peak,
            "avg_std": astd}


def hist_stats(hist):
    n = sum(hist)
    mean = sum(k * c for k, c in enumerate(hist)) / n
    return {"ql_ave": mean, "ql_zero": hist[0] / n, "p10": pct_of_hist(hist, 0.1),
            "p50": pct_of_hist(hist, 0.5), "p90": pct_of_hist(hist, 0.9),
            "p99": pct_of_hist(hist, 0.99)}


def run_ns2(exe, p, seed):
    with tempfile.TemporaryDirectory() as d:
        tr, sf = os.path.join(d, "q.tr"), os.path.join(d, "q.ser")
        args = ["nice", "-n", "19", exe, os.path.join(SEEDS_DIR, "rio_hori2001.tcl"), p[0],
                str(p[1]), str(p[2]), str(p[3]), str(p[4]), str(seed), tr, str(DUR),
                str(rio.W_IN), "RIO-C-TOTAL", sf]
        subprocess.run(args, cwd=d, stdout=subprocess.DEVNULL, check=True)
        hist = []
        q = 0
        with open(tr) as f:
            for line in f:
                ev = line[0]
                if ev == "+":
                    t = float(line[2:line.index(" ", 2)])
                    if WARM <= t < DUR:
                        if q >= len(hist):
                            hist += [0] * (q + 1 - len(hist))
                        hist[q] += 1
                    q += 1
                elif ev in "-d":
                    q -= 1
        ts, qs, av = [], [], []
        with open(sf) as f:
            next(f)
            for line in f:
                t, n, ao, _ = line.split()
                ts.append(float(t))
                qs.append(int(n))
                av.append(float(ao))
    return hist, ts, qs, av


def run_ours(exe, p, seed, mode):
    summ, out = qoslab_run.run(exe, rt.scenario(p + (rio.W_IN,), mode), seed,
                               ["queue_series.csv"])
    hist = next(q for q in summ["queues"] if q["link"] == "G1->G2")
    ts, qs, av = [], [], []
    for r in out["queue_series.csv"]:
        if r["link"] == "G1->G2":
            ts.append(float(r["time_s"]))
            qs.append(int(r["pkts"]))
            av.append(float(r["avg"]))
    return list(hist["length_hist"]), ts, qs, av


# ---- minimal SVG ----

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def svg_plot(path, title, xlabel, ylabel, panels, xr, yr, w=760, ph=220):
    """panels: [(panel title, [(label, xs, ys, colour, width, dash)])], stacked vertically."""
    ml, mr, mt, mb = 60, 150, 30, 40
    h = mt + len(panels) * (ph + mb)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="16" text-anchor="middle" font-size="13">{title}</text>']
    pw = w - ml - mr
    for i, (ptitle, lines) in enumerate(panels):
        y0 = mt + i * (ph + mb)

        def X(x):
            return ml + (x - xr[0]) / (xr[1] - xr[0]) * pw

        def Y(y):
            return y0 + ph - (y - yr[0]) / (yr[1] - yr[0]) * ph
        out.append(f'<rect x="{ml}" y="{y0}" width="{pw}" height="{ph}" fill="none" '
                   f'stroke="#444"/>')
        out.append(f'<text x="{ml + 4}" y="{y0 + 13}">{ptitle}</text>')
        for k in range(6):
            xv = xr[0] + k * (xr[1] - xr[0]) / 5
            yv = yr[0] + k * (yr[1] - yr[0]) / 5
            out.append(f'<text x="{X(xv):.1f}" y="{y0 + ph + 14}" text-anchor="middle">'
                       f'{xv:g}</text>')
            out.append(f'<text x="{ml - 4}" y="{Y(yv) + 4:.1f}" text-anchor="end">{yv:g}</text>')
            out.append(f'<line x1="{ml}" x2="{ml + pw}" y1="{Y(yv):.1f}" y2="{Y(yv):.1f}" '
                       f'stroke="#ddd"/>')
        out.append(f'<text x="{ml + pw / 2}" y="{y0 + ph + 30}" text-anchor="middle">'
                   f'{xlabel}</text>')
        out.append(f'<text x="14" y="{y0 + ph / 2}" transform="rotate(-90 14 {y0 + ph / 2})" '
                   f'text-anchor="middle">{ylabel}</text>')
        for j, (label, xs, ys, col, wd, dash) in enumerate(lines):
            pts = " ".join(f"{X(x):.1f},{Y(min(max(y, yr[0]), yr[1])):.1f}"
                           for x, y in zip(xs, ys) if xr[0] <= x <= xr[1])
            da = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline fill="none" stroke="{col}" stroke-width="{wd}"{da} '
                       f'points="{pts}"/>')
            ly = y0 + 14 + 14 * j
            out.append(f'<line x1="{ml + pw + 8}" x2="{ml + pw + 28}" y1="{ly}" y2="{ly}" '
                       f'stroke="{col}" stroke-width="2"{da}/>')
            out.append(f'<text x="{ml + pw + 32}" y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def cdf(hist):
    """Step CDF: on [k, k + 1) the value P(q <= k)."""
    n = sum(hist)
    xs, ys, acc = [], [], 0
    for k, c in enumerate(hist):
        acc += c
        xs += [k, k + 1]
        ys += [acc / n, acc / n]
    return xs, ys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(SEEDS_DIR, "measured", "rio_figs"))
    ap.add_argument("--ns", default="/work/ns2-s13-rio4b/ns-riototal")
    ap.add_argument("--cases", default=",".join(CASES),
                    help="statistics only, for these cases (no figures unless all)")
    ap.add_argument("--cache", default="/tmp/s13-rio4b_figcache",
                    help="per-run results (JSON), reused when present")
    ap.add_argument("--qoslab", default=os.path.join(rio.ROOT, "target", "release",
                                                     "qoslab"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs = {}
    os.makedirs(a.cache, exist_ok=True)
    cases = a.cases.split(",")
    for name in cases:
        p = CASES[name]
        for s in range(1, a.seeds + 1):
            for side in SIDES:
                f = os.path.join(a.cache, f"{name}_{side}_{s}.json")
                if os.path.exists(f):
                    with open(f) as r:
                        runs[(name, side, s)] = json.load(r)
                    continue
                if side == "ns2":
                    runs[(name, side, s)] = run_ns2(a.ns, p, s)
                else:
                    runs[(name, side, s)] = run_ours(a.qoslab, p, s, side)
                with open(f, "w") as w:
                    json.dump(runs[(name, side, s)], w)
    seeds = range(1, a.seeds + 1)

    # Statistics table.
    cols = [("ql_ave", 2, 0.10), ("ql_zero", 3, None), ("p10", 1, 0.10), ("p50", 1, 0.10),
            ("p90", 1, 0.10), ("p99", 1, 0.10), ("s_mean", 2, 0.10), ("s_amp", 1, 0.10),
            ("s_period", 2, 0.10), ("acf_peak", 2, 0.10), ("avg_std", 2, 0.10)]
    print(f"\n### Queue-figure statistics: ns-2.35 capped + RIO-C-TOTAL | qoslab rfc | rfc+hw; "
          f"mean ± 95 % CI over seeds 1..{a.seeds}\n")
    print("| case | statistic | ns-2.35 | qoslab rfc | rfc − ns-2 | verdict | rfc+hw | "
          "rfc+hw − ns-2 | verdict |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in cases:
        st = {}
        for side in SIDES:
            st[side] = []
            for s in seeds:
                hist, ts, qs, av = runs[(name, side, s)]
                d = hist_stats(hist)
                d.update(series_stats(ts, qs, av))
                st[side].append(d)
        for c, dec, bound in cols:
            if name in CDF_ONLY and c in ("s_amp", "s_period", "acf_peak", "avg_std",
                                          "s_mean"):
                continue
            nv = [x[c] for x in st["ns2"]]
            row = [name, c, ci.fmt(nv, dec)]
            for m in ("rfc", "rfc+hw"):
                ov = [x[c] for x in st[m]]
                row.append(ci.fmt(ov, dec))
                if bound is None:
                    row += [f"{sum(ov) / len(ov) - sum(nv) / len(nv):+.3f}", "—"]
                elif sum(nv) == sum(ov):
                    row += ["0", "within"]
                else:
                    row += [ci.rel(nv, ov), ci.verdict(nv, ov, bound)]
            print("| " + " | ".join(row) + " |", flush=True)

    if set(cases) != set(CASES):
        return
    # Figures: time series of seed 1 (Figs. 2, 5, 6), CDFs pooled over seeds (Figs. 3, 4).
    def pooled(name, side):
        h = []
        for s in seeds:
            hh = runs[(name, side, s)][0]
            if len(hh) > len(h):
                h += [0] * (len(hh) - len(h))
            for i, c in enumerate(hh):
                h[i] += c
        return h

    for fig, names, with_avg in (("fig2", ["reno", "newreno", "sack"], False),
                                 ("fig5", ["reno"], True), ("fig6", ["reno_prompt"], True)):
        panels = []
        for name in names:
            for side, lab in (("ns2", "ns-2.35 (RIO-C-TOTAL, p_a capped)"),
                              ("rfc", "qoslab (RFC-mode TCP)")):
                _, ts, qs, av = runs[(name, side, 1)]
                lines = [("queue", ts, qs, "#7fb0dc" if with_avg else COLORS[0], 1, None)]
                if with_avg:
                    # Over the queue (with w_qout = 1 the two coincide).
                    lines.append(("Out average", ts, av, COLORS[1], 1.5, None))
                panels.append((f"{CASES[name][0]}, {lab}, seed 1", lines))
        title = {
            "fig2": "Fig. 2: queue length, minth_out 60, maxp 1/10, w_qout 0.002 (10 ms samples)",
            "fig5": "Fig. 5: queue length and its EWMA (Reno, maxp 1/10, w_qout 0.002)",
            "fig6": "Fig. 6: queue length with prompt feedback (Reno, maxp 1/10, w_qout 1)",
        }[fig]
        svg_plot(os.path.join(a.out, f"{fig}.svg"), title, "time (s)", "packets", panels,
                 (5, 20), (0, 200), ph=150)
    for fig, names in (("fig3", ["reno", "newreno", "sack", "reno_prompt"]),
                       ("fig4", ["reno_p2", "reno_p5", "reno", "reno_p20", "reno_p50",
                                 "reno_p100"])):
        lines = []
        for i, name in enumerate(names):
            p = CASES[name]
            lab = (f"{p[0]} w {p[4]:g}" if fig == "fig3" else f"maxp 1/{p[3]}")
            for side, dash, suffix in (("ns2", "5,3", " ns-2"), ("rfc", None, " ours")):
                xs, ys = cdf(pooled(name, side))
                lines.append((lab + suffix, xs, ys, COLORS[i % len(COLORS)], 1.2, dash))
        title = {
            "fig3": "Fig. 3: CDF of the queue seen by arrivals (maxp 1/10; dashed ns-2.35, "
                    "solid qoslab)",
            "fig4": "Fig. 4: CDF of the queue seen by arrivals, Reno vs maxp (dashed ns-2.35, "
                    "solid qoslab)",
        }[fig]
        svg_plot(os.path.join(a.out, f"{fig}.svg"), title,
                 "queue length seen by arrivals (packets)", "cumulative probability",
                 [("", lines)], (0, 250), (0, 1), ph=320, w=860)
    print(f"figures in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
