//! The drawn table: a cell per digit, lines between regions only, clues in
//! bold and differing cells in colour when colour is on.

use super::Render;
use tabled::builder::Builder;
use tabled::settings::Padding;
use tabled::settings::object::Columns;
use tabled::settings::style::{HorizontalLine, Style, VerticalLine};
use tabled::settings::themes::Theme;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, digit_char};
use z3doku::puzzle::rules::Rules;

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
                let index = r * size.side() + c;
                let text = digit_char(digit).to_string();
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
        let (theme, _, columns) = region_lines(puzzle.rules());
        table.with(theme);
        // One space between digits, and one before each region's edge.
        table.with(Padding::new(1, 0, 0, 0));
        for k in columns.iter().map(|k| k - 1).chain([size.side() - 1]) {
            table.modify(Columns::one(k), Padding::new(1, 1, 0, 0));
        }
        table.to_string() + "\n"
    }
}

/// The board's frame, with lines between regions only (see
/// [`region_edges`]), and where those lines are: the rows with a line
/// above them and the columns with a line to their left. Every drawn grid
/// shares it.
pub(super) fn region_lines(rules: &Rules) -> (Theme, Vec<usize>, Vec<usize>) {
    let mut theme = Theme::from_style(Style::modern().remove_horizontal().remove_vertical());
    let (rows, columns) = region_edges(rules);
    for &k in &rows {
        theme.insert_horizontal_line(k, HorizontalLine::inherit(Style::modern()));
    }
    for &k in &columns {
        theme.insert_vertical_line(k, VerticalLine::inherit(Style::modern()));
    }
    (theme, rows, columns)
}

/// Where lines go between regions: the rows `k` with a line above them, and
/// the columns `k` with a line to their left. A line runs the whole board,
/// so it goes where every cell on one side is in another region than its
/// neighbour across (all the default regions' edges); a board without
/// regions gets none.
fn region_edges(rules: &Rules) -> (Vec<usize>, Vec<usize>) {
    let side = rules.size().side();
    let apart = |a: usize, b: usize| {
        let (ra, rb) = (rules.region_of(a), rules.region_of(b));
        ra.is_some() && rb.is_some() && ra != rb
    };
    let rows = (1..side)
        .filter(|&k| (0..side).all(|c| apart((k - 1) * side + c, k * side + c)))
        .collect();
    let columns = (1..side)
        .filter(|&k| (0..side).all(|r| apart(r * side + k - 1, r * side + k)))
        .collect();
    (rows, columns)
}
