//! Running the (variant, seed) jobs of an experiment over all cores.
//!
//! A work queue over `std::thread::scope`: workers take the next job index from an atomic
//! counter and send (index, result) back; results are stored by index, so the outcome does
//! not depend on the number of threads or on the order in which jobs finish. Each job is a
//! pure function of (scenario, seed).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

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
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<R>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, R)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, f) = (&next, &f);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                if tx.send((i, f(&jobs[i]))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for (i, r) in rx {
            out[i] = Some(r);
            done += 1;
            progress(done, n);
        }
    });
    out.into_iter()
        .map(|r| r.expect("every job ran (a worker panicked otherwise)"))
        .collect()
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
}
