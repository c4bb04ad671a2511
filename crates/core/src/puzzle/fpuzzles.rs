//! Reading f-puzzles puzzles: their JSON, the compressed payload that
//! f-puzzles and SudokuPad put in links (lz-string's `compressToBase64` of
//! the JSON), and those links themselves.
//!
//! A puzzle is an object with `size`, `grid` (rows of cell objects) and one
//! key per rule. A cell's `value` is a given whether or not `given` is set;
//! `centerPencilMarks` and `givenPencilMarks` on an empty cell restrict its
//! digits. Each other key is read by the kinds that list it in the
//! [registry](super::kinds); keys that only draw or configure are read by
//! [`drawing`](super::kinds::drawing) and change no rule. Any other key is
//! an error that names it: a rule z3doku does not know must never be
//! skipped, or it would solve a different puzzle.

pub mod lz;
pub mod write;

use super::Puzzle;
use super::grid::{Cell, Grid, Size};
use super::kinds::drawing::Cosmetics;
use super::kinds::{
    self,
    cells::{Allowed, Even, Odd},
};
use super::rules::{RuleError, Rules, RulesBuilder};
use serde_json::{Map, Value};
use std::sync::Arc;
use thiserror::Error;

/// The longest compressed payload read, and the most it may decompress to
/// (in UTF-16 units, a character each for JSON's ASCII): 16 MiB, room for
/// a puzzle with hundreds of thousands of drawn lines. lz-string's output
/// can grow with the square of its input, so decompression stops at the
/// cap ([`lz`]), and its memory stays within a few times the cap.
pub const MAX_PAYLOAD_CHARS: usize = 16 * 1024 * 1024;

/// The shortest text taken for a bare compressed payload: anything shorter
/// cannot hold even an empty 4x4 puzzle, and the grid forms are that short.
const SHORTEST_PAYLOAD: usize = 40;

/// Keys of a grid cell that only draw or hold the solver's notes: corner
/// marks, the solver's highlight, the setter's colour (`c`) and colours
/// (`cArray`).
const IGNORED_CELL_KEYS: [&str; 4] = ["cornerPencilMarks", "highlight", "c", "cArray"];

/// Why a text is not an f-puzzles puzzle z3doku can solve.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FpuzzlesError {
    /// The text is not JSON.
    #[error("line {line}, column {column}: not JSON ({message})")]
    NotJson {
        /// Line of the fault.
        line: usize,
        /// Column of the fault.
        column: usize,
        /// serde_json's description.
        message: String,
    },
    /// A rule z3doku does not support.
    #[error("unsupported rule `{key}`{place}")]
    Unsupported {
        /// The key.
        key: String,
        /// Where, when not at the top level: ` in grid cell r1c1`.
        place: String,
    },
    /// A value of the wrong shape.
    #[error("{place}: {problem}")]
    Invalid {
        /// Which key (and item).
        place: String,
        /// What is wrong.
        problem: String,
    },
    /// A rule that cannot hold on this board.
    #[error("{0}")]
    Rule(RuleError),
    /// A link or payload that does not decompress.
    #[error("not an f-puzzles payload: {0}")]
    Payload(String),
    /// A link that holds no puzzle, only a name for one kept on a server
    /// (or nothing at all): what it is, and what to paste instead.
    #[error("{0}")]
    Link(String),
}

/// A value of the wrong shape at `place`.
pub fn invalid(place: impl Into<String>, problem: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError::Invalid {
        place: place.into(),
        problem: problem.into(),
    }
}

/// Whether `text` reads as f-puzzles input rather than a grid: JSON (it
/// starts with `{`), an f-puzzles or SudokuPad link, or one long token of
/// base64 characters.
pub fn is_fpuzzles(text: &str) -> bool {
    let text = text.trim();
    text.starts_with('{')
        || link_payload(text).is_some()
        || looks_like_payload(text)
        || unreadable_link(text).is_some()
}

/// Why a link to f-puzzles or SudokuPad holds no puzzle z3doku can read
/// offline, with what to paste instead; `None` for any other text. A short
/// link (`f-puzzles.com/?id=…`, `sudokupad.app/NAME`) only names a puzzle
/// kept on that site's server, and SudokuPad's own forms (`scl…`, `ctc…`)
/// are not f-puzzles'; z3doku reads no network, so each gets one line that
/// says so rather than "no such file".
pub fn unreadable_link(text: &str) -> Option<String> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    const PASTE: &str = "paste the f-puzzles link (f-puzzles: Export, \"Copy f-puzzles link\",                          a ?load= link) or the puzzle's JSON instead";
    if let Some(query) = rest.strip_prefix("f-puzzles.com/") {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut fields = query.split('&');
        if fields.clone().any(|f| f.starts_with("id=")) {
            return Some(format!(
                "an f-puzzles short link (?id=) names a puzzle kept on f-puzzles' server, which \
                 z3doku cannot read offline: open it in f-puzzles, then {PASTE}"
            ));
        }
        if fields.any(|f| f == "load=" || f == "load") {
            return Some(format!(
                "the f-puzzles link's ?load= payload is empty (the link was cut short?): {PASTE}"
            ));
        }
        return None;
    }
    let rest = [
        "sudokupad.app/",
        "app.crackingthecryptic.com/",
        "beta.sudokupad.app/",
    ]
    .iter()
    .find_map(|host| rest.strip_prefix(host))?;
    let rest = rest.strip_prefix("sudoku/").unwrap_or(rest);
    let rest = rest.strip_prefix("?puzzle=").unwrap_or(rest);
    if rest.starts_with("fpuz") {
        return None;
    }
    if rest.starts_with("scl") || rest.starts_with("ctc") {
        return Some(format!(
            "a SudokuPad link in SudokuPad's own form ({}…), which z3doku does not read: open it \
             in SudokuPad and {PASTE}, or a SudokuPad link made from f-puzzles (…/fpuzzles…)",
            &rest[..3]
        ));
    }
    if rest.is_empty() {
        return Some(format!("the SudokuPad link holds no puzzle: {PASTE}"));
    }
    Some(format!(
        "a SudokuPad short link names a puzzle kept on SudokuPad's server, which z3doku cannot \
         read offline: open it in SudokuPad and {PASTE}"
    ))
}

/// Reads an f-puzzles puzzle from JSON, a compressed payload or a link.
pub fn parse(text: &str) -> Result<Puzzle, FpuzzlesError> {
    let text = text.trim();
    if let Some(why) = unreadable_link(text) {
        return Err(FpuzzlesError::Link(why));
    }
    if text.starts_with('{') {
        parse_json(text)
    } else {
        parse_json(&decompress(text)?)
    }
}

/// The JSON a link or bare payload holds.
pub fn decompress(text: &str) -> Result<String, FpuzzlesError> {
    let text = text.trim();
    let payload = match link_payload(text) {
        Some(payload) => percent_decode(payload)?,
        None => text.to_string(),
    };
    // A query string may carry base64's `+` as a space.
    let payload = payload.replace(' ', "+");
    let limit = || format!("{} MiB", MAX_PAYLOAD_CHARS / (1024 * 1024));
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(FpuzzlesError::Payload(format!(
            "longer than {}, the most z3doku reads",
            limit()
        )));
    }
    let wide = lz::decompress_from_base64(&payload, MAX_PAYLOAD_CHARS).map_err(|e| match e {
        lz::LzError::Corrupt => FpuzzlesError::Payload("it does not decompress".into()),
        lz::LzError::TooLong(_) => FpuzzlesError::Payload(format!(
            "it decompresses to more than {}, the most z3doku reads",
            limit()
        )),
    })?;
    if wide.is_empty() {
        return Err(FpuzzlesError::Payload("it decompresses to nothing".into()));
    }
    String::from_utf16(&wide)
        .map_err(|_| FpuzzlesError::Payload("it decompresses to invalid text".into()))
}

/// The payload of an f-puzzles link (`https://f-puzzles.com/?load=…`) or a
/// SudokuPad one (`https://sudokupad.app/fpuzzles…`, or `fpuz…`).
fn link_payload(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    if let Some(rest) = rest.strip_prefix("f-puzzles.com/") {
        let start = rest.find("load=")? + "load=".len();
        let payload = &rest[start..];
        return Some(payload.split('&').next().unwrap_or(payload));
    }
    let rest = rest.strip_prefix("sudokupad.app/")?;
    let rest = rest.strip_prefix("?puzzle=").unwrap_or(rest);
    rest.strip_prefix("fpuzzles")
        .or_else(|| rest.strip_prefix("fpuz"))
}

/// Whether `text` is one long token of base64 characters (and `%` escapes).
fn looks_like_payload(text: &str) -> bool {
    text.len() >= SHORTEST_PAYLOAD
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '%'))
        // A grid line of digits and letters is not base64 of lz-string's
        // (whose output never lacks upper and lower case both).
        && text.chars().any(|c| c.is_ascii_lowercase())
        && text.chars().any(|c| c.is_ascii_uppercase())
}

/// `text` with each `%XX` escape replaced by its byte.
fn percent_decode(text: &str) -> Result<String, FpuzzlesError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'%' {
            let hex = bytes
                .get(k + 1..k + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| FpuzzlesError::Payload(format!("a bad %-escape at {}", k + 1)))?;
            out.push(hex);
            k += 3;
        } else {
            out.push(bytes[k]);
            k += 1;
        }
    }
    String::from_utf8(out).map_err(|_| FpuzzlesError::Payload("escapes that are not UTF-8".into()))
}

/// Reads f-puzzles JSON.
pub fn parse_json(text: &str) -> Result<Puzzle, FpuzzlesError> {
    let value: Value = serde_json::from_str(text).map_err(|e| FpuzzlesError::NotJson {
        line: e.line(),
        column: e.column(),
        message: e
            .to_string()
            .split(" at line")
            .next()
            .unwrap_or("")
            .to_string(),
    })?;
    let Value::Object(object) = value else {
        return Err(invalid("the JSON", "an f-puzzles puzzle is an object"));
    };
    let side = object
        .get("size")
        .ok_or_else(|| invalid("the puzzle", "`size` is missing"))?;
    let side = match (side.as_u64(), side.as_i64()) {
        (Some(side), _) => side,
        // A whole number below 0 is a whole number, just not a side.
        (None, Some(negative)) => {
            return Err(invalid(
                "`size`",
                format!("{negative} is not a side z3doku solves"),
            ));
        }
        _ => return Err(invalid("`size`", format!("{side} is not a whole number"))),
    };
    let size = usize::try_from(side)
        .ok()
        .and_then(Size::from_side)
        .ok_or_else(|| invalid("`size`", format!("{side} is not a side z3doku solves")))?;
    let mut builder = Rules::builder(size);
    let mut givens = Grid::empty(size);
    let mut regions = vec![None; size.cells()];
    let mut drawn_regions = false;
    let mut cosmetics = Cosmetics::default();
    for (key, value) in &object {
        let key = key.as_str();
        match key {
            "size" => {}
            "grid" => read_grid(
                value,
                size,
                &mut givens,
                &mut builder,
                &mut regions,
                &mut drawn_regions,
                &mut cosmetics,
            )?,
            _ => {
                let mut readers = kinds::readers_of_key(key).peekable();
                if readers.peek().is_none() {
                    return Err(FpuzzlesError::Unsupported {
                        key: key.to_string(),
                        place: String::new(),
                    });
                }
                for reader in readers {
                    for added in (reader.from_fpuzzles)(key, value, size)? {
                        builder.add(added).map_err(FpuzzlesError::Rule)?;
                    }
                }
                cosmetics.keep_key(key, value, size, |value| {
                    let mut all = Vec::new();
                    for reader in kinds::readers_of_key(key) {
                        all.extend((reader.from_fpuzzles)(key, value, size).ok()?);
                    }
                    Some(all)
                });
            }
        }
    }
    if !object.contains_key("grid") {
        return Err(invalid("the puzzle", "`grid` is missing"));
    }
    if drawn_regions {
        cosmetics.keep_regions_drawn();
        builder.regions(regions).map_err(FpuzzlesError::Rule)?;
    }
    let rules = builder.build().map_err(FpuzzlesError::Rule)?;
    Ok(Puzzle::new(givens, rules).with_cosmetics(Some(Arc::new(cosmetics))))
}

/// A clue's number: f-puzzles writes it as a string, sometimes as a
/// number; `None` for anything else (an empty string included).
pub fn number(value: &Value) -> Option<u32> {
    match value {
        Value::String(text) => text.trim().parse().ok(),
        other => other.as_u64().and_then(|n| u32::try_from(n).ok()),
    }
}

/// Whether a clue's `value` is missing or blank: the clue is then drawn
/// but says nothing.
pub fn blank(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(Value::String(text)) => text.trim().is_empty(),
        Some(_) => false,
    }
}

/// A clue's number, or an error naming the clue.
pub fn clue_number(item: &Value, place: &str) -> Result<u32, FpuzzlesError> {
    let value = item.get("value").unwrap_or(&Value::Null);
    number(value).ok_or_else(|| {
        let negative = match value {
            Value::String(text) => text.trim().parse::<i64>().is_ok_and(|n| n < 0),
            other => other.as_i64().is_some_and(|n| n < 0),
        };
        let problem = match negative {
            true => format!("`value` {value} is below 0, and a clue is a whole number from 0 up"),
            false => format!("`value` {value} is not a number"),
        };
        invalid(place, problem)
    })
}

/// The region f-puzzles puts a cell without a `region` key in: its box,
/// or, on a side with no box shape (2, 3, 5, 7, 11, 13), its row, as
/// f-puzzles' default regions are one row each there (height 1, width
/// N). So a grid that draws regions on only some cells leaves every other
/// cell in its default region, never in none; only `"region": null` puts
/// a cell in no region.
fn default_region(size: Size, cell: usize) -> usize {
    match Rules::classic(size).region_of(cell) {
        Some(region) => region,
        None => cell / size.side(),
    }
}

/// Reads the grid's cells: givens, pencil marks, and each cell's region
/// (`regions`; `drawn` is set when any cell names one).
fn read_grid(
    value: &Value,
    size: Size,
    givens: &mut Grid,
    builder: &mut RulesBuilder,
    regions: &mut [Option<usize>],
    drawn: &mut bool,
    cosmetics: &mut Cosmetics,
) -> Result<(), FpuzzlesError> {
    for (cell, region) in regions.iter_mut().enumerate() {
        *region = Some(default_region(size, cell));
    }
    let side = size.side();
    let rows = value
        .as_array()
        .filter(|rows| rows.len() == side)
        .ok_or_else(|| invalid("`grid`", format!("not a list of {side} rows")))?;
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .filter(|cells| cells.len() == side)
            .ok_or_else(|| invalid(format!("`grid` row {}", r + 1), format!("not {side} cells")))?;
        for (c, cell) in cells.iter().enumerate() {
            let at = size.cell(r, c);
            let place = format!("grid cell {at}");
            let Value::Object(fields) = cell else {
                return Err(invalid(place, "not an object"));
            };
            read_cell(fields, at, &place, size, givens, builder, cosmetics)?;
            if let Some(region) = fields.get("region") {
                *drawn = true;
                regions[size.index(at)] = match region {
                    Value::Null => None,
                    other => Some(
                        other
                            .as_u64()
                            .and_then(|r| usize::try_from(r).ok())
                            .filter(|&r| r < size.cells())
                            .ok_or_else(|| {
                                invalid(&place, format!("`region` {other} is not a region number"))
                            })?,
                    ),
                };
            }
        }
    }
    Ok(())
}

fn read_cell(
    fields: &Map<String, Value>,
    at: Cell,
    place: &str,
    size: Size,
    givens: &mut Grid,
    builder: &mut RulesBuilder,
    cosmetics: &mut Cosmetics,
) -> Result<(), FpuzzlesError> {
    let side = size.side() as u64;
    let index = size.index(at);
    let mut marks = Vec::new();
    // The marks as written, kept when a digit makes them say nothing.
    let mut written_marks = Vec::new();
    for (key, value) in fields {
        match key.as_str() {
            // Whether the setter or the solver wrote a digit, it is part of
            // the puzzle as given.
            "value" => match value {
                // f-puzzles writes 0 for a cell it has emptied.
                Value::Null => cosmetics.keep_cell(index, key, value),
                Value::Number(n) if n.as_u64() == Some(0) => cosmetics.keep_cell(index, key, value),
                _ => {
                    let digit = value
                        .as_u64()
                        .filter(|d| (1..=side).contains(d))
                        .ok_or_else(|| {
                            invalid(
                                place,
                                format!("`value` {value} is not a digit from 1 to {side}"),
                            )
                        })?;
                    givens.set(size.index(at), digit as u8);
                }
            },
            // The writer marks every digit `given`: only another word
            // (`false`, on a digit the solver placed) is the file's own.
            "given" if value == &Value::Bool(true) => {}
            "given" => cosmetics.keep_cell(index, key, value),
            "region" => {}
            // A cell without marks may carry `null`.
            "centerPencilMarks" | "givenPencilMarks" if value.is_null() => {
                cosmetics.keep_cell(index, key, value)
            }
            "centerPencilMarks" | "givenPencilMarks" => {
                written_marks.push((key, value));
                let digits = value
                    .as_array()
                    .ok_or_else(|| invalid(place, format!("`{key}` is not a list of digits")))?;
                let mut mask = 0u32;
                for digit in digits {
                    let digit = digit
                        .as_u64()
                        .filter(|d| (1..=side).contains(d))
                        .ok_or_else(|| {
                            invalid(
                                place,
                                format!("`{key}` holds {digit}, not a digit from 1 to {side}"),
                            )
                        })?;
                    mask |= 1 << (digit - 1);
                }
                if mask != 0 {
                    marks.push(mask);
                }
            }
            // A parity mark: `odd` or `even` says what the cell holds, and
            // an empty one says nothing. Anything else is not skipped.
            "parity" => match value {
                Value::Null | Value::Bool(false) => cosmetics.keep_cell(index, key, value),
                Value::String(word) if word.trim().is_empty() => {
                    cosmetics.keep_cell(index, key, value)
                }
                Value::Number(n) if n.as_u64() == Some(0) => cosmetics.keep_cell(index, key, value),
                Value::String(word) if word.trim().eq_ignore_ascii_case("odd") => {
                    builder.constraint(Odd(at)).map_err(FpuzzlesError::Rule)?;
                }
                Value::String(word) if word.trim().eq_ignore_ascii_case("even") => {
                    builder.constraint(Even(at)).map_err(FpuzzlesError::Rule)?;
                }
                other => {
                    return Err(FpuzzlesError::Unsupported {
                        key: format!("parity {other}"),
                        place: format!(" in {place}"),
                    });
                }
            },
            other if IGNORED_CELL_KEYS.contains(&other) => cosmetics.keep_cell(index, key, value),
            other => {
                return Err(FpuzzlesError::Unsupported {
                    key: other.to_string(),
                    place: format!(" in {place}"),
                });
            }
        }
    }
    // Marks on a cell with a digit say nothing more.
    if givens.get(index) != 0 {
        for &(key, value) in &written_marks {
            cosmetics.keep_cell(index, key, value);
        }
    }
    if givens.get(index) == 0 {
        if let [(key, _)] = written_marks.as_slice()
            && *key == "centerPencilMarks"
            && marks.len() == 1
        {
            cosmetics.keep_centre_marks(index);
        }
        for digits in marks {
            builder
                .constraint(Allowed { cell: at, digits })
                .map_err(FpuzzlesError::Rule)?;
        }
    }
    Ok(())
}

/// The items of a list-valued rule key.
pub fn items<'a>(key: &str, value: &'a Value) -> Result<&'a [Value], FpuzzlesError> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| invalid(format!("`{key}`"), "not a list"))
}

/// A list of `R{row}C{col}` names as cells.
pub fn read_cells(
    value: Option<&Value>,
    size: Size,
    place: &str,
) -> Result<Vec<Cell>, FpuzzlesError> {
    let names = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid(place, "`cells` is not a list"))?;
    names
        .iter()
        .map(|name| {
            name.as_str()
                .and_then(|n| cell_named(n, size))
                .ok_or_else(|| {
                    invalid(
                        place,
                        format!("{name} is not a cell R<row>C<column> on the board"),
                    )
                })
        })
        .collect()
}

/// The cell `R{row}C{col}` (1-based, either case), when it is on the board.
pub fn cell_named(name: &str, size: Size) -> Option<Cell> {
    let upper = name.trim().to_ascii_uppercase();
    let (row, col) = upper.strip_prefix('R')?.split_once('C')?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    let on_board = (1..=size.side()).contains(&row) && (1..=size.side()).contains(&col);
    on_board.then(|| size.cell(row - 1, col - 1))
}

/// A cell `R{row}C{col}` on the board or on its rim (row or column 0 or
/// side + 1), as signed (row, column), 0-based: the rim is -1 and side.
pub fn rim_cell(
    value: Option<&Value>,
    size: Size,
    place: &str,
) -> Result<(isize, isize), FpuzzlesError> {
    let side = size.side() as isize;
    let name = value.and_then(Value::as_str).unwrap_or("");
    let upper = name.trim().to_ascii_uppercase();
    let parsed = upper
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .and_then(|(r, c)| Some((r.parse::<isize>().ok()? - 1, c.parse::<isize>().ok()? - 1)))
        .filter(|&(r, c)| (-1..=side).contains(&r) && (-1..=side).contains(&c));
    parsed.ok_or_else(|| {
        invalid(
            place,
            format!("{name:?} is not a cell R<row>C<column> on or beside the board"),
        )
    })
}

/// An item's `lines`: a list of lines, each a list of cells.
pub fn lines_of<'a>(item: &'a Value, place: &str) -> Result<&'a [Value], FpuzzlesError> {
    item.get("lines")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| invalid(place, "`lines` is not a list"))
}

/// A dot's value as a digit-sized number.
pub fn small(value: u32, place: &str) -> Result<u8, FpuzzlesError> {
    u8::try_from(value).map_err(|_| invalid(place, format!("{value} is too large")))
}

/// One cell named by `R{row}C{col}` on the board.
pub fn read_cell_name(
    value: Option<&Value>,
    size: Size,
    place: &str,
) -> Result<Cell, FpuzzlesError> {
    value
        .and_then(Value::as_str)
        .and_then(|n| cell_named(n, size))
        .ok_or_else(|| invalid(place, "`cell` is not a cell R<row>C<column> on the board"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"size":4,"title":"t","grid":[[{"value":1,"given":true},{},{},{}],
        [{},{},{},{}],[{},{},{"value":2},{}],[{},{},{},{"centerPencilMarks":[3,4]}]],
        "killercage":[{"cells":["R1C2","R1C3"],"value":"5"}],
        "regionsumline":[{"lines":[["R2C1","R2C2"]]}],"diagonal+":true,"line":[{}]}"#;

    #[test]
    fn reads_givens_and_rules() {
        let puzzle = parse(SMALL).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(puzzle.givens().get(0), 1);
        assert_eq!(puzzle.givens().get(10), 2);
        let rules: Vec<String> = puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            rules,
            [
                "r4c4 is one of 3 4",
                "cage 5 (r1c2 r1c3)",
                "region sum line r2c1→r2c2"
            ]
        );
        assert!(!puzzle.rules().is_classic());
        assert_eq!(puzzle.rules().houses().len(), 13);
    }

    /// A 5x5 grid whose cells carry `region` as `fields` says (by cell
    /// index), the others none.
    fn five_with_regions(fields: &[(usize, &str)]) -> String {
        let cells: Vec<String> = (0..25)
            .map(|k| match fields.iter().find(|(at, _)| *at == k) {
                Some((_, region)) => format!(r#"{{"region":{region}}}"#),
                None => "{}".into(),
            })
            .collect();
        let rows: Vec<String> = cells
            .chunks(5)
            .map(|r| format!("[{}]", r.join(",")))
            .collect();
        format!(r#"{{"size":5,"grid":[{}]}}"#, rows.join(","))
    }

    #[test]
    fn cells_without_a_region_keep_their_row_on_sides_without_boxes() {
        // r1c1 moves to row 2's region and r2c1 to row 1's: every other
        // cell stays in its row's default region, so both regions are
        // full houses.
        let puzzle =
            parse(&five_with_regions(&[(0, "1"), (5, "0")])).unwrap_or_else(|e| panic!("{e}"));
        let regions = puzzle.rules().regions();
        assert_eq!(regions.len(), 5, "{regions:?}");
        assert_eq!(regions[0], [0, 6, 7, 8, 9]);
        assert_eq!(regions[1], [1, 2, 3, 4, 5]);
        assert!(puzzle.rules().constraints().is_empty());
        // `null` still takes a cell out of every region.
        let none = parse(&five_with_regions(&[(0, "null")])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(none.rules().regions().len(), 4);
    }

    #[test]
    fn keys_that_only_draw_or_configure_are_read() {
        let saved = SMALL
            .replace(
                r#"{"value":1,"given":true}"#,
                r##"{"value":1,"given":true,"cArray":["#ff0000"],"parity":null}"##,
            )
            .replace(r#"{"value":2}"#, r#"{"value":2,"givenPencilMarks":null}"#)
            .replace(
                r#"[{},{},{},{}],[{},{},{"#,
                r#"[{"value":0},{},{},{}],[{},{},{"#,
            )
            .replace(
                r#""line":[{}]"#,
                r#""line":[{}],"highlightConflicts":true,"highlightSeenCells":false,
                "author":"a","ruleset":"r","solution":[],"disabledlogic":[],
                "truecandidatesoptions":[],"rectangle":[],"circle":[],"text":[],
                "cage":[{"cells":["R4C1"]}]"#,
            );
        let plain = parse(SMALL).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse(&saved).as_ref(), Ok(&plain), "{saved}");
        let odd = SMALL.replace(r#"{"value":2}"#, r#"{"parity":"odd"}"#);
        let rules = parse(&odd).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            rules
                .rules()
                .constraints()
                .iter()
                .any(|c| c.to_string() == "r3c3 is odd")
        );
        let unknown = SMALL.replace(r#"{"value":2}"#, r#"{"parity":7}"#);
        assert_eq!(
            parse(&unknown).map_err(|e| e.to_string()).err().as_deref(),
            Some("unsupported rule `parity 7` in grid cell r3c3")
        );
    }

    #[test]
    fn negative_numbers_are_named_as_such() {
        let size = SMALL.replace(r#""size":4"#, r#""size":-9"#);
        assert_eq!(
            parse(&size).map_err(|e| e.to_string()).err().as_deref(),
            Some("`size`: -9 is not a side z3doku solves")
        );
        let cage = SMALL.replace(r#""value":"5""#, r#""value":"-3""#);
        assert_eq!(
            parse(&cage).map_err(|e| e.to_string()).err().as_deref(),
            Some(
                "`killercage` 1: `value` \"-3\" is below 0, and a clue is a whole number from 0 up"
            )
        );
    }

    #[test]
    fn unknown_keys_are_named() {
        let fog = r#"{"size":4,"grid":[],"fogofwar":[]}"#;
        assert_eq!(
            parse(fog).map_err(|e| e.to_string()).err().as_deref(),
            Some("unsupported rule `fogofwar`")
        );
        let colour = SMALL.replace(r#"{"value":2}"#, r#"{"colour":3}"#);
        assert_eq!(
            parse(&colour).map_err(|e| e.to_string()).err().as_deref(),
            Some("unsupported rule `colour` in grid cell r3c3")
        );
        let negative = SMALL.replace(r#""line":[{}]"#, r#""negative":["sum"]"#);
        assert_eq!(
            parse(&negative).map_err(|e| e.to_string()).err().as_deref(),
            Some("unsupported rule `negative \"sum\"`")
        );
    }

    #[test]
    fn links_and_payloads_decode() {
        let payload = lz_str::compress_to_base64(SMALL);
        let json = parse(SMALL).unwrap_or_else(|e| panic!("{e}"));
        let escaped = payload
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D");
        for text in [
            payload.clone(),
            format!("https://f-puzzles.com/?load={payload}"),
            format!("https://f-puzzles.com/?load={escaped}"),
            format!("https://sudokupad.app/fpuzzles{payload}"),
            format!("https://sudokupad.app/fpuz{payload}"),
        ] {
            assert!(is_fpuzzles(&text), "{text}");
            assert_eq!(parse(&text).as_ref(), Ok(&json), "{text}");
        }
        assert!(!is_fpuzzles(&".".repeat(81)));
        assert!(!is_fpuzzles(&"123456789".repeat(9)));
    }

    #[test]
    fn links_without_a_puzzle_say_what_to_paste() {
        for (link, says) in [
            ("https://f-puzzles.com/?id=y7k3vqbz", "f-puzzles short link"),
            (
                "https://www.f-puzzles.com/?id=abc&x=1",
                "f-puzzles short link",
            ),
            ("https://f-puzzles.com/?load=", "payload is empty"),
            ("https://sudokupad.app/abc123", "SudokuPad short link"),
            (
                "https://sudokupad.app/scl/N4IgzglgXg",
                "SudokuPad's own form (scl…)",
            ),
            ("https://app.crackingthecryptic.com/sudoku/ctcABC", "(ctc…)"),
            ("https://sudokupad.app/?puzzle=sclXYZ", "(scl…)"),
        ] {
            assert!(is_fpuzzles(link), "{link}");
            let message = parse(link)
                .map_err(|e| e.to_string())
                .err()
                .unwrap_or_default();
            assert!(message.contains(says), "{link}: {message}");
            assert!(message.contains("?load= link"), "{link}: {message}");
            assert!(!message.contains('\n'), "{message}");
        }
        // A link that holds a puzzle still reads.
        let payload = lz_str::compress_to_base64(SMALL);
        assert!(unreadable_link(&format!("https://f-puzzles.com/?load={payload}")).is_none());
        assert!(unreadable_link(&format!("https://sudokupad.app/fpuzzles{payload}")).is_none());
        assert!(unreadable_link("notebook.txt").is_none());
    }

    #[test]
    fn bad_rules_name_the_place() {
        let bad = SMALL.replace(r#""R1C3"],"value":"5""#, r#""R1C9"],"value":"5""#);
        assert!(parse(&bad).is_err_and(|e| e.to_string().contains("`killercage` 1")));
        let sum = SMALL.replace(r#""value":"5""#, r#""value":"50""#);
        assert!(parse(&sum).is_err_and(|e| e.to_string().contains("add up to 50")));
    }
}
