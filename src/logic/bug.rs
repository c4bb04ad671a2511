//! Sudoku Explainer's bivalue universal grave (BUG), types 2 to 4, as SE
//! 1.2.1.3 finds them (type 1 with one cell of three candidates is
//! [`super::direct::bug_one`]'s; this finder gives the rarer type 1 whose
//! cell has two BUG digits or more, as SE does).
//!
//! A BUG is a grid where every open cell has two candidates and every
//! digit two places in each house it is open in: such a grid has no
//! solution or more than one. A grid one step from it, some "BUG cells"
//! holding extra "BUG digits", must keep at least one BUG cell on a BUG
//! digit if the puzzle has one solution. SE finds the BUG cells house by
//! house (box, row, column, each in order; digits in order): a digit with
//! neither zero nor two places in a house whose places fall in exactly one
//! cell of three candidates or more makes that cell a BUG cell and the
//! digit one of its BUG digits (places in none: no BUG; in two or more:
//! that house decides nothing). Taking every BUG digit away must leave a
//! BUG. Then, on the cells that see every BUG cell:
//! - type 2 (5.7): the BUG cells have one BUG digit between them; one of
//!   them holds it, so the cells seeing them all lose it;
//! - type 4 (5.7): two BUG cells in one house share exactly one digit that
//!   is no BUG digit; that digit's two places in the house are theirs, so
//!   one holds it and the other its BUG digit: neither holds its third;
//! - type 3 (5.7 plus a tenth per digit of the set past the first): BUG
//!   cells in one house, taken as one cell holding their BUG digits, make a
//!   naked set with other cells of the house that see them all; the rest
//!   of those cells lose the set's digits.
//!
//! SE's rating takes the first BUG hint its search adds: type 2 before
//! type 4 when there is one BUG digit, type 4 before type 3 otherwise; type
//! 3's sets house kind by house kind (box, row, column), then from two
//! cells up, combinations in SE's order. This finder does the same, so
//! the grid a rating goes on with is SE's.

use super::pencil::{Pencil, bit, combinations, digits};
use super::seen::Seen;
use super::step::{Step, cell_list, digit_list, eliminations_text};
use super::technique::{Difficulty, Technique};
use crate::puzzle::grid::Clue;
use crate::puzzle::rules::HouseKind;

/// The houses of a box, row and column, in SE's order; `None` on a board
/// whose cells lack one of them.
fn classic_houses(p: &Pencil) -> Option<Vec<[usize; 3]>> {
    let g = p.geometry();
    let rank = |h: usize| match g.kind(h) {
        HouseKind::Box | HouseKind::Region => Some(0),
        HouseKind::Row => Some(1),
        HouseKind::Column => Some(2),
        _ => None,
    };
    (0..p.size().cells())
        .map(|c| {
            let mut three = [usize::MAX; 3];
            for &h in g.houses_of(c) {
                if let Some(k) = rank(h) {
                    three[k] = h;
                }
            }
            (!three.contains(&usize::MAX)).then_some(three)
        })
        .collect()
}

/// The cells sharing a house with `cell`, in SE's order: its box's, then
/// its row's, then its column's, each in house order, each once.
fn house_cells(p: &Pencil, three: &[usize; 3], cell: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(3 * p.size().side());
    for &h in three {
        for &c in &p.geometry().houses()[h] {
            if c != cell && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// A BUG step as SE forms it.
struct Found {
    technique: Technique,
    tenths: u16,
    /// The BUG cells, then a type 3 set's other cells.
    cells: Vec<usize>,
    /// How many of `cells` are BUG cells.
    bugs: usize,
    /// The BUG digits, of every BUG cell.
    extra: u32,
    /// The pattern's digits: the BUG digits (types 1 and 2), the digit the
    /// two cells share (type 4), the naked set's (type 3).
    digits: Vec<u8>,
    eliminations: Vec<(usize, u8)>,
}

/// The first BUG of type 2, 3 or 4 SE would give for `p`. Only for
/// classic rules on a puzzle with one solution: the caller's promise.
pub fn bug(p: &Pencil, seen: &Seen) -> Option<Step> {
    let houses_of = classic_houses(p)?;
    let found = find(p, &houses_of)?;
    let eliminations: Vec<Clue> = found
        .eliminations
        .iter()
        .map(|&(c, d)| Clue {
            cell: p.cell(c),
            digit: d,
        })
        .collect();
    let mut step = Step::new(found.technique)
        .pattern(p, &found.cells, &found.digits)
        .say(seen, || {
            let (bugs, set) = found.cells.split_at(found.bugs);
            let extra: Vec<u8> = digits(found.extra).collect();
            let what = match found.technique {
                Technique::BugOne => String::from("it holds one of them"),
                Technique::Bug2 => String::from("one of them holds it"),
                Technique::Bug4 => format!(
                    "one holds its own and the other {}, the house's only places for it",
                    digit_list(&found.digits, false)
                ),
                _ => format!(
                    "one of them holds {}, which makes a naked set of {} with {}",
                    digit_list(&extra, true),
                    digit_list(&found.digits, false),
                    cell_list(set.iter().map(|&c| p.cell(c)))
                ),
            };
            format!(
                "without {} in {}, every open cell would have two candidates and every digit two \
                 places in its houses, which leaves two solutions or none; {what}, so {}",
                digit_list(&extra, true),
                cell_list(bugs.iter().map(|&c| p.cell(c))),
                eliminations_text(&eliminations)
            )
        });
    step.difficulty = Some(Difficulty(found.tenths));
    step.eliminations = eliminations;
    Some(step)
}

fn find(p: &Pencil, houses_of: &[[usize; 3]]) -> Option<Found> {
    let g = p.geometry();
    let side = p.size().side();
    let cells = p.size().cells();
    let mut bug_cells: Vec<usize> = Vec::new();
    // Each cell's BUG digits, and the grid without them.
    let mut bug_digits = vec![0u32; cells];
    let mut all_bug = 0u32;
    let mut without: Vec<u32> = (0..cells).map(|c| p.candidates(c)).collect();
    let mut common: Option<Vec<usize>> = None;
    for kind in 0..3 {
        for (h, house) in g.houses().iter().enumerate() {
            if houses_of[house[0]][kind] != h {
                continue;
            }
            let all = &p.places()[h];
            for (d, &places) in all.iter().take(side).enumerate() {
                if places == 0 || places.count_ones() == 2 {
                    continue;
                }
                let digit = d as u8 + 1;
                let mut wide = (0..house.len())
                    .filter(|&k| places >> k & 1 == 1)
                    .map(|k| house[k])
                    .filter(|&c| p.candidates(c).count_ones() >= 3);
                match (wide.next(), wide.next()) {
                    (None, _) => return None,
                    (Some(cell), None) => {
                        if !bug_cells.contains(&cell) {
                            bug_cells.push(cell);
                        }
                        bug_digits[cell] |= bit(digit);
                        all_bug |= bit(digit);
                        without[cell] &= !bit(digit);
                        let seen_by =
                            common.get_or_insert_with(|| house_cells(p, &houses_of[cell], cell));
                        seen_by.retain(|&c| g.sees(c, cell) && !bug_cells.contains(&c));
                        if bug_cells.len() > 1 && all_bug.count_ones() > 1 && seen_by.is_empty() {
                            return None;
                        }
                    }
                    // Two or more cells could hold the extra place: another
                    // house decides.
                    _ => {}
                }
            }
        }
    }
    // Without the BUG digits, a BUG: two candidates per open cell, two
    // places (or none) per digit and house.
    if (0..cells).any(|c| p.value(c) == 0 && without[c].count_ones() != 2) {
        return None;
    }
    for house in g.houses() {
        for digit in 1..=side as u8 {
            let n = house
                .iter()
                .filter(|&&c| without[c] & bit(digit) != 0)
                .count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or_default();
    if let [cell] = bug_cells[..] {
        // Type 1: the BUG cell holds a BUG digit. With one BUG digit among
        // three candidates [`super::direct::bug_one`] has placed it
        // already; this is a cell with two BUG digits or more.
        return Some(Found {
            technique: Technique::BugOne,
            tenths: 56,
            cells: vec![cell],
            bugs: 1,
            extra: all_bug,
            digits: digits(bug_digits[cell]).collect(),
            eliminations: digits(p.candidates(cell) & !bug_digits[cell])
                .map(|d| (cell, d))
                .collect(),
        });
    }
    if bug_cells.is_empty() {
        return None;
    }
    let type4 = || bug_four(p, houses_of, &bug_cells, &bug_digits, all_bug);
    if all_bug.count_ones() == 1 {
        let digit = digits(all_bug).next()?;
        let eliminations: Vec<(usize, u8)> = common
            .iter()
            .filter(|&&c| p.has(c, digit))
            .map(|&c| (c, digit))
            .collect();
        if !eliminations.is_empty() {
            return Some(Found {
                technique: Technique::Bug2,
                tenths: 57,
                cells: bug_cells.clone(),
                bugs: bug_cells.len(),
                extra: all_bug,
                digits: vec![digit],
                eliminations,
            });
        }
        return if bug_cells.len() == 2 { type4() } else { None };
    }
    if common.is_empty() {
        return None;
    }
    if bug_cells.len() == 2
        && let Some(found) = type4()
    {
        return Some(found);
    }
    bug_three(p, houses_of, &bug_cells, all_bug, &common)
}

/// Type 4: two BUG cells in a house sharing exactly one digit that is no
/// BUG digit each lose their third, non-BUG digit.
fn bug_four(
    p: &Pencil,
    houses_of: &[[usize; 3]],
    bug_cells: &[usize],
    bug_digits: &[u32],
    all_bug: u32,
) -> Option<Found> {
    let (c1, c2) = (bug_cells[0], bug_cells[1]);
    let shared = p.candidates(c1) & p.candidates(c2) & !all_bug;
    if shared.count_ones() != 1 || (0..3).all(|k| houses_of[c1][k] != houses_of[c2][k]) {
        return None;
    }
    let mut eliminations = Vec::new();
    for c in [c1, c2] {
        for d in digits(p.candidates(c) & !bug_digits[c] & !shared) {
            eliminations.push((c, d));
        }
    }
    Some(Found {
        technique: Technique::Bug4,
        tenths: 57,
        cells: vec![c1, c2],
        bugs: 2,
        extra: all_bug,
        digits: digits(shared).collect(),
        eliminations,
    })
}

/// Type 3: the BUG cells, all in one house, as one cell holding every BUG
/// digit, with `degree - 1` of the house's cells that see them all make a
/// naked set of `degree` digits: the house's other such cells lose them.
fn bug_three(
    p: &Pencil,
    houses_of: &[[usize; 3]],
    bug_cells: &[usize],
    all_bug: u32,
    common: &[usize],
) -> Option<Found> {
    for (kind, &h) in houses_of[bug_cells[0]].iter().enumerate() {
        if bug_cells.iter().any(|&c| houses_of[c][kind] != h) {
            continue;
        }
        let in_house: Vec<usize> = common
            .iter()
            .copied()
            .filter(|&c| houses_of[c][kind] == h)
            .collect();
        for degree in 2..=6usize {
            if in_house.len() < degree {
                continue;
            }
            for pick in combinations(degree - 1, in_house.len()) {
                let chosen: Vec<usize> = (0..in_house.len())
                    .filter(|&i| pick >> i & 1 == 1)
                    .map(|i| in_house[i])
                    .collect();
                let union = chosen.iter().fold(0, |m, &c| m | p.candidates(c));
                if union.count_ones() as usize != degree
                    || chosen.iter().any(|&c| p.candidates(c).count_ones() <= 1)
                    || (union | all_bug).count_ones() as usize != degree
                {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = in_house
                    .iter()
                    .copied()
                    .filter(|c| !chosen.contains(c))
                    .flat_map(|c| digits(p.candidates(c) & union).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let mut cells = bug_cells.to_vec();
                cells.extend(&chosen);
                return Some(Found {
                    technique: Technique::Bug3,
                    tenths: 56 + degree as u16,
                    cells,
                    bugs: bug_cells.len(),
                    extra: all_bug,
                    digits: digits(union).collect(),
                    eliminations,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::logic::Technique;
    use crate::logic::testing::{rate, rated};

    /// The two qqwing puzzles serate rates 5.7, which z3doku rated 7.1 and
    /// 6.6 with chains before it had BUG types 2 to 4; one with a type 3;
    /// and a top1465 puzzle
    /// serate rates 6.8, whose BUG cell has two BUG digits (z3doku: 7.1).
    #[test]
    fn bugs_rate_as_sudoku_explainer_rates_them() {
        let (er, path) = rate(
            ".3......4.2.......5.4.29.....9.3.4.18......2...1.8..9.6..35..1..9.8..5....3....48",
        );
        assert_eq!(er, 57);
        assert_eq!(rated(&path, Technique::Bug2), [57]);
        let (er, path) = rate(
            "7.9.....5......1.6.1..7.3...3..2.6..2.......75..1..2....6.1..2.37.....8...2.57..3",
        );
        assert_eq!(er, 57);
        assert_eq!(rated(&path, Technique::Bug4), [57]);
        // A 17-clue puzzle serate rates 5.8: a BUG type 3 with a naked pair.
        let (er, path) = rate(
            "..............1..2..3....45..........56.4....7.....12......8......63.7..24.......",
        );
        assert_eq!(er, 58);
        assert_eq!(rated(&path, Technique::Bug3), [58]);
        let (er, path) = rate(
            "..14.7...5.....6.....8.....4.86...7.....2.3...........63..5...........41.2.......",
        );
        assert_eq!(er, 68);
        let two_digits = path
            .steps
            .iter()
            .find(|s| s.technique == Technique::BugOne)
            .unwrap();
        assert_eq!(two_digits.digits.len(), 2);
        assert!(two_digits.placements.is_empty());
    }
}
