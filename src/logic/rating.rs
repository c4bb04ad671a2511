//! How hard a puzzle is: Sudoku Explainer's three numbers from the path,
//! and qqwing's level from qqwing's own techniques and rule.

use super::path::{Logic, Path, PathError};
use super::technique::{Difficulty, Technique};
use crate::engine::Engine;
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use std::fmt;

/// qqwing's difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QqwingLevel {
    /// Singles alone solve it.
    Simple,
    /// Hidden singles are needed.
    Easy,
    /// Pointing, box-line reduction, or a naked or hidden pair is needed.
    Intermediate,
    /// qqwing's techniques run out: it guesses.
    Expert,
}

impl QqwingLevel {
    /// Every level, easiest first.
    pub const ALL: [QqwingLevel; 4] = [
        QqwingLevel::Simple,
        QqwingLevel::Easy,
        QqwingLevel::Intermediate,
        QqwingLevel::Expert,
    ];

    /// The word qqwing prints, lower case.
    pub fn name(self) -> &'static str {
        match self {
            QqwingLevel::Simple => "simple",
            QqwingLevel::Easy => "easy",
            QqwingLevel::Intermediate => "intermediate",
            QqwingLevel::Expert => "expert",
        }
    }

    /// qqwing's rule over the steps of its path: expert when a guess is
    /// needed; otherwise intermediate when pointing, box-line reduction or
    /// a pair is; easy when hidden singles are; simple otherwise.
    pub fn of_path(path: &Path) -> QqwingLevel {
        let used = |ts: &[Technique]| path.steps.iter().any(|s| ts.contains(&s.technique));
        if path.searched() {
            QqwingLevel::Expert
        } else if used(&[
            Technique::Pointing,
            Technique::Claiming,
            Technique::NakedPair,
            Technique::HiddenPair,
        ]) {
            QqwingLevel::Intermediate
        } else if used(&[Technique::HiddenSingleBox, Technique::HiddenSingleLine]) {
            QqwingLevel::Easy
        } else {
            QqwingLevel::Simple
        }
    }
}

impl fmt::Display for QqwingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle's ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// ER: the hardest step on the path.
    pub er: Difficulty,
    /// EP: the hardest step up to the first placement.
    pub ep: Difficulty,
    /// ED: the hardest step up to the first elimination (or placement):
    /// the first step's.
    pub ed: Difficulty,
    /// Whether the techniques ran out and search finished the puzzle: ER
    /// is then a lower bound.
    pub searched: bool,
    /// The steps the engine reasoned out (variants), which have no SE
    /// rating.
    pub reasoned: usize,
    /// The qqwing level.
    pub qqwing: QqwingLevel,
}

impl Rating {
    /// The SE numbers of `path`, and the qqwing level of `qqwing_path`
    /// (the same puzzle's path with [`Technique::QQWING`]).
    pub fn of(path: &Path, qqwing_path: &Path) -> Rating {
        let rated = |steps: &[super::step::Step]| {
            steps
                .iter()
                .filter_map(|s| s.difficulty)
                .max()
                .unwrap_or_default()
        };
        let upto = |first: Option<usize>| match first {
            Some(i) => rated(&path.steps[..=i]),
            None => rated(&path.steps),
        };
        let named = |s: &super::step::Step| s.technique != Technique::Search;
        let first_placement = path
            .steps
            .iter()
            .position(|s| named(s) && !s.placements.is_empty());
        let first_change = path.steps.iter().position(|s| named(s) && !s.is_empty());
        Rating {
            er: rated(&path.steps),
            ep: upto(first_placement),
            ed: upto(first_change),
            searched: path.searched(),
            reasoned: path
                .steps
                .iter()
                .filter(|s| s.technique == Technique::Reasoned)
                .count(),
            qqwing: QqwingLevel::of_path(qqwing_path),
        }
    }

    /// Rates `puzzle`, whose one solution is `solution`.
    pub fn rate(
        puzzle: &Puzzle,
        solution: &Grid,
        logic: Logic<'_>,
        engine: &mut dyn Engine,
    ) -> Result<(Rating, Path), PathError> {
        let path = Path::find(puzzle, solution, logic, engine)?;
        let qqwing = Path::find(
            puzzle,
            solution,
            Logic {
                techniques: &Technique::QQWING,
                reasoned: false,
                ..logic
            },
            engine,
        )?;
        Ok((Rating::of(&path, &qqwing), path))
    }
}

impl fmt::Display for Rating {
    /// `ER 7.1/EP 7.1/ED 2.3 qqwing expert`, with `(search)` after ER when
    /// the techniques ran out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ER {}", self.er)?;
        if self.searched {
            f.write_str(" (search)")?;
        }
        write!(f, "/EP {}/ED {}", self.ep, self.ed)?;
        if self.reasoned > 0 {
            write!(f, " +{} reasoned", self.reasoned)?;
        }
        write!(f, " qqwing {}", self.qqwing)
    }
}
