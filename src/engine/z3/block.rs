//! The clauses that block each solution a search has found, so that the
//! next check finds another.
//!
//! A uniqueness check blocks once; a count blocks every solution up to its
//! limit, and there the `int` encoding needs help. Blocked by disjunctions
//! of integer disequalities on a solver of its own, an empty 9x9 took Z3's
//! SAT solver about a thousand conflicts a solution (50 ms each, 60 s and
//! more to 1,000): the bit-blasted `Distinct`s tell it little. With each
//! digit at most once per house stated as cardinalities (as a kept solver
//! has them), three conflicts a solution, but each check still slowed with
//! the clauses so far (20 s to 1,000): a new assertion over integers costs
//! Z3's finite-domain solver more the more it holds. Blocked over a Boolean
//! named for each cell and digit, defined once as the cell's equality, the
//! checks stay flat: 1,000 solutions in about 2 s (see build.md, "Counting
//! on `int`"). Boards up to 16x16 only, where that was measured
//! ([`Encoding::counts_over_names`]).

use super::encoding::Encoding;
use crate::puzzle::grid::Grid;
use std::collections::HashMap;
use z3::ast::Bool;

/// Makes a search's blocking clauses, and what they need stated first.
pub(super) struct Blocker<'e> {
    encoding: &'e dyn Encoding,
    /// Whether the search's own solver states what a kept one would; a
    /// kept solver has from the start.
    fresh: bool,
    /// Whether a count's formulas have been stated, and its clauses are
    /// made over named Booleans.
    counting: bool,
    /// For an encoding whose clues are formulas, the Boolean defined as each
    /// cell's holding each digit, by (cell, digit), as the count meets them.
    named: HashMap<(usize, u8), Bool>,
}

impl<'e> Blocker<'e> {
    /// A blocker for a search on `encoding`, on a solver of its own
    /// (`fresh`) or a kept one.
    pub(super) fn new(encoding: &'e dyn Encoding, fresh: bool) -> Blocker<'e> {
        Blocker {
            encoding,
            fresh,
            counting: false,
            named: HashMap::new(),
        }
    }

    /// What to assert to block `grid` on every cell `givens` leaves blank:
    /// the clause, after any definitions it uses first. `count` says
    /// whether to block as a count does from here on: the search goes on
    /// past the next solution, and has found more than one. Not from the
    /// first solution: a uniqueness check, or a count of a puzzle that
    /// turns out unique, blocks once, and the plain clause serves it faster
    /// (14 puzzles of top1465 counted on `int`: 0.79 s, against 1.23 s with
    /// the formulas stated after the first solution); nor before it, since
    /// a new term could change which solution comes first.
    pub(super) fn block(&mut self, grid: &Grid, givens: &Grid, count: bool) -> Vec<Bool> {
        let mut formulas = Vec::new();
        if count && !self.counting && self.encoding.counts_over_names() {
            self.counting = true;
            if self.fresh {
                formulas = self.encoding.kept_formulas();
            }
        }
        let differs: Vec<Bool> = (0..grid.size().all_cells())
            .filter(|&i| givens.get(i) == 0)
            .map(|i| {
                let digit = grid.get(i);
                if !self.counting {
                    return self.encoding.differs(i, digit);
                }
                let named = self.named.entry((i, digit)).or_insert_with(|| {
                    let name = Bool::fresh_const("holds");
                    formulas.push(name.iff(self.encoding.clue(i, digit)));
                    name
                });
                named.not()
            })
            .collect();
        formulas.push(Bool::or(&differs));
        formulas
    }
}
