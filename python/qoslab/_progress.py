"""A progress bar of done/total runs and the rate.

``enabled=True``: tqdm if it is installed, else a one-line bar on stderr when stderr is a
terminal (nothing otherwise). ``enabled="always"``: plain lines on stderr whatever stderr
is (for logs of batch jobs), at most one a second plus the last. ``False``: nothing.
"""

import sys
import time


class _Plain:
    def __init__(self, total, initial, desc, live, lines):
        self.total, self.n, self.desc = total, initial, desc
        self.start_n, self.t0 = initial, time.monotonic()
        self.live, self.lines = live, lines
        self.shown_at = None
        self._show()

    def text(self):
        el = time.monotonic() - self.t0
        rate = (self.n - self.start_n) / el if el > 0 else 0.0
        frac = self.n / self.total if self.total else 1.0
        bar = "#" * int(30 * frac)
        return f"{self.desc} [{bar:<30}] {self.n}/{self.total} {rate:.1f} runs/s"

    def _show(self, last=False):
        now = time.monotonic()
        if self.lines:
            if last or self.shown_at is None or now - self.shown_at >= 1.0:
                sys.stderr.write(self.text() + "\n")
                sys.stderr.flush()
                self.shown_at = now
        elif self.live:
            sys.stderr.write("\r" + self.text())
            sys.stderr.flush()

    def update(self, k=1):
        self.n += k
        self._show(last=self.n >= self.total)

    def close(self):
        if self.live and not self.lines:
            sys.stderr.write("\n")


class _Off:
    def update(self, k=1):
        pass

    def close(self):
        pass


def bar(total, initial=0, desc="sweep", enabled=True):
    if not enabled:
        return _Off()
    if enabled == "always":
        return _Plain(total, initial, desc, live=True, lines=True)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Plain(total, initial, desc, live=sys.stderr.isatty(), lines=False)
    return tqdm(total=total, initial=initial, desc=desc, unit="run")
