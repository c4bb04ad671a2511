//! The independent checker: plain counting over the rules' houses and
//! plain arithmetic over their constraints, with no solver involved. Every solution z3doku reports passes through
//! [`verify_solution`] first, so a wrong answer from any engine can never be
//! printed as a solution.

use super::Puzzle;
use super::grid::{Cell, Clue, Grid, MAX_SIDE, Size};
use super::rules::{House, Rules};
use std::fmt;
use thiserror::Error;

/// Two clues that break a rule by themselves: the same digit twice in a
/// house. Prints as `r1c3 and r1c7 both hold 5`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClueClash {
    /// The earlier cell, row-major.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
    /// The digit both hold.
    pub digit: u8,
}

impl ClueClash {
    /// The two clues.
    pub fn clues(&self) -> [Clue; 2] {
        [self.first, self.second].map(|cell| Clue {
            cell,
            digit: self.digit,
        })
    }
}

impl fmt::Display for ClueClash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} and {} both hold {}",
            self.first,
            self.second,
            super::grid::digit_char(self.digit)
        )
    }
}

/// Why a grid is not a solution of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The two boards differ in size.
    #[error("the solution is {found}, the puzzle {expected}")]
    SizeMismatch {
        /// The puzzle's size.
        expected: Size,
        /// The solution's size.
        found: Size,
    },
    /// A cell left blank.
    #[error("{0} is blank")]
    Blank(Cell),
    /// A clue the solution does not keep.
    #[error("{cell} holds {found}, but its clue is {clue}")]
    ClueChanged {
        /// The cell.
        cell: Cell,
        /// The clue's digit.
        clue: u8,
        /// What the solution put there.
        found: u8,
    },
    /// A digit twice in one house.
    #[error("{house} holds {digit} twice ({first} and {second})")]
    Repeated {
        /// The house, e.g. `row 3`.
        house: String,
        /// The digit.
        digit: u8,
        /// Where it is first.
        first: Cell,
        /// Where it is again.
        second: Cell,
    },
    /// A constraint the grid breaks.
    #[error("{rule} is broken: {detail}")]
    Broken {
        /// The constraint, as people name it (`cage 15 (r1c1 r1c2)`).
        rule: String,
        /// Where and how, e.g. `the digits add up to 14`.
        detail: String,
    },
}

/// The first pair of clues in `puzzle` that share a house and a digit, if
/// any. Such a puzzle has no solution, and this names why without a solver.
pub fn clue_clash(puzzle: &Puzzle) -> Option<ClueClash> {
    if puzzle.rules().is_classic() && classic_without_repeats(puzzle.givens()) {
        return None;
    }
    let size = puzzle.size();
    let mut clashes: Vec<ClueClash> = puzzle
        .rules()
        .houses()
        .iter()
        .filter_map(|house| first_repeat(puzzle.givens(), house))
        .map(|(first, second, digit)| ClueClash {
            first: size.cell_at(first),
            second: size.cell_at(second),
            digit,
        })
        .collect();
    // Report the clash that reads first on the board, whatever its house.
    clashes.sort_by_key(|c| (c.second, c.first));
    clashes.into_iter().next()
}

/// Whether `grid` holds no digit twice in a row, column or default region:
/// the houses of classic rules, checked in one pass with a bit mask per
/// house. Puzzle after puzzle in a batch checks its clues and solutions, so
/// this is the quick way to the common answer; [`first_repeat`] says where.
pub(crate) fn classic_without_repeats(grid: &Grid) -> bool {
    let side = grid.size().side();
    // Without regions (a Latin square) every cell is put in region 0,
    // which is then not checked.
    let (height, width, regional) = match grid.size().region_shape() {
        Some((height, width)) => (height, width, !1),
        None => (side, side, 0),
    };
    let (mut columns, mut regions) = ([0u32; MAX_SIDE], [0u32; MAX_SIDE]);
    for (row, cells) in grid.cells().chunks_exact(side).enumerate() {
        let mut row_mask = 0;
        // Counted rather than divided: a division per cell would cost more
        // than the whole check.
        let (mut region, mut left) = (row / height * (side / width), width);
        for (column, &digit) in cells.iter().enumerate() {
            let bit = 1u32.checked_shl(u32::from(digit)).unwrap_or(0) & !1;
            let (Some(column_mask), Some(region_mask)) =
                (columns.get_mut(column), regions.get_mut(region))
            else {
                return false;
            };
            if (row_mask | *column_mask | (*region_mask & regional)) & bit != 0 {
                return false;
            }
            row_mask |= bit;
            *column_mask |= bit;
            *region_mask |= bit;
            left -= 1;
            if left == 0 {
                (region, left) = (region + 1, width);
            }
        }
    }
    true
}

/// The first digit that `house` holds twice in `grid`: `(first index,
/// second index, digit)`. Blanks are ignored.
fn first_repeat(grid: &Grid, house: &House) -> Option<(usize, usize, u8)> {
    // A bit per digit seen: this runs for every house of every puzzle and
    // solution checked, so the common case (no repeat) stays in a register.
    let mut seen = 0u64;
    for &index in &house.cells {
        let digit = grid.get(index);
        let bit = 1u64.checked_shl(u32::from(digit)).unwrap_or(0) & !1;
        if seen & bit != 0 {
            let first = house.cells.iter().find(|&&i| grid.get(i) == digit)?;
            return Some((*first, index, digit));
        }
        seen |= bit;
    }
    None
}

/// Checks that `solution` solves `puzzle`: same size, every cell filled,
/// every given kept, and no digit twice in any house (which, with every
/// cell filled, means each full house holds each digit once; a house of
/// fewer cells than digits only keeps them apart).
pub fn verify_solution(puzzle: &Puzzle, solution: &Grid) -> Result<(), CheckError> {
    let size = puzzle.size();
    if solution.size() != size {
        return Err(CheckError::SizeMismatch {
            expected: size,
            found: solution.size(),
        });
    }
    // The cells outside the grid too, which hold digits as the grid's do.
    let givens = puzzle.givens().all_cells();
    for (index, (&clue, &found)) in givens.iter().zip(solution.all_cells()).enumerate() {
        if found == 0 {
            return Err(CheckError::Blank(size.cell_at(index)));
        }
        if clue != 0 && clue != found {
            return Err(CheckError::ClueChanged {
                cell: size.cell_at(index),
                clue,
                found,
            });
        }
    }
    let classic = puzzle.rules().is_classic() && classic_without_repeats(solution);
    for house in puzzle.rules().houses().iter().filter(|_| !classic) {
        if let Some((first, second, digit)) = first_repeat(solution, house) {
            return Err(CheckError::Repeated {
                house: house.to_string(),
                digit,
                first: size.cell_at(first),
                second: size.cell_at(second),
            });
        }
    }
    let board = Board {
        rules: puzzle.rules(),
        grid: solution,
    };
    for constraint in puzzle.rules().constraints() {
        if let Some(detail) = constraint.broken(&board) {
            return Err(CheckError::Broken {
                rule: constraint.to_string(),
                detail,
            });
        }
    }
    Ok(())
}

/// A full grid under its rules, as each rule's test on a full grid reads
/// it (see [`Rule::broken`](super::kinds::Rule::broken)): plain look-ups
/// and counts, no solver.
pub struct Board<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// The full grid.
    pub grid: &'a Grid,
}

impl Board<'_> {
    /// The board size.
    pub fn size(&self) -> Size {
        self.rules.size()
    }

    /// The digit in `cell`.
    pub fn digit(&self, cell: Cell) -> u8 {
        self.grid.get(self.size().index(cell))
    }

    /// `r1c1 holds 3 and r1c2 holds 4`.
    pub fn holds(&self, cells: &[Cell]) -> String {
        cells
            .iter()
            .map(|&c| format!("{c} holds {}", self.digit(c)))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// The sum of the digits in `cells`.
    pub fn total(&self, cells: &[Cell]) -> u32 {
        cells.iter().map(|&c| u32::from(self.digit(c))).sum()
    }

    /// The first two of `cells` that hold the same digit, named.
    pub fn repeat(&self, cells: &[Cell]) -> Option<String> {
        for (k, &a) in cells.iter().enumerate() {
            if let Some(&b) = cells[k + 1..]
                .iter()
                .find(|&&b| self.digit(b) == self.digit(a))
            {
                return Some(format!("{a} and {b} both hold {}", self.digit(a)));
            }
        }
        None
    }

    /// The first of `pairs` (row-major indexes) whose digits are `bad`,
    /// named.
    pub fn pairs_where(
        &self,
        pairs: Vec<(usize, usize)>,
        bad: &dyn Fn(u8, u8) -> bool,
    ) -> Option<String> {
        let size = self.size();
        pairs.into_iter().find_map(|(a, b)| {
            let (x, y) = (self.grid.get(a), self.grid.get(b));
            bad(x, y).then(|| {
                format!(
                    "{} holds {x} and {} holds {y}",
                    size.cell_at(a),
                    size.cell_at(b)
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::parse_puzzle;

    const PUZZLE: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    fn grid(s: &str) -> Grid {
        parse_puzzle(s, None).unwrap_or_else(|e| panic!("{e}"))
    }

    fn puzzle(s: &str) -> Puzzle {
        Puzzle::classic(grid(s))
    }

    #[test]
    fn accepts_the_solution() {
        assert_eq!(verify_solution(&puzzle(PUZZLE), &grid(SOLUTION)), Ok(()));
    }

    #[test]
    fn rejects_blanks_changed_clues_and_repeats() {
        let notebook = puzzle(PUZZLE);
        let mut blank = grid(SOLUTION);
        blank.set(10, 0);
        assert!(
            matches!(verify_solution(&notebook, &blank), Err(CheckError::Blank(c)) if c.to_string() == "r2c2")
        );
        // Swapping two digits of a row keeps rows valid but breaks columns
        // or a clue.
        let mut swapped = grid(SOLUTION);
        let (a, b) = (swapped.get(0), swapped.get(1));
        swapped.set(0, b);
        swapped.set(1, a);
        assert!(matches!(
            verify_solution(&puzzle(&".".repeat(81)), &swapped),
            Err(CheckError::Repeated { .. })
        ));
        let mut changed = grid(SOLUTION);
        changed.set(4, 1);
        assert!(verify_solution(&notebook, &changed).is_err());
    }

    #[test]
    fn the_one_pass_check_agrees_with_the_houses() {
        // Grids of every size, from sparse to full, with and without
        // repeats: the quick check says "no repeat" exactly when no house
        // of the classic rules holds one.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let (mut with, mut without) = (0, 0);
        for size in Size::all() {
            let rules = Rules::classic(size);
            for round in 0..400 {
                let mut grid = Grid::empty(size);
                let filled = round % (size.side() + 1);
                for index in 0..size.cells() {
                    if next(size.side() + 1) < filled {
                        grid.set(index, next(size.side()) as u8 + 1);
                    }
                }
                let repeats = rules
                    .houses()
                    .iter()
                    .any(|h| first_repeat(&grid, h).is_some());
                assert_eq!(classic_without_repeats(&grid), !repeats, "{grid:?}");
                if repeats { with += 1 } else { without += 1 }
            }
        }
        assert!(classic_without_repeats(&grid(SOLUTION)));
        assert!(
            with > 100 && without > 100,
            "{with} with repeats, {without} without"
        );
    }

    #[test]
    fn clash_names_both_cells() {
        let mut p = grid(PUZZLE);
        assert_eq!(clue_clash(&Puzzle::classic(p.clone())), None);
        p.set(2, 9); // r1c3 = 9 next to r1c5 = 9
        assert_eq!(
            clue_clash(&Puzzle::classic(p)).map(|c| c.to_string()),
            Some("r1c3 and r1c5 both hold 9".into())
        );
    }
}
