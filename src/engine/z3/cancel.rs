//! Cancelling a Z3 search from another thread. Z3 cannot be polled in the
//! middle of a check, but its context can be interrupted from any thread:
//! while a search under a [`Cancel`] runs, a watcher thread sleeps until
//! the token is cancelled and then interrupts this thread's context until
//! the search returns.
//!
//! An interrupt outlives the search it stops. Z3 4.8.12's `Z3_interrupt`
//! marks the context's own resource limit as cancelled, and only a check
//! of Z3's SMT core clears that mark. Until then `push` on a solver fails
//! with "push canceled", which the `z3` crate does not report: a kept
//! solver then took the next puzzle's clues outside any scope, kept them,
//! and answered a later puzzle that has a solution "no solution". So once
//! the watcher has interrupted, the mark is cleared before the context
//! serves again (see [`clear_interrupt`]).

use crate::engine::contract::Cancel;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Thread;
use std::time::Duration;
use z3::{Context, Solver};

/// How often the watcher interrupts again once cancelled: Z3 only hears an
/// interrupt during a check, and the search may be between two checks.
const REINTERRUPT_EVERY: Duration = Duration::from_millis(1);

/// Runs `work` (a search in this thread's Z3 context) so that cancelling
/// `cancel` interrupts it; without a token it just runs `work`.
pub(crate) fn interruptible<T>(cancel: Option<&Cancel>, work: impl FnOnce() -> T) -> T {
    let Some(cancel) = cancel else {
        return work();
    };
    let context = Context::thread_local();
    let handle = context.handle();
    let done = AtomicBool::new(false);
    let interrupted = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let me = std::thread::current();
            cancel.watch(me.clone());
            while !done.load(Ordering::SeqCst) && !cancel.is_cancelled() {
                std::thread::park();
            }
            while !done.load(Ordering::SeqCst) {
                interrupted.store(true, Ordering::SeqCst);
                handle.interrupt();
                std::thread::park_timeout(REINTERRUPT_EVERY);
            }
            cancel.unwatch(&me);
        });
        // Wakes the watcher to leave even when `work` panics: the scope
        // waits for it.
        let _finish = Finish {
            done: &done,
            watcher: watcher.thread().clone(),
        };
        work()
    });
    // The scope has joined the watcher: no interrupt can come after this.
    if interrupted.load(Ordering::SeqCst) {
        clear_interrupt();
    }
    result
}

/// Clears the cancelled mark an interrupt leaves on this thread's context:
/// a check of an empty solver runs Z3's SMT core, whose check starts by
/// clearing it (Z3 4.8.12 has no call for that alone). With z3doku's
/// parameters, as every solver: without them the check installs Z3's own
/// Ctrl-C handler, and a Ctrl-C that met it crashed `listen`.
fn clear_interrupt() {
    let solver = Solver::new();
    solver.set_params(&super::common_params());
    solver.check();
}

/// Tells the watcher that the search is over.
struct Finish<'a> {
    done: &'a AtomicBool,
    watcher: Thread,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        self.watcher.unpark();
    }
}
