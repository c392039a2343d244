//! The event loop: pops events in (time, insertion sequence) order from the event queue
//! ([`crate::event`]) and hands each to its handler; the link events (`Deliver`,
//! `LinkFree`) are handled in the loop's body (`hop`), the timers out of line. Moved out
//! of `sim.rs` unchanged (issue 13, session 10).

use qoslab_algo::Time;

use super::Simulator;
use crate::event::Event;
use crate::result::RunResult;

impl Simulator {
    /// Processes every event before `until` (exclusive) or before the end of the run,
    /// whichever is first. A run covers [0, duration).
    pub fn run_until(&mut self, until: Time) {
        let until = until.min(self.end);
        while let Some((t, ev)) = self.events.pop_before(until) {
            self.now = t;
            self.events_processed += 1;
            match ev {
                Event::Deliver { link } => self.on_deliver(link),
                Event::LinkFree { link } => self.on_link_free(link),
                _ => self.on_timer(ev),
            }
        }
        self.now = self.now.max(until);
    }

    /// The timer events, out of the loop's body (rare beside `Deliver` and `LinkFree`).
    #[inline(never)]
    fn on_timer(&mut self, ev: Event) {
        match ev {
            Event::Shaper { link } => self.on_shaper(link),
            Event::Web { pool } => self.on_web(pool),
            Event::Agent { agent } => self.on_agent(agent),
            Event::Sample => self.on_sample(),
            Event::Warmup => self.on_warmup(),
            // The loop handles these itself and never passes them here.
            Event::Deliver { .. } | Event::LinkFree { .. } => unreachable!("a link event"),
        }
    }

    /// Runs to the end and returns the results (with the conservation check).
    pub fn run(mut self) -> Result<RunResult, String> {
        self.run_until(self.end);
        self.finish()
    }
}
