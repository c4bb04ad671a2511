//! Reading sigh's strings and links into a [`Puzzle`].

use super::{SighError, SighItem, compact, link_query, unescape};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Grid, MAX_CELLS, MAX_EXTRA, Size};
use crate::puzzle::kinds::{
    Added, Constraint, Read,
    board::{NegativeRatio, NonConsecutive},
    cages::ExtraRegion,
    cells::{Allowed, Even, Odd},
    either::{self, Either},
    extra_cells::{self, ExtraCells},
    full_rank::NoTies,
    readers_of_sigh,
};
use crate::puzzle::parse::parse_puzzle;
use crate::puzzle::rules::Rules;

/// Reads a sigh string, or a link whose `q` holds one (or holds a plain
/// grid, which sigh's page also takes), into a puzzle.
pub fn parse(text: &str) -> Result<Puzzle, SighError> {
    let text = text.trim();
    let string = match link_query(text) {
        Some(query) => unescape(query)?,
        None => text.to_string(),
    };
    let string = compact(&string);
    if !string.starts_with('.') {
        // A link's `q` may be a grid of givens alone.
        let grid = parse_puzzle(&string, None).map_err(|e| SighError::Invalid {
            item: "q".into(),
            problem: e.to_string(),
        })?;
        return Ok(Puzzle::classic(grid));
    }
    let items = items(&string)?;
    let (size, lowest) = shape(&items)?;
    let (size, extras) = extra_cells(&items, size)?;
    let items = super::replicate::expand(items, size)?;
    let mut reader = Reader::new(size, lowest, extras);
    for item in &items {
        reader.item(item)?;
    }
    reader.finish()
}

/// One item: its type (`Given` for the empty one) and its arguments.
#[derive(Clone, Debug)]
pub(super) struct Item {
    pub(super) kind: String,
    pub(super) args: Vec<String>,
    pub(super) text: String,
}

impl Item {
    /// An item made of its type and arguments (a `Replicate`'s copy).
    pub(super) fn new(kind: &str, args: Vec<String>) -> Item {
        let name = if kind == "Given" { "" } else { kind };
        let text = std::iter::once(name)
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("~");
        Item {
            kind: kind.to_string(),
            args,
            text,
        }
    }

    /// The item as kinds read it on a board of `size` whose groups of
    /// cells outside the grid are `extras`.
    fn as_sigh<'a>(
        &'a self,
        size: Size,
        extras: &'a [ExtraCells],
        args: &'a [String],
    ) -> SighItem<'a> {
        SighItem {
            kind: &self.kind,
            args,
            size,
            extras,
            text: &self.text,
        }
    }

    pub(super) fn invalid(&self, problem: impl Into<String>) -> SighError {
        SighError::Invalid {
            item: shortened(&self.text),
            problem: problem.into(),
        }
    }

    pub(super) fn differs(&self, why: impl Into<String>) -> SighError {
        SighError::Differs {
            kind: self.kind.clone(),
            why: why.into(),
        }
    }
}

/// An item as messages quote it: whole when short, else its start.
fn shortened(text: &str) -> String {
    const MOST: usize = 40;
    match text.char_indices().nth(MOST) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The items of a compacted string that starts with `.`.
fn items(string: &str) -> Result<Vec<Item>, SighError> {
    string
        .split('.')
        .skip(1)
        .map(|text| {
            let mut parts = text.split('~');
            let kind = parts.next().unwrap_or_default();
            Ok(Item {
                kind: if kind.is_empty() { "Given" } else { kind }.to_string(),
                args: parts.map(str::to_string).collect(),
                text: text.to_string(),
            })
        })
        .collect()
}

/// The board size the `Shape` item gives (9x9 without one) and the value
/// of its digit 1: sigh's `<rows>x<columns>[~<range>][~<grid type>]`, its
/// range a count of values from 1 (`9x9~9`) or a first and last value
/// (`9x9~1-9`, `9x9~0-8`: sigh's values start at 0 or 1). z3doku solves
/// boards of 1 to 16 rows and columns (`6x9`: 6 rows of 9 cells) whose
/// digits run from 1 or from 0, as many as the longer side or more (up to
/// 16), and sigh's `Raw` grids (`9x9~~Raw`, `9x9~1-2~Raw`): no rows,
/// columns or boxes, and from 1 to 16 values.
fn shape(items: &[Item]) -> Result<(Size, u8), SighError> {
    let Some(item) = items.iter().find(|i| i.kind == "Shape") else {
        return Ok((Size::NINE, 1));
    };
    let spec = item.args.join("~");
    let mut parts = spec.split('~');
    let dims = parts.next().unwrap_or_default();
    let range = parts.next().filter(|r| !r.is_empty());
    let grid_type = parts.next();
    if parts.next().is_some() {
        return Err(item.invalid("a shape is `<rows>x<columns>[~<range>][~<grid type>]`"));
    }
    let (rows, cols) = dims
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        .ok_or_else(|| item.invalid("not a shape `<rows>x<columns>`"))?;
    if !(1..=super::MAX_SIDE).contains(&rows) || !(1..=super::MAX_SIDE).contains(&cols) {
        return Err(item.invalid(format!("{rows}x{cols} is not a board sigh has")));
    }
    let raw = match grid_type {
        None | Some("Sudoku") => false,
        Some("Raw") => true,
        Some(other) => {
            return Err(item.invalid(format!("{other}: sigh's grid types are `Sudoku` and `Raw`")));
        }
    };
    // A board has as many values as its longer side unless its range says
    // otherwise: on a rectangle its long lines and its boxes are houses,
    // its short lines only keep values apart; a Raw grid has no houses.
    let size = if raw {
        Size::raw(rows, cols, rows.max(cols))
    } else {
        Size::rectangle(rows, cols)
    }
    .ok_or_else(|| item.invalid(format!("{rows}x{cols} is not a board sigh has")))?;
    // A Raw grid needs one value; a Sudoku grid one per cell of its
    // longer side.
    let longer = size.side();
    let fewest = if raw { 1 } else { longer };
    // sigh's value count and first value; it has no other first values.
    let (count, lowest) = match range {
        None => (longer, 1),
        Some(range) => {
            let number = |w: &str| w.parse::<usize>().ok().filter(|_| !w.starts_with('+'));
            let read = match range.split_once('-') {
                None => number(range).map(|count| (count, 1)),
                Some((first, last)) => number(first)
                    .zip(number(last))
                    .filter(|(first, last)| first <= last)
                    .map(|(first, last)| (last - first + 1, first)),
            };
            read.filter(|&(count, first)| first <= 1 && (fewest..=super::MAX_SIDE).contains(&count))
                .ok_or_else(|| {
                    item.invalid(format!(
                        "values {range}: sigh's run from 0 or 1, at least {fewest} and at most {} \
                         of them",
                        super::MAX_SIDE
                    ))
                })?
        }
    };
    // More values than a row has cells: no row, column or box holds every
    // value, and each only keeps its values apart, as sigh's do.
    let size = size
        .with_values(count)
        .ok_or_else(|| item.invalid(format!("{count} values on a {size} board")))?;
    Ok((size, lowest as u8))
}

/// The board with the cells outside the grid that the `Var` items
/// declare, and their groups as sigh numbers them (sigh reads every `Var`
/// before the cells the other items name, wherever they stand).
fn extra_cells(items: &[Item], size: Size) -> Result<(Size, Vec<ExtraCells>), SighError> {
    let mut groups = Vec::new();
    for item in items.iter().filter(|i| i.kind == "Var") {
        let arg = |k: usize| item.args.get(k).map_or("", String::as_str);
        groups.push(ExtraCells::new(arg(0), arg(1), arg(2)).map_err(|e| item.invalid(e))?);
    }
    let (groups, count) = extra_cells::number(groups);
    let size = size.with_extra(count).ok_or_else(|| SighError::Invalid {
        item: "Var".into(),
        problem: format!(
            "{count} cells outside the grid; z3doku takes up to {} beside a {size} grid",
            MAX_EXTRA.min(MAX_CELLS - size.cells())
        ),
    })?;
    Ok((size, groups))
}

/// sigh's types that need a Sudoku grid (its `REQUIRES_SUDOKU_GRID`, and
/// the chaos clues, which need a chaos construction's region cells): on a
/// `Raw` grid they are refused, as sigh refuses them.
const ON_SUDOKU_GRIDS: &[&str] = &[
    "LittleKiller",
    "XSum",
    "Sandwich",
    "Skyscraper",
    "HiddenSkyscraper",
    "NumberedRoom",
    "FullRank",
    "FullRankTies",
    "Jigsaw",
    "NoBoxes",
    "RegionSize",
    "RegionSameValues",
    "ChaosConstruction",
    "ChaosCount",
    "ChaosArrow",
    "Windoku",
    "DisjointSets",
    "AntiKnight",
    "AntiKing",
    "Doppelganger",
    "Diagonal",
    "Indexing",
];

/// What reading has found so far.
struct Reader {
    size: Size,
    /// The groups of cells outside the grid, numbered.
    extras: Vec<ExtraCells>,
    /// The value of the digit 1: 1, or 0 when sigh's shape says the
    /// values run from 0.
    lowest: u8,
    /// Each cell's digits still allowed, as bits (`d - 1`).
    candidates: Vec<u32>,
    added: Vec<Added>,
    no_boxes: bool,
    /// sigh's `RegionSize`: how many cells its boxes have (the first one
    /// given, as in sigh).
    region_size: Option<usize>,
    jigsaw: Option<Vec<char>>,
    anti_consecutive: bool,
    strict_kropki: bool,
    /// Dots read from `Pair`s: sigh's strict rules do not exempt them, and
    /// z3doku's would.
    pair_dots: bool,
    disjoint_sets: bool,
    /// sigh's `FullRankTies` option, the last one given.
    full_rank_ties: Ties,
    /// The `Or`s and `And`s whose `End` has not come yet, innermost last.
    groups: Vec<Group>,
}

/// sigh's `FullRankTies` option: when full rank numbers may tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ties {
    /// Its default: no number ties with a clued one.
    OnlyUnclued,
    /// Ties share a rank.
    Any,
    /// No two numbers of the board tie, clued or not.
    None,
}

/// An `Or` or `And` being read: its children, each a branch of one rule
/// or more (an `And` inside an `Or` is one branch, and so is one item that
/// makes several rules, as in sigh).
struct Group {
    or: bool,
    children: Vec<Vec<Constraint>>,
}

impl Reader {
    fn new(size: Size, lowest: u8, extras: Vec<ExtraCells>) -> Reader {
        Reader {
            size,
            extras,
            lowest,
            candidates: vec![all(size); size.all_cells()],
            added: Vec::new(),
            no_boxes: false,
            region_size: None,
            jigsaw: None,
            anti_consecutive: false,
            strict_kropki: false,
            pair_dots: false,
            disjoint_sets: false,
            full_rank_ties: Ties::OnlyUnclued,
            groups: Vec::new(),
        }
    }

    fn constraint(&mut self, constraint: impl Into<Constraint>) {
        self.added.push(Added::Constraint(constraint.into()));
    }

    /// A child of the innermost open group, or a rule of the puzzle when
    /// none is open.
    fn put(&mut self, unit: Vec<Constraint>) {
        match self.groups.last_mut() {
            Some(group) => group.children.push(unit),
            None => {
                for constraint in unit {
                    self.constraint(constraint);
                }
            }
        }
    }

    fn item(&mut self, item: &Item) -> Result<(), SighError> {
        if self.size.is_raw() && ON_SUDOKU_GRIDS.contains(&item.kind.as_str()) {
            return Err(item.invalid(format!(
                "sigh takes `{}` on Sudoku grids only, and this is a Raw grid",
                item.kind
            )));
        }
        match item.kind.as_str() {
            "Or" | "And" => {
                // Each level is a level of recursion in every back end.
                if self.groups.len() >= either::MOST_DEPTH {
                    return Err(
                        item.invalid(format!("groups stand at most {} deep", either::MOST_DEPTH))
                    );
                }
                self.groups.push(Group {
                    or: item.kind == "Or",
                    children: Vec::new(),
                });
                return Ok(());
            }
            "End" => {
                let group = self
                    .groups
                    .pop()
                    .ok_or_else(|| item.invalid("an End with no Or or And open"))?;
                let unit = if group.or {
                    vec![Either(group.children).into()]
                } else {
                    group.children.concat()
                };
                self.put(unit);
                return Ok(());
            }
            _ => {}
        }
        if self.groups.is_empty() {
            return self.plain(item);
        }
        // One item is one child, however many rules it makes: sigh makes a
        // constraint of each given cell, each end of an outside clue and
        // each group of a pair, and inside an `Or` joins those of one item
        // in an `And`, a single branch.
        let kind = item.kind.as_str();
        if kind == "Var" {
            return Err(item.invalid("sigh declares cells outside the grid only at the top level"));
        }
        if kind == "Given" {
            let mut unit = Vec::new();
            for arg in &item.args {
                let (cell, digits) = self.given(item, arg)?;
                unit.push(Allowed { cell, digits }.into());
            }
            if !unit.is_empty() {
                self.put(unit);
            }
            return Ok(());
        }
        if !matches!(kind, "Pair" | "PairX" | "Binary" | "BinaryX")
            && readers_of_sigh(kind).next().is_none()
        {
            return Err(item.differs(
                "inside an Or or And, where z3doku joins rules of cells, lines, groups and \
                 outside clues",
            ));
        }
        let mark = self.added.len();
        self.plain(item)?;
        let read: Vec<Added> = self.added.drain(mark..).collect();
        let mut unit = Vec::new();
        for added in read {
            match added {
                Added::Constraint(c) if !either::whole_board(&c) => unit.push(c),
                _ => {
                    return Err(item.differs(
                        "inside an Or or And, which sigh keeps to rules of cells, lines, \
                         groups and outside clues",
                    ));
                }
            }
        }
        if !unit.is_empty() {
            self.put(unit);
        }
        Ok(())
    }

    /// A given's cell and digits (`R1C1_5`, `R1C1_1_3_5`).
    fn given(&self, item: &Item, arg: &str) -> Result<(Cell, u32), SighError> {
        let size = self.size;
        let mut parts = arg.split('_');
        let at = item
            .as_sigh(size, &self.extras, &item.args)
            .cell(parts.next().unwrap_or_default())?;
        let mut digits = 0u32;
        let lowest = usize::from(self.lowest);
        for value in parts {
            // The value, which is the digit (1 to N) less one when the
            // values run from 0.
            let d: usize = value
                .parse::<usize>()
                .ok()
                .filter(|v| (lowest..lowest + size.values()).contains(v) && value == v.to_string())
                .map(|v| v + 1 - lowest)
                .ok_or_else(|| {
                    item.invalid(format!(
                        "`{arg}`: {value:?} is not a value of the {size} board (values {}-{})",
                        lowest,
                        lowest + size.values() - 1
                    ))
                })?;
            digits |= 1 << (d - 1);
        }
        if digits == 0 {
            return Err(item.invalid(format!("`{arg}` names no digit")));
        }
        if self.lowest == 0 && digits.count_ones() > 1 {
            // Candidates are a rule of the cell's digits, kept only where
            // the digits run from 1 (see `RulesBuilder::digits_from_zero`).
            return Err(item.differs(format!(
                "`{arg}`: a cell's several candidates, which z3doku keeps only on boards whose \
                 values run from 1"
            )));
        }
        Ok((at, digits))
    }

    /// An item outside any `Or` or `And`.
    fn plain(&mut self, item: &Item) -> Result<(), SighError> {
        let args = &item.args;
        let size = self.size;
        match item.kind.as_str() {
            "Given" => {
                for arg in args {
                    let (at, digits) = self.given(item, arg)?;
                    self.candidates[size.index(at)] &= digits;
                }
            }
            "Shape" => {}
            // Read before every other item ([`extra_cells`]); a prefix
            // declared twice is one group.
            "Var" => {
                let added = (ExtraCells::from_sigh)(&item.as_sigh(size, &self.extras, args))?;
                for added in added {
                    if !self.added.contains(&added) {
                        self.added.push(added);
                    }
                }
            }
            // A hint to sigh's search on which cells to try first: it
            // changes no solution, so it is read (a number, then cells of
            // the board) and set aside, and `--output sigh` leaves it out.
            "SearchPriority" => {
                let (priority, cells) = args
                    .split_first()
                    .ok_or_else(|| item.invalid("expected a priority"))?;
                if priority.parse::<f64>().is_err() {
                    return Err(item.invalid(format!("a priority of {priority:?}")));
                }
                if !cells.is_empty() {
                    item.as_sigh(size, &self.extras, args).cells(cells)?;
                }
            }
            // As in sigh, the last one says.
            "FullRankTies" => {
                self.full_rank_ties = match args.first().map(String::as_str) {
                    Some("only-unclued") => Ties::OnlyUnclued,
                    Some("any") => Ties::Any,
                    Some("none") => Ties::None,
                    _ => return Err(item.invalid("expected none, only-unclued or any")),
                }
            }
            "NoBoxes" => self.no_boxes = true,
            "RegionSize" => {
                let cells = match args.as_slice() {
                    [one] => one.parse::<usize>().ok().filter(|&n| n > 0),
                    _ => None,
                };
                let cells = cells.ok_or_else(|| item.invalid("expected one count of cells"))?;
                self.region_size.get_or_insert(cells);
            }
            "Jigsaw" => {
                // sigh's older form puts the shape first; the layout is
                // the last argument either way.
                let layout = args.last().filter(|_| (1..=2).contains(&args.len()));
                let layout: Vec<char> = layout
                    .ok_or_else(|| item.invalid("expected a layout"))?
                    .chars()
                    .collect();
                if layout.len() != size.cells() {
                    return Err(item.invalid(format!(
                        "a layout of {} cells on a board of {}",
                        layout.len(),
                        size.cells()
                    )));
                }
                self.jigsaw = Some(layout);
            }
            "DisjointSets" => {
                self.disjoint_sets = true;
                self.added.push(Added::DisjointGroups);
            }
            // Flags whose meaning depends on the dots beside them, read
            // when every item is.
            "AntiConsecutive" => self.anti_consecutive = true,
            "StrictKropki" => self.strict_kropki = true,
            "Pair" | "PairX" | "Binary" | "BinaryX" => self.pair(item)?,
            kind => {
                if let Some(reader) = readers_of_sigh(kind).next() {
                    let added = (reader.from_sigh)(&item.as_sigh(size, &self.extras, args))?;
                    self.added.extend(added);
                } else if super::SIGH_TYPES.contains(&kind) {
                    return Err(SighError::Unknown(kind.to_string()));
                } else {
                    return Err(item.invalid(format!("`{kind}` is not a sigh constraint")));
                }
            }
        }
        Ok(())
    }

    /// A custom relation, read as the z3doku rule it is when it is one:
    /// each group is offered to the kinds that read `Pair` (or `PairX`),
    /// in the registry's order, and the first that takes it reads it. (A
    /// relation that is both a difference and a ratio, a ratio k whose
    /// only pair on the board is 1 and k, reads as the difference: the two
    /// say the same, and only the strict rules, which refuse dots made of
    /// pairs, would tell them apart.) sigh's `Pair` holds between
    /// consecutive cells of each group, its `PairX` between every two
    /// cells of a group; the legacy `Binary` forms swap `-` and `_` in the
    /// key.
    fn pair(&mut self, item: &Item) -> Result<(), SighError> {
        let mut key = item
            .args
            .first()
            .ok_or_else(|| item.invalid("no key"))?
            .clone();
        if item.kind.starts_with("Binary") {
            key = key
                .chars()
                .map(|c| match c {
                    '-' => '_',
                    '_' => '-',
                    c => c,
                })
                .collect();
        }
        if super::key_table(&key, self.size.values()).is_none() {
            return Err(item.invalid("not a relation key"));
        }
        let kind = if item.kind.ends_with('X') {
            "PairX"
        } else {
            "Pair"
        };
        for group in groups(&item.args[1..]) {
            let args: Vec<String> = std::iter::once(key.clone()).chain(group).collect();
            let group = SighItem {
                kind,
                ..item.as_sigh(self.size, &self.extras, &args)
            };
            group.cells(&args[1..])?;
            let read = readers_of_sigh(kind)
                .map(|reader| (reader.from_sigh)(&group))
                .find(|added| !matches!(added, Ok(added) if added.is_empty()));
            match read {
                Some(added) => {
                    let added = added?;
                    self.pair_dots |= added.iter().any(|a| {
                        matches!(
                            a,
                            Added::Constraint(Constraint::Difference(_) | Constraint::Ratio(_))
                        )
                    });
                    self.added.extend(added);
                }
                None => {
                    return Err(item.differs(format!(
                        "the relation {key} is not one of z3doku's rules (it reads digits \
                         that rise or never fall along the cells, a dot of any difference or \
                         ratio, and neither repeated nor consecutive digits)"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The boxes of a `RegionSize` other than the longer side: sigh's
    /// boxes of that many cells (none when no such boxes tile the board,
    /// as in sigh: `RegionSize~10` on 9x9), each a house when it has a
    /// cell per value and an all-different group when smaller. Boxes of
    /// more cells than a row (`.Shape~4x4~8.RegionSize~8`: 2x4 boxes of
    /// the 8 values) are extra regions, all-different groups beside the
    /// rows and columns: z3doku's regions are houses no larger than a row,
    /// and all different over as many cells as values is sigh's "each
    /// value once". Chaos construction's regions take its size too, as in
    /// sigh. The other rules sigh sizes by it (jigsaw pieces, disjoint
    /// sets, windoku, doppelganger, and those that read the boxes) are
    /// refused by name.
    fn sized_boxes(&mut self, cells: usize) -> Result<(), SighError> {
        let size = self.size;
        let differs = |why: String| SighError::Differs {
            kind: "RegionSize".into(),
            why,
        };
        let boxes = super::boxes_of(size, cells);
        let sized = |c: &Constraint| {
            matches!(
                c,
                Constraint::Windoku(_)
                    | Constraint::Doppelganger(_)
                    | Constraint::RegionSumLine(_)
                    | Constraint::RegionSameValues(_)
            )
        };
        let beside = self.added.iter().find_map(|a| match a {
            Added::Constraint(c) if either::holds_rule(c, &sized) => Some(c.to_string()),
            _ => None,
        });
        let beside = beside
            .or_else(|| self.jigsaw.as_ref().map(|_| "a jigsaw".to_string()))
            .or_else(|| self.disjoint_sets.then(|| "disjoint groups".to_string()));
        if let Some(rule) = beside {
            return Err(differs(format!(
                "beside {rule}, which sigh reads over regions of {cells} cells and z3doku over \
                 regions of {} (the board's longer side)",
                size.side()
            )));
        }
        for added in &mut self.added {
            if let Added::Constraint(Constraint::ChaosConstruction(chaos)) = added {
                chaos.region_cells = Some(cells);
            }
        }
        if self.no_boxes {
            return Ok(());
        }
        let boxes: Vec<Option<usize>> = match boxes {
            Some(boxes) => boxes.into_iter().map(Some).collect(),
            None => vec![None; size.cells()],
        };
        if cells > size.side() {
            self.added.push(Added::Regions(vec![None; size.cells()]));
            self.extra_regions(&boxes);
        } else {
            self.added.push(Added::Regions(boxes));
        }
        Ok(())
    }

    /// Each region of `regions` (a region number per cell, if any) as an
    /// extra region: an all-different group beside the board's houses.
    fn extra_regions(&mut self, regions: &[Option<usize>]) {
        let size = self.size;
        let count = regions.iter().flatten().max().map_or(0, |m| m + 1);
        for region in 0..count {
            let cells: Vec<Cell> = (0..size.cells())
                .filter(|&i| regions[i] == Some(region))
                .map(|i| size.cell_at(i))
                .collect();
            self.constraint(ExtraRegion(cells));
        }
    }

    fn finish(mut self) -> Result<Puzzle, SighError> {
        let size = self.size;
        let mut givens = Grid::empty(size);
        let mut cell_rules: Vec<Constraint> = Vec::new();
        for (index, &digits) in self.candidates.iter().enumerate() {
            let cell = size.cell_at(index);
            if digits == 0 {
                return Err(SighError::Invalid {
                    item: cell.to_string(),
                    problem: "its givens leave it no digit".into(),
                });
            }
            if digits == all(size) {
                // Nothing given, even on a board of one value, whose every
                // cell holds it anyway: read so, a blank 1x1 board writes
                // back as itself.
                continue;
            }
            if digits.count_ones() == 1 {
                givens.set(index, digits.trailing_zeros() as u8 + 1);
            } else {
                let odd = (1..=size.values())
                    .step_by(2)
                    .fold(0, |m, d| m | 1 << (d - 1));
                cell_rules.push(if digits == odd {
                    Odd(cell).into()
                } else if digits == all(size) & !odd {
                    Even(cell).into()
                } else {
                    Allowed { cell, digits }.into()
                });
            }
        }
        let dots = self.added.iter().any(|a| {
            matches!(
                a,
                Added::Constraint(Constraint::Difference(_) | Constraint::Ratio(_))
            )
        });
        if self.anti_consecutive {
            if dots {
                return Err(SighError::Differs {
                    kind: "AntiConsecutive".into(),
                    why: "beside dots, which z3doku's nonconsecutive rule exempts and sigh's does not"
                        .into(),
                });
            }
            self.constraint(NonConsecutive);
        }
        if self.strict_kropki {
            if self.pair_dots {
                return Err(SighError::Differs {
                    kind: "StrictKropki".into(),
                    why: "beside dots made of pairs, which z3doku exempts and sigh does not".into(),
                });
            }
            if !self.anti_consecutive {
                self.constraint(NonConsecutive);
            }
            self.constraint(NegativeRatio);
        }
        if let Some(cells) = self.region_size.filter(|&n| n != size.side()) {
            self.sized_boxes(cells)?;
        }
        if let Some(layout) = self.jigsaw.take() {
            let regions = jigsaw_regions(&layout, size)?;
            if self.no_boxes {
                self.added.push(Added::Regions(regions));
            } else {
                // Pieces beside the boxes are more houses, which sigh's
                // region same values ties with the boxes and z3doku's does
                // not: its rule reads the board's regions.
                if self
                    .added
                    .iter()
                    .any(|a| matches!(a, Added::Constraint(Constraint::RegionSameValues(_))))
                {
                    return Err(SighError::Differs {
                        kind: "RegionSameValues".into(),
                        why: "beside a jigsaw laid over the boxes, whose pieces sigh ties with \
                              the boxes and z3doku does not"
                            .into(),
                    });
                }
                self.extra_regions(&regions);
            }
        } else if self.no_boxes {
            self.added.push(Added::Regions(vec![None; size.cells()]));
        }
        if self.disjoint_sets && self.no_boxes {
            return Err(SighError::Differs {
                kind: "DisjointSets".into(),
                why: "without boxes, where sigh keeps the boxes' places and z3doku takes the \
                      regions'"
                    .into(),
            });
        }
        if !self.groups.is_empty() {
            return Err(SighError::Invalid {
                item: if self.groups.iter().any(|g| g.or) {
                    "Or"
                } else {
                    "And"
                }
                .into(),
                problem: "no End closes it".into(),
            });
        }
        match self.full_rank_ties {
            Ties::OnlyUnclued => {}
            Ties::Any => {
                for added in &mut self.added {
                    if let Added::Constraint(constraint) = added {
                        allow_ties(constraint);
                    }
                }
            }
            // The clues tie with none, as by default, and neither does any
            // other number of the board.
            Ties::None => self.constraint(NoTies),
        }
        let mut builder = Rules::builder(size);
        if self.lowest == 0 {
            builder.digits_from_zero();
        }
        for added in self
            .added
            .into_iter()
            .chain(cell_rules.into_iter().map(Added::Constraint))
        {
            builder.add(added).map_err(SighError::Rule)?;
        }
        let rules = builder.build().map_err(SighError::Rule)?;
        Ok(Puzzle::new(givens, rules))
    }
}

/// sigh's `FullRankTies~any` on a full rank clue, wherever it stands.
fn allow_ties(constraint: &mut Constraint) {
    match constraint {
        Constraint::FullRank(clue) => clue.ties = true,
        Constraint::Either(either) => either.0.iter_mut().flatten().for_each(allow_ties),
        _ => {}
    }
}

/// Every digit of the board, as bits.
fn all(size: Size) -> u32 {
    crate::puzzle::constraint::all_digits(size)
}

/// The cell groups of a `Pair`'s arguments: an empty argument ends a
/// group, and `_name` names the groups after it (names say nothing of the
/// rule).
fn groups(args: &[String]) -> Vec<Vec<String>> {
    let mut groups = vec![Vec::new()];
    for arg in args {
        if arg.is_empty() || arg.starts_with('_') {
            groups.push(Vec::new());
        } else if let Some(group) = groups.last_mut() {
            group.push(arg.clone());
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

/// The regions of a jigsaw layout: pieces of `side` cells are regions; as
/// in sigh, one piece may have another size and is then no house.
fn jigsaw_regions(layout: &[char], size: Size) -> Result<Vec<Option<usize>>, SighError> {
    let mut pieces: Vec<char> = Vec::new();
    for &c in layout {
        if !pieces.contains(&c) {
            pieces.push(c);
        }
    }
    let mut regions = vec![None; size.cells()];
    if pieces.len() == 1 {
        // One piece over the whole board: sigh states nothing.
        return Ok(regions);
    }
    let mut odd = 0;
    let mut number = 0;
    for piece in pieces {
        let cells: Vec<usize> = (0..layout.len()).filter(|&i| layout[i] == piece).collect();
        if cells.len() == size.side() {
            for &i in &cells {
                regions[i] = Some(number);
            }
            number += 1;
        } else {
            odd += 1;
            if odd > 1 {
                return Err(SighError::Invalid {
                    item: "Jigsaw".into(),
                    problem: "pieces of different sizes".into(),
                });
            }
        }
    }
    Ok(regions)
}
