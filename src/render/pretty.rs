//! The drawn table: a cell per digit, lines between boxes only, clues in
//! bold and differing cells in colour when colour is on.

use super::Render;
use crate::grid::{Grid, digit_char};
use tabled::builder::Builder;
use tabled::settings::Padding;
use tabled::settings::object::Columns;
use tabled::settings::style::{HorizontalLine, Style, VerticalLine};
use tabled::settings::themes::Theme;

/// A `tabled` table.
pub struct Pretty;

const CLUE: anstyle::Style = anstyle::Style::new().bold();
const DIFFERS: anstyle::Style = anstyle::Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::Yellow)));
const FILLED: anstyle::Style =
    anstyle::Style::new().fg_color(Some(anstyle::Color::Ansi(anstyle::AnsiColor::Cyan)));

impl Render for Pretty {
    fn grid(&self, grid: &Grid, clues: &Grid, highlight: &[usize], color: bool) -> String {
        let size = grid.size();
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
        let mut theme = Theme::from_style(Style::modern().remove_horizontal().remove_vertical());
        let n = size.box_size();
        for k in (n..size.side()).step_by(n) {
            theme.insert_horizontal_line(k, HorizontalLine::inherit(Style::modern()));
            theme.insert_vertical_line(k, VerticalLine::inherit(Style::modern()));
        }
        table.with(theme);
        // One space between digits, and one before each box's edge.
        table.with(Padding::new(1, 0, 0, 0));
        for k in (n - 1..size.side()).step_by(n) {
            table.modify(Columns::one(k), Padding::new(1, 1, 0, 0));
        }
        table.to_string() + "\n"
    }
}
