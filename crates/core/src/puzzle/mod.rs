//! What a puzzle is: its givens on a grid, and its rules. Also how puzzles
//! are read ([`parse`], [`input`]) and the independent [`check`]er that
//! every solution passes before z3doku reports it.

pub mod automaton;
pub mod chaos;
pub mod check;
pub mod connected;
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
pub mod rank;
pub mod rule_text;
pub mod rules;
pub mod sigh;
pub mod sketch;

use grid::{Clue, Grid, Size};
use kinds::drawing::Cosmetics;
use rules::Rules;
use std::fmt;
use std::sync::Arc;

/// A puzzle: the digits given, and the rules a solution must keep; and,
/// when it was read from f-puzzles, what it draws ([`Cosmetics`]), which is
/// written back but takes no part in solving. Equality and hashing see the
/// givens and rules alone: a puzzle only drawn differently is the same
/// puzzle, with the same solutions (so caches keyed by puzzles hit).
#[derive(Clone)]
pub struct Puzzle {
    givens: Grid,
    rules: Arc<Rules>,
    cosmetics: Option<Arc<Cosmetics>>,
}

impl PartialEq for Puzzle {
    fn eq(&self, other: &Puzzle) -> bool {
        self.givens == other.givens && self.rules == other.rules
    }
}

impl Eq for Puzzle {}

impl std::hash::Hash for Puzzle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.givens.hash(state);
        self.rules.hash(state);
    }
}

impl Puzzle {
    /// Classic Sudoku with `givens` as its clues.
    pub fn classic(givens: Grid) -> Puzzle {
        let rules = Rules::classic(givens.size());
        Puzzle {
            givens,
            rules,
            cosmetics: None,
        }
    }

    /// A puzzle with `givens` under `rules` (made for the givens' size: the
    /// caller's promise).
    pub fn new(givens: Grid, rules: Arc<Rules>) -> Puzzle {
        debug_assert_eq!(givens.size(), rules.size());
        Puzzle {
            givens,
            rules,
            cosmetics: None,
        }
    }

    /// The same puzzle drawn with `cosmetics` (none when `None`, or when
    /// they hold nothing).
    pub fn with_cosmetics(mut self, cosmetics: Option<Arc<Cosmetics>>) -> Puzzle {
        self.cosmetics = cosmetics.filter(|c| !c.is_empty());
        self
    }

    /// What the puzzle draws and says beyond its rules, when it was read
    /// with any.
    pub fn cosmetics(&self) -> Option<&Arc<Cosmetics>> {
        self.cosmetics.as_ref()
    }

    /// The same rules with other givens (of the same size: the caller's
    /// promise, as the givens come from this puzzle's board).
    pub fn with_givens(&self, givens: Grid) -> Puzzle {
        debug_assert_eq!(givens.size(), self.size());
        Puzzle {
            givens,
            rules: Arc::clone(&self.rules),
            cosmetics: self.cosmetics.clone(),
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
