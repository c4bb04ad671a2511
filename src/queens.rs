//! The N-queens puzzle, stated as the pysat lesson states it: a Boolean per
//! square; exactly one queen in every row and every column, and at most one
//! on every diagonal and anti-diagonal, each as a Z3 cardinality constraint.

use crate::engine::z3::FormulaSolver;
use crate::engine::{Budget, EngineError, GiveUp};
use crate::solve::count_words;
use std::fmt::Write;
use std::time::{Duration, Instant};
use z3::ast::{Bool, atmost};

/// The largest board `queens` takes. Z3 places 100 queens in about a second
/// on a 2-core machine; far beyond, the formula (n² variables, 6n
/// constraints) grows slow and no board prints legibly.
pub const MAX_QUEENS: usize = 100;

/// A placement: `columns[r]` is the (0-based) column of row `r`'s queen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The queen's column in each row.
    pub columns: Vec<usize>,
    /// Z3's model as text (`q_R_C -> true`), when asked for.
    pub model: Option<String>,
}

impl Placement {
    /// The board as the lesson prints it: a row per line, `X` for a queen,
    /// `*` for an empty square.
    pub fn board(&self) -> String {
        let n = self.columns.len();
        let mut text = String::with_capacity(n * (n + 1));
        for &col in &self.columns {
            text.extend((0..n).map(|c| if c == col { 'X' } else { '*' }));
            text.push('\n');
        }
        text
    }

    /// Whether no two queens attack each other (and every row has one):
    /// the independent check, without Z3.
    pub fn is_valid(&self) -> bool {
        let n = self.columns.len();
        self.columns.iter().enumerate().all(|(r, &c)| {
            c < n
                && self.columns[..r]
                    .iter()
                    .enumerate()
                    .all(|(r2, &c2)| c2 != c && r.abs_diff(r2) != c.abs_diff(c2))
        })
    }
}

/// The N-queens formula on a Z3 solver, ready to enumerate placements.
pub struct Queens {
    n: usize,
    squares: Vec<Bool>,
    solver: FormulaSolver,
    keep_models: bool,
}

/// How many placements there are, up to a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueensCount {
    /// Placements found (each checked and different from the others).
    pub placements: usize,
    /// Whether the count stopped at the limit, so there may be more.
    pub limit_reached: bool,
    /// Why Z3 gave up before the count was done, if it did.
    pub gave_up: Option<GiveUp>,
    /// Time spent.
    pub elapsed: Duration,
}

impl QueensCount {
    /// The count in words: `92 placements`, `1000 placements (limit
    /// reached)`, or `at least 40 placements (gave up: timeout)`.
    pub fn summary(&self) -> String {
        count_words(
            self.placements,
            ["placement", "placements"],
            self.limit_reached,
            self.gave_up.as_ref(),
        )
    }
}

impl Queens {
    /// States the puzzle for an `n` x `n` board (1 to [`MAX_QUEENS`]).
    pub fn new(n: usize, keep_models: bool) -> Queens {
        let squares: Vec<Bool> = (0..n * n)
            .map(|i| Bool::new_const(format!("q_{}_{}", i / n + 1, i % n + 1)))
            .collect();
        let solver = FormulaSolver::new();
        let exactly_one = |line: Vec<&Bool>| {
            let weighted: Vec<(&Bool, i32)> = line.into_iter().map(|b| (b, 1)).collect();
            Bool::pb_eq(&weighted, 1)
        };
        for k in 0..n {
            solver.assert(&exactly_one((0..n).map(|c| &squares[k * n + c]).collect()));
            solver.assert(&exactly_one((0..n).map(|r| &squares[r * n + k]).collect()));
        }
        // Diagonals are the squares with equal r - c, anti-diagonals equal
        // r + c; those of one square cannot clash.
        for d in 0..2 * n - 1 {
            let diagonal = (0..n).filter_map(|r| {
                (r + d)
                    .checked_sub(n - 1)
                    .filter(|&c| c < n)
                    .map(|c| r * n + c)
            });
            let anti =
                (0..n).filter_map(|r| d.checked_sub(r).filter(|&c| c < n).map(|c| r * n + c));
            for line in [diagonal.collect::<Vec<_>>(), anti.collect()] {
                if line.len() > 1 {
                    solver.assert(&atmost(line.iter().map(|&i| &squares[i]), 1));
                }
            }
        }
        Queens {
            n,
            squares,
            solver,
            keep_models,
        }
    }

    /// Counts the placements up to `limit`, giving up when `budget` is
    /// spent: the count so far is then a lower bound.
    pub fn count(&mut self, limit: usize, budget: &Budget) -> Result<QueensCount, EngineError> {
        let start = Instant::now();
        let mut count = QueensCount {
            placements: 0,
            limit_reached: false,
            gave_up: None,
            elapsed: Duration::ZERO,
        };
        while count.placements < limit {
            match self.next_placement(budget) {
                Ok(Some(_)) => count.placements += 1,
                Ok(None) => break,
                Err(EngineError::GaveUp(reason)) => {
                    count.gave_up = Some(reason);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        count.limit_reached = count.gave_up.is_none() && count.placements >= limit;
        count.elapsed = start.elapsed();
        Ok(count)
    }

    /// The next placement, different from all found before (each is
    /// blocked once found); `Ok(None)` when there are no more. Gives up at
    /// `budget`'s deadline (a cancel token is read before the check).
    pub fn next_placement(&mut self, budget: &Budget) -> Result<Option<Placement>, EngineError> {
        if budget.cancelled() {
            return Err(EngineError::GaveUp(GiveUp::Cancelled));
        }
        let Some(model) = self.solver.check(budget.deadline)? else {
            return Ok(None);
        };
        let mut columns = Vec::with_capacity(self.n);
        let mut text = String::new();
        for (i, square) in self.squares.iter().enumerate() {
            let queen = model
                .eval(square, true)
                .and_then(|b| b.as_bool())
                .unwrap_or(false);
            if queen {
                columns.push(i % self.n);
            }
            if self.keep_models {
                let _ = writeln!(text, "{square} -> {queen}");
            }
        }
        let placement = Placement {
            columns,
            model: self.keep_models.then_some(text),
        };
        if placement.columns.len() != self.n || !placement.is_valid() {
            return Err(EngineError::Internal(format!(
                "Z3's placement {:?} breaks the rules",
                placement.columns
            )));
        }
        // Block it: some queen must move.
        let queens: Vec<Bool> = placement
            .columns
            .iter()
            .enumerate()
            .map(|(r, &c)| self.squares[r * self.n + c].not())
            .collect();
        self.solver.assert(&Bool::or(&queens));
        Ok(Some(placement))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_queens() {
        let mut q = Queens::new(8, false);
        let first = q.next_placement(&Budget::unbounded()).ok().flatten();
        assert!(first.as_ref().is_some_and(Placement::is_valid));
        let rest = q
            .count(1000, &Budget::unbounded())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rest.placements + 1, 92);
        assert!(!rest.limit_reached);
        assert_eq!(rest.summary(), "91 placements");
    }

    #[test]
    fn board_text_and_validity() {
        let p = Placement {
            columns: vec![1, 3, 0, 2],
            model: None,
        };
        assert_eq!(p.board(), "*X**\n***X\nX***\n**X*\n");
        assert!(p.is_valid());
        assert!(
            !Placement {
                columns: vec![0, 1],
                model: None
            }
            .is_valid()
        );
    }

    #[test]
    fn a_count_that_runs_out_of_time_is_a_lower_bound() {
        let mut q = Queens::new(12, false);
        let count = q
            .count(1_000_000, &Budget::within(Some(Duration::from_millis(50))))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count.gave_up, Some(GiveUp::Timeout));
        assert!(
            count.summary().starts_with("at least "),
            "{}",
            count.summary()
        );
    }

    #[test]
    fn two_and_three_have_none() {
        for n in [2, 3] {
            assert_eq!(
                Queens::new(n, false).next_placement(&Budget::unbounded()),
                Ok(None)
            );
        }
    }
}
