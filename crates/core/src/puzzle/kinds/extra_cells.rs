//! Cells outside the grid, as sigh's Interactive Sudoku Solver declares
//! them (`.Var~A~label~2`, `.Var~B~~3x3`): unknowns that hold one of the
//! board's digits, that no row, column or region holds, and that any rule
//! may name. sigh calls a group's cells `VA1`, `VA2`, ... (`VA` alone for a
//! group of one); z3doku numbers every such cell of the board `v1`, `v2`,
//! ... across the groups in the order of their prefixes, which is the
//! order sigh keeps them in, and the board's [`Size`] counts them
//! ([`Size::with_extra`]).
//!
//! A group only declares cells: what they hold is up to the rules that
//! name them, so it is lowered to nothing and no full grid breaks it. Its
//! rule line is `extra cells A 2` (or `extra cells B 3x3`), which the text
//! form reads before the other rules so that they may name `v1`, ...
//! f-puzzles has no such cells: a puzzle with them is not written as an
//! f-puzzles file.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::Context;
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// One group of cells outside the grid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExtraCells {
    /// sigh's prefix: upper-case letters A to Z.
    pub prefix: String,
    /// sigh's label, shown by sigh beside the cells: kept as the string
    /// wrote it (URI-encoded) for writing back.
    pub label: String,
    /// How many cells.
    pub count: usize,
    /// The columns sigh lays them out in when declared as `RxC`, else 0.
    pub columns: usize,
    /// The number of its first cell among the board's cells outside the
    /// grid (from 0).
    pub first: usize,
}

impl ExtraCells {
    /// A group as sigh's `Var` reads its prefix and size: the size is a
    /// count (`2`) or rows and columns (`3x3`), and, as in sigh, anything
    /// else is one cell. Its cells are placed by [`number`].
    pub fn new(prefix: &str, label: &str, size: &str) -> Result<ExtraCells, String> {
        if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "a group's prefix is upper-case letters A to Z, not {prefix:?}"
            ));
        }
        let positive = |w: &str| {
            w.parse::<usize>()
                .ok()
                .filter(|&n| n > 0 && !w.starts_with(['0', '+']))
        };
        let (count, columns) = match size.split_once('x') {
            Some((rows, cols)) => match (positive(rows), positive(cols)) {
                (Some(rows), Some(cols)) => (rows.saturating_mul(cols), cols),
                _ => (1, 0),
            },
            None => (positive(size).unwrap_or(1), 0),
        };
        Ok(ExtraCells {
            prefix: prefix.to_string(),
            label: label.to_string(),
            count,
            columns,
            first: 0,
        })
    }

    /// The size as sigh writes it: the count, or `RxC`.
    pub fn size_text(&self) -> String {
        match self.columns {
            0 => self.count.to_string(),
            cols => format!("{}x{cols}", self.count / cols),
        }
    }

    /// sigh's id of its `k`th cell (from 0): `VA1`, or `VA` for a group of
    /// one.
    pub fn id(&self, k: usize) -> String {
        match self.count {
            1 => format!("V{}", self.prefix),
            _ => format!("V{}{}", self.prefix, k + 1),
        }
    }

    /// The number (from 0) among the board's cells outside the grid of
    /// the cell sigh names `id`, if it is one of this group's.
    pub fn number_of(&self, id: &str) -> Option<usize> {
        let rest = id.strip_prefix('V')?.strip_prefix(self.prefix.as_str())?;
        if self.count == 1 {
            return rest.is_empty().then_some(self.first);
        }
        let k: usize = rest
            .parse()
            .ok()
            .filter(|_| !rest.starts_with(['0', '+']))?;
        (1..=self.count).contains(&k).then(|| self.first + k - 1)
    }
}

/// The groups numbered as sigh numbers them: a prefix declared twice
/// keeps its last declaration, as in sigh, and the groups are sorted by
/// prefix, each group's cells after the last group's. Also the total, the
/// board's count of cells outside the grid.
pub fn number(groups: Vec<ExtraCells>) -> (Vec<ExtraCells>, usize) {
    let mut kept: Vec<ExtraCells> = Vec::with_capacity(groups.len());
    for group in groups.into_iter().rev() {
        if !kept.iter().any(|k| k.prefix == group.prefix) {
            kept.push(group);
        }
    }
    kept.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    let mut next = 0usize;
    for group in &mut kept {
        group.first = next;
        next = next.saturating_add(group.count);
    }
    (kept, next)
}

/// The rule line's names.
pub const NAMES: &[&str] = &["extra cells"];

impl Read for ExtraCells {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = NAMES;

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `extra cells A 2`, `extra cells B 3x3`: the text form reads these
    /// lines first and numbers them (see `rule_text`), so here a line is
    /// one group of the board's, found by its prefix.
    fn from_text(_: &str, words: &[String], _: Size) -> Result<Vec<Added>, String> {
        match words {
            // Words come in lower case; sigh's prefixes are upper case.
            [prefix, cells] => Ok(one(ExtraCells::new(
                &prefix.to_ascii_uppercase(),
                "",
                cells,
            )?)),
            _ => Err("expected a prefix and a size, as `extra cells A 2`".into()),
        }
    }

    const SIGH: &'static [&'static str] = &["Var"];

    /// `.Var~PREFIX~LABEL~SIZE`: the group as the board numbered it when
    /// the string was first read.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let prefix = item.args.first().map_or("", String::as_str);
        let group = item
            .extras
            .iter()
            .find(|g| g.prefix == prefix)
            .ok_or_else(|| item.invalid(format!("no group {prefix:?}")))?;
        Ok(one(group.clone()))
    }
}

impl fmt::Display for ExtraCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "extra cells {} {}", self.prefix, self.size_text())
    }
}

impl Rule for ExtraCells {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        (self.first..self.first + self.count)
            .map(Cell::extra_at)
            .collect()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        match self.first + self.count <= size.extra() {
            true => Ok(()),
            false => Err(format!(
                "the board has {} cells outside the grid, not the {} its groups declare",
                size.extra(),
                self.first + self.count
            )),
        }
    }

    /// Nothing: the cells hold the board's digits, which every engine's
    /// unknowns do already.
    fn lower(&self, _: &Context<'_>) -> Vec<Primitive> {
        Vec::new()
    }

    fn broken(&self, _: &Board<'_>) -> Option<String> {
        None
    }

    fn sketch(&self, _: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let size = self.size_text();
        let mut args = vec![self.prefix.clone(), self.label.clone(), size];
        // sigh leaves out trailing defaults.
        if args[2] == "1" {
            args.pop();
            if args[1].is_empty() {
                args.pop();
            }
        }
        sigh::ToSigh::Item(format!(".Var~{}", args.join("~")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(prefix: &str, size: &str) -> ExtraCells {
        ExtraCells::new(prefix, "", size).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn sizes_read_as_sigh_reads_them() {
        let counts = |size: &str| (group("A", size).count, group("A", size).columns);
        assert_eq!(counts("2"), (2, 0));
        assert_eq!(counts("3x4"), (12, 4));
        // Anything else is one cell.
        for other in ["", "0", "x", "2x", "+2", "02", "2x0"] {
            assert_eq!(counts(other), (1, 0), "{other:?}");
        }
        assert_eq!(group("A", "3x4").size_text(), "3x4");
        assert!(ExtraCells::new("a", "", "2").is_err());
        assert!(ExtraCells::new("A1", "", "2").is_err());
    }

    #[test]
    fn groups_number_their_cells_by_prefix_and_name_them_as_sigh_does() {
        let (groups, total) = number(vec![group("B", "1"), group("A", "2"), group("A", "3")]);
        assert_eq!(total, 4);
        let [a, b] = &groups[..] else {
            panic!("{groups:?}");
        };
        // The last `A` is the one kept; `B` comes after it.
        assert_eq!((a.count, a.first, b.first), (3, 0, 3));
        assert_eq!(
            (a.id(0), a.id(2), b.id(0)),
            ("VA1".into(), "VA3".into(), "VB".into())
        );
        assert_eq!(a.number_of("VA3"), Some(2));
        assert_eq!(b.number_of("VB"), Some(3));
        for not in ["VA", "VA0", "VA4", "VA01", "VB1", "VAB1", "A1"] {
            assert_eq!(a.number_of(not).or(b.number_of(not)), None, "{not}");
        }
    }
}
