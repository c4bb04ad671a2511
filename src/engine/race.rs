//! `--engine race`: the native search and Z3's `bool` encoding on the same
//! search, side by side; the first answer wins and the other is called
//! off.
//!
//! The native search runs in the calling thread, alone for its first few
//! milliseconds ([`HEAD_START`]); Z3 runs in one worker
//! thread that the race keeps for its whole life (so Z3's kept solver
//! serves puzzle after puzzle, as it does alone), fed one search at a time
//! through a channel. Each search gets two fresh tokens: `won`, which the
//! worker cancels when Z3 has answered (the native search reads it beside
//! the request's own token, see [`NativeEngine::solutions_racing`]), and
//! `stop`, which the calling thread cancels when the native search has
//! answered or the request is called off (Z3 reads it as its budget's
//! token). A winning native answer returns at once, without waiting for Z3
//! to wind down: the worker's next search simply queues behind it. The
//! worker ends when the race is dropped, which cancels its search in hand
//! and joins it, so no thread outlives the engine.
//!
//! The native side's solutions go to the visitor as they come (so a count
//! shows its progress); when Z3 wins, the visitor gets those of its
//! solutions it has not seen yet, up to the limit, so that no solution
//! comes twice.
//!
//! The answer is checked by the independent checker like any other, and
//! `--verify` confirms it with the engine that did not give it
//! ([`Engine::answered_by`]).

use super::native::NativeEngine;
use super::z3::Z3Engine;
use super::{
    Cancel, EncodingKind, Engine, EngineError, EngineKind, Found, GiveUp, Limits, Settings,
};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One search for the Z3 worker.
struct Job {
    puzzle: Puzzle,
    excluded: Vec<Grid>,
    /// The request's limits, with `stop` as the token.
    limits: Limits,
    /// Cancelled by the worker once Z3 has answered.
    won: Cancel,
    reply: mpsc::Sender<Answer>,
    /// When the race began.
    started: Instant,
}

/// What one side found.
struct Answer {
    result: Result<(), EngineError>,
    grids: Vec<Grid>,
    statistics: Vec<(String, String)>,
}

/// How long the native search runs alone before Z3 starts. Most puzzles
/// take it a few milliseconds, and on a machine whose cores are busy Z3
/// would only take CPU from it; a puzzle Z3 wins costs this much more than
/// Z3 alone, within the 10 ms a race may lose to the faster engine.
const HEAD_START: Duration = Duration::from_millis(8);

/// How often the calling thread, waiting for Z3 after the native search
/// gave up, looks at the request's token.
const WAIT_STEP: Duration = Duration::from_millis(1);

/// Runs the native engine and Z3 (`bool`) side by side; see the module.
pub struct RaceEngine {
    native: NativeEngine,
    settings: Settings,
    /// The worker's queue and thread, made at the first search.
    worker: Option<(mpsc::Sender<Job>, JoinHandle<()>)>,
    /// The token of the worker's latest search.
    stop: Option<Cancel>,
    winner: Option<EngineKind>,
    statistics: Vec<(String, String)>,
}

impl RaceEngine {
    /// A race under `settings` (Z3's side always uses the `bool`
    /// encoding: the fastest of the three on variants).
    pub fn new(settings: &Settings) -> RaceEngine {
        RaceEngine {
            native: NativeEngine::new(settings),
            settings: Settings {
                engine: EngineKind::Z3,
                encoding: EncodingKind::Bool,
                keep_models: false,
                keep_statistics: settings.keep_statistics,
                many_puzzles: settings.many_puzzles,
            },
            worker: None,
            stop: None,
            winner: None,
            statistics: Vec::new(),
        }
    }

    /// The worker's queue, starting the worker the first time; `None` when
    /// no thread can be started (the native search then runs alone).
    fn jobs(&mut self) -> Option<&mpsc::Sender<Job>> {
        if self.worker.is_none() {
            let settings = self.settings.clone();
            let (send, receive) = mpsc::channel::<Job>();
            let spawned = std::thread::Builder::new()
                .name(WORKER.into())
                .spawn(move || serve(&settings, &receive));
            if let Ok(handle) = spawned {
                self.worker = Some((send, handle));
            }
        }
        self.worker.as_ref().map(|(jobs, _)| jobs)
    }

    /// Races one search; the winner's solutions go to `visit`.
    fn race(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.winner = None;
        if limits.solutions == 0 {
            return Ok(());
        }
        let (stop, won) = (Cancel::new(), Cancel::new());
        let (reply, answer) = mpsc::channel();
        let job = Job {
            puzzle: puzzle.clone(),
            excluded: excluded.to_vec(),
            limits: Limits {
                solutions: limits.solutions,
                budget: limits.budget.clone().cancelled_by(stop.clone()),
            },
            won: won.clone(),
            reply,
            started: Instant::now(),
        };
        // The previous search's token is cancelled already (below), so the
        // worker is free or about to be.
        self.stop = Some(stop.clone());
        let z3_running = self.jobs().is_some_and(|jobs| jobs.send(job).is_ok());

        // The native side's solutions go to the visitor as they come (a
        // count's progress shows them); Z3's, should it win, only those not
        // seen yet.
        let mut delivered: Vec<Grid> = Vec::new();
        let mut visitor_stopped = false;
        let native =
            self.native
                .solutions_racing(puzzle, excluded, limits.clone(), &won, &mut |f| {
                    if delivered.len() < KEEP_SEEN {
                        delivered.push(f.grid.clone());
                    } else {
                        // Too many to keep: the native side answers alone.
                        stop.cancel();
                    }
                    let flow = visit(f);
                    visitor_stopped |= flow.is_break();
                    flow
                });
        let z3_won = won.is_cancelled() && !visitor_stopped && delivered.len() < KEEP_SEEN;
        let (result, statistics, kind) = match native {
            Ok(()) if !z3_won => {
                stop.cancel();
                (Ok(()), self.native.statistics(), EngineKind::Native)
            }
            Err(EngineError::GaveUp(GiveUp::Cancelled)) if !z3_won => {
                // The request itself was called off.
                stop.cancel();
                return Err(EngineError::GaveUp(GiveUp::Cancelled));
            }
            native if !z3_running => (native, self.native.statistics(), EngineKind::Native),
            native => {
                // Z3 answered first, or the native search gave up (its
                // deadline is Z3's too): Z3's answer decides.
                match wait(&answer, &limits, &stop) {
                    Some(z3) if z3.result.is_ok() || native.is_err() => {
                        if z3.result.is_ok() {
                            // Z3 found them all, or `limits.solutions` of
                            // them: with those seen, no more than that.
                            let seen: HashSet<&Grid> = delivered.iter().collect();
                            let room = limits.solutions.saturating_sub(delivered.len());
                            for grid in z3.grids.iter().filter(|g| !seen.contains(g)).take(room) {
                                if visit(Found { grid, model: None }).is_break() {
                                    break;
                                }
                            }
                        }
                        (z3.result, z3.statistics, EngineKind::Z3)
                    }
                    _ => (native, self.native.statistics(), EngineKind::Native),
                }
            }
        };
        self.winner = Some(kind);
        self.statistics = vec![("answered by".into(), kind.name().into())];
        self.statistics.extend(statistics);
        result
    }
}

/// The most native solutions a race keeps to tell Z3's apart from them;
/// past it (a long count) the native side answers alone and Z3 is called
/// off, so that memory stays bounded.
const KEEP_SEEN: usize = 10_000;

/// The worker thread's name.
const WORKER: &str = "z3doku-race";

/// The worker: Z3 (its context lives in this thread only) answers each
/// search in turn until the race closes the queue.
fn serve(settings: &Settings, jobs: &mpsc::Receiver<Job>) {
    let mut z3 = Z3Engine::new(settings);
    for job in jobs {
        head_start(&job);
        let mut grids = Vec::new();
        let result = if job.limits.cancelled() {
            Err(EngineError::GaveUp(GiveUp::Cancelled))
        } else {
            z3.solutions_excluding(&job.puzzle, &job.excluded, job.limits, &mut |f| {
                grids.push(f.grid.clone());
                ControlFlow::Continue(())
            })
        };
        if result.is_ok() {
            job.won.cancel();
        }
        // The caller may have gone with the native answer.
        let _ = job.reply.send(Answer {
            result,
            grids,
            statistics: z3.statistics(),
        });
    }
}

/// Waits [`HEAD_START`] from the job's start, or until it is called off.
fn head_start(job: &Job) {
    let Some(stop) = &job.limits.budget.cancel else {
        return;
    };
    let until = job.started + HEAD_START;
    let me = std::thread::current();
    stop.watch(me.clone());
    loop {
        let now = Instant::now();
        if stop.is_cancelled() || now >= until {
            break;
        }
        std::thread::park_timeout(until - now);
    }
    stop.unwatch(&me);
}

/// Z3's answer, waited for while the request's token allows (on its
/// cancelling, `stop` goes too and the wait ends with Z3's giving up).
fn wait(answer: &mpsc::Receiver<Answer>, limits: &Limits, stop: &Cancel) -> Option<Answer> {
    loop {
        match answer.recv_timeout(WAIT_STEP) {
            Ok(found) => return Some(found),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if limits.cancelled() {
                    stop.cancel();
                }
            }
        }
    }
}

impl Engine for RaceEngine {
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.race(puzzle, &[], limits, visit)
    }

    fn solutions_excluding(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.race(puzzle, excluded, limits, visit)
    }

    fn statistics(&self) -> Vec<(String, String)> {
        self.statistics.clone()
    }

    fn answered_by(&self) -> Option<EngineKind> {
        self.winner
    }
}

impl Drop for RaceEngine {
    /// Calls off the worker's search in hand, closes its queue and waits
    /// for it: no thread outlives the race.
    fn drop(&mut self) {
        if let Some(stop) = &self.stop {
            stop.cancel();
        }
        if let Some((jobs, handle)) = self.worker.take() {
            drop(jobs);
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::puzzle::input::Source;

    /// How many race workers this process has, from /proc (Linux; `None`
    /// elsewhere).
    fn workers() -> Option<usize> {
        let tasks = std::fs::read_dir("/proc/self/task").ok()?;
        Some(
            tasks
                .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|name| name.trim() == WORKER)
                .count(),
        )
    }

    fn puzzle(text: &str) -> Puzzle {
        Source::Text(text.to_string())
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn count(
        engine: &mut RaceEngine,
        puzzle: &Puzzle,
        limits: Limits,
    ) -> Result<usize, EngineError> {
        let mut seen = 0;
        engine.solutions(puzzle, limits, &mut |found| {
            assert_eq!(
                crate::puzzle::check::verify_solution(puzzle, found.grid),
                Ok(())
            );
            seen += 1;
            ControlFlow::Continue(())
        })?;
        Ok(seen)
    }

    /// One test, so that no other race's worker runs beside it.
    #[test]
    fn races_answer_give_up_when_cancelled_and_leave_no_thread_behind() {
        let mut race = RaceEngine::new(&Settings::default());
        let empty4 = puzzle(&".".repeat(16));
        assert_eq!(count(&mut race, &empty4, Limits::solutions(1000)), Ok(288));
        assert!(race.answered_by().is_some());
        let notebook = puzzle(
            "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....\n\
             antiking\n",
        );
        assert!(count(&mut race, &notebook, Limits::solutions(2)).is_ok());
        // The worker names itself once it first runs, which on a busy
        // machine may come after both answers.
        let waiting = Instant::now();
        while workers().is_some_and(|n| n == 0) && waiting.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Some(n) = workers() {
            assert_eq!(n, 1, "one worker while the race lives");
        }

        // The empty 16x16 board has more solutions than either side can
        // list: only the token ends the count, on both sides.
        let board = puzzle(&".".repeat(256));
        let cancel = Cancel::new();
        let limits = Budget::unbounded()
            .cancelled_by(cancel.clone())
            .limits(usize::MAX);
        let start = Instant::now();
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                cancel.cancel();
            });
            count(&mut race, &board, limits)
        });
        assert_eq!(result, Err(EngineError::GaveUp(GiveUp::Cancelled)));
        assert!(start.elapsed() < Duration::from_secs(5));

        // Dropping the race joins its worker, which may still be winding
        // down the search just called off (Z3 reads its token only once
        // its encoding is built).
        let started = Instant::now();
        drop(race);
        assert!(started.elapsed() < Duration::from_secs(20));
        if let Some(n) = workers() {
            assert_eq!(n, 0, "a worker outlived its race");
        }
    }
}
