//! Running the (variant, seed) jobs of an experiment over all cores.
//!
//! A local rayon pool of exactly `threads` workers (`ThreadPoolBuilder::num_threads`, so
//! `--jobs N` caps the threads; the global pool is never used) maps the jobs with an indexed
//! `par_iter().map().collect()`, so results come back in job order whatever the number of
//! threads or the order in which jobs finish. Each job is a pure function of
//! (scenario, seed), so the outcome is byte-identical to a serial run. Progress: each finished
//! job sends a unit on a channel; the calling thread receives them and calls
//! `progress(done, total)` while the pool runs on a scoped thread, so callers keep a plain
//! `FnMut` on their own thread (issue 15 moved this from a hand-written work queue over
//! `std::thread::scope` to rayon).

use std::sync::mpsc;

use rayon::prelude::*;

use qoslab_sim::result::RunResult;
use qoslab_sim::scenario::spec::Scenario;
use qoslab_sim::sim::QueueSample;
use qoslab_sim::Simulator;

/// Applies `f` to every job on `threads` worker threads and returns the results in job
/// order. `progress(done, total)` is called on the calling thread after each job.
pub fn par_map<J, R, F>(
    jobs: &[J],
    threads: usize,
    f: F,
    mut progress: impl FnMut(usize, usize),
) -> Vec<R>
where
    J: Sync,
    R: Send,
    F: Fn(&J) -> R + Sync,
{
    let n = jobs.len();
    let threads = threads.clamp(1, n.max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("qoslab-run-{i}"))
        .build()
        .expect("a thread pool can be started");
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let f = &f;
        let worker = scope.spawn(move || {
            pool.install(|| {
                jobs.par_iter()
                    .map_with(tx, |tx, j| {
                        let r = f(j);
                        let _ = tx.send(());
                        r
                    })
                    .collect::<Vec<R>>()
            })
        });
        // The channel closes when the last sender (one clone per rayon split) is dropped.
        let mut done = 0;
        for () in rx {
            done += 1;
            progress(done, n);
        }
        match worker.join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// What one run leaves for tables and figures.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub result: RunResult,
    /// Queue samples of the monitored links (kept only when a figure needs them).
    pub samples: Vec<QueueSample>,
    /// Link names, indexed like `QueueSample::link`.
    pub links: Vec<String>,
}

/// Runs one scenario with one seed to the end.
pub fn run_one(scenario: Scenario, seed: u64, keep_samples: bool) -> Result<RunOutput, String> {
    let mut sim = Simulator::new(scenario, seed)?;
    let links = sim.links.iter().map(|l| l.name.clone()).collect();
    let end = sim.end();
    sim.run_until(end);
    let samples = if keep_samples {
        std::mem::take(&mut sim.samples)
    } else {
        Vec::new()
    };
    let result = sim.finish()?;
    Ok(RunOutput {
        result,
        samples,
        links,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_job_order_for_any_thread_count() {
        let jobs: Vec<u64> = (0..50).collect();
        // Uneven work so that jobs finish out of order on several threads.
        let f = |&j: &u64| {
            let mut x = j;
            for _ in 0..(j % 7) * 1000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (j, x)
        };
        let one = par_map(&jobs, 1, f, |_, _| {});
        for t in [2, 3, 8, 100] {
            let mut calls = 0;
            let many = par_map(&jobs, t, f, |done, total| {
                calls += 1;
                assert_eq!(total, 50);
                assert_eq!(done, calls);
            });
            assert_eq!(one, many);
            assert_eq!(calls, 50);
        }
        assert_eq!(one[17].0, 17);
        assert!(par_map(&[] as &[u64], 4, f, |_, _| {}).is_empty());
    }

    #[test]
    fn jobs_caps_the_worker_threads() {
        use std::collections::BTreeSet;
        use std::sync::Mutex;
        let jobs: Vec<u64> = (0..64).collect();
        for t in [1, 2, 3] {
            let seen = Mutex::new(BTreeSet::new());
            par_map(
                &jobs,
                t,
                |_| {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    seen.lock()
                        .unwrap()
                        .insert(format!("{:?}", std::thread::current().id()));
                },
                |_, _| {},
            );
            let n = seen.lock().unwrap().len();
            assert!(n >= 1 && n <= t, "{t} threads asked, {n} used");
        }
    }
}
