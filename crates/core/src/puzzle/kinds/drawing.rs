//! The f-puzzles keys that only draw, describe or configure the page, and
//! change no rule: read and set aside, so that a puzzle saved from
//! f-puzzles reads, while a key z3doku does not know stays an error.

use super::{Added, Read};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::cell_named;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::sigh;
use crate::puzzle::sketch::{Colour, Mark, Point};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What only draws or describes.
pub struct Drawing;

impl Read for Drawing {
    const KEYS: &'static [&'static str] = &[
        "title",
        "author",
        "ruleset",
        "solution",
        // Options for the page and a solver's buttons, not rules.
        "highlightConflicts",
        "highlightSeenCells",
        "truecandidatesoptions",
        "disabledlogic",
        // Cosmetic shapes and text (a `cage` without a value is read, and
        // set aside, by the digital-root cage).
        "line",
        "rectangle",
        "circle",
        "text",
    ];
    /// A rule line always means a rule.
    const NAMES: &'static [&'static str] = &[];

    fn from_fpuzzles(_: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Ok(Vec::new())
    }

    fn from_text(name: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err(format!("{name:?} only draws"))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        Err(item.unknown())
    }
}

/// What a puzzle read from f-puzzles carried that changes no rule: its
/// title, author and ruleset, the shapes and text it draws, the items of
/// rule keys that are only drawn (a cage or clue without a number), the
/// extra fields of rule items (their colours), and each cell's notes and
/// colours. Kept so that writing the puzzle back gives the setter's file
/// whole; it never takes part in solving, and two puzzles that differ only
/// here are the same puzzle (see [`Puzzle`](crate::puzzle::Puzzle)'s
/// equality).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cosmetics {
    /// Top-level keys whose whole value only draws or describes, in the
    /// order read.
    whole: Vec<(String, Value)>,
    /// Items of list keys that are only drawn, by key, in the order read.
    items: Vec<(String, Vec<Value>)>,
    /// The fields of a rule item beyond what writing the rule gives back,
    /// by the written key and entry (`key` NUL `entry`).
    extras: HashMap<String, Map<String, Value>>,
    /// Each cell's keys that say nothing to the rules, by row-major index.
    cells: Vec<(usize, Map<String, Value>)>,
    /// Empty cells whose one set of pencil marks (a rule) was read from
    /// `centerPencilMarks`: the writer puts a lone set under
    /// `givenPencilMarks`, and this puts it back where it came from.
    centre_marks: Vec<usize>,
    /// Whether the grid's cells named their regions, though they were the
    /// default boxes (which the writer otherwise leaves out).
    regions_drawn: bool,
}

/// The keys never kept as cosmetics: `size` and `grid` are the puzzle
/// itself, and `solution` is written anew from what is proven (a kept one
/// could name a solution the written puzzle no longer has).
const NOT_KEPT: [&str; 3] = ["size", "grid", "solution"];

/// A cell's keys that belong to the rules: the writer writes them from
/// the puzzle.
const CELL_RULE_KEYS: [&str; 1] = ["region"];

impl Cosmetics {
    /// Whether nothing was kept.
    pub fn is_empty(&self) -> bool {
        self.whole.is_empty()
            && self.items.is_empty()
            && self.extras.is_empty()
            && self.cells.is_empty()
            && self.centre_marks.is_empty()
            && !self.regions_drawn
    }

    /// Notes that the grid's cells named their regions.
    pub fn keep_regions_drawn(&mut self) {
        self.regions_drawn = true;
    }

    /// Whether the grid's cells named their regions.
    pub fn regions_drawn(&self) -> bool {
        self.regions_drawn
    }

    /// Notes that the empty cell `index` had its one set of pencil marks
    /// under `centerPencilMarks`.
    pub fn keep_centre_marks(&mut self, index: usize) {
        self.centre_marks.push(index);
    }

    /// Keeps what the top-level `key` with `value` holds beyond rules, on
    /// a board of `size`. `read` reads a value of the key as the
    /// registry's readers do: a value (or list item) that reads as no rule
    /// only draws. An item whose reading fails alone is left to the real
    /// reading, which reports it in context.
    pub fn keep_key<F>(&mut self, key: &str, value: &Value, size: Size, read: F)
    where
        F: Fn(&Value) -> Option<Vec<Added>>,
    {
        if NOT_KEPT.contains(&key) {
            return;
        }
        let Value::Array(list) = value else {
            if read(value).is_some_and(|added| added.is_empty()) {
                self.whole.push((key.to_string(), value.clone()));
            }
            return;
        };
        if read(value).is_some_and(|added| added.is_empty()) {
            // A list that means nothing (`line`, `text`, …) stays whole.
            self.whole.push((key.to_string(), value.clone()));
            return;
        }
        let mut drawn = Vec::new();
        for item in list {
            let Some(added) = read(&Value::Array(vec![item.clone()])) else {
                continue;
            };
            if added.is_empty() {
                drawn.push(item.clone());
                continue;
            }
            let Value::Object(fields) = item else {
                continue;
            };
            for added in added {
                let Added::Constraint(constraint) = added else {
                    continue;
                };
                let Some((written_key, Item::Entry(Value::Object(entry)))) =
                    constraint.to_fpuzzles(size)
                else {
                    continue;
                };
                let extra: Map<String, Value> = fields
                    .iter()
                    .filter(|(field, _)| !entry.contains_key(*field))
                    .map(|(field, v)| (field.clone(), v.clone()))
                    .collect();
                if !extra.is_empty() {
                    let name = extras_name(written_key, &Value::Object(entry));
                    self.extras.insert(name, extra);
                }
            }
        }
        if !drawn.is_empty() {
            self.items.push((key.to_string(), drawn));
        }
    }

    /// Keeps a grid cell's `key` with `value`, which the reader found to
    /// say nothing to the rules.
    pub fn keep_cell(&mut self, index: usize, key: &str, value: &Value) {
        if CELL_RULE_KEYS.contains(&key) {
            return;
        }
        match self.cells.last_mut() {
            Some((at, fields)) if *at == index => {
                fields.insert(key.to_string(), value.clone());
            }
            _ => {
                let mut fields = Map::new();
                fields.insert(key.to_string(), value.clone());
                self.cells.push((index, fields));
            }
        }
    }

    /// Puts what was kept into `object`, an f-puzzles puzzle written from
    /// the rules: whole keys the rules did not write, drawn items after a
    /// list's rule items, each rule item's extra fields, and each cell's
    /// notes. A cell's pencil marks go back only on a cell that still
    /// holds a digit (on an empty one they would restrict it: a rule), and
    /// an empty cell's `value` (0) only on a cell that is still empty.
    pub fn dress(&self, object: &mut Map<String, Value>) {
        for (key, value) in &self.whole {
            match (object.get_mut(key), value) {
                (Some(Value::Array(list)), Value::Array(more)) => list.extend(more.iter().cloned()),
                (Some(_), _) => {}
                (None, _) => {
                    object.insert(key.clone(), value.clone());
                }
            }
        }
        if !self.extras.is_empty() {
            for (key, value) in object.iter_mut() {
                let Value::Array(list) = value else { continue };
                if key == "grid" {
                    continue;
                }
                for entry in list {
                    let name = extras_name(key, entry);
                    if let (Some(extra), Value::Object(fields)) = (self.extras.get(&name), entry) {
                        for (field, v) in extra {
                            fields.entry(field.clone()).or_insert_with(|| v.clone());
                        }
                    }
                }
            }
        }
        for (key, drawn) in &self.items {
            let list = object
                .entry(key.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = list {
                list.extend(drawn.iter().cloned());
            }
        }
        let Some(Value::Array(rows)) = object.get_mut("grid") else {
            return;
        };
        let side = rows.len();
        for &index in &self.centre_marks {
            let cell = rows
                .get_mut(index / side.max(1))
                .and_then(|row| row.get_mut(index % side.max(1)));
            if let Some(Value::Object(cell)) = cell
                && !cell.contains_key("centerPencilMarks")
                && let Some(marks) = cell.remove("givenPencilMarks")
            {
                cell.insert("centerPencilMarks".into(), marks);
            }
        }
        for (index, fields) in &self.cells {
            let cell = rows
                .get_mut(index / side.max(1))
                .and_then(|row| row.get_mut(index % side.max(1)));
            let Some(Value::Object(cell)) = cell else {
                continue;
            };
            let holds = cell
                .get("value")
                .is_some_and(|v| v.as_u64().unwrap_or(0) != 0);
            for (key, value) in fields {
                let keep = match key.as_str() {
                    "centerPencilMarks" | "givenPencilMarks" => holds || value.is_null(),
                    "value" => !holds,
                    // The file's own word on who placed a digit (no rule
                    // reads it) wins over the writer's `true`.
                    "given" => {
                        cell.insert(key.clone(), value.clone());
                        false
                    }
                    _ => true,
                };
                if keep && !cell.contains_key(key) {
                    cell.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// The keys of what a setter drew, in the order they are drawn: lines
/// under cages, cages under shapes, text on top.
const DRAWN_KEYS: [&str; 5] = ["line", "cage", "rectangle", "circle", "text"];

impl Cosmetics {
    /// How what the setter drew looks, as marks in the conventions of
    /// f-puzzles (and of the programs that read its files, SudokuPad and
    /// the CTC app): each cell's colours (`c`, or `cArray` split into
    /// bands); `line`s through cell centres in `outlineC`, as wide as half
    /// their `width` in cells; drawn `cage`s dashed in `outlineC`;
    /// `rectangle`s and `circle`s `width` by `height` cells, centred on
    /// the middle of their cells, filled `baseC`, outlined `outlineC`,
    /// turned `angle` degrees clockwise, with their `value` in `fontC`;
    /// `text` `size` cells high in `fontC`, centred and turned the same
    /// way. A field left out takes f-puzzles' default. An item that cannot
    /// be placed (a cell off the board and its rim, a width that is not a
    /// number) is named in the legend, not dropped in silence.
    pub fn sketch(&self, size: Size) -> Vec<Mark> {
        let mut marks = Vec::new();
        let mut notes = Vec::new();
        for (index, fields) in &self.cells {
            if *index >= size.cells() {
                continue;
            }
            let cell = size.cell_at(*index);
            let place = format!("the colour of {cell}");
            let listed = match fields.get("cArray") {
                Some(Value::Array(list)) if !list.is_empty() => list.iter().collect(),
                _ => fields.get("c").into_iter().collect::<Vec<_>>(),
            };
            let mut colours = Vec::new();
            for value in listed {
                match value {
                    Value::Null => {}
                    Value::String(text) if text.trim().is_empty() => {}
                    Value::String(text) => match Colour::parse(text) {
                        Some(colour) => colours.push(colour),
                        None => notes.push(format!("{place} {text:?} is not drawn")),
                    },
                    other => notes.push(format!("{place} {other} is not drawn")),
                }
            }
            if !colours.is_empty() {
                marks.push(Mark::CellColours { cell, colours });
            }
        }
        for key in DRAWN_KEYS {
            for (k, item) in self.drawn(key).into_iter().enumerate() {
                match sketch_item(key, item, size) {
                    Ok(more) => marks.extend(more),
                    Err(why) => {
                        notes.push(format!("f-puzzles `{key}` {} is not drawn: {why}", k + 1))
                    }
                }
            }
        }
        marks.extend(notes.into_iter().map(Mark::Note));
        marks
    }

    /// The items of `key` that only draw, in the order read: a whole list
    /// kept as it was, and the drawn items of a list that held rules too.
    fn drawn(&self, key: &str) -> Vec<&Value> {
        let whole =
            self.whole
                .iter()
                .filter(|(k, _)| k == key)
                .flat_map(|(_, value)| match value {
                    Value::Array(list) => list.iter().collect(),
                    _ => Vec::new(),
                });
        let items = self
            .items
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, list)| list.iter());
        whole.chain(items).collect()
    }
}

/// The marks of one drawn item of `key`.
fn sketch_item(key: &str, item: &Value, size: Size) -> Result<Vec<Mark>, String> {
    let colour = |field: &str, default: Colour| -> Result<Colour, String> {
        match item.get(field) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(default),
            Some(Value::String(text)) => Colour::parse(text)
                .ok_or_else(|| format!("`{field}` {text:?} is not a colour #rrggbb")),
            Some(other) => Err(format!("`{field}` {other} is not a colour #rrggbb")),
        }
    };
    // A length or angle: a number (or a number in a string, as some
    // exports write it), finite and within `range`.
    let number = |field: &str, default: f64, range: (f64, f64)| -> Result<f64, String> {
        let n = match item.get(field) {
            None | Some(Value::Null) => return Ok(default),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(text)) => text.trim().parse::<f64>().ok(),
            Some(_) => None,
        };
        n.filter(|n| n.is_finite() && (range.0..=range.1).contains(n))
            .ok_or_else(|| {
                format!(
                    "`{field}` {} is not a number from {} to {}",
                    item.get(field).map_or(String::new(), Value::to_string),
                    range.0,
                    range.1
                )
            })
    };
    let text = |field: &str| -> Option<String> {
        match item.get(field) {
            Some(Value::String(t)) if !t.trim().is_empty() => Some(t.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        }
    };
    let side = size.side() as f64;
    let extent = (0.0, side + 2.0);
    let turn = (-3600.0, 3600.0);
    match key {
        "line" => {
            let stroke = colour("outlineC", Colour::BLACK)?;
            // f-puzzles' `width` is twice the stroke's, in cells.
            let width = number("width", 0.05, (0.0, 2.0))? / 2.0;
            let lines = item
                .get("lines")
                .and_then(Value::as_array)
                .ok_or("`lines` is not a list")?;
            lines
                .iter()
                .map(|line| {
                    let points = points(line, size)?;
                    Ok(Mark::Stroke {
                        points,
                        colour: stroke,
                        width,
                    })
                })
                .collect()
        }
        "cage" => {
            let cells = board_cells(item.get("cells"), size)?;
            Ok(vec![Mark::ColouredCage {
                cells,
                label: text("value"),
                outline: colour("outlineC", Colour::BLACK)?,
                font: colour("fontC", Colour::BLACK)?,
            }])
        }
        "rectangle" | "circle" => {
            let centre = centre(&points(item.get("cells").unwrap_or(&Value::Null), size)?);
            let font = colour("fontC", Colour::BLACK)?;
            Ok(vec![Mark::Shape {
                centre,
                width: number("width", 0.5, extent)?,
                height: number("height", 0.5, extent)?,
                round: key == "circle",
                fill: colour("baseC", Colour::WHITE)?,
                outline: colour("outlineC", Colour::BLACK)?,
                angle: number("angle", 0.0, turn)?,
                text: text("value").map(|t| (t, font)),
            }])
        }
        "text" => {
            let Some(words) = text("value") else {
                return Ok(Vec::new());
            };
            let centre = centre(&points(item.get("cells").unwrap_or(&Value::Null), size)?);
            Ok(vec![Mark::Text {
                centre,
                text: words,
                colour: colour("fontC", Colour::BLACK)?,
                size: number("size", 0.5, (0.0, side))?,
                angle: number("angle", 0.0, turn)?,
            }])
        }
        _ => Ok(Vec::new()),
    }
}

/// The centres of a list of cell names `R{row}C{col}`, on the board or on
/// its rim (row or column 0 or side + 1, where f-puzzles places what
/// stands beside the grid).
fn points(names: &Value, size: Size) -> Result<Vec<Point>, String> {
    let list = names.as_array().ok_or("its cells are not a list")?;
    if list.is_empty() {
        return Err("it names no cell".into());
    }
    let side = size.side() as i64;
    list.iter()
        .map(|name| {
            let text = name.as_str().unwrap_or("");
            let upper = text.trim().to_ascii_uppercase();
            upper
                .strip_prefix('R')
                .and_then(|rest| rest.split_once('C'))
                .and_then(|(r, c)| Some((r.parse::<i64>().ok()?, c.parse::<i64>().ok()?)))
                .filter(|&(r, c)| (0..=side + 1).contains(&r) && (0..=side + 1).contains(&c))
                .map(|(r, c)| Point {
                    x: c as f64 - 0.5,
                    y: r as f64 - 0.5,
                })
                .ok_or_else(|| format!("{name} is not a cell on the board or beside it"))
        })
        .collect()
}

/// The middle of `points` (their mean, as the programs that read
/// f-puzzles place a shape over several cells).
fn centre(points: &[Point]) -> Point {
    let n = points.len().max(1) as f64;
    Point {
        x: points.iter().map(|p| p.x).sum::<f64>() / n,
        y: points.iter().map(|p| p.y).sum::<f64>() / n,
    }
}

/// A drawn cage's cells: those on the board (f-puzzles lets a cage reach
/// the rim, where no cell is).
fn board_cells(names: Option<&Value>, size: Size) -> Result<Vec<Cell>, String> {
    let list = names
        .and_then(Value::as_array)
        .ok_or("its cells are not a list")?;
    let cells: Vec<Cell> = list
        .iter()
        .filter_map(|name| name.as_str().and_then(|n| cell_named(n, size)))
        .collect();
    if cells.is_empty() {
        return Err("it names no cell on the board".into());
    }
    Ok(cells)
}

/// The name a rule item's extra fields are kept under: its written key
/// and entry.
fn extras_name(key: &str, entry: &Value) -> String {
    format!("{key}\u{0}{entry}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::fpuzzles::parse;

    fn sketch_of(extra: &str, cell: &str) -> Vec<Mark> {
        let text = format!(
            r#"{{"size":4,"grid":[[{{{cell}}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{}}],[{{}},{{}},{{}},{{}}]]{extra}}}"#
        );
        let puzzle = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let size = puzzle.size();
        puzzle
            .cosmetics()
            .map(|c| c.sketch(size))
            .unwrap_or_default()
    }

    #[test]
    fn drawn_keys_sketch_as_the_file_gives_them() {
        let marks = sketch_of(
            r##","line":[{"lines":[["R1C1","R2C2"]],"outlineC":"#FFA500","width":0.5}],
            "rectangle":[{"cells":["R1C1","R1C2"],"baseC":"#FFFFFF","outlineC":"#000000","width":0.3,"height":"0.2","angle":45,"value":"x"}],
            "circle":[{"cells":["R0C5"]}],
            "text":[{"cells":["R4C4"],"value":"Hi","fontC":"#00000080","size":0.6}],
            "cage":[{"cells":["R3C3","R3C4","R3C5"],"outlineC":"#40E0D0"}]"##,
            r##""c":"#FF0000""##,
        );
        let orange = Colour::rgb(255, 165, 0);
        assert_eq!(
            marks,
            [
                Mark::CellColours {
                    cell: Size::from_side(4).unwrap().cell(0, 0),
                    colours: vec![Colour::rgb(255, 0, 0)],
                },
                Mark::Stroke {
                    points: vec![Point { x: 0.5, y: 0.5 }, Point { x: 1.5, y: 1.5 }],
                    colour: orange,
                    width: 0.25,
                },
                Mark::ColouredCage {
                    // R3C5 is beside the grid, where no cell is.
                    cells: vec![
                        Size::from_side(4).unwrap().cell(2, 2),
                        Size::from_side(4).unwrap().cell(2, 3)
                    ],
                    label: None,
                    outline: Colour::rgb(0x40, 0xe0, 0xd0),
                    font: Colour::BLACK,
                },
                // On the edge between its two cells.
                Mark::Shape {
                    centre: Point { x: 1.0, y: 0.5 },
                    width: 0.3,
                    height: 0.2,
                    round: false,
                    fill: Colour::WHITE,
                    outline: Colour::BLACK,
                    angle: 45.0,
                    text: Some(("x".into(), Colour::BLACK)),
                },
                // Beside the grid's top right corner: `R0C5` on 4x4.
                Mark::Shape {
                    centre: Point { x: 4.5, y: -0.5 },
                    width: 0.5,
                    height: 0.5,
                    round: true,
                    fill: Colour::WHITE,
                    outline: Colour::BLACK,
                    angle: 0.0,
                    text: None,
                },
                Mark::Text {
                    centre: Point { x: 3.5, y: 3.5 },
                    text: "Hi".into(),
                    colour: Colour {
                        alpha: 0x80,
                        ..Colour::BLACK
                    },
                    size: 0.6,
                    angle: 0.0,
                },
            ]
        );
    }

    #[test]
    fn what_cannot_be_placed_is_a_note() {
        let marks = sketch_of(
            r##","rectangle":[{"cells":["R1C1"],"width":-1}],"text":[{"cells":["R9C1"],"value":"far"}],"line":[{"lines":[["R1C1"]],"outlineC":"orange"}]"##,
            r##""cArray":["#00FF00","nope"]"##,
        );
        let notes: Vec<&str> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Note(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            notes,
            [
                "the colour of r1c1 \"nope\" is not drawn",
                "f-puzzles `line` 1 is not drawn: `outlineC` \"orange\" is not a colour #rrggbb",
                "f-puzzles `rectangle` 1 is not drawn: `width` -1 is not a number from 0 to 6",
                "f-puzzles `text` 1 is not drawn: \"R9C1\" is not a cell on the board or beside it",
            ]
        );
        // The readable colour of the cell is still drawn.
        assert!(
            marks
                .iter()
                .any(|m| matches!(m, Mark::CellColours { colours, .. } if colours.len() == 1))
        );
    }
}
