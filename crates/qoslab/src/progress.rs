//! Progress on stderr for long work (issue 15).
//!
//! - On a terminal: an [`indicatif`] bar (label, bar, percent, detail, ETA), drawn only once
//!   the work has taken more than [`TERM_DELAY`] (2 s), so short runs stay silent.
//! - Not on a terminal (CI logs, pipes): one plain line every [`PLAIN_EVERY`] (5 s), e.g.
//!   `reproducing: 42% (63/150 runs) 12.3 s elapsed, eta 17 s`, with no `\r` or escape codes;
//!   nothing at all for work shorter than the first interval. The final state is not
//!   printed: the caller's own summary follows.
//! - Disabled (`--quiet`, or library use such as tests): nothing.
//!
//! `QOSLAB_PROGRESS_EVERY_MS` (milliseconds) overrides the plain-line interval; it exists so
//! that a test can see the lines of a sub-second run.
//!
//! The bar replaces a hand-written one; indicatif is kept for the terminal only, since its
//! stderr target hides itself off a terminal and a log wants whole, throttled lines.
//! Progress is never part of any result: only stderr is touched.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// A terminal bar appears only after this much work.
pub const TERM_DELAY: Duration = Duration::from_secs(2);
/// Off a terminal, one line per this interval (the first after one interval).
pub const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// Positions of the indicatif bar per unit of progress.
const TICKS: u64 = 10_000;

enum Mode {
    Off,
    /// The bar is made on the first update after [`TERM_DELAY`].
    Term(Option<ProgressBar>),
    Plain {
        lines: Lines,
        out: Box<dyn Write + Send>,
    },
}

pub struct Bar {
    mode: Mode,
    start: Instant,
    label: &'static str,
}

impl Bar {
    /// `enabled = false` (`--quiet`) shows nothing; otherwise a bar on a terminal or
    /// throttled lines elsewhere, chosen by whether stderr is a terminal.
    pub fn new(enabled: bool, label: &'static str) -> Self {
        let mode = if !enabled {
            Mode::Off
        } else if std::io::stderr().is_terminal() {
            Mode::Term(None)
        } else {
            let every = std::env::var("QOSLAB_PROGRESS_EVERY_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(PLAIN_EVERY, Duration::from_millis);
            Mode::Plain {
                lines: Lines::new(label, every),
                out: Box::new(std::io::stderr()),
            }
        };
        Bar {
            mode,
            start: Instant::now(),
            label,
        }
    }

    /// The plain-line mode writing to `out`, whatever stderr is (for tests).
    pub fn plain(label: &'static str, out: Box<dyn Write + Send>) -> Self {
        Bar {
            mode: Mode::Plain {
                lines: Lines::new(label, PLAIN_EVERY),
                out,
            },
            start: Instant::now(),
            label,
        }
    }

    /// Reports `frac` (0..=1) done; `detail` is e.g. `63/150 runs`.
    pub fn update(&mut self, frac: f64, detail: &str) {
        let elapsed = self.start.elapsed();
        match &mut self.mode {
            Mode::Off => {}
            Mode::Term(bar) => {
                if bar.is_none() && elapsed < TERM_DELAY {
                    return;
                }
                let b = bar.get_or_insert_with(|| {
                    let b =
                        ProgressBar::with_draw_target(Some(TICKS), ProgressDrawTarget::stderr());
                    b.set_style(
                        ProgressStyle::with_template(
                            "{prefix} [{bar:30}] {percent:>3}%  {msg}  eta {eta}",
                        )
                        .expect("the template is valid")
                        .progress_chars("#>."),
                    );
                    b.set_prefix(self.label);
                    b
                });
                b.set_message(detail.to_owned());
                b.set_position((frac.clamp(0.0, 1.0) * TICKS as f64) as u64);
            }
            Mode::Plain { lines, out } => {
                if let Some(line) = lines.line(elapsed, frac, detail) {
                    let _ = writeln!(out, "{line}");
                    let _ = out.flush();
                }
            }
        }
    }

    pub fn finish(&mut self) {
        if let Mode::Term(Some(b)) = &self.mode {
            b.finish();
            // indicatif leaves the cursor after the finished bar: end its line.
            eprintln!();
        }
    }
}

/// The throttle and format of the plain (non-terminal) lines, with time passed in.
pub struct Lines {
    label: &'static str,
    every: Duration,
    next: Duration,
}

impl Lines {
    pub fn new(label: &'static str, every: Duration) -> Self {
        Lines {
            label,
            every,
            next: every,
        }
    }

    /// The line to print at `elapsed` since the start, if one is due: the first at `every`,
    /// then at most one per `every` (a late update does not cause a burst).
    pub fn line(&mut self, elapsed: Duration, frac: f64, detail: &str) -> Option<String> {
        if elapsed < self.next {
            return None;
        }
        while self.next <= elapsed && !self.every.is_zero() {
            self.next += self.every;
        }
        let frac = frac.clamp(0.0, 1.0);
        let secs = elapsed.as_secs_f64();
        let eta = if frac > 0.0 {
            format!("{:.0} s", secs * (1.0 - frac) / frac)
        } else {
            "unknown".to_owned()
        };
        Some(format!(
            "{}: {:.0}% ({}) {:.1} s elapsed, eta {}",
            self.label,
            frac * 100.0,
            detail,
            secs,
            eta
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn plain_lines_are_throttled_and_formatted() {
        let mut l = Lines::new("reproducing", ms(5000));
        // Nothing before the first interval: short work stays silent.
        assert_eq!(l.line(ms(0), 0.1, "15/150 runs"), None);
        assert_eq!(l.line(ms(4999), 0.4, "60/150 runs"), None);
        assert_eq!(
            l.line(ms(12_300), 0.42, "63/150 runs").as_deref(),
            Some("reproducing: 42% (63/150 runs) 12.3 s elapsed, eta 17 s")
        );
        // The next line is due at 15 s, not 17.3 s, and a late update prints only one line.
        assert_eq!(l.line(ms(14_999), 0.5, "75/150 runs"), None);
        assert_eq!(
            l.line(ms(31_000), 1.0, "150/150 runs").as_deref(),
            Some("reproducing: 100% (150/150 runs) 31.0 s elapsed, eta 0 s")
        );
        assert_eq!(l.line(ms(34_999), 1.0, "150/150 runs"), None);
        assert!(l.line(ms(35_000), 1.0, "x").is_some());
        // A zero interval prints at every update.
        let mut l = Lines::new("x", ms(0));
        assert!(l.line(ms(0), 0.5, "1/2").is_some());
        assert!(l.line(ms(0), 1.0, "2/2").is_some());
    }

    #[test]
    fn eta_is_unknown_at_zero() {
        let mut l = Lines::new("simulating", ms(5000));
        assert_eq!(
            l.line(ms(5000), 0.0, "0.0/30.0 s simulated").as_deref(),
            Some("simulating: 0% (0.0/30.0 s simulated) 5.0 s elapsed, eta unknown")
        );
    }

    #[test]
    fn plain_bar_writes_nothing_for_short_work() {
        use std::sync::{Arc, Mutex};
        #[derive(Clone)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Shared(Arc::new(Mutex::new(Vec::new())));
        let mut bar = Bar::plain("reproducing", Box::new(buf.clone()));
        for k in 1..=100 {
            bar.update(k as f64 / 100.0, &format!("{k}/100 runs"));
        }
        bar.finish();
        assert!(buf.0.lock().unwrap().is_empty());
    }
}
