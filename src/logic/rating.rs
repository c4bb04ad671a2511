//! How hard a puzzle is: Sudoku Explainer's three numbers from the path,
//! and qqwing's level from qqwing's own techniques and rule.

use super::path::{Logic, Path, PathError, next_step};
use super::pencil::Pencil;
use super::propagate::Propagator;
use super::seen::Seen;
use super::technique::{Difficulty, Technique};
use crate::engine::Engine;
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Grid, digit_char};
use crate::solve::Status;
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

/// The techniques qqwing adds to singles.
const QQWING_BEYOND_SINGLES: [Technique; 4] = [
    Technique::Pointing,
    Technique::Claiming,
    Technique::NakedPair,
    Technique::HiddenPair,
];

/// The singles: a path of these alone is solved by singles.
const SINGLES: [Technique; 4] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::NakedSingle,
];

/// The SE techniques whose every step qqwing's techniques make too: the
/// singles, qqwing's four, and SE's direct pointing, claiming and hidden
/// pairs, each one of those four and a hidden single.
const QQWING_MAKES: [Technique; 11] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::NakedSingle,
    Technique::DirectPointing,
    Technique::DirectClaiming,
    Technique::DirectHiddenPair,
    Technique::Pointing,
    Technique::Claiming,
    Technique::NakedPair,
    Technique::HiddenPair,
];

/// What the SE path says of qqwing's closures before they are walked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// Nothing.
    Nothing,
    /// Singles solve the puzzle.
    Singles,
    /// Singles with qqwing's pairs and intersections solve it.
    Pairs,
}

impl QqwingLevel {
    /// The level of `puzzle`, whose one solution is `solution`: the same
    /// as [`QqwingLevel::of_path`] of its path with [`Technique::QQWING`],
    /// without walking that path.
    ///
    /// Each of these techniques stays true of a grid with fewer candidates
    /// until what it deduces is done, so applying a set of them until none
    /// applies ends in the same grid whatever the order. qqwing's order
    /// takes naked singles first, then hidden ones, then the rest, so its
    /// path needs hidden singles exactly when naked singles alone do not
    /// solve the puzzle, a pair or an intersection exactly when singles do
    /// not, and a guess exactly when the four do not. Three such closures
    /// are much cheaper than the path: singles are placed as they appear,
    /// not found by scanning the grid once per step. `tests/suite/logic.rs`
    /// checks that both give the same level over whole puzzle sets.
    pub fn of_puzzle(puzzle: &Puzzle, solution: &Grid) -> Result<QqwingLevel, PathError> {
        QqwingLevel::closures(puzzle, solution, Known::Nothing)
    }

    /// [`QqwingLevel::of_puzzle`] beside `path`, the puzzle's SE path
    /// with every technique: where that path is made of steps qqwing's
    /// techniques make too (a direct pointing is a pointing and a hidden
    /// single, a direct hidden pair a hidden pair and a hidden single),
    /// qqwing's closure solves the puzzle as well, so the walk through
    /// its pairs and intersections is left out.
    ///
    /// Why: each step of the path is true of any grid with fewer
    /// candidates, and the closure, which has fewer than every grid on
    /// the path (by induction, step after step), holds what each step
    /// deduces, since no technique of its own applies to it; so it holds
    /// the path's full grid. The same holds of singles alone for a path
    /// of singles. On a variant, or a path search finished, the closures
    /// are walked as [`QqwingLevel::of_puzzle`] walks them.
    pub fn of_rated(
        puzzle: &Puzzle,
        solution: &Grid,
        path: &Path,
    ) -> Result<QqwingLevel, PathError> {
        let classic = puzzle.rules().is_classic() && puzzle.rules().constraints().is_empty();
        let made_of = |ts: &[Technique]| path.steps.iter().all(|s| ts.contains(&s.technique));
        let known = if !classic || path.searched() {
            Known::Nothing
        } else if made_of(&SINGLES) {
            Known::Singles
        } else if made_of(&QQWING_MAKES) {
            Known::Pairs
        } else {
            Known::Nothing
        };
        QqwingLevel::closures(puzzle, solution, known)
    }

    fn closures(puzzle: &Puzzle, solution: &Grid, known: Known) -> Result<QqwingLevel, PathError> {
        let mut naked = Pencil::new(puzzle).ok_or(PathError::NotUnique(Status::None))?;
        let mut placed = true;
        while placed {
            placed = false;
            for cell in 0..naked.size().cells() {
                let m = naked.candidates(cell);
                if m.is_power_of_two() {
                    naked.place(cell, m.trailing_zeros() as u8 + 1);
                    placed = true;
                }
            }
        }
        if naked.is_solved() {
            return check_closure(&naked, solution).map(|()| QqwingLevel::Simple);
        }
        if known == Known::Singles {
            return Ok(QqwingLevel::Easy);
        }
        let unique_classic = puzzle.rules().is_classic();
        let size = puzzle.size();
        let mut q = Propagator::new(&naked);
        let mut seen = Seen::new().silent();
        let mut level = QqwingLevel::Easy;
        loop {
            q.queue_singles();
            if q.run(usize::MAX).1.is_err() {
                return Err(PathError::Internal(
                    "qqwing's techniques contradict the grid".into(),
                ));
            }
            check_closure(&q.pencil, solution)?;
            if q.pencil.is_solved() {
                return Ok(level);
            }
            if known == Known::Pairs {
                return Ok(QqwingLevel::Intermediate);
            }
            let Some(step) = next_step(
                &q.pencil,
                &QQWING_BEYOND_SINGLES,
                unique_classic,
                Some(solution),
                &mut seen,
            ) else {
                return Ok(QqwingLevel::Expert);
            };
            level = QqwingLevel::Intermediate;
            let broken =
                |_| PathError::Internal(format!("{}: contradicts the grid", step.technique.name()));
            for e in &step.eliminations {
                q.eliminate(size.index(e.cell), e.digit).map_err(broken)?;
            }
            for p in &step.placements {
                q.assign(size.index(p.cell), p.digit).map_err(broken)?;
            }
        }
    }
}

/// Checks a grid reached by qqwing's techniques against the solution:
/// every digit placed is the solution's, and every open cell keeps the
/// solution's digit.
fn check_closure(p: &Pencil, solution: &Grid) -> Result<(), PathError> {
    match (0..p.size().cells()).find(|&c| match p.value(c) {
        0 => !p.has(c, solution.get(c)),
        v => v != solution.get(c),
    }) {
        None => Ok(()),
        Some(c) => Err(PathError::Internal(format!(
            "qqwing's techniques leave {} without the solution's {}",
            p.cell(c),
            digit_char(solution.get(c))
        ))),
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
    /// EP: the hardest step up to the first placement; 0.0 when no
    /// technique placed a digit before search took over, so it is unknown.
    pub ep: Difficulty,
    /// ED: the hardest step up to the first elimination (or placement):
    /// the first step's; 0.0 when no technique made a step before search.
    pub ed: Difficulty,
    /// Whether the techniques ran out and search finished the puzzle: ER
    /// is then only the hardest step before search, and SE's ER is unknown.
    pub searched: bool,
    /// The steps the engine reasoned out (variants), which have no SE
    /// rating.
    pub reasoned: usize,
    /// The qqwing level.
    pub qqwing: QqwingLevel,
    /// Whether the puzzle has rules beyond the classic houses (other
    /// houses or constraints): SE and qqwing rate classic sudoku, so their
    /// numbers say nothing of it.
    pub variant: bool,
}

impl Rating {
    /// The SE numbers of `path`, with the same puzzle's qqwing level.
    pub fn of(path: &Path, qqwing: QqwingLevel) -> Rating {
        let rated = |steps: &[super::step::Step]| {
            steps
                .iter()
                .filter_map(|s| s.difficulty)
                .max()
                .unwrap_or_default()
        };
        // Without a technique's placement (or step) before search, EP (or
        // ED) is unknown: 0.0, which no step is rated.
        let upto = |first: Option<usize>| match first {
            Some(i) => rated(&path.steps[..=i]),
            None if path.searched() => Difficulty::default(),
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
            qqwing,
            variant: !path.puzzle.rules().is_classic()
                || !path.puzzle.rules().constraints().is_empty(),
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
        let qqwing = QqwingLevel::of_rated(puzzle, solution, &path)?;
        Ok((Rating::of(&path, qqwing), path))
    }
}

impl fmt::Display for Rating {
    /// `ER 7.1/EP 7.1/ED 2.3 qqwing expert`. Only what is known is given a
    /// number: where the techniques ran out, SE's ER is unknown
    /// (`ER ? (techniques ran out after 1.2)`; `ER 1.2 (search)` read as an
    /// easy puzzle), and so are EP and ED when search came before them. A
    /// variant has no SE nor qqwing rating: the line says how far the
    /// house techniques and the engine's reasoned steps went.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = |d: Difficulty| {
            if d == Difficulty::default() {
                "?".to_string()
            } else {
                d.to_string()
            }
        };
        if self.variant {
            // The steps of a variant path are rated on SE's scale for the
            // house techniques and on z3doku's for the rule steps
            // (docs/variants.md); where search finished, the hardest step
            // is unknown, as ER is.
            f.write_str("no SE rating (variant rules): ")?;
            if self.searched && self.er == Difficulty::default() {
                f.write_str("hardest step ? (no technique applies)")?;
            } else if self.searched {
                write!(f, "hardest step ? (techniques ran out after {})", self.er)?;
            } else {
                write!(f, "hardest step {}", self.er)?;
            }
            if self.reasoned > 0 {
                write!(f, ", {} steps reasoned", self.reasoned)?;
            }
            return Ok(());
        }
        if self.searched && self.er == Difficulty::default() {
            f.write_str("ER ? (no technique applies)")?;
        } else if self.searched {
            write!(f, "ER ? (techniques ran out after {})", self.er)?;
        } else {
            write!(f, "ER {}", self.er)?;
        }
        write!(f, "/EP {}/ED {}", known(self.ep), known(self.ed))?;
        write!(f, " qqwing {}", self.qqwing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(er: u16, ep: u16, ed: u16, searched: bool, variant: bool) -> Rating {
        Rating {
            er: Difficulty(er),
            ep: Difficulty(ep),
            ed: Difficulty(ed),
            searched,
            reasoned: usize::from(variant) * 7,
            qqwing: QqwingLevel::Expert,
            variant,
        }
    }

    #[test]
    fn a_rating_gives_numbers_only_where_they_mean_something() {
        assert_eq!(
            rating(71, 12, 12, false, false).to_string(),
            "ER 7.1/EP 1.2/ED 1.2 qqwing expert"
        );
        // forum_hardest's first puzzle: hidden singles, then nothing. SE's
        // ER is unknown, and far from 1.2.
        assert_eq!(
            rating(12, 12, 12, true, false).to_string(),
            "ER ? (techniques ran out after 1.2)/EP 1.2/ED 1.2 qqwing expert"
        );
        assert_eq!(
            rating(0, 0, 0, true, false).to_string(),
            "ER ? (no technique applies)/EP ?/ED ? qqwing expert"
        );
        assert_eq!(
            rating(73, 23, 0, false, true).to_string(),
            "no SE rating (variant rules): hardest step 7.3, 7 steps reasoned"
        );
        assert_eq!(
            rating(0, 0, 0, true, true).to_string(),
            "no SE rating (variant rules): hardest step ? (no technique applies), 7 steps reasoned"
        );
    }
}
