//! Many puzzles at once: worker threads, each with its own native engine,
//! make puzzles by number, and the caller's thread receives them in
//! number order as soon as each and all before it are made.

use super::{GenerateError, Generated, Generator, Provers};
use crossbeam_channel::{Receiver, Sender, bounded};
use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How many puzzles each worker may be ahead of the writer: a slow puzzle
/// holds the output back while the others go on, up to this window.
const WINDOW_PER_WORKER: usize = 16;

impl Generator {
    /// Makes puzzles number 0 to `count - 1` on `jobs` threads and hands
    /// each to `write` in number order; the puzzles are the same whatever
    /// `jobs` is. Gives the number of puzzles written.
    ///
    /// Setting `stop` (from a Ctrl-C handler, say) or breaking out of
    /// `write` ends the run early: no new puzzle is started, and the ones
    /// made in order before are written. A puzzle that cannot be made ends
    /// the run with its error, once the puzzles before it are written.
    pub fn run(
        &self,
        count: u64,
        jobs: NonZeroUsize,
        stop: &AtomicBool,
        mut write: impl FnMut(&Generated) -> ControlFlow<()>,
    ) -> Result<u64, GenerateError> {
        let window = jobs.get().saturating_mul(WINDOW_PER_WORKER);
        // A slot per puzzle between the workers and the writer: a worker
        // takes one before it starts a puzzle, the writer gives it back once
        // the puzzle is written, so the reorder buffer stays within it.
        let (slots_tx, slots_rx) = bounded::<()>(window);
        let (results_tx, results_rx) = bounded::<(u64, Result<Generated, GenerateError>)>(window);
        let next = AtomicU64::new(0);
        std::thread::scope(|scope| {
            let mut started = Ok(());
            for n in 0..jobs.get() {
                let (slots, results, next) = (slots_tx.clone(), results_tx.clone(), &next);
                let worker = std::thread::Builder::new()
                    .name(format!("z3doku-generate-{n}"))
                    .spawn_scoped(scope, move || {
                        self.work(count, next, &slots, &results, stop);
                    });
                if let Err(e) = worker {
                    started = Err(GenerateError::Internal(format!(
                        "cannot start a thread: {e}"
                    )));
                    break;
                }
            }
            drop((slots_tx, results_tx));
            let written = started.and_then(|()| write_in_order(&results_rx, &slots_rx, &mut write));
            if written.is_err() || stop.load(Ordering::SeqCst) {
                // The workers see it before their next puzzle.
                stop.store(true, Ordering::SeqCst);
            }
            // Unblocks workers waiting for a slot or to hand in a puzzle.
            drop((results_rx, slots_rx));
            written
        })
    }

    /// A worker: makes puzzles by number until there are none left or the
    /// run stops.
    fn work(
        &self,
        count: u64,
        next: &AtomicU64,
        slots: &Sender<()>,
        results: &Sender<(u64, Result<Generated, GenerateError>)>,
        stop: &AtomicBool,
    ) {
        let mut provers = Provers::new();
        loop {
            if stop.load(Ordering::SeqCst) || slots.send(()).is_err() {
                return;
            }
            let index = next.fetch_add(1, Ordering::SeqCst);
            if index >= count || stop.load(Ordering::SeqCst) {
                return;
            }
            let made = self.puzzle_with(index, &mut provers);
            if results.send((index, made)).is_err() {
                return;
            }
        }
    }
}

/// The writer: hands puzzles to `write` in number order, giving back a
/// slot for each; stops at the first error in that order.
fn write_in_order(
    results: &Receiver<(u64, Result<Generated, GenerateError>)>,
    slots: &Receiver<()>,
    write: &mut impl FnMut(&Generated) -> ControlFlow<()>,
) -> Result<u64, GenerateError> {
    let mut pending = BTreeMap::new();
    let mut next = 0;
    for (index, made) in results {
        pending.insert(index, made);
        while let Some(made) = pending.remove(&next) {
            next += 1;
            let _ = slots.try_recv();
            if write(&made?).is_break() {
                return Ok(next);
            }
        }
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Spec;

    fn lines(jobs: usize, count: u64) -> Vec<String> {
        let generator = Generator::new(Spec::default(), 77).unwrap_or_else(|e| panic!("{e}"));
        let mut lines = Vec::new();
        let jobs = NonZeroUsize::new(jobs).unwrap_or(NonZeroUsize::MIN);
        let stop = AtomicBool::new(false);
        let written = generator.run(count, jobs, &stop, |made| {
            lines.push(made.puzzle.to_string());
            ControlFlow::Continue(())
        });
        assert_eq!(written, Ok(count));
        lines
    }

    #[test]
    fn the_same_puzzles_in_the_same_order_whatever_the_jobs() {
        let one = lines(1, 12);
        assert_eq!(one, lines(3, 12));
        assert_eq!(one.len(), 12);
    }

    #[test]
    fn breaking_out_of_write_stops_the_run() {
        let generator = Generator::new(Spec::default(), 1).unwrap_or_else(|e| panic!("{e}"));
        let stop = AtomicBool::new(false);
        let two = NonZeroUsize::MIN.saturating_add(1);
        let written = generator.run(1_000_000, two, &stop, |made| {
            if made.index == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(written, Ok(5));
    }
}
