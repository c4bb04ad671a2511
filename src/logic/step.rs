//! One step of a solving path: the technique, the pattern that makes it,
//! what it places or eliminates, and the reasoning in one sentence.

use super::pencil::Pencil;
use super::seen::Seen;
use super::technique::{Difficulty, Technique};
use crate::puzzle::grid::{Cell, Clue, Grid, digit_char};
use std::fmt::{self, Write};

/// A step on the way to the solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Its rating: the technique's, plus a chain's length bonus. `None` for
    /// a reasoned step and for search.
    pub difficulty: Option<Difficulty>,
    /// The cells that make the pattern.
    pub cells: Vec<Cell>,
    /// The digits that make the pattern.
    pub digits: Vec<u8>,
    /// The digits it places.
    pub placements: Vec<Clue>,
    /// The candidates it removes, each as a cell and a digit.
    pub eliminations: Vec<Clue>,
    /// The reasoning in one sentence, starting with the technique's name:
    /// `hidden single: 7 can only go in r4c5 in box 5`.
    pub explanation: String,
}

impl Step {
    /// A step of `technique` at its base rating; the finders fill in the
    /// rest.
    pub(crate) fn new(technique: Technique) -> Step {
        Step {
            technique,
            difficulty: technique.base_rating(),
            cells: Vec::new(),
            digits: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            explanation: String::new(),
        }
    }

    /// Sets the pattern from row-major indexes.
    pub(crate) fn pattern(mut self, pencil: &Pencil, cells: &[usize], digits: &[u8]) -> Step {
        self.cells = cells.iter().map(|&c| pencil.cell(c)).collect();
        self.digits = digits.to_vec();
        self
    }

    /// Sets the explanation: the technique's name, a colon, and `text()`.
    /// On a path whose steps need no sentences ([`Seen::silent`]) it is
    /// left empty and `text` is never called: writing the sentences took
    /// a tenth of a rating's time.
    pub(crate) fn say(mut self, seen: &Seen, text: impl FnOnce() -> String) -> Step {
        if !seen.words() {
            return self;
        }
        let text = text();
        let name = self.technique.name();
        let mut explanation = String::with_capacity(name.len() + 2 + text.len());
        explanation.push_str(name);
        explanation.push_str(": ");
        explanation.push_str(&text);
        self.explanation = explanation;
        self
    }

    /// Whether the step changes nothing.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// The step's mistake against `solution`, if it has one: a placement
    /// that is not the solution's digit, or an elimination of it.
    pub fn check(&self, solution: &Grid) -> Result<(), String> {
        let size = solution.size();
        let at = |c: &Clue| solution.get(size.index(c.cell));
        if let Some(p) = self.placements.iter().find(|p| at(p) != p.digit) {
            return Err(format!(
                "{}: places {p}, but the solution has {}",
                self,
                at(p)
            ));
        }
        if let Some(e) = self.eliminations.iter().find(|e| at(e) == e.digit) {
            return Err(format!("{self}: eliminates the solution's {e}"));
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    /// The explanation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation)
    }
}

/// Cells as a list: `r1c1 r1c2`. Written into one string: every step
/// on a path names its cells, so this runs thousands of times a puzzle.
pub fn cell_list(cells: impl IntoIterator<Item = Cell>) -> String {
    let mut text = String::new();
    for (k, cell) in cells.into_iter().enumerate() {
        // Writing to a String cannot fail.
        let _ = write!(text, "{}{cell}", if k == 0 { "" } else { " " });
    }
    text
}

/// Digits as a list: `3 7`, or `3 or 7` with `or`.
pub fn digit_list(digits: &[u8], or: bool) -> String {
    let words: Vec<String> = digits.iter().map(|&d| digit_char(d).to_string()).collect();
    match (or, words.split_last()) {
        (true, Some((last, rest))) if !rest.is_empty() => format!("{} or {last}", rest.join(" ")),
        _ => words.join(" "),
    }
}

/// Eliminations in words: `r1c2 r1c9 cannot be 3; r4c4 cannot be 7`,
/// grouped by cells with the same digits.
pub fn eliminations_text(eliminations: &[Clue]) -> String {
    let mut groups: Vec<(Vec<u8>, Vec<Cell>)> = Vec::new();
    let mut cells: Vec<Cell> = eliminations.iter().map(|e| e.cell).collect();
    cells.sort_unstable();
    cells.dedup();
    for cell in cells {
        let mut ds: Vec<u8> = eliminations
            .iter()
            .filter(|e| e.cell == cell)
            .map(|e| e.digit)
            .collect();
        ds.sort_unstable();
        match groups.iter_mut().find(|(d, _)| *d == ds) {
            Some((_, list)) => list.push(cell),
            None => groups.push((ds, vec![cell])),
        }
    }
    let mut text = String::new();
    for (k, (ds, cells)) in groups.into_iter().enumerate() {
        let _ = write!(
            text,
            "{}{} cannot be {}",
            if k == 0 { "" } else { "; " },
            cell_list(cells),
            digit_list(&ds, true)
        );
    }
    text
}
