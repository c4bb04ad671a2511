//! What a puzzle is: its givens on a grid, and its rules. Also how puzzles
//! are read ([`parse`], [`input`]) and the independent [`check`]er that
//! every solution passes before z3doku reports it.

pub mod check;
pub mod constraint;
pub mod expr;
pub mod expr_parse;
pub mod fpuzzles;
pub mod grid;
pub mod implied;
pub mod input;
pub mod kinds;
pub mod parse;
pub mod primitive;
pub mod rule_text;
pub mod rules;

use grid::{Clue, Grid, Size};
use rules::Rules;
use std::fmt;
use std::sync::Arc;

/// A puzzle: the digits given, and the rules a solution must keep.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    givens: Grid,
    rules: Arc<Rules>,
}

impl Puzzle {
    /// Classic Sudoku with `givens` as its clues.
    pub fn classic(givens: Grid) -> Puzzle {
        let rules = Rules::classic(givens.size());
        Puzzle { givens, rules }
    }

    /// A puzzle with `givens` under `rules` (made for the givens' size: the
    /// caller's promise).
    pub fn new(givens: Grid, rules: Arc<Rules>) -> Puzzle {
        debug_assert_eq!(givens.size(), rules.size());
        Puzzle { givens, rules }
    }

    /// The same rules with other givens (of the same size: the caller's
    /// promise, as the givens come from this puzzle's board).
    pub fn with_givens(&self, givens: Grid) -> Puzzle {
        debug_assert_eq!(givens.size(), self.size());
        Puzzle {
            givens,
            rules: Arc::clone(&self.rules),
        }
    }

    /// The same puzzle holding only `clues`.
    pub fn with_clues(&self, clues: &[Clue]) -> Puzzle {
        self.with_givens(self.givens.with_clues(clues))
    }

    /// The given digits (0 for an empty cell).
    pub fn givens(&self) -> &Grid {
        &self.givens
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.givens.size()
    }
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({})", self.givens.to_line())
    }
}

impl fmt::Display for Puzzle {
    /// The givens' one-line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.givens, f)
    }
}
