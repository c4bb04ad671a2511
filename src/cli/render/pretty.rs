//! The drawn table: a cell per digit, lines between regions only (see
//! [`Frame`]), clues in bold and differing cells in colour when colour is
//! on.

use super::Render;
use super::frame::Frame;
use tabled::builder::Builder;
use tabled::settings::Padding;
use tabled::settings::object::Columns;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;

/// A `tabled` table.
pub struct Pretty;

const CLUE: anstyle::Style = anstyle::Style::new().bold();
const DIFFERS: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::Yellow)));
const FILLED: anstyle::Style =
    anstyle::Style::new().fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::Cyan)));

impl Render for Pretty {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, highlight: &[usize], color: bool) -> String {
        let size = grid.size();
        let clues = puzzle.givens();
        let mut builder = Builder::default();
        for (r, row) in grid.rows().enumerate() {
            builder.push_record(row.iter().enumerate().map(|(c, &digit)| {
                let index = r * size.cols() + c;
                let text = puzzle.rules().value_char(digit).to_string();
                let style = if highlight.contains(&index) {
                    DIFFERS
                } else if clues.get(index) != 0 {
                    CLUE
                } else {
                    FILLED
                };
                if color {
                    format!("{}{text}{}", style.render(), style.render_reset())
                } else {
                    text
                }
            }));
        }
        let mut table = builder.build();
        // A chaos construction's solution is drawn with the regions it found.
        let frame = Frame::of_regions(puzzle.rules(), grid.regions());
        frame.draw(&mut table);
        // One space between digits, and one before each line.
        table.with(Padding::new(1, 0, 0, 0));
        for k in (0..size.cols()).filter(|&k| frame.line_left_of(k + 1)) {
            table.modify(Columns::one(k), Padding::new(1, 1, 0, 0));
        }
        let mut text = table.to_string() + "\n";
        if let Some(line) = grid.regions_line() {
            text += &format!("regions {line}\n");
        }
        for cell in puzzle.rules().extra_values(grid) {
            text += &cell;
            text.push('\n');
        }
        text
    }
}
