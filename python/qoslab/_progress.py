"""A progress bar: tqdm if it is installed, else a one-line bar on stderr (terminals only)."""

import sys
import time


class _Plain:
    def __init__(self, total, initial, desc):
        self.total, self.n, self.desc = total, initial, desc
        self.start_n, self.t0 = initial, time.monotonic()
        self.live = sys.stderr.isatty()
        self._show()

    def _show(self):
        if not self.live:
            return
        el = time.monotonic() - self.t0
        rate = (self.n - self.start_n) / el if el > 0 else 0.0
        frac = self.n / self.total if self.total else 1.0
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r{self.desc} [{bar:<30}] {self.n}/{self.total} {rate:.1f} runs/s")
        sys.stderr.flush()

    def update(self, k=1):
        self.n += k
        self._show()

    def close(self):
        if self.live:
            sys.stderr.write("\n")


class _Off:
    def update(self, k=1):
        pass

    def close(self):
        pass


def bar(total, initial=0, desc="sweep", enabled=True):
    if not enabled:
        return _Off()
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Plain(total, initial, desc)
    return tqdm(total=total, initial=initial, desc=desc, unit="run")
