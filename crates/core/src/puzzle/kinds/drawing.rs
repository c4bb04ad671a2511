//! The f-puzzles keys that only draw, describe or configure the page, and
//! change no rule: read and set aside, so that a puzzle saved from
//! f-puzzles reads, while a key z3doku does not know stays an error.

use super::{Added, Read};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::Size;
use crate::puzzle::sigh;
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

/// The name a rule item's extra fields are kept under: its written key
/// and entry.
fn extras_name(key: &str, entry: &Value) -> String {
    format!("{key}\u{0}{entry}")
}
