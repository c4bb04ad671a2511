//! The independent checker: plain counting over the rules' houses and
//! plain arithmetic over their constraints, with no solver involved. Every solution z3doku reports passes through
//! [`verify_solution`] first, so a wrong answer from any engine can never be
//! printed as a solution.

use super::Puzzle;
use super::constraint::{Indexer, orthogonal_pairs};
use super::grid::{Cell, Clue, Grid, MAX_SIDE, Size};
use super::rules::{Constraint, House, Rules};
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
fn classic_without_repeats(grid: &Grid) -> bool {
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
/// cell filled, means each house holds each digit once).
pub fn verify_solution(puzzle: &Puzzle, solution: &Grid) -> Result<(), CheckError> {
    let size = puzzle.size();
    if solution.size() != size {
        return Err(CheckError::SizeMismatch {
            expected: size,
            found: solution.size(),
        });
    }
    let givens = puzzle.givens().cells();
    for (index, (&clue, &found)) in givens.iter().zip(solution.cells()).enumerate() {
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
    for constraint in puzzle.rules().constraints() {
        if let Some(detail) = broken(puzzle.rules(), constraint, solution) {
            return Err(CheckError::Broken {
                rule: constraint.to_string(),
                detail,
            });
        }
    }
    Ok(())
}

/// How a full `grid` breaks `constraint`, if it does. Each rule is read as
/// it is stated, not through the primitives the solvers see, so that a
/// slip in lowering a rule shows here.
fn broken(rules: &Rules, constraint: &Constraint, grid: &Grid) -> Option<String> {
    let size = rules.size();
    let side = size.side();
    let digit = |cell: Cell| grid.get(size.index(cell));
    let holds = |cells: &[Cell]| -> String {
        cells
            .iter()
            .map(|&c| format!("{c} holds {}", digit(c)))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let total = |cells: &[Cell]| -> u32 { cells.iter().map(|&c| u32::from(digit(c))).sum() };
    let repeat = |cells: &[Cell]| -> Option<String> {
        for (k, &a) in cells.iter().enumerate() {
            if let Some(&b) = cells[k + 1..].iter().find(|&&b| digit(b) == digit(a)) {
                return Some(format!("{a} and {b} both hold {}", digit(a)));
            }
        }
        None
    };
    let pairs_where = |pairs: Vec<(usize, usize)>, bad: &dyn Fn(u8, u8) -> bool| {
        pairs.into_iter().find_map(|(a, b)| {
            let (x, y) = (grid.get(a), grid.get(b));
            bad(x, y).then(|| {
                format!(
                    "{} holds {x} and {} holds {y}",
                    size.cell_at(a),
                    size.cell_at(b)
                )
            })
        })
    };
    let dotted = |pick: &dyn Fn(&Constraint) -> bool| -> Vec<(usize, usize)> {
        rules
            .constraints()
            .iter()
            .filter(|c| pick(c))
            .filter_map(|c| match c {
                Constraint::Difference { cells, .. }
                | Constraint::Ratio { cells, .. }
                | Constraint::Xv { cells, .. } => {
                    let (a, b) = (size.index(cells[0]), size.index(cells[1]));
                    Some((a.min(b), a.max(b)))
                }
                _ => None,
            })
            .collect()
    };
    let is_ratio = |x: u8, y: u8, r: u8| {
        u32::from(x) == u32::from(r) * u32::from(y) || u32::from(y) == u32::from(r) * u32::from(x)
    };
    let neighbours_of = |cell: Cell| -> Vec<Cell> {
        let (r, c) = (cell.row() as isize, cell.col() as isize);
        [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            .into_iter()
            .filter(|&(r, c)| (0..side as isize).contains(&r) && (0..side as isize).contains(&c))
            .map(|(r, c)| size.cell(r as usize, c as usize))
            .collect()
    };
    match constraint {
        Constraint::Cage { cells, sum } => repeat(cells).or_else(|| {
            let got = total(cells);
            sum.filter(|&s| s != got)
                .map(|_| format!("the digits add up to {got}"))
        }),
        Constraint::DigitalRoot { cells, root } => {
            let got = total(cells);
            (got < *root || (got - root) % 9 != 0).then(|| format!("the digits add up to {got}"))
        }
        Constraint::Thermo { cells } => cells
            .windows(2)
            .find_map(|w| (digit(w[0]) >= digit(w[1])).then(|| holds(w))),
        Constraint::SlowThermo { cells } => cells
            .windows(2)
            .find_map(|w| (digit(w[0]) > digit(w[1])).then(|| holds(w))),
        Constraint::AntiKnight | Constraint::AntiKing => {
            let mut pairs = Vec::new();
            for a in 0..size.cells() {
                let (ar, ac) = (a / side, a % side);
                for b in a + 1..size.cells() {
                    let (br, bc) = (b / side, b % side);
                    let (dr, dc) = (ar.abs_diff(br), ac.abs_diff(bc));
                    let apart = if *constraint == Constraint::AntiKnight {
                        (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
                    } else {
                        dr <= 1 && dc <= 1
                    };
                    if apart {
                        pairs.push((a, b));
                    }
                }
            }
            pairs_where(pairs, &|x, y| x == y)
        }
        Constraint::NonConsecutive => {
            let exempt =
                dotted(&|c| matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. }));
            let pairs = orthogonal_pairs(size)
                .into_iter()
                .filter(|p| !exempt.contains(p))
                .collect();
            pairs_where(pairs, &|x, y| x.abs_diff(y) == 1)
        }
        Constraint::NegativeRatio => {
            let exempt =
                dotted(&|c| matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. }));
            let mut ratios: Vec<u8> = rules
                .constraints()
                .iter()
                .filter_map(|c| match c {
                    Constraint::Ratio { value, .. } => Some(*value),
                    _ => None,
                })
                .collect();
            if ratios.is_empty() {
                ratios.push(2);
            }
            let pairs = orthogonal_pairs(size)
                .into_iter()
                .filter(|p| !exempt.contains(p))
                .collect();
            pairs_where(pairs, &|x, y| ratios.iter().any(|&r| is_ratio(x, y, r)))
        }
        Constraint::NegativeXv => {
            let exempt = dotted(&|c| matches!(c, Constraint::Xv { .. }));
            let pairs = orthogonal_pairs(size)
                .into_iter()
                .filter(|p| !exempt.contains(p))
                .collect();
            pairs_where(pairs, &|x, y| x + y == 5 || x + y == 10)
        }
        Constraint::Allowed { cell, digits } => {
            let d = digit(*cell);
            (d == 0 || digits >> (d - 1) & 1 == 0).then(|| format!("{cell} holds {d}"))
        }
        Constraint::Odd(cell) => (digit(*cell) % 2 == 0).then(|| holds(&[*cell])),
        Constraint::Even(cell) => (digit(*cell) % 2 == 1).then(|| holds(&[*cell])),
        Constraint::Minimum(cell) | Constraint::Maximum(cell) => {
            let minimum = matches!(constraint, Constraint::Minimum(_));
            neighbours_of(*cell).into_iter().find_map(|other| {
                let same = if minimum {
                    Constraint::Minimum(other)
                } else {
                    Constraint::Maximum(other)
                };
                let wrong = if minimum {
                    digit(other) <= digit(*cell)
                } else {
                    digit(other) >= digit(*cell)
                };
                (wrong && !rules.constraints().contains(&same)).then(|| holds(&[*cell, other]))
            })
        }
        Constraint::LittleKiller { cells, sum } => {
            let got = total(cells);
            (got != *sum).then(|| format!("the digits add up to {got}"))
        }
        Constraint::Sandwich { line, sum } => {
            let cells = line.cells(size);
            let at = |d: u8| cells.iter().position(|&c| digit(c) == d).unwrap_or(0);
            let (one, high) = (at(1), at(side as u8));
            let (from, to) = (one.min(high), one.max(high));
            let got = total(&cells[from + 1..to]);
            (got != *sum).then(|| format!("the digits between 1 and {side} add up to {got}"))
        }
        Constraint::XSum { line, sum } => {
            let cells = line.cells(size);
            let first = usize::from(digit(cells[0])).min(cells.len());
            let got = total(&cells[..first]);
            (got != *sum).then(|| format!("the first {first} digits add up to {got}"))
        }
        Constraint::Skyscraper { line, count } => {
            let (mut seen, mut top) = (0, 0);
            for cell in line.cells(size) {
                if digit(cell) > top {
                    seen += 1;
                    top = digit(cell);
                }
            }
            (seen != *count).then(|| format!("{seen} are seen"))
        }
        Constraint::Arrow { circle, line } => {
            let number = circle
                .iter()
                .fold(0u32, |n, &c| n * 10 + u32::from(digit(c)));
            let got = total(line);
            (got != number)
                .then(|| format!("the circle holds {number} and the line adds up to {got}"))
        }
        Constraint::Palindrome(cells) => cells
            .iter()
            .zip(cells.iter().rev())
            .find_map(|(&a, &b)| (digit(a) != digit(b)).then(|| holds(&[a, b]))),
        Constraint::Renban(cells) => repeat(cells).or_else(|| {
            let low = cells.iter().map(|&c| digit(c)).min().unwrap_or(0);
            let high = cells.iter().map(|&c| digit(c)).max().unwrap_or(0);
            (usize::from(high - low) + 1 != cells.len())
                .then(|| format!("{} are not consecutive", holds(cells)))
        }),
        Constraint::Whispers { cells, difference } => cells
            .windows(2)
            .find_map(|w| (digit(w[0]).abs_diff(digit(w[1])) < *difference).then(|| holds(w))),
        Constraint::RegionSumLine(cells) => {
            let mut sums: Vec<u32> = Vec::new();
            let mut last = None;
            for &cell in cells {
                let Some(region) = rules.region_of(size.index(cell)) else {
                    continue;
                };
                if last != Some(region) {
                    sums.push(0);
                }
                if let Some(s) = sums.last_mut() {
                    *s += u32::from(digit(cell));
                }
                last = Some(region);
            }
            sums.windows(2).any(|w| w[0] != w[1]).then(|| {
                let sums: Vec<String> = sums.iter().map(u32::to_string).collect();
                format!("the stretches add up to {}", sums.join(", "))
            })
        }
        Constraint::BetweenLine(cells) => {
            let (a, b) = (digit(cells[0]), digit(cells[cells.len() - 1]));
            let (low, high) = (a.min(b), a.max(b));
            cells[1..cells.len() - 1].iter().find_map(|&m| {
                (digit(m) <= low || digit(m) >= high)
                    .then(|| holds(&[cells[0], m, cells[cells.len() - 1]]))
            })
        }
        Constraint::EntropicLine(cells) | Constraint::ModularLine(cells) => {
            let class = |d: u8| -> u8 {
                if matches!(constraint, Constraint::ModularLine(_)) {
                    return d % 3;
                }
                // Thirds of 1..=side, the extra digits as f-puzzles places
                // them: 10 is 3+4+3, 8 is 3+2+3.
                let third = side / 3;
                let sizes = match side % 3 {
                    1 => [third, third + 1, third],
                    2 => [third + 1, third, third + 1],
                    _ => [third; 3],
                };
                let d = usize::from(d);
                if d <= sizes[0] {
                    0
                } else if d <= sizes[0] + sizes[1] {
                    1
                } else {
                    2
                }
            };
            (0..cells.len()).find_map(|i| {
                (i + 1..cells.len().min(i + 3)).find_map(|j| {
                    (class(digit(cells[i])) == class(digit(cells[j])))
                        .then(|| holds(&[cells[i], cells[j]]))
                })
            })
        }
        Constraint::ZipperLine(cells) => {
            let n = cells.len();
            let mut sums: Vec<u32> = (0..n / 2)
                .map(|k| u32::from(digit(cells[k])) + u32::from(digit(cells[n - 1 - k])))
                .collect();
            if n % 2 == 1 {
                sums.push(u32::from(digit(cells[n / 2])));
            }
            sums.windows(2).any(|w| w[0] != w[1]).then(|| {
                let sums: Vec<String> = sums.iter().map(u32::to_string).collect();
                format!("the pairs add up to {}", sums.join(", "))
            })
        }
        Constraint::DoubleArrow(cells) => {
            let ends = u32::from(digit(cells[0])) + u32::from(digit(cells[cells.len() - 1]));
            let middle = total(&cells[1..cells.len() - 1]);
            (ends != middle)
                .then(|| format!("the ends add up to {ends} and the middle to {middle}"))
        }
        Constraint::Difference { cells, value } => {
            (digit(cells[0]).abs_diff(digit(cells[1])) != *value).then(|| holds(cells))
        }
        Constraint::Ratio { cells, value } => {
            (!is_ratio(digit(cells[0]), digit(cells[1]), *value)).then(|| holds(cells))
        }
        Constraint::Xv { cells, sum } => {
            (digit(cells[0]) + digit(cells[1]) != *sum).then(|| holds(cells))
        }
        Constraint::Clone { cells, clones } => cells
            .iter()
            .zip(clones)
            .find_map(|(&a, &b)| (digit(a) != digit(b)).then(|| holds(&[a, b]))),
        Constraint::Quadruple { cells, digits } => digits.iter().find_map(|&d| {
            let want = digits.iter().filter(|&&e| e == d).count();
            let have = cells.iter().filter(|&&c| digit(c) == d).count();
            (have < want).then(|| format!("{} holds {d} {have} times", holds(cells)))
        }),
        Constraint::Indexer { kind, cell } => {
            let v = usize::from(digit(*cell));
            let (target, want) = match kind {
                Indexer::Row => (Some(size.cell(v - 1, cell.col())), cell.row() + 1),
                Indexer::Column => (Some(size.cell(cell.row(), v - 1)), cell.col() + 1),
                Indexer::Box => {
                    let me = size.index(*cell);
                    let region = rules.region_of(me).map(|r| &rules.regions()[r]);
                    let place = region
                        .and_then(|r| r.iter().position(|&c| c == me))
                        .unwrap_or(0);
                    (
                        region.and_then(|r| r.get(v - 1)).map(|&c| size.cell_at(c)),
                        place + 1,
                    )
                }
            };
            match target {
                Some(target) if usize::from(digit(target)) == want => None,
                Some(target) => Some(format!(
                    "{} holds {v}, so {target} should hold {want}",
                    cell
                )),
                None => Some(format!("{cell} is in no region")),
            }
        }
        Constraint::ExtraRegion(cells) | Constraint::PartialRegion { cells, .. } => repeat(cells),
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
