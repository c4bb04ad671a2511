//! Variant rules written by hand: a grid in any text form, then one rule
//! per line.
//!
//! ```text
//! ....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....
//! killer 15 r1c1 r1c2 r2c1
//! white dot r3c1 r3c2
//! diagonal+
//! antiknight
//! ```
//!
//! Each rule line starts with the rule's name, in the words z3doku uses
//! when it names the rule in a message (`cage 15 (r1c1 r1c2 r2c1)`,
//! `white dot 1 (r1c4 r1c5)`) or as the f-puzzles key (`killercage`,
//! `difference`), so that whatever z3doku prints of a rule reads back as
//! that rule. Arrows, commas and brackets between cells are optional. Each
//! kind's names and reading live in its module under
//! [`kinds`](super::kinds); this module splits the lines and finds the
//! name. The full list is in the README.

use super::Puzzle;
use super::grid::{Cell, Size, char_digit, digit_char};
use super::kinds::{self, Reader};
use super::parse;
use super::rules::RulesBuilder;
use thiserror::Error;

/// Why a rule line could not be read. Prints as `line 3: …`, or as
/// `line 3, column 18: …` when the fault is at a character (in a formula).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}{}: {problem}", column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct RuleTextError {
    /// The line, counted from 1 in the whole input.
    pub line: usize,
    /// The column, counted in characters from 1, when the fault has one.
    pub column: Option<usize>,
    /// What is wrong.
    pub problem: String,
}

/// The words of a line: lower case, with arrows, commas and brackets
/// between cells turned into spaces, and `(`, `)` and `=` kept as words of
/// their own.
fn words(line: &str) -> Vec<String> {
    let spaced: String = line
        .to_lowercase()
        .chars()
        .flat_map(|c| match c {
            '→' | ',' | ';' | '>' => vec![' '],
            '(' | ')' | '=' => vec![' ', c, ' '],
            c => vec![c],
        })
        .collect();
    spaced.split_whitespace().map(str::to_string).collect()
}

/// The name `<cell> is …` lines are read under: `r2c2 is one of 1 3 5`,
/// `r1c1 is odd`, where the cell comes first.
pub const CELL_IS: &str = "is";

/// The reader a line names and the words it reads, when it starts with a
/// rule's name.
fn kind_of(words: &[String]) -> Option<(&'static Reader, &'static str, &[String])> {
    let is_cell = |w: &str| cell_word(w).is_some() || extra_word(w);
    if words.len() >= 3 && words[1] == CELL_IS && is_cell(&words[0]) {
        let (reader, name) = kinds::reader_of_words(&words[1..])?;
        return Some((reader, name, words));
    }
    let (reader, name) = kinds::reader_of_words(words)?;
    let length = name.split(' ').count();
    // A one-letter name (`x`, `v`) names a mark only when a cell follows.
    let single = name.len() == 1 && !words.get(1).is_some_and(|w| is_cell(w) || w == "(");
    (name != CELL_IS && !single).then(|| (reader, name, &words[length..]))
}

/// Whether `line` is a rule line rather than part of a grid.
pub fn is_rule_line(line: &str) -> bool {
    kind_of(&words(line)).is_some()
}

/// `(row, column)`, 0-based, of a word `r{row}c{col}`; the rim (row or
/// column 0 or side + 1) comes out as -1 or side.
pub fn cell_word(word: &str) -> Option<(isize, isize)> {
    let (r, c) = word.strip_prefix('r')?.split_once('c')?;
    Some((r.parse::<isize>().ok()? - 1, c.parse::<isize>().ok()? - 1))
}

/// Whether `word` is `v{n}`, a cell outside the grid on a board that has
/// so many.
fn extra_word(word: &str) -> bool {
    word.strip_prefix('v').is_some_and(|n| {
        !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The groups of cells outside the grid that the `extra cells` lines
/// declare, numbered as sigh numbers them
/// ([`number`](kinds::extra_cells::number)), and how many cells they have:
/// the board has those besides its grid, and every rule line may name
/// them (`v1`, `v2`, ...), wherever the declaration stands.
pub fn extra_cells(
    lines: &[(usize, &str)],
) -> Result<(Vec<kinds::extra_cells::ExtraCells>, usize), RuleTextError> {
    let mut groups = Vec::new();
    for &(line, text) in lines {
        let words = words(text);
        let Some((reader, name, rest)) = kind_of(&words) else {
            continue;
        };
        if reader.names != kinds::extra_cells::NAMES {
            continue;
        }
        let error = |problem: String| RuleTextError {
            line,
            column: None,
            problem,
        };
        for added in (reader.from_text)(name, rest, Size::NINE).map_err(error)? {
            if let kinds::Added::Constraint(kinds::Constraint::ExtraCells(group)) = added {
                groups.push(group);
            }
        }
    }
    Ok(kinds::extra_cells::number(groups))
}

/// Splits `text` into its grid and its rule lines: the rules start at the
/// first line that names a rule, or at the first line that starts with a
/// letter once the grid above it is whole (a one-line puzzle, or as many
/// rows as it is wide), so that a misspelled rule is reported as neither
/// a grid line nor a rule rather than as a row. Each rule line comes with
/// its number.
pub fn split(text: &str) -> (String, Vec<(usize, &str)>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut widths: Vec<usize> = Vec::new();
    let mut first = lines.len();
    for (k, line) in lines.iter().enumerate() {
        if is_rule_line(line) {
            first = k;
            break;
        }
        if parse::is_skipped(line) {
            continue;
        }
        let whole = match widths[..] {
            [] => false,
            // One line of N·N cells is a whole puzzle, unless this line
            // is as wide: then both are rows of a grid.
            [cells] => Size::from_cells(cells).is_some() && parse::row_width(line) != Some(cells),
            [width, ..] => {
                widths.len() == width
                    && Size::from_side(width).is_some()
                    && widths.iter().all(|&w| w == width)
            }
        };
        let word = line
            .trim_start()
            .starts_with(|c: char| c.is_ascii_alphabetic());
        if whole && word && !parse::is_puzzle_line(line) {
            first = k;
            break;
        }
        match parse::row_width(line) {
            Some(0) => {}
            Some(width) => widths.push(width),
            // Not a row: the grid's reader says where.
            None => widths.push(usize::MAX),
        }
    }
    let grid = lines[..first].join("\n");
    let rules = lines
        .iter()
        .enumerate()
        .skip(first)
        .map(|(k, l)| (k + 1, *l))
        .collect();
    (grid, rules)
}

/// Reads rule lines (`(line number, text)`) into `builder`'s rules for a
/// board of `size`. Blank lines and `#` comments are skipped; any other
/// line that does not name a rule is an error.
pub fn read_rules(
    lines: &[(usize, &str)],
    size: Size,
    builder: &mut RulesBuilder,
) -> Result<(), RuleTextError> {
    // The board counts the cells outside the grid already (see
    // `extra_cells`); without any, there is nothing to number.
    let extras = match size.extra() {
        0 => Vec::new(),
        _ => extra_cells(lines)?.0,
    };
    for &(line, text) in lines {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let added = read_line(text, size).map_err(|(column, problem)| RuleTextError {
            line,
            column,
            problem,
        })?;
        for added in added {
            let added = numbered(added, &extras);
            builder.add(added).map_err(|e| RuleTextError {
                line,
                column: None,
                problem: e.to_string(),
            })?;
        }
    }
    Ok(())
}

/// A group of cells outside the grid as [`extra_cells`] numbered it; any
/// other rule as it is.
fn numbered(added: kinds::Added, extras: &[kinds::extra_cells::ExtraCells]) -> kinds::Added {
    match added {
        kinds::Added::Constraint(kinds::Constraint::ExtraCells(group)) => {
            let found = extras.iter().find(|g| g.prefix == group.prefix);
            kinds::Added::Constraint(found.unwrap_or(&group).clone().into())
        }
        other => other,
    }
}

/// What one rule line adds, or why it does not read: the problem, with
/// its column (counted in characters from 1) when the fault is at one.
pub fn read_line(text: &str, size: Size) -> Result<Vec<kinds::Added>, (Option<usize>, String)> {
    let trimmed = text.trim();
    let one = |c: kinds::Constraint| vec![kinds::Added::Constraint(c)];
    // A formula is read from the line's own text, which the words below
    // would lose (`>`, `,`, case).
    if let Some(read) = kinds::formula::read_line(text, size) {
        return read
            .map(|formula| one(formula.into()))
            .map_err(|e| (Some(e.column), e.message));
    }
    // So is an `either`, whose parts are rule lines of their own.
    if let Some(read) = kinds::either::read_line(text, size) {
        return read.map(|either| one(either.into()));
    }
    // So is a regular expression, whose `,` the words would lose.
    if let Some(read) = kinds::regex::read_line(text, size) {
        return read.map(|r| one(r.into())).map_err(|e| (None, e));
    }
    // And a state machine, whose encoding the lower case would spoil.
    if let Some(read) = kinds::state_machine::read_line(text, size) {
        return read.map(|m| one(m.into())).map_err(|e| (None, e));
    }
    let words = words(trimmed);
    let (reader, name, rest) = kind_of(&words).ok_or_else(|| {
        (
            None,
            format!("{trimmed:?} is neither a grid line nor a rule z3doku knows"),
        )
    })?;
    (reader.from_text)(name, rest, size).map_err(|e| (None, e))
}

/// A cell `r{row}c{col}` on the board of `size`.
pub fn cell(word: &str, size: Size) -> Result<Cell, String> {
    if let Some(found) = word.strip_prefix('v').and_then(|n| size.extra_numbered(n)) {
        return found.map_err(|e| format!("{word:?} is not a cell: {e}"));
    }
    let side = size.side() as isize;
    cell_word(word)
        .filter(|&(r, c)| (0..side).contains(&r) && (0..side).contains(&c))
        .map(|(r, c)| size.cell(r as usize, c as usize))
        .ok_or_else(|| format!("{word:?} is not a cell r<row>c<column> on the {size} board"))
}

/// The cells of `words`, brackets skipped.
pub fn cells(words: &[String], size: Size) -> Result<Vec<Cell>, String> {
    words
        .iter()
        .filter(|w| *w != "(" && *w != ")")
        .map(|w| cell(w, size))
        .collect()
}

/// The bracketed groups of cells of `words`: `(r1c1 r1c2) (r3c3)` is two
/// groups (an equal sum's segments, a chaos arrow's control and arms).
pub fn groups(words: &[String], size: Size) -> Result<Vec<Vec<Cell>>, String> {
    let mut groups: Vec<Vec<Cell>> = Vec::new();
    let mut open: Option<Vec<Cell>> = None;
    for word in words {
        match (word.as_str(), open.as_mut()) {
            ("(", None) => open = Some(Vec::new()),
            (")", Some(_)) => groups.extend(open.take()),
            ("(", Some(_)) => return Err("a group opens inside another".into()),
            (")", None) => return Err("a `)` closes no group".into()),
            (_, Some(cells)) => cells.push(cell(word, size)?),
            (_, None) => return Err(format!("expected cells in brackets, found {word:?}")),
        }
    }
    match open {
        Some(_) => Err("the last group is not closed by `)`".into()),
        None => Ok(groups),
    }
}

/// A number, or what was found instead.
pub fn number(word: Option<&String>) -> Result<u32, String> {
    word.and_then(|w| w.parse().ok()).ok_or_else(|| {
        format!(
            "expected a number, found {:?}",
            word.map_or("nothing", |w| w)
        )
    })
}

/// A leading number, if the first word is one, and how many words it
/// takes.
pub fn leading(words: &[String]) -> (Option<u32>, usize) {
    match words.first().and_then(|w| w.parse().ok()) {
        Some(n) => (Some(n), 1),
        None => (None, 0),
    }
}

/// Digits written together or apart (`17`, `1 7`), each 1 to 9 or a letter
/// for larger boards.
pub fn digits(words: &[&str]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for ch in words.iter().flat_map(|w| w.chars()) {
        out.push(
            char_digit(ch)
                .filter(|&d| d != 0)
                .ok_or_else(|| format!("{ch:?} is not a digit"))?,
        );
    }
    Ok(out)
}

/// Labels a `regions` line can give, one character each (the reader
/// lower-cases its words, so capitals would repeat small letters).
const REGION_LABELS: &str = "0123456789abcdefghijklmnopqrstuvwxyz";

/// `puzzle` as text that reads back as the same puzzle: its grid, a row of
/// characters per line, then a rule line for each of its rules (a drawn
/// board's `regions`, the diagonals, the disjoint groups, each
/// constraint). What f-puzzles only draws is left out. Fails, saying why,
/// when its regions are more than a `regions` line can label.
pub fn write(puzzle: &Puzzle) -> Result<String, String> {
    let mut text = String::new();
    for row in puzzle.givens().rows() {
        text.extend(row.iter().map(|&d| digit_char(d)));
        text.push('\n');
    }
    let rules = puzzle.rules();
    if let Some(regions) = rules.drawn_regions() {
        let mut ids: Vec<usize> = Vec::new();
        let mut line = String::from("regions ");
        for (cell, region) in regions.iter().enumerate() {
            if cell > 0 && cell % puzzle.size().side() == 0 {
                line.push(' ');
            }
            line.push(match region {
                None => '.',
                Some(id) => {
                    let k = ids.iter().position(|i| i == id).unwrap_or_else(|| {
                        ids.push(*id);
                        ids.len() - 1
                    });
                    REGION_LABELS.chars().nth(k).ok_or_else(|| {
                        format!(
                            "the board has more than {} regions, more than a `regions` line can \
                             label: write it as f-puzzles",
                            REGION_LABELS.len()
                        )
                    })?
                }
            });
        }
        text.push_str(&line);
        text.push('\n');
    }
    for item in rules.items() {
        text.push_str(&rules.item_name(item));
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::rules::Rules;

    #[test]
    fn an_unknown_rule_is_named() {
        let mut builder = Rules::builder(Size::NINE);
        let error = read_rules(
            &[(1, "diagonal+"), (2, "bananas r1c1")],
            Size::NINE,
            &mut builder,
        )
        .err()
        .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.starts_with("line 2: \"bananas r1c1\" is neither")));
    }

    #[test]
    fn a_misspelled_rule_after_the_grid_is_not_a_row() {
        let grid =
            "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
        let rows: Vec<&str> = (0..9).map(|r| &grid[r * 9..r * 9 + 9]).collect();
        let rows = rows.join("\n");
        for (text, line) in [
            (format!("{rows}\n\nantiknigth\n"), 11),
            (format!("{rows}\ndiagonal\n"), 10),
            (format!("{grid}\nbananas r1c1\n"), 2),
        ] {
            let (_, rules) = split(&text);
            let mut builder = Rules::builder(Size::NINE);
            let error = read_rules(&rules, Size::NINE, &mut builder).err();
            assert_eq!(error.map(|e| e.line), Some(line), "{text}");
        }
        // A grid that is not whole yet keeps its rows, whatever they hold.
        let (grid_part, rules) = split("abcd\nbadc\ncdab\ndcba\n");
        assert_eq!((grid_part.lines().count(), rules.len()), (4, 0));
    }

    #[test]
    fn grids_and_rules_split_where_the_rules_start() {
        let text = "1234\n3412\n....\n....\ndiagonal+\nx r1c1 r1c2\n";
        let (grid, rules) = split(text);
        assert_eq!(grid, "1234\n3412\n....\n....");
        assert_eq!(rules, [(5, "diagonal+"), (6, "x r1c1 r1c2")]);
    }
}
