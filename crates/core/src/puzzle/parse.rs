//! Reading puzzles from text: the one-line form and the grid form.
//!
//! **Line form**: a character per cell, row by row: `1`-`9` (and `A`-`P`
//! for 10 to 25 on larger boards) are clues, any of `.` `0` `*` `_` is a
//! blank. Spaces and tabs are skipped. The cell count (the square of a side
//! from 1 to 16, or 625)
//! gives the size.
//!
//! **Grid form**: one row per line. Decoration (spaces, `|` `+` `-` `=` `,`
//! `:` `[` `]` and the box-drawing characters) is skipped, and lines holding
//! only decoration are skipped whole, so grids as printed by common tools and
//! by z3doku itself (tables and the `[a, b, ...]` matrix) read back. A row
//! may also give its cells as space-separated numbers, such as `12 . 3 16`,
//! which suits boards above 9x9. The row count gives the size.
//!
//! In both, lines whose first non-blank character is `#` are comments.

use super::grid::{Grid, MAX_CELLS, Size, char_digit};
use thiserror::Error;

/// Why a text is not a puzzle. Lines and columns are 1-based and count
/// characters, not bytes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Nothing but blank and comment lines.
    #[error("no puzzle in the input (only blank or comment lines)")]
    Empty,
    /// A character that is neither a cell nor decoration.
    #[error(
        "line {line}, column {column}: unexpected character {ch:?} (a cell is a digit, a letter for \
         boards above 9x9, or one of . 0 * _ for a blank)"
    )]
    BadChar {
        /// Line of the character.
        line: usize,
        /// Column of the character.
        column: usize,
        /// The character.
        ch: char,
    },
    /// A digit beyond the board's largest.
    #[error(
        "line {line}, column {column}: {text:?} stands for {value}, but digits on a {size} board \
         run from 1 to {max}",
        max = size.side()
    )]
    DigitTooLarge {
        /// Line of the digit.
        line: usize,
        /// Column where the digit starts.
        column: usize,
        /// The digit as written.
        text: String,
        /// The value it stands for.
        value: usize,
        /// The board's size.
        size: Size,
    },
    /// A one-line puzzle with the wrong number of cells.
    #[error("line {line}: {found} cells, but a puzzle has {expected}")]
    CellCount {
        /// The line.
        line: usize,
        /// How many cells it holds.
        found: usize,
        /// What would have been right, e.g. `81`.
        expected: String,
    },
    /// A grid row with the wrong number of cells.
    #[error("line {line}: {found} cells in this row, but a row of a {size} board has {}", size.side())]
    RowLength {
        /// The line.
        line: usize,
        /// How many cells it holds.
        found: usize,
        /// The board's size.
        size: Size,
    },
    /// A grid with the wrong number of rows.
    #[error("{}, but a grid has {}", rows(&found.to_string()), rows(expected))]
    RowCount {
        /// How many rows there are.
        found: usize,
        /// What would have been right.
        expected: String,
    },
    /// More than one one-line puzzle where one was wanted.
    #[error(
        "line {line}: a second puzzle ({count} puzzle lines in all); this command takes one \
         puzzle: use `z3doku batch` for a file of puzzles"
    )]
    SeveralPuzzles {
        /// The line of the second puzzle.
        line: usize,
        /// How many puzzle lines there are.
        count: usize,
    },
}

/// `1 row`, `9 rows`, `1 to 16, or 25 rows`.
fn rows(count: &str) -> String {
    match count {
        "1" => "1 row".into(),
        count => format!("{count} rows"),
    }
}

/// The cell counts a one-line puzzle may have, for messages.
const ANY_CELL_COUNT: &str = "a side from 1 to 16, or 25, squared: 16 for 4x4, 81 for 9x9";

/// The row counts a grid may have, for messages.
const ANY_ROW_COUNT: &str = "1 to 16, or 25";

/// Reads one puzzle, in either form, from `text`. `size` forces a board
/// size; without it, the size follows from the cell or row count.
pub fn parse_puzzle(text: &str, size: Option<Size>) -> Result<Grid, ParseError> {
    // A byte-order mark, as some editors write, says nothing about the
    // puzzle.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !is_skipped(l))
        .collect();
    match lines.as_slice() {
        [] => Err(ParseError::Empty),
        // A single decorated row (`[[1]]`, a 1x1 matrix) is a grid.
        [(number, line)] => parse_line(line, *number, size)
            .or_else(|line_error| parse_grid(&lines, size).map_err(|_| line_error)),
        _ => parse_grid(&lines, size).map_err(|grid_error| {
            // Several lines that each hold a whole puzzle are a puzzle file,
            // not a grid: say so rather than report a row length.
            let puzzles = lines
                .iter()
                .filter(|(n, l)| parse_line(l, *n, size).is_ok())
                .count();
            match (puzzles == lines.len(), lines.get(1)) {
                (true, Some(&(line, _))) => ParseError::SeveralPuzzles {
                    line,
                    count: puzzles,
                },
                _ => grid_error,
            }
        }),
    }
}

/// How many cells a grid row written as `line` holds (0 for a line that
/// only frames the grid), or `None` when it is not a grid row.
pub fn row_width(line: &str) -> Option<usize> {
    row_cells(line, 0).ok().map(|cells| cells.len())
}

/// Whether `line` is a whole puzzle on one line.
pub fn is_puzzle_line(line: &str) -> bool {
    parse_line(line, 0, None).is_ok()
}

/// Whether a line holds no puzzle text: blank, or a `#` comment.
pub fn is_skipped(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// Reads a one-line puzzle. `line_number` is only for error messages.
pub fn parse_line(line: &str, line_number: usize, size: Option<Size>) -> Result<Grid, ParseError> {
    let mut cells = [0u8; MAX_CELLS];
    // Lines are nearly always ASCII, and bytes are quicker to walk than
    // characters decoded from UTF-8.
    let count = if line.is_ascii() {
        ascii_line_cells(line.as_bytes(), line_number, &mut cells)?
    } else {
        line_cells(line.chars(), line_number, &mut cells)?
    };
    let size = match size {
        Some(s) if s.cells() == count => s,
        None if Size::from_cells(count).is_some() => Size::from_cells(count).unwrap_or_default(),
        _ => {
            return Err(ParseError::CellCount {
                line: line_number,
                found: count,
                expected: size.map_or(ANY_CELL_COUNT.to_string(), |s| s.cells().to_string()),
            });
        }
    };
    if let Some(i) = cells[..count]
        .iter()
        .position(|&d| usize::from(d) > size.side())
    {
        let (column, ch) = line
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .nth(i)
            .map_or((0, '?'), |(col, c)| (col + 1, c));
        return Err(ParseError::DigitTooLarge {
            line: line_number,
            column,
            text: ch.to_string(),
            value: usize::from(cells[i]),
            size,
        });
    }
    Grid::from_cells(size, &cells[..count]).ok_or(ParseError::Empty)
}

/// What each ASCII byte is in a one-line puzzle: its digit (see
/// [`char_digit`]), [`SPACE`] for whitespace, or [`NOT_A_CELL`].
const ASCII_CELLS: [u8; 128] = {
    let mut table = [NOT_A_CELL; 128];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = match char_digit(byte as u8 as char) {
            Some(digit) => digit,
            None if (byte as u8 as char).is_whitespace() => SPACE,
            None => NOT_A_CELL,
        };
        byte += 1;
    }
    table
};

/// Whitespace, in [`ASCII_CELLS`].
const SPACE: u8 = 0xfe;

/// Neither a cell nor whitespace, in [`ASCII_CELLS`].
const NOT_A_CELL: u8 = 0xff;

/// [`line_cells`] for an ASCII line, a table look-up per byte: every batch
/// line goes through here, and decoding characters cost as much as
/// checking the solution.
fn ascii_line_cells(
    bytes: &[u8],
    line_number: usize,
    cells: &mut [u8; MAX_CELLS],
) -> Result<usize, ParseError> {
    let mut count = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        match ASCII_CELLS
            .get(usize::from(byte))
            .copied()
            .unwrap_or(NOT_A_CELL)
        {
            SPACE => continue,
            NOT_A_CELL => {
                return Err(ParseError::BadChar {
                    line: line_number,
                    column: i + 1,
                    ch: char::from(byte),
                });
            }
            digit => {
                if let Some(slot) = cells.get_mut(count) {
                    *slot = digit;
                }
                count += 1;
            }
        }
    }
    Ok(count)
}

/// Reads the characters of a one-line puzzle into `cells`, skipping
/// whitespace, and says how many cells there were: past the largest board
/// they are counted (for the message) but not stored.
fn line_cells(
    chars: impl Iterator<Item = char>,
    line_number: usize,
    cells: &mut [u8; MAX_CELLS],
) -> Result<usize, ParseError> {
    let mut count = 0;
    for (i, ch) in chars.enumerate() {
        if ch.is_whitespace() {
            continue;
        }
        let digit = char_digit(ch).ok_or_else(|| ParseError::BadChar {
            line: line_number,
            column: i + 1,
            ch,
        })?;
        if let Some(slot) = cells.get_mut(count) {
            *slot = digit;
        }
        count += 1;
    }
    Ok(count)
}

/// Characters that frame a grid rather than fill it.
fn is_decoration(ch: char) -> bool {
    ch.is_whitespace()
        || matches!(ch, '|' | '+' | '-' | '=' | ',' | ':' | '[' | ']' | '!')
        || ('\u{2500}'..='\u{257F}').contains(&ch)
}

/// A cell of a grid row as written: its text, value and column.
struct Written<'a> {
    text: &'a str,
    value: u8,
    column: usize,
}

/// The cells of one grid row, or `Ok(empty)` for a decoration-only line.
fn row_cells(line: &str, line_number: usize) -> Result<Vec<Written<'_>>, ParseError> {
    // Tokens: maximal runs of non-decoration, with their 1-based column.
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (column, byte offset)
    for (column, (offset, ch)) in line.char_indices().enumerate() {
        match (is_decoration(ch), start) {
            (false, None) => start = Some((column + 1, offset)),
            (true, Some((col, from))) => {
                tokens.push((col, &line[from..offset]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, from)) = start {
        tokens.push((col, &line[from..]));
    }
    // Numbers, one per cell, when the row is spaced out and a cell needs two
    // characters; otherwise every character is a cell.
    let numeric = tokens.len() > 1
        && tokens.iter().any(|(_, t)| t.len() == 2)
        && tokens
            .iter()
            .all(|(_, t)| t.len() <= 2 && t.chars().all(|c| c.is_ascii_digit()) || t.len() == 1);
    let mut cells = Vec::new();
    for (column, token) in tokens {
        if numeric && token.chars().all(|c| c.is_ascii_digit()) {
            let value = token.parse::<u8>().unwrap_or(u8::MAX);
            cells.push(Written {
                text: token,
                value,
                column,
            });
            continue;
        }
        for (k, (offset, ch)) in token.char_indices().enumerate() {
            let value = char_digit(ch).ok_or(ParseError::BadChar {
                line: line_number,
                column: column + k,
                ch,
            })?;
            cells.push(Written {
                text: &token[offset..offset + ch.len_utf8()],
                value,
                column: column + k,
            });
        }
    }
    Ok(cells)
}

fn parse_grid(lines: &[(usize, &str)], size: Option<Size>) -> Result<Grid, ParseError> {
    let mut rows = Vec::new();
    for &(number, line) in lines {
        let cells = row_cells(line, number)?;
        if !cells.is_empty() {
            rows.push((number, cells));
        }
    }
    // A grid is as wide as it is tall: when most rows have a valid length
    // that disagrees with their count, rows are missing or extra; it is not
    // another board.
    let width = rows
        .iter()
        .map(|(_, cells)| cells.len())
        .max_by_key(|&w| rows.iter().filter(|(_, cells)| cells.len() == w).count());
    let size = match size {
        Some(s) if s.side() == rows.len() => s,
        None if width.is_some_and(|w| w != rows.len() && Size::from_side(w).is_some()) => {
            return Err(ParseError::RowCount {
                found: rows.len(),
                expected: width.unwrap_or_default().to_string(),
            });
        }
        None if Size::from_side(rows.len()).is_some() => {
            Size::from_side(rows.len()).unwrap_or_default()
        }
        _ => {
            return Err(match rows.as_slice() {
                [] => ParseError::Empty,
                _ => ParseError::RowCount {
                    found: rows.len(),
                    expected: size.map_or(ANY_ROW_COUNT.to_string(), |s| s.side().to_string()),
                },
            });
        }
    };
    let mut grid = Grid::empty(size);
    for (r, (line, cells)) in rows.iter().enumerate() {
        if cells.len() != size.side() {
            return Err(ParseError::RowLength {
                line: *line,
                found: cells.len(),
                size,
            });
        }
        for (c, cell) in cells.iter().enumerate() {
            if usize::from(cell.value) > size.side() {
                return Err(ParseError::DigitTooLarge {
                    line: *line,
                    column: cell.column,
                    text: cell.text.to_string(),
                    value: usize::from(cell.value),
                    size,
                });
            }
            grid.set(r * size.side() + c, cell.value);
        }
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    fn nine(text: &str) -> Grid {
        parse_puzzle(text, None).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn line_form_with_every_blank() {
        let g = nine(NOTEBOOK);
        assert_eq!(g.size(), Size::NINE);
        assert_eq!(g.to_line(), NOTEBOOK);
        let other = NOTEBOOK
            .replacen('.', "0", 5)
            .replacen('.', "*", 5)
            .replacen('.', "_", 5);
        assert_eq!(nine(&other), g);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = format!("# the notebook\n\n  {NOTEBOOK}  \n# end\n");
        assert_eq!(nine(&text).to_line(), NOTEBOOK);
    }

    #[test]
    fn grid_form_plain_and_decorated() {
        let plain: String = NOTEBOOK
            .as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8_lossy(r).into_owned() + "\n")
            .collect();
        assert_eq!(nine(&plain).to_line(), NOTEBOOK);
        let decorated = "\
+-------+-------+-------+
| . . . | . 9 4 | . 3 . |
| . . . | 5 1 . | . . 7 |
| . 8 9 | . . . | . 4 . |
+-------+-------+-------+
| . . . | . . . | 2 . 8 |
| . 6 . | 2 . 1 | . 5 . |
| 1 . 2 | . . . | . . . |
+-------+-------+-------+
| . 7 . | . . . | 5 2 . |
| 9 . . | . 6 5 | . . . |
| . 4 . | 9 7 . | . . . |
+-------+-------+-------+
";
        assert_eq!(nine(decorated).to_line(), NOTEBOOK);
        let unicode = "┌───┬───┐\n│ 1 │ . │ 3 4\n│ 3 4 │ 1 .\n├───┼───┤\n2 1 4 3\n4 3 2 1\n└───┘";
        assert_eq!(
            parse_puzzle(unicode, None).map(|g| g.to_line()),
            Ok("1.3434..21434321".replace("34..", "341."))
        );
    }

    #[test]
    fn matrix_form() {
        let text = "[[0, 0, 0, 0, 9, 4, 0, 3, 0],\n [0, 0, 0, 5, 1, 0, 0, 0, 7],\n [0, 8, 9, 0, 0, 0, 0, 4, 0],\n [0, 0, 0, 0, 0, 0, 2, 0, 8],\n [0, 6, 0, 2, 0, 1, 0, 5, 0],\n [1, 0, 2, 0, 0, 0, 0, 0, 0],\n [0, 7, 0, 0, 0, 0, 5, 2, 0],\n [9, 0, 0, 0, 6, 5, 0, 0, 0],\n [0, 4, 0, 9, 7, 0, 0, 0, 0]]";
        assert_eq!(nine(text).to_line(), NOTEBOOK);
    }

    #[test]
    fn numbers_for_large_boards() {
        let mut text = String::new();
        for r in 0..16 {
            let row: Vec<String> = (0..16)
                .map(|c| ((r * 4 + r / 4 + c) % 16 + 1).to_string())
                .collect();
            text += &row.join(" ");
            text += "\n";
        }
        let g = parse_puzzle(&text, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.size().side(), 16);
        assert_eq!(g.get(0), 1);
        assert_eq!(g.get(15), 16);
    }

    #[test]
    fn sixteen_by_sixteen_line() {
        let line = "1234567890ABCDEFG"
            .replace('0', ".")
            .chars()
            .take(16)
            .collect::<String>()
            .repeat(16);
        let g = parse_puzzle(&line, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.size().side(), 16);
        assert_eq!(g.get(10), 10);
    }

    #[test]
    fn errors_name_the_place() {
        let bad = NOTEBOOK.replacen('9', "x", 1);
        assert_eq!(
            parse_puzzle(&format!("# c\n{bad}"), None),
            Err(ParseError::BadChar {
                line: 2,
                column: 5,
                ch: 'x'
            })
        );
        let short = &NOTEBOOK[..80];
        assert!(matches!(
            parse_puzzle(short, None),
            Err(ParseError::CellCount {
                line: 1,
                found: 80,
                ..
            })
        ));
        assert_eq!(parse_puzzle("# only\n\n", None), Err(ParseError::Empty));
        assert_eq!(parse_puzzle("", None), Err(ParseError::Empty));
        let letter = NOTEBOOK.replacen('9', "A", 1);
        assert!(matches!(
            parse_puzzle(&letter, None),
            Err(ParseError::DigitTooLarge {
                line: 1,
                column: 5,
                value: 10,
                ..
            })
        ));
    }

    #[test]
    fn row_counts_read_in_good_english() {
        let one = ParseError::RowCount {
            found: 2,
            expected: "1".into(),
        };
        assert_eq!(one.to_string(), "2 rows, but a grid has 1 row");
        assert_eq!(
            parse_puzzle("1\n2\n", None)
                .map_err(|e| e.to_string())
                .err()
                .as_deref(),
            Some("2 rows, but a grid has 1 row")
        );
    }

    #[test]
    fn grid_errors() {
        let mut rows: Vec<String> = NOTEBOOK
            .as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect();
        rows[3].pop();
        assert_eq!(
            parse_puzzle(&rows.join("\n"), None),
            Err(ParseError::RowLength {
                line: 4,
                found: 8,
                size: Size::NINE
            })
        );
        rows.pop();
        assert!(matches!(
            parse_puzzle(&rows.join("\n"), None),
            Err(ParseError::RowCount { found: 8, .. })
        ));
    }

    #[test]
    fn several_puzzles_are_named() {
        let text = format!("{NOTEBOOK}\n{NOTEBOOK}\n");
        assert_eq!(
            parse_puzzle(&text, None),
            Err(ParseError::SeveralPuzzles { line: 2, count: 2 })
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(nine(&format!("\u{feff}{NOTEBOOK}\r\n")).to_line(), NOTEBOOK);
    }

    #[test]
    fn small_and_odd_sides() {
        assert_eq!(nine("1").size().side(), 1);
        assert_eq!(nine("12\n21").size().side(), 2);
        assert_eq!(nine(&".".repeat(36)).size().side(), 6);
        assert_eq!(nine(&".".repeat(144)).size().side(), 12);
        assert!(matches!(
            parse_puzzle(&".".repeat(17 * 17), None),
            Err(ParseError::CellCount { found: 289, .. })
        ));
    }

    #[test]
    fn forced_size() {
        let four = "1.3.....2.....4.";
        assert!(parse_puzzle(four, Some(Size::NINE)).is_err());
        assert_eq!(
            parse_puzzle(four, Size::from_side(4)).map(|g| g.clue_count()),
            Ok(4)
        );
    }
}
