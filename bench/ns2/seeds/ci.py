"""Means with 95 % confidence intervals over seeds, and the issue-14 "within bounds" rule.

Student's t, two-sided 95 %, for n - 1 degrees of freedom (n seeds); no SciPy needed.
A row is **within bounds** when |qoslab - ns-2| / ns-2 is inside the issue's bound (5 % for
throughput / send rates, 10 % for drop and queue statistics) or the two 95 % intervals
overlap (|difference| <= the sum of the two half-widths), i.e. the seeds cannot tell them apart.
"""
import math
import statistics

# t_{0.975, df}, df = 1..30; beyond 30, 1.96 + 2.4/df is within 0.3 % of the table.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    if df < 1:
        return float("nan")
    return T975[df - 1] if df <= len(T975) else 1.96 + 2.4 / df


def mean_ci(xs):
    """(mean, half-width of the 95 % interval); half-width nan for one value."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan")
    return m, t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


def verdict(ns, qo, bound):
    """"within (bound)", "within (CIs)" or "OUTSIDE" for per-seed lists ns (ns-2), qo (ours)."""
    nm, nh = mean_ci(ns)
    qm, qh = mean_ci(qo)
    if nm and abs(qm - nm) / abs(nm) <= bound:
        return "within"
    if abs(qm - nm) <= nh + qh:
        return "within (CIs)"
    return "OUTSIDE"


def fmt(xs, dec):
    m, h = mean_ci(xs)
    return f"{m:.{dec}f} ± {h:.{dec}f}"


def rel(ns, qo):
    nm, qm = statistics.fmean(ns), statistics.fmean(qo)
    return f"{100 * (qm - nm) / nm:+.1f} %" if nm else "—"
