//! A progress bar on stderr: shown only on a terminal, and only once work has taken more than
//! two seconds, so short runs and pipes stay silent.

use std::io::Write;
use std::time::Instant;

pub struct Bar {
    enabled: bool,
    shown: bool,
    start: Instant,
    label: &'static str,
}

impl Bar {
    pub fn new(enabled: bool, label: &'static str) -> Self {
        Bar {
            enabled,
            shown: false,
            start: Instant::now(),
            label,
        }
    }

    pub fn update(&mut self, frac: f64, detail: &str) {
        if !self.enabled || self.start.elapsed().as_secs_f64() < 2.0 {
            return;
        }
        self.shown = true;
        let width = 30;
        let filled = ((frac.clamp(0.0, 1.0)) * width as f64) as usize;
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if frac > 0.0 {
            elapsed * (1.0 - frac) / frac
        } else {
            0.0
        };
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\r{} [{}{}] {:3.0}%  {}  eta {:.0} s   ",
            self.label,
            "#".repeat(filled),
            ".".repeat(width - filled),
            frac * 100.0,
            detail,
            eta
        );
        let _ = e.flush();
    }

    pub fn finish(&mut self) {
        if self.shown {
            eprintln!();
        }
    }
}
