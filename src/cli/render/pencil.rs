//! The pencil-mark grid of `candidates`: each empty cell a small block of
//! its candidates (3x3 on a 9x9 board), `.` where a digit is not possible
//! and `*` after a candidate that decides the puzzle; given cells show
//! their digit alone in the middle of the block. Lines run between regions
//! only, as in the pretty table, and a blank line separates the rows of
//! blocks inside a region.

use super::frame::Frame;
use tabled::builder::Builder;
use tabled::settings::Padding;
use tabled::settings::object::Rows;
use z3doku::puzzle::grid::digit_char;
use z3doku::solve::Candidates;

const GIVEN: anstyle::Style = anstyle::Style::new().bold();
const DECIDING: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::Yellow)));

/// The marker after a deciding candidate.
pub const DECIDING_MARK: char = '*';

/// A block's shape for a board of `side`: `(rows, columns)`, columns the
/// ceiling of the side's square root, so 9 gives 3x3, 16 gives 4x4, 6 gives
/// 2x3.
fn block_shape(side: usize) -> (usize, usize) {
    let columns = (1..=side).find(|c| c * c >= side).unwrap_or(1);
    (side.div_ceil(columns), columns)
}

/// The pencil-mark grid of `candidates` (whose counts must be known), in
/// colour when `color`.
pub fn pencil_grid(candidates: &Candidates, color: bool) -> String {
    let puzzle = &candidates.outcome.puzzle;
    let givens = puzzle.givens();
    let size = puzzle.size();
    let side = size.side();
    let (block_rows, block_columns) = block_shape(side);
    let paint = |style: anstyle::Style, text: String| {
        if color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text
        }
    };
    let block = |index: usize| -> String {
        let given = givens.get(index);
        let lines: Vec<String> = (0..block_rows)
            .map(|r| {
                let mut line = String::new();
                for c in 0..block_columns {
                    let slot = r * block_columns + c;
                    let digit = slot + 1;
                    if given != 0 {
                        let middle = (block_rows / 2) * block_columns + block_columns / 2;
                        line += &if slot == middle {
                            paint(GIVEN, format!("{} ", digit_char(given)))
                        } else {
                            "  ".to_string()
                        };
                    } else if digit > side {
                        line += "  ";
                    } else {
                        let d = digit as u8;
                        line += &if candidates.count(index, d) == 0 {
                            ". ".to_string()
                        } else if candidates.is_deciding(index, d) {
                            paint(DECIDING, format!("{}{DECIDING_MARK}", digit_char(d)))
                        } else {
                            format!("{} ", digit_char(d))
                        };
                    }
                }
                line
            })
            .collect();
        lines.join("\n")
    };
    let mut builder = Builder::default();
    for r in 0..side {
        builder.push_record((0..side).map(|c| block(r * side + c)));
    }
    let mut table = builder.build();
    let frame = Frame::new(puzzle.rules());
    frame.draw(&mut table);
    // Each slot ends in a space or a marker, which keeps the blocks apart.
    table.with(Padding::new(1, 0, 0, 0));
    // A blank line under each row of blocks that no region line follows.
    for r in (0..side.saturating_sub(1)).filter(|&r| !frame.line_above(r + 1)) {
        table.modify(Rows::one(r), Padding::new(1, 0, 0, 1));
    }
    table.to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_near_square() {
        assert_eq!(block_shape(1), (1, 1));
        assert_eq!(block_shape(4), (2, 2));
        assert_eq!(block_shape(6), (2, 3));
        assert_eq!(block_shape(9), (3, 3));
        assert_eq!(block_shape(12), (3, 4));
        assert_eq!(block_shape(16), (4, 4));
        assert_eq!(block_shape(25), (5, 5));
    }
}
