//! One count split across threads (`count --jobs N`).
//!
//! The puzzle is cut into *parts*: a cell with the fewest digits its
//! houses allow is given each of them in turn, and the parts are cut again
//! the same way until there are at least [`PARTS`] (or no cell is left
//! open). The parts' solutions are disjoint and together they are the
//! puzzle's, so their counts add up. How the puzzle is cut depends on the
//! puzzle alone, never on the number of threads, and the parts are read in
//! their order: part `i` stands for its first `limit - (solutions of the
//! parts before it)` solutions. So the count, and the solutions with their
//! order, are the same whatever the number of threads; only the time
//! differs.
//!
//! Threads take the next part in order. A part is counted up to the limit
//! less what the parts before it that have finished found (the most it can
//! be asked for), a cap lowered while it runs as more of them finish; once
//! the finished parts from the first on reach the limit, the others are
//! called off.

use super::estimate::fewest;
use super::{Count, InternalError, search};
use crate::engine::{Budget, Cancel, Engine, EngineKind, GiveUp, Settings, new_engine};
use crate::puzzle::Puzzle;
use crate::puzzle::check::clue_clash;
use crate::puzzle::grid::Grid;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The least number of parts a split count cuts the puzzle into: enough
/// that the last part a thread counts is a small share of the whole (the
/// empty 6x6 board is cut into 120 parts of about 235,000 solutions).
pub const PARTS: usize = 64;

/// The parts of `puzzle`, as their givens, in order (see the module's
/// documentation); the puzzle's own givens when no cell is open.
pub fn parts(puzzle: &Puzzle) -> Vec<Grid> {
    let mut parts = vec![puzzle.givens().clone()];
    while parts.len() < PARTS {
        let mut next = Vec::new();
        let mut cut = false;
        for part in parts {
            match fewest(puzzle, &part) {
                Some((cell, digits)) => {
                    cut = true;
                    for digit in digits {
                        let mut child = part.clone();
                        child.set(cell, digit);
                        next.push(child);
                    }
                }
                None => next.push(part),
            }
        }
        parts = next;
        if !cut {
            break;
        }
    }
    parts
}

/// What one part gave.
struct Part {
    index: usize,
    count: usize,
    /// Its solutions in the engine's order, when the caller wants them.
    grids: Vec<Grid>,
    gave_up: Option<GiveUp>,
    /// Whether its search ran out of solutions before what it was asked
    /// for (for Z3, one more satisfiability check).
    ran_out: bool,
}

/// Counts the solutions of `puzzle` up to `limit` with `jobs` threads, each
/// with its own engine made from `settings`. `found` is called from the threads as each solution is
/// found, for progress (it may hear of solutions past the limit). Returns
/// the count and, with `keep`, the solutions counted, in the parts' order.
pub fn count_split(
    settings: &Settings,
    puzzle: &Puzzle,
    limit: usize,
    budget: &Budget,
    jobs: usize,
    keep: bool,
    found: &(dyn Fn() + Sync),
) -> Result<(Count, Vec<Grid>), InternalError> {
    count_split_checked(settings, puzzle, limit, budget, jobs, keep, found)
        .map(|(count, grids, _)| (count, grids))
}

/// [`count_split`], with the searches' checks: each solution found, and
/// each part's search that ran out of solutions before its cap (as
/// [`super::Candidates::checks`] counts them).
pub(crate) fn count_split_checked(
    settings: &Settings,
    puzzle: &Puzzle,
    limit: usize,
    budget: &Budget,
    jobs: usize,
    keep: bool,
    found: &(dyn Fn() + Sync),
) -> Result<(Count, Vec<Grid>, usize), InternalError> {
    let start = Instant::now();
    let mut count = Count::nothing_yet();
    if clue_clash(puzzle).is_some() || limit == 0 {
        count.elapsed = start.elapsed();
        return Ok((count, Vec::new(), 0));
    }
    let parts = parts(puzzle);
    // Each part has its own token, so that a part can be stopped once the
    // parts before it have found what the limit leaves for it; every token
    // is cancelled once the limit is reached, or the caller cancels.
    let tokens: Vec<Cancel> = parts.iter().map(|_| Cancel::new()).collect();
    // What each part may still be asked for: the limit less the solutions
    // of the parts before it that have finished, lowered as they finish.
    let caps: Vec<AtomicUsize> = parts.iter().map(|_| AtomicUsize::new(limit)).collect();
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<Result<Part, InternalError>>();
    let mut done: Vec<Option<Part>> = (0..parts.len()).map(|_| None).collect();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, parts.len()) {
            let send = send.clone();
            let (parts, tokens, caps, next, settings) = (&parts, &tokens, &caps, &next, settings);
            scope.spawn(move || {
                let mut engine: Option<Box<dyn Engine>> = None;
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let (Some(givens), Some(token), Some(cap)) =
                        (parts.get(index), tokens.get(index), caps.get(index))
                    else {
                        return;
                    };
                    // The native engine is made afresh for each part, so
                    // that a part's solutions come in the same order
                    // whichever thread counts it; Z3 keeps its encoding.
                    let engine = match (&settings.engine, engine.as_mut()) {
                        (EngineKind::Native, _) | (_, None) => engine.insert(new_engine(settings)),
                        (_, Some(kept)) => kept,
                    };
                    let part = puzzle.with_givens(givens.clone());
                    let within = Budget {
                        deadline: budget.deadline,
                        cancel: Some(token.clone()),
                    };
                    let mut grids = Vec::new();
                    let mut n = 0;
                    let mut enough = false;
                    let wanted = cap.load(Ordering::SeqCst).max(1);
                    let searched = search(engine.as_mut(), &part, wanted, &within, &mut |f| {
                        n += 1;
                        found();
                        if keep {
                            grids.push(f.grid.clone());
                        }
                        if n >= cap.load(Ordering::Relaxed) {
                            enough = true;
                            token.cancel();
                        }
                    });
                    let result = searched.map(|r| Part {
                        index,
                        count: n,
                        grids,
                        ran_out: r.is_ok() && n < wanted,
                        // Stopped at what the limit leaves for it: done.
                        gave_up: r.err().filter(|_| !enough),
                    });
                    if send.send(result).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let stop = || tokens.iter().for_each(Cancel::cancel);
        loop {
            match receive.recv_timeout(Duration::from_millis(20)) {
                Ok(Ok(part)) => {
                    let index = part.index;
                    if let Some(slot) = done.get_mut(index) {
                        *slot = Some(part);
                    }
                    // Lower the caps of the parts after each finished one.
                    let mut before = 0usize;
                    for (part, cap) in done.iter().zip(&caps) {
                        cap.store(limit.saturating_sub(before), Ordering::SeqCst);
                        if let Some(part) = part
                            && part.gave_up.is_none()
                        {
                            before = before.saturating_add(part.count);
                        }
                    }
                    let mut prefix = 0usize;
                    for part in &done {
                        match part {
                            Some(part) if part.gave_up.is_none() => {
                                prefix = prefix.saturating_add(part.count);
                            }
                            _ => break,
                        }
                    }
                    if prefix >= limit {
                        stop();
                    }
                }
                Ok(Err(e)) => {
                    failure = Some(e);
                    stop();
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if budget.cancelled() {
                stop();
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // The parts in order, each for what the limit leaves of it, until the
    // limit or a part that gave up (the count is then at least what every
    // part found, as their solutions are disjoint).
    let mut grids = Vec::new();
    let mut found_anywhere = 0usize;
    let mut checks = 0usize;
    for part in &done {
        let Some(part) = part else {
            continue;
        };
        found_anywhere += part.count;
        checks += part.count + usize::from(part.ran_out);
        let wanted = limit - count.solutions.min(limit);
        if wanted == 0 || count.gave_up.is_some() {
            continue;
        }
        count.solutions += part.count.min(wanted);
        if keep {
            grids.extend(part.grids.iter().take(wanted).cloned());
        }
        if let Some(reason) = &part.gave_up
            && count.solutions < limit
        {
            count.gave_up = Some(reason.clone());
        }
    }
    if count.gave_up.is_none() && count.solutions < limit && done.iter().any(Option::is_none) {
        count.gave_up = Some(budget.spent().unwrap_or(GiveUp::Cancelled));
    }
    if count.gave_up.is_some() {
        count.solutions = found_anywhere.min(limit);
    }
    count.limit_reached = count.solutions >= limit;
    count.elapsed = start.elapsed();
    Ok((count, grids, checks))
}
