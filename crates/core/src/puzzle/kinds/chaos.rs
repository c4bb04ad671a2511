//! Chaos construction (sigh's `ChaosConstruction`): the board also parts
//! into orthogonally connected regions of N cells, N its longer side (N
//! regions on an NxN board, R on an RxN or NxR rectangle) unless a size is
//! given (`chaos construction regions of 4`, sigh's `RegionSize~4`), each
//! holding N different digits (every digit once, unless the board has
//! more digits than N), and which cells form which region is for the
//! solver to find.
//! As in sigh it is a rule beside the board's own regions: a chaos puzzle
//! drops the boxes as any board does (sigh's `NoBoxes`, a `regions` line
//! of dots), and one that keeps them has both.
//!
//! A solution is its digits: the regions are a witness that they keep the
//! rule. Two solutions with the same digits and different regions are one
//! solution here, where sigh, which solves for a region label per cell
//! too, counts each parting (see build.md, "Chaos construction"). The
//! checker finds a parting of the full grid by its own search
//! ([`partings`]), which the outputs print.
//!
//! Two clues read the regions, as in sigh: a chaos count (`ChaosCount`,
//! how many of some cells share the first one's region) and a chaos arrow
//! (`ChaosArrow`, how far the first cell's region runs along arms). They
//! lower to nothing of their own: the construction's one primitive holds
//! them ([`Clue`]), since they read its regions.
//!
//! f-puzzles has no such rules: they are read from rule lines and sigh
//! strings, and `--output fpuzzles` refuses them by name. sigh's givens on
//! region cells (`CC1_2`) are not read: its labels are its own numbering
//! (it pins a few far-apart cells to the first labels), so a region given
//! by number means nothing outside sigh.

use super::{Added, FromZero, Read, Rule, no_key, one};
use crate::puzzle::chaos::{Chaos, Clue};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, list};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Grid, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The board parts into connected regions that each hold different
/// digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChaosConstruction {
    /// The cells of a region, when they are not the board's longer side.
    pub region_cells: Option<usize>,
}

impl ChaosConstruction {
    /// The cells of a region on a board of `size`.
    pub fn region_cells(&self, size: Size) -> usize {
        self.region_cells.unwrap_or(size.side())
    }
}

/// The largest side chaos construction is stated on: sigh's largest board.
pub const LARGEST_SIDE: usize = 16;

impl Read for ChaosConstruction {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["chaos construction", "chaosconstruction"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `chaos construction`, or `chaos construction regions of N` (of
    /// the board's longer side, the same as without).
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words[..] {
            [] => Ok(one(ChaosConstruction::default())),
            ["regions", "of", n] => match n.parse::<usize>() {
                Ok(n) => Ok(one(ChaosConstruction {
                    region_cells: Some(n).filter(|&n| n != size.side()),
                })),
                Err(_) => Err(format!("expected a number of cells, found {n:?}")),
            },
            _ => Err(format!(
                "expected nothing after `chaos construction`, or `regions of N`, found {:?}",
                words.join(" ")
            )),
        }
    }

    const SIGH: &'static [&'static str] = &["ChaosConstruction"];

    /// `.ChaosConstruction`, with no arguments.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        match item.args {
            [] => Ok(one(ChaosConstruction::default())),
            _ => Err(item.invalid("expected no arguments")),
        }
    }
}

impl fmt::Display for ChaosConstruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("chaos construction")?;
        match self.region_cells {
            Some(n) => write!(f, " regions of {n}"),
            None => Ok(()),
        }
    }
}

impl Rule for ChaosConstruction {
    /// It reads only which digits repeat.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    /// Refused as sigh refuses it: regions of one cell, and regions that
    /// do not divide the board; past sigh's largest board; regions of more
    /// cells than the board has digits, which no grid fills; and more
    /// regions than digits: sigh labels each region by a value, and finds
    /// no solution then (`.Shape~4x4.NoBoxes.RegionSize~2` parted into 8
    /// regions: none, where the rule as stated has many), so such a size
    /// is refused rather than answered otherwise than sigh.
    fn validate(&self, size: Size) -> Result<(), String> {
        let n = self.region_cells(size);
        if size.side() > LARGEST_SIDE {
            return Err(format!(
                "z3doku states chaos construction on boards up to {LARGEST_SIDE}x{LARGEST_SIDE}, not {size}"
            ));
        }
        if n < 2 {
            return Err(match self.region_cells {
                None => format!(
                    "the {size} board's regions would be single cells: chaos construction needs regions of 2 cells or more"
                ),
                Some(_) => format!("regions of {n} cells: chaos construction needs 2 or more"),
            });
        }
        if !size.cells().is_multiple_of(n) {
            return Err(format!(
                "the {size} board's {} cells do not part into regions of {n}",
                size.cells()
            ));
        }
        if n > size.values() {
            return Err(format!(
                "a region of {n} cells cannot hold {n} different digits of the {size} board's {}",
                size.values()
            ));
        }
        if size.cells() / n > size.values() {
            return Err(format!(
                "regions of {n} cells part the {size} board into {} regions, more than its {} digits, which sigh labels the regions by",
                size.cells() / n,
                size.values()
            ));
        }
        Ok(())
    }

    /// One primitive, holding every clue over the regions.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        let clues = context
            .all
            .iter()
            .filter_map(|c| clue_of(c, size))
            .collect();
        vec![Primitive::Chaos(Arc::new(Chaos::new(
            size,
            self.region_cells(size),
            clues,
        )))]
    }

    /// As the rule reads: some parting of the full grid into connected
    /// regions of N cells with N different digits each.
    /// A solution's own regions are checked as they are; a grid without
    /// them must part somehow.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let n = self.region_cells(board.size());
        if let Some(regions) = board.grid.regions() {
            return wrong_regions(board.grid, n, regions);
        }
        let clues: Vec<Clue> = board
            .rules
            .constraints()
            .iter()
            .filter_map(|c| clue_of(c, board.size()))
            .collect();
        partings(board.grid, n, &clues, 1).is_empty().then(|| {
            let regions = board.size().cells() / n;
            format!(
                "the grid parts into no {regions} connected regions of {n} cells that each hold {n} different digits"
            )
        })
    }

    /// A line of the legend: the regions are for the solver to find (a
    /// picture of a solution draws those it found).
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let cells = match self.region_cells {
            Some(n) => format!("{n} cells"),
            None => "as many cells as its longer side".into(),
        };
        vec![Mark::Note(format!(
            "chaos construction: the grid parts into connected regions of {cells}, each holding different digits"
        ))]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".ChaosConstruction".into())
    }
}

/// What is wrong with `regions` (each cell's region) as a parting of the
/// full `grid` into regions of `n` cells: a region of other than `n`
/// cells, with a digit twice, or in pieces.
pub fn wrong_regions(grid: &Grid, n: usize, regions: &[u8]) -> Option<String> {
    let size = grid.size();
    let count = size.cells() / n;
    if regions.len() != size.cells() {
        return Some(format!(
            "its regions name {} cells, not {}",
            regions.len(),
            size.cells()
        ));
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (cell, &r) in regions.iter().enumerate() {
        match members.get_mut(usize::from(r)) {
            Some(cells) => cells.push(cell),
            None => {
                return Some(format!(
                    "{} is in region {}, past the {count} regions",
                    size.cell_at(cell),
                    r + 1
                ));
            }
        }
    }
    for (r, cells) in members.iter().enumerate() {
        if cells.len() != n {
            return Some(format!(
                "region {} has {} cells, not {n}",
                r + 1,
                cells.len()
            ));
        }
        let mut seen = 0u32;
        for &c in cells {
            let bit = 1u32 << grid.get(c);
            if seen & bit != 0 {
                return Some(format!("region {} holds {} twice", r + 1, grid.get(c)));
            }
            seen |= bit;
        }
        let mut reached = vec![cells[0]];
        let mut k = 0;
        while let Some(&c) = reached.get(k) {
            k += 1;
            for m in size.orthogonal(c) {
                if regions[m] == regions[c] && !reached.contains(&m) {
                    reached.push(m);
                }
            }
        }
        if reached.len() != n {
            return Some(format!("region {} is in pieces", r + 1));
        }
    }
    None
}

/// The clue a constraint states over the regions, if it is one.
pub fn clue_of(constraint: &super::Constraint, size: Size) -> Option<Clue> {
    let index = |c: &Cell| size.index(*c);
    match constraint {
        super::Constraint::ChaosCount(count) => Some(Clue::Count {
            control: index(&count.control),
            cells: count.cells.iter().map(index).collect(),
            offset: u8::from(count.exclude_first),
        }),
        super::Constraint::ChaosArrow(arrow) => Some(Clue::Arrow {
            control: index(&arrow.control),
            arms: arrow
                .arms
                .iter()
                .map(|arm| arm.iter().map(index).collect())
                .collect(),
            offset: u8::from(arrow.exclude_first),
        }),
        _ => None,
    }
}

/// The words `exclude first` at the start, taken off (sigh's offset 1).
fn exclude_first(words: &[String]) -> (bool, &[String]) {
    match words {
        [a, b, rest @ ..] if a == "exclude" && b == "first" => (true, rest),
        _ => (false, words),
    }
}

/// sigh's region cell `CC<k>`: the board's cell k, from 1 in reading
/// order.
fn region_cell(item: &sigh::SighItem<'_>, word: &str) -> Result<Cell, sigh::SighError> {
    word.strip_prefix("CC")
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| (1..=item.size.cells()).contains(k))
        .map(|k| item.size.cell_at(k - 1))
        .ok_or_else(|| {
            item.invalid(format!(
                "`{word}` is not a region cell CC1 to CC{} of chaos construction",
                item.size.cells()
            ))
        })
}

/// sigh's control cell and offset (`''`, `0` or `1`), and the words after.
fn control_and_offset<'w>(
    item: &sigh::SighItem<'_>,
    args: &'w [String],
) -> Result<(Cell, bool, &'w [String]), sigh::SighError> {
    let Some((control, rest)) = args.split_first() else {
        return Err(item.invalid("expected the control cell"));
    };
    let control = item.cell(control)?;
    let (exclude, rest) = match rest.split_first() {
        None => (false, rest),
        Some((offset, rest)) => match offset.as_str() {
            "" | "0" => (false, rest),
            "1" => (true, rest),
            other => return Err(item.invalid(format!("an offset of 0 or 1, found {other:?}"))),
        },
    };
    Ok((control, exclude, rest))
}

/// `CC<k>` ids of `cells`.
fn region_ids(size: Size, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&c| format!("~CC{}", size.index(c) + 1))
        .collect()
}

/// The control cell's digit counts the cells among `cells` in the region
/// of the first of them (sigh's `ChaosCount`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChaosCount {
    /// The cell holding the count.
    pub control: Cell,
    /// The cells counted (the first names the region, and counts itself).
    pub cells: Vec<Cell>,
    /// The count leaves the first cell out (sigh's offset 1).
    pub exclude_first: bool,
}

impl ChaosCount {
    /// sigh's cells when only the control is given: the control's own
    /// place first, then the eight around it on the board.
    fn around(control: Cell, size: Size) -> Vec<Cell> {
        let (rows, cols) = (size.rows() as isize, size.cols() as isize);
        let (r, c) = (control.row() as isize, control.col() as isize);
        [
            (0, 0),
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
        ]
        .iter()
        .map(|(dr, dc)| (r + dr, c + dc))
        .filter(|&(r, c)| (0..rows).contains(&r) && (0..cols).contains(&c))
        .map(|(r, c)| size.cell(r as usize, c as usize))
        .collect()
    }
}

impl Read for ChaosCount {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["chaos count", "chaoscount"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `chaos count [exclude first] (CONTROL) CELLS`; without cells, the
    /// control's place and the eight around it.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (exclude_first, words) = exclude_first(words);
        let cells = text::cells(words, size)?;
        let (&control, counted) = cells.split_first().ok_or("expected the control cell")?;
        let cells = match counted {
            [] => ChaosCount::around(control, size),
            _ => counted.to_vec(),
        };
        Ok(one(ChaosCount {
            control,
            cells,
            exclude_first,
        }))
    }

    const SIGH: &'static [&'static str] = &["ChaosCount"];

    /// `.ChaosCount~R1C1~0~CC1~CC2…`, or `.ChaosCount~R1C1` for the
    /// control's place and the eight around it.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let (control, exclude_first, rest) = control_and_offset(item, item.args)?;
        let cells = match rest {
            [] => ChaosCount::around(control, item.size),
            _ => rest
                .iter()
                .map(|w| region_cell(item, w))
                .collect::<Result<_, _>>()?,
        };
        Ok(one(ChaosCount {
            control,
            cells,
            exclude_first,
        }))
    }
}

impl fmt::Display for ChaosCount {
    /// `chaos count (r1c1) r1c1 r1c2`, which reads back as the same rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let exclude = if self.exclude_first {
            " exclude first"
        } else {
            ""
        };
        write!(
            f,
            "chaos count{exclude} ({}) {}",
            self.control,
            list(&self.cells, " ")
        )
    }
}

impl Rule for ChaosCount {
    /// Its control holds a count.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = vec![self.control];
        cells.extend(&self.cells);
        cells
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        if self.cells.is_empty() {
            return Err("no cells to count".into());
        }
        Ok(())
    }

    /// Stated in chaos construction's primitive.
    fn lower(&self, _: &Context<'_>) -> Vec<Primitive> {
        Vec::new()
    }

    /// On a solution's own regions; a grid without them is judged with
    /// chaos construction, which parts it with every clue.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let regions = board.grid.regions()?;
        let size = board.size();
        let region = |c: usize| regions.get(c).copied().unwrap_or(u8::MAX);
        let first = size.index(*self.cells.first()?);
        let count = self
            .cells
            .iter()
            .filter(|&&c| region(size.index(c)) == region(first))
            .count()
            - usize::from(self.exclude_first);
        let digit = board.digit(self.control);
        (usize::from(digit) != count).then(|| {
            format!(
                "{} holds {digit}, and {count} of its cells are in the region of {}",
                self.control, self.cells[0]
            )
        })
    }

    /// A square on the control cell; the counted cells outlined unless
    /// they are the control's own place and the cells around it.
    fn sketch(&self, size: Size) -> Vec<Mark> {
        let mut marks = vec![Mark::Square(self.control)];
        let mut counted = self.cells.clone();
        counted.sort_unstable();
        let mut around = ChaosCount::around(self.control, size);
        around.sort_unstable();
        if counted == around && self.cells.first() == Some(&self.control) {
            marks.push(Mark::Note(
                if self.exclude_first {
                    "chaos count exclude first: a square's digit is how many of the cells around it share its region"
                } else {
                    "chaos count: a square's digit is how many of the cells around it, itself included, share its region"
                }
                .into(),
            ));
        } else {
            marks.push(Mark::Cage {
                cells: self.cells.clone(),
                label: None,
            });
            marks.push(Mark::Note(self.to_string()));
        }
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".ChaosCount~{}~{}{}",
            sigh::id(self.control),
            u8::from(self.exclude_first),
            region_ids(board.size, &self.cells)
        ))
    }
}

/// The control cell's digit is how far the region of the arms' shared
/// first cell runs along them (sigh's `ChaosArrow`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChaosArrow {
    /// The cell holding the length.
    pub control: Cell,
    /// The arms, each from the same first cell.
    pub arms: Vec<Vec<Cell>>,
    /// The length leaves the first cell out (sigh's offset 1).
    pub exclude_first: bool,
}

impl ChaosArrow {
    /// sigh's arms when only the control is given: from the control's own
    /// place to the board's edge, left, right, up and down.
    fn every_way(control: Cell, size: Size) -> Vec<Vec<Cell>> {
        let (rows, cols) = (size.rows() as isize, size.cols() as isize);
        [(0, -1), (0, 1), (-1, 0), (1, 0)]
            .iter()
            .map(|&(dr, dc)| {
                let (mut r, mut c) = (control.row() as isize, control.col() as isize);
                let mut arm = Vec::new();
                while (0..rows).contains(&r) && (0..cols).contains(&c) {
                    arm.push(size.cell(r as usize, c as usize));
                    r += dr;
                    c += dc;
                }
                arm
            })
            .collect()
    }
}

impl Read for ChaosArrow {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["chaos arrow", "chaosarrow"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// `chaos arrow [exclude first] (CONTROL) (ARM) (ARM) …`; without arms,
    /// from the control's place to each edge.
    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        let (exclude_first, words) = exclude_first(words);
        let groups = text::groups(words, size)?;
        let (control, arms) = match groups.split_first() {
            Some((first, arms)) if first.len() == 1 => (first[0], arms.to_vec()),
            _ => return Err("expected the control cell in brackets, then the arms".into()),
        };
        let arms = match arms.is_empty() {
            true => ChaosArrow::every_way(control, size),
            false => arms,
        };
        Ok(one(ChaosArrow {
            control,
            arms,
            exclude_first,
        }))
    }

    const SIGH: &'static [&'static str] = &["ChaosArrow"];

    /// `.ChaosArrow~R1C1~0~CC1~CC2~-~CC1~CC10`, arms parted by `-`, or
    /// `.ChaosArrow~R1C1` for the arms to each edge.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let (control, exclude_first, rest) = control_and_offset(item, item.args)?;
        let arms = match rest {
            [] => ChaosArrow::every_way(control, item.size),
            _ => rest
                .split(|w| w == "-")
                .map(|arm| arm.iter().map(|w| region_cell(item, w)).collect())
                .collect::<Result<_, _>>()?,
        };
        Ok(one(ChaosArrow {
            control,
            arms,
            exclude_first,
        }))
    }
}

impl fmt::Display for ChaosArrow {
    /// `chaos arrow (r1c1) (r1c1 r1c2) (r1c1 r2c1)`, which reads back as
    /// the same rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let exclude = if self.exclude_first {
            " exclude first"
        } else {
            ""
        };
        write!(f, "chaos arrow{exclude} ({})", self.control)?;
        for arm in &self.arms {
            write!(f, " ({})", list(arm, " "))?;
        }
        Ok(())
    }
}

impl Rule for ChaosArrow {
    /// Its control holds a length.
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = vec![self.control];
        cells.extend(self.arms.iter().flatten());
        cells
    }

    /// Refused as sigh refuses it: no arm, or arms from different cells.
    fn validate(&self, _: Size) -> Result<(), String> {
        let Some(start) = self.arms.first().and_then(|arm| arm.first()) else {
            return Err("no arm".into());
        };
        if self.arms.iter().any(|arm| arm.first() != Some(start)) {
            return Err(format!("its arms do not all start at {start}"));
        }
        Ok(())
    }

    /// Stated in chaos construction's primitive.
    fn lower(&self, _: &Context<'_>) -> Vec<Primitive> {
        Vec::new()
    }

    /// On a solution's own regions, walking each arm from its first cell;
    /// a grid without them is judged with chaos construction.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let regions = board.grid.regions()?;
        let size = board.size();
        let region = |c: Cell| regions.get(size.index(c)).copied().unwrap_or(u8::MAX);
        let long: Vec<&Vec<Cell>> = self.arms.iter().filter(|arm| arm.len() > 1).collect();
        let arms = if long.is_empty() {
            self.arms.iter().take(1).collect()
        } else {
            long
        };
        let mut length = 0;
        for arm in &arms {
            let start = region(arm[0]);
            length += arm.iter().take_while(|&&c| region(c) == start).count();
        }
        // The first cell is on every arm and counts once.
        length = length + 1 - arms.len() - usize::from(self.exclude_first);
        let digit = board.digit(self.control);
        (usize::from(digit) != length).then(|| {
            format!(
                "{} holds {digit}, and the region of {} runs {length} along its arms",
                self.control, self.arms[0][0]
            )
        })
    }

    /// A circle on the arms' first cell with an arrow along each arm, as
    /// sigh draws it; a control elsewhere gets a square and the rule's line.
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let mut marks: Vec<Mark> = self
            .arms
            .iter()
            .filter(|arm| arm.len() >= 2)
            .map(|arm| Mark::Arrow {
                circle: vec![arm[0]],
                line: arm[1..].to_vec(),
            })
            .collect();
        if self
            .arms
            .iter()
            .all(|arm| arm.first() == Some(&self.control))
        {
            marks.push(Mark::Note(
                if self.exclude_first {
                    "chaos arrow exclude first: a circle's digit is how far its cell's region runs on along its arrows, the circle's cell not counted"
                } else {
                    "chaos arrow: a circle's digit is how many cells its cell's region runs along its arrows, the circle's cell included"
                }
                .into(),
            ));
        } else {
            marks.push(Mark::Square(self.control));
            marks.push(Mark::Note(self.to_string()));
        }
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }

    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let arms: Vec<String> = self
            .arms
            .iter()
            .map(|arm| region_ids(board.size, arm))
            .collect();
        sigh::ToSigh::Item(format!(
            ".ChaosArrow~{}~{}{}",
            sigh::id(self.control),
            u8::from(self.exclude_first),
            arms.join("~-")
        ))
    }
}

/// Up to `limit` partings of the full `grid` into connected regions of
/// `region_cells` cells, each holding different digits: each a
/// region number per cell, the regions numbered from 0 in the order their
/// first cells come in reading order (so each parting once). A plain search of its own,
/// apart from the engines' ([`Chaos`]): each region grows from the first
/// cell in none, and every cell of its border is tried in and out.
pub fn partings(grid: &Grid, region_cells: usize, clues: &[Clue], limit: usize) -> Vec<Vec<u8>> {
    let size = grid.size();
    let mut found = Vec::new();
    if limit == 0 || size.side() > LARGEST_SIDE || !grid.is_full() {
        return found;
    }
    let mut parting = Parting {
        grid,
        size,
        region_cells,
        region: vec![None; size.cells()],
        clues,
        found: &mut found,
        limit,
    };
    parting.next(0);
    found
}

struct Parting<'a> {
    grid: &'a Grid,
    size: Size,
    region_cells: usize,
    region: Vec<Option<u8>>,
    clues: &'a [Clue],
    found: &'a mut Vec<Vec<u8>>,
    limit: usize,
}

impl Parting<'_> {
    fn done(&self) -> bool {
        self.found.len() >= self.limit
    }

    /// Starts region `k` at the first cell in none.
    fn next(&mut self, k: u8) {
        let Some(root) = self.region.iter().position(Option::is_none) else {
            let regions: Vec<u8> = self.region.iter().map(|r| r.unwrap_or(0)).collect();
            let region = |c: usize| regions[c];
            if self
                .clues
                .iter()
                .all(|clue| clue.agrees(self.grid.get(clue.control()), &region))
            {
                self.found.push(regions);
            }
            return;
        };
        self.region[root] = Some(k);
        let digits = 1u32 << self.grid.get(root);
        self.grow(k, 1, digits, Vec::new(), vec![root]);
        self.region[root] = None;
    }

    /// Region `k` has `count` cells holding `digits`; `out` are the cells
    /// decided out of it, `members` its cells.
    fn grow(&mut self, k: u8, count: usize, digits: u32, out: Vec<usize>, members: Vec<usize>) {
        if self.done() {
            return;
        }
        if count == self.region_cells {
            self.next(k + 1);
            return;
        }
        // The first border cell not decided: in, then out.
        let border = members
            .iter()
            .flat_map(|&m| self.size.orthogonal(m))
            .find(|&c| self.region[c].is_none() && !out.contains(&c));
        let Some(cell) = border else {
            return;
        };
        let bit = 1u32 << self.grid.get(cell);
        if digits & bit == 0 {
            self.region[cell] = Some(k);
            let mut more = members.clone();
            more.push(cell);
            self.grow(k, count + 1, digits | bit, out.clone(), more);
            self.region[cell] = None;
        }
        let mut out = out;
        out.push(cell);
        self.grow(k, count, digits, out, members);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::parse_puzzle;

    #[test]
    fn a_region_size_reads_back_and_is_refused_where_it_cannot_part() {
        let read = |words: &str, size: Size| {
            let words: Vec<String> = words.split_whitespace().map(String::from).collect();
            let added = ChaosConstruction::from_text("chaos construction", &words, size)?;
            match added.as_slice() {
                [Added::Constraint(super::super::Constraint::ChaosConstruction(c))] => {
                    c.validate(size).map(|()| c.to_string())
                }
                _ => Err("not one chaos construction".into()),
            }
        };
        let four = Size::from_side(4).unwrap_or_default();
        let eight = four.with_values(8).unwrap_or_default();
        assert_eq!(read("", four), Ok("chaos construction".into()));
        // The longer side is the same as no size.
        assert_eq!(read("regions of 4", four), Ok("chaos construction".into()));
        assert_eq!(
            read("regions of 8", eight),
            Ok("chaos construction regions of 8".into())
        );
        assert_eq!(read("regions of 2", eight).map(|_| ()), Ok(()));
        for (words, why) in [
            ("regions of 3", "do not part into regions of 3"),
            ("regions of 2", "8 regions, more than its 4 digits"),
            ("regions of 1", "needs 2 or more"),
            ("regions of 16", "cannot hold 16 different digits"),
            ("regions of four", "expected a number"),
        ] {
            let got = read(words, four);
            assert!(
                got.as_ref().is_err_and(|e| e.contains(why)),
                "{words}: {got:?}"
            );
        }
    }

    #[test]
    fn the_notebook_solution_parts_into_its_boxes_and_rows() {
        use crate::puzzle::kinds::notebook_solution_under as check;
        assert!(check("chaos construction").is_ok());
        assert!(check("chaos construction 3").is_err());
    }

    #[test]
    fn partings_are_listed_once_each() {
        // The rows of a 4x4 Latin square with boxes: its rows, its
        // columns and its boxes each part it, and the search finds each
        // once.
        let grid = parse_puzzle("1234341221434321", None).unwrap_or_else(|e| panic!("{e}"));
        let all = partings(&grid, 4, &[], 100);
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(all.len(), unique.len());
        let rows: Vec<u8> = (0..16).map(|c| c / 4).collect();
        let boxes: Vec<u8> = (0..16).map(|c| (c / 8) * 2 + (c % 4) / 2).collect();
        assert!(all.contains(&rows));
        assert!(all.contains(&boxes));
        // Two 1s beside each other in a corner, whose other neighbour
        // holds 1 as well: no parting.
        let grid = parse_puzzle("1123134223143421", None).unwrap_or_else(|e| panic!("{e}"));
        assert!(partings(&grid, 4, &[], 1).is_empty());
        assert_eq!(
            ChaosConstruction::default().to_sigh(&sigh::SighBoard {
                size: Size::NINE,
                constraints: &[]
            }),
            sigh::ToSigh::Item(".ChaosConstruction".into())
        );
    }
}
