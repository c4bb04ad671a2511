//! Reading sigh's strings and links into a [`Puzzle`].

use super::{SighError, compact, key_table, link_query, unescape};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Grid, Size};
use crate::puzzle::kinds::{
    Added, Constraint,
    board::{AntiKing, AntiKnight, NegativeRatio, NegativeXv, NonConsecutive},
    cages::{Cage, ExtraRegion},
    cells::{Allowed, Clones, Even, Indexer, Indexing, Odd, Quadruple},
    dots::{Difference, Ratio, Xv},
    lines::{
        Arrow, BetweenLine, DoubleArrow, EntropicLine, ModularLine, Palindrome, RegionSumLine,
        Renban, SlowThermo, Thermo, Whispers, ZipperLine,
    },
    nabner::Nabner,
    outside::{LittleKiller, Outside, Sandwich, Skyscraper, XSum},
    sums::WeightedSum,
};
use crate::puzzle::parse::parse_puzzle;
use crate::puzzle::primitive::Relation;
use crate::puzzle::rules::{Diagonal, Rules};

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
    let size = shape(&items)?;
    let mut reader = Reader::new(size);
    for item in &items {
        reader.item(item)?;
    }
    reader.finish()
}

/// One item: its type (`Given` for the empty one) and its arguments.
struct Item {
    kind: String,
    args: Vec<String>,
    text: String,
}

impl Item {
    fn invalid(&self, problem: impl Into<String>) -> SighError {
        SighError::Invalid {
            item: shortened(&self.text),
            problem: problem.into(),
        }
    }

    fn differs(&self, why: impl Into<String>) -> SighError {
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

/// The board size the `Shape` item gives (9x9 without one): square
/// boards of 1 to 16 with digits 1 to N, which is what z3doku solves.
fn shape(items: &[Item]) -> Result<Size, SighError> {
    let Some(item) = items.iter().find(|i| i.kind == "Shape") else {
        return Ok(Size::NINE);
    };
    let spec = item.args.join("~");
    let mut parts = spec.split('~');
    let dims = parts.next().unwrap_or_default();
    let range = parts.next().filter(|r| !r.is_empty());
    let grid_type = parts.next();
    let (rows, cols) = dims
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        .ok_or_else(|| item.invalid("not a shape `<rows>x<columns>`"))?;
    if rows != cols {
        return Err(item.differs("z3doku solves square boards only"));
    }
    let size = Size::from_side(rows)
        .filter(|_| rows <= super::MAX_SIDE)
        .ok_or_else(|| item.invalid(format!("{rows}x{rows} is not a board sigh has")))?;
    if let Some(range) = range
        && range != rows.to_string()
        && range != format!("1-{rows}")
    {
        return Err(item.differs(format!(
            "digits {range}: z3doku's digits run from 1 to the side"
        )));
    }
    if let Some(grid_type) = grid_type.filter(|t| *t != "Sudoku") {
        return Err(item.differs(format!(
            "a {grid_type} grid: z3doku's boards keep every row and column"
        )));
    }
    Ok(size)
}

/// What reading has found so far.
struct Reader {
    size: Size,
    /// Each cell's digits still allowed, as bits (`d - 1`).
    candidates: Vec<u32>,
    added: Vec<Added>,
    no_boxes: bool,
    jigsaw: Option<Vec<char>>,
    anti_consecutive: bool,
    strict_kropki: bool,
    /// Dots read from `Pair`s: sigh's strict rules do not exempt them, and
    /// z3doku's would.
    pair_dots: bool,
    disjoint_sets: bool,
}

/// A cell id: `R`, the row in base 17, `C`, the column in base 17.
fn cell(word: &str, size: Size) -> Option<Cell> {
    let bytes = word.as_bytes();
    if bytes.len() != 4 || !matches!(bytes[0], b'R' | b'r') || !matches!(bytes[2], b'C' | b'c') {
        return None;
    }
    let place = |b: u8| {
        let n = char::from(b).to_digit(17)? as usize;
        (1..=size.side()).contains(&n).then_some(n - 1)
    };
    Some(size.cell(place(bytes[1])?, place(bytes[3])?))
}

impl Reader {
    fn new(size: Size) -> Reader {
        Reader {
            size,
            candidates: vec![all(size); size.cells()],
            added: Vec::new(),
            no_boxes: false,
            jigsaw: None,
            anti_consecutive: false,
            strict_kropki: false,
            pair_dots: false,
            disjoint_sets: false,
        }
    }

    fn constraint(&mut self, constraint: impl Into<Constraint>) {
        self.added.push(Added::Constraint(constraint.into()));
    }

    fn cell(&self, item: &Item, word: &str) -> Result<Cell, SighError> {
        cell(word, self.size).ok_or_else(|| {
            item.invalid(format!("`{word}` is not a cell of the {} board", self.size))
        })
    }

    fn cells(&self, item: &Item, words: &[String]) -> Result<Vec<Cell>, SighError> {
        let cells: Vec<Cell> = words
            .iter()
            .map(|w| self.cell(item, w))
            .collect::<Result<_, _>>()?;
        if cells.is_empty() {
            return Err(item.invalid("no cells"));
        }
        Ok(cells)
    }

    fn number(&self, item: &Item, word: Option<&String>) -> Result<u32, SighError> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| {
            item.invalid(format!(
                "expected a number, found {:?}",
                word.map_or("nothing", |w| w)
            ))
        })
    }

    /// The orthogonally neighbouring pairs among `cells`, as sigh's dots
    /// take them (each pair once, in the order the cells come); a cell
    /// with no neighbour among them is an error, as in sigh.
    fn neighbour_pairs(&self, item: &Item) -> Result<Vec<[Cell; 2]>, SighError> {
        let cells = self.cells(item, &item.args)?;
        let near = |a: Cell, b: Cell| a.row().abs_diff(b.row()) + a.col().abs_diff(b.col()) == 1;
        if let Some(alone) = cells.iter().find(|&&a| !cells.iter().any(|&b| near(a, b))) {
            return Err(item.invalid(format!("{alone} has no neighbour among the cells")));
        }
        let mut pairs = Vec::new();
        for (k, &a) in cells.iter().enumerate() {
            for &b in &cells[k + 1..] {
                if near(a, b) {
                    pairs.push([a, b]);
                }
            }
        }
        Ok(pairs)
    }

    fn item(&mut self, item: &Item) -> Result<(), SighError> {
        let args = &item.args;
        let size = self.size;
        match item.kind.as_str() {
            "Given" => {
                for arg in args {
                    let mut parts = arg.split('_');
                    let at = self.cell(item, parts.next().unwrap_or_default())?;
                    let mut digits = 0u32;
                    for value in parts {
                        let d: usize = value
                            .parse()
                            .ok()
                            .filter(|d| (1..=size.side()).contains(d) && value == d.to_string())
                            .ok_or_else(|| {
                                item.invalid(format!(
                                    "`{arg}`: {value:?} is not a digit of the {size} board"
                                ))
                            })?;
                        digits |= 1 << (d - 1);
                    }
                    if digits == 0 {
                        return Err(item.invalid(format!("`{arg}` names no digit")));
                    }
                    self.candidates[size.index(at)] &= digits;
                }
            }
            "Shape" => {}
            "NoBoxes" => self.no_boxes = true,
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
            "Diagonal" => {
                let diagonal = match args.first().map(String::as_str) {
                    Some("1") => Diagonal::Rising,
                    Some("-1") => Diagonal::Falling,
                    _ => return Err(item.invalid("the direction must be 1 or -1")),
                };
                self.added.push(Added::Diagonal(diagonal));
            }
            "AntiKnight" => self.constraint(AntiKnight),
            "AntiKing" => self.constraint(AntiKing),
            "DisjointSets" => {
                self.disjoint_sets = true;
                self.added.push(Added::DisjointGroups);
            }
            "AntiConsecutive" => self.anti_consecutive = true,
            "StrictKropki" => self.strict_kropki = true,
            // sigh exempts the X and V pairs, as z3doku's negative XV does.
            "StrictXV" => self.constraint(NegativeXv),
            "Thermo" => {
                let cells = self.cells(item, args)?;
                self.constraint(Thermo { cells });
            }
            "Whisper" => {
                // German whispers may leave the difference out: sigh's
                // default is 5 whatever the board.
                let (difference, cells) = match args.first().and_then(|a| a.parse::<u8>().ok()) {
                    Some(d) => (d, &args[1..]),
                    None => (5, &args[..]),
                };
                let cells = self.cells(item, cells)?;
                self.constraint(Whispers { cells, difference });
            }
            "Renban" => {
                let cells = self.cells(item, args)?;
                self.constraint(Renban(cells));
            }
            "Palindrome" => {
                let cells = self.cells(item, args)?;
                self.constraint(Palindrome(cells));
            }
            "RegionSumLine" => {
                let cells = self.cells(item, args)?;
                self.constraint(RegionSumLine(cells));
            }
            "Between" => {
                let cells = self.cells(item, args)?;
                self.constraint(BetweenLine(cells));
            }
            "Zipper" => {
                let cells = self.cells(item, args)?;
                self.constraint(ZipperLine(cells));
            }
            "DoubleArrow" => {
                let cells = self.cells(item, args)?;
                self.constraint(DoubleArrow(cells));
            }
            "Entropic" => {
                if size != Size::NINE {
                    return Err(item.invalid("sigh's entropic lines need digits 1 to 9"));
                }
                let cells = self.cells(item, args)?;
                self.constraint(EntropicLine(cells));
            }
            "Modular" => {
                let modulus = self.number(item, args.first())?;
                if modulus != 3 {
                    return Err(item.differs(format!(
                        "a modulus of {modulus}: z3doku's modular line is mod 3"
                    )));
                }
                let cells = self.cells(item, &args[1..])?;
                self.constraint(ModularLine(cells));
            }
            "Arrow" => {
                let cells = self.cells(item, args)?;
                let (circle, line) = cells.split_at(1);
                if line.is_empty() {
                    return Err(item.invalid("an arrow needs a circle and a line"));
                }
                self.constraint(Arrow {
                    circle: circle.to_vec(),
                    line: line.to_vec(),
                });
            }
            "PillArrow" => {
                let pill = self.number(item, args.first())? as usize;
                if pill != 2 && pill != 3 {
                    return Err(item.invalid("a pill has 2 or 3 cells"));
                }
                if size.side() > 9 {
                    return Err(item.differs(
                        "on boards above 9x9 sigh reads a pill's later cells as single decimal digits",
                    ));
                }
                let cells = self.cells(item, &args[1..])?;
                if cells.len() <= pill {
                    return Err(item.invalid("a pill arrow needs more cells than its pill"));
                }
                let mut circle = cells[..pill].to_vec();
                circle.sort();
                if !readable_pill(&circle) {
                    return Err(item.invalid(
                        "the pill's cells must run right, down or down-right in reading order",
                    ));
                }
                self.constraint(Arrow {
                    circle,
                    line: cells[pill..].to_vec(),
                });
            }
            "Cage" => {
                let sum = match args.first().map(String::as_str) {
                    // No sum, or a sum of 0: sigh states only the distinct
                    // digits.
                    None | Some("") | Some("0") => None,
                    Some(_) => Some(self.number(item, args.first())?),
                };
                let cells = self.cells(item, &args[1..])?;
                self.constraint(Cage { cells, sum });
            }
            "Sum" => {
                // `10` or `10_=_1_-2_…`: the total, then a weight per cell.
                let spec = args.first().map_or("", String::as_str);
                let mut parts = spec.split('_');
                let sum: i32 = parts
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| item.invalid(format!("{spec:?} is not a total")))?;
                let cells = self.cells(item, &args[1..])?;
                let weights: Vec<i32> = match parts.next() {
                    None => vec![1; cells.len()],
                    Some("=") => parts
                        .map(|w| w.parse().ok().filter(|w: &i32| w.abs() <= 100))
                        .collect::<Option<_>>()
                        .ok_or_else(|| {
                            item.invalid("weights are whole numbers from -100 to 100")
                        })?,
                    Some(_) => return Err(item.invalid(format!("{spec:?} is not a total"))),
                };
                if weights.len() != cells.len() {
                    return Err(item.invalid(format!(
                        "{} weights for {} cells",
                        weights.len(),
                        cells.len()
                    )));
                }
                self.constraint(WeightedSum {
                    terms: cells.into_iter().zip(weights).collect(),
                    sum,
                });
            }
            "AllDifferent" => {
                let cells = self.cells(item, args)?;
                self.constraint(ExtraRegion(cells));
            }
            "LittleKiller" => {
                let sum = self.number(item, args.first())?;
                let id = args
                    .get(1)
                    .ok_or_else(|| item.invalid("no diagonal named"))?;
                let start = self.cell(item, id)?;
                let cells = little_killer_cells(size)
                    .into_iter()
                    .find(|cells| cells.first() == Some(&start))
                    .ok_or_else(|| {
                        item.invalid(format!("no little killer diagonal starts at {id}"))
                    })?;
                self.constraint(LittleKiller { cells, sum });
            }
            "Sandwich" => {
                let sum = self.number(item, args.first())?;
                let line = self.line(item, args.get(1), false)?;
                self.constraint(Sandwich { line, sum });
            }
            "XSum" | "Skyscraper" => {
                for (k, reversed) in [(1, false), (2, true)] {
                    let Some(value) = args.get(k).filter(|v| !v.is_empty()) else {
                        continue;
                    };
                    let value = self.number(item, Some(value))?;
                    if value == 0 {
                        return Err(item.invalid("a clue of 0"));
                    }
                    let line = self.line(item, args.first(), reversed)?;
                    if item.kind == "XSum" {
                        self.constraint(XSum { line, sum: value });
                    } else {
                        self.constraint(Skyscraper {
                            line,
                            count: value as usize,
                        });
                    }
                }
            }
            "WhiteDot" => {
                for cells in self.neighbour_pairs(item)? {
                    self.constraint(Difference { cells, value: 1 });
                }
            }
            "BlackDot" => {
                for cells in self.neighbour_pairs(item)? {
                    self.constraint(Ratio { cells, value: 2 });
                }
            }
            "X" | "V" => {
                let sum = if item.kind == "X" { 10 } else { 5 };
                for cells in self.neighbour_pairs(item)? {
                    self.constraint(Xv { cells, sum });
                }
            }
            "SameValues" => {
                let sets = self.number(item, args.first())? as usize;
                let cells = self.cells(item, &args[1..])?;
                if sets < 2 || cells.len() % sets != 0 {
                    return Err(item.invalid(format!("{} cells in {sets} sets", cells.len())));
                }
                if cells.len() != sets {
                    return Err(item.differs(
                        "sets of several cells hold the same digits in any order, which z3doku's \
                         clones (cell by cell) cannot say",
                    ));
                }
                for &other in &cells[1..] {
                    self.constraint(Clones {
                        cells: vec![cells[0]],
                        clones: vec![other],
                    });
                }
            }
            "Quad" => {
                let corner = self.cell(item, args.first().map_or("", String::as_str))?;
                if corner.row() + 1 >= size.side() || corner.col() + 1 >= size.side() {
                    return Err(item.invalid(format!("no 2x2 square starts at {corner}")));
                }
                let (r, c) = (corner.row(), corner.col());
                let digits = args[1..]
                    .iter()
                    .map(|v| {
                        v.parse::<u8>()
                            .ok()
                            .filter(|d| (1..=size.side()).contains(&usize::from(*d)))
                            .ok_or_else(|| item.invalid(format!("{v:?} is not a digit")))
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                self.constraint(Quadruple {
                    cells: vec![
                        size.cell(r, c),
                        size.cell(r, c + 1),
                        size.cell(r + 1, c),
                        size.cell(r + 1, c + 1),
                    ],
                    digits,
                });
            }
            "Indexing" => {
                let kind = match args.first().map(String::as_str) {
                    Some("R") => Indexing::Row,
                    Some("C") => Indexing::Column,
                    _ => return Err(item.invalid("the indexing must be R or C")),
                };
                for cell in self.cells(item, &args[1..])? {
                    self.constraint(Indexer { kind, cell });
                }
            }
            "Pair" | "PairX" | "Binary" | "BinaryX" => self.pair(item)?,
            "Or" | "And" | "Replicate" | "End" | "Container" => {
                return Err(item.differs("z3doku cannot join rules with or, and or replicate yet"));
            }
            kind if super::SIGH_TYPES.contains(&kind) => {
                return Err(SighError::Unknown(kind.to_string()));
            }
            kind => return Err(item.invalid(format!("`{kind}` is not a sigh constraint"))),
        }
        Ok(())
    }

    /// The row or column an outside clue names (`R3`, `C5`).
    fn line(&self, item: &Item, id: Option<&String>, reversed: bool) -> Result<Outside, SighError> {
        let id = id.map_or("", String::as_str);
        let row = match id.chars().next() {
            Some('R') => true,
            Some('C') => false,
            _ => return Err(item.invalid(format!("`{id}` is not a row R<n> or column C<n>"))),
        };
        let number: usize = id[1..]
            .parse()
            .ok()
            .filter(|n| (1..=self.size.side()).contains(n))
            .ok_or_else(|| item.invalid(format!("`{id}` is not a row or column of the board")))?;
        Ok(Outside {
            row,
            number: number - 1,
            reversed,
        })
    }

    /// A custom relation, read as the z3doku rule it is when it is one. A
    /// relation that is both a difference and a ratio (a ratio k whose
    /// only pair on the board is 1 and k) reads as the difference: the
    /// two say the same, and only the strict rules, which refuse dots
    /// made of pairs, would tell them apart.
    /// sigh's `Pair` holds between consecutive cells of each group, its
    /// `PairX` between every two cells of a group; the legacy `Binary`
    /// forms swap `-` and `_` in the key.
    fn pair(&mut self, item: &Item) -> Result<(), SighError> {
        let size = self.size;
        let side = size.side();
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
        let table = key_table(&key, side).ok_or_else(|| item.invalid("not a relation key"))?;
        let allows = |a: u8, b: u8| table[usize::from(a - 1) * side + usize::from(b - 1)];
        let is = |relation: Relation| {
            (1..=side as u8)
                .all(|a| (1..=side as u8).all(|b| allows(a, b) == relation.allows(a, b)))
        };
        let all_pairs = item.kind.ends_with('X');
        for group in groups(&item.args[1..]) {
            let cells = self.cells(item, &group)?;
            let two = cells.len() == 2;
            let constraint: Option<Constraint> = if all_pairs {
                is(Relation::DifferenceAtLeast(2)).then(|| Nabner(cells.clone()).into())
            } else if is(Relation::LessOrEqual) {
                Some(
                    SlowThermo {
                        cells: cells.clone(),
                    }
                    .into(),
                )
            } else if is(Relation::LessBy(1)) {
                Some(
                    Thermo {
                        cells: cells.clone(),
                    }
                    .into(),
                )
            } else if two {
                let pair = [cells[0], cells[1]];
                let difference = (1..side as u8).find(|&k| is(Relation::DifferenceIs(k)));
                let ratio = (2..=side as u8).find(|&k| is(Relation::RatioIs(k)));
                self.pair_dots |= difference.is_some() || ratio.is_some();
                difference
                    .map(|value| Difference { cells: pair, value }.into())
                    .or_else(|| ratio.map(|value| Ratio { cells: pair, value }.into()))
            } else {
                None
            };
            match constraint {
                Some(constraint) => self.constraint(constraint),
                None => {
                    return Err(item.differs(format!(
                        "the relation {key} is not one of z3doku's rules (a slow or plain \
                         thermometer, a dot of any difference or ratio, a nabner line)"
                    )));
                }
            }
        }
        Ok(())
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
            if digits.count_ones() == 1 {
                givens.set(index, digits.trailing_zeros() as u8 + 1);
            } else if digits != all(size) {
                let odd = (1..=size.side())
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
        if let Some(layout) = self.jigsaw.take() {
            let regions = jigsaw_regions(&layout, size)?;
            if self.no_boxes {
                self.added.push(Added::Regions(regions));
            } else {
                // Pieces beside the boxes are more houses.
                let count = regions.iter().flatten().max().map_or(0, |m| m + 1);
                for piece in 0..count {
                    let cells: Vec<Cell> = (0..size.cells())
                        .filter(|&i| regions[i] == Some(piece))
                        .map(|i| size.cell_at(i))
                        .collect();
                    self.constraint(ExtraRegion(cells));
                }
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
        let mut builder = Rules::builder(size);
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

/// Whether sorted pill cells run right, down or down-right, each from the
/// one before, as sigh requires to read the pill's number.
fn readable_pill(cells: &[Cell]) -> bool {
    cells.windows(2).all(|w| {
        let (dr, dc) = (
            w[1].row() as isize - w[0].row() as isize,
            w[1].col() as isize - w[0].col() as isize,
        );
        matches!((dr, dc), (0, 1) | (1, 0) | (1, 1))
    })
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

/// sigh's little killer diagonals, each named by its first cell (its
/// `LittleKiller.cellMap`): from the left side down-right, the right
/// side up-left, the top up... each diagonal of two or more cells once.
pub(super) fn little_killer_cells(size: Size) -> Vec<Vec<Cell>> {
    let side = size.side() as isize;
    let mut out: Vec<Vec<Cell>> = Vec::new();
    let mut add = |mut r: isize, mut c: isize, dr: isize, dc: isize| {
        let mut cells = Vec::new();
        while (0..side).contains(&r) && (0..side).contains(&c) {
            cells.push(size.cell(r as usize, c as usize));
            r += dr;
            c += dc;
        }
        if cells.len() <= 1 {
            return;
        }
        let mut sorted = cells.clone();
        sorted.sort();
        if out.iter().all(|other| {
            let mut o = other.clone();
            o.sort();
            o != sorted
        }) {
            out.push(cells);
        }
    };
    for r in 0..side - 1 {
        add(r, 0, 1, 1);
    }
    for r in 1..side - 1 {
        add(r, side - 1, -1, -1);
    }
    for c in 1..side {
        add(0, c, 1, -1);
    }
    for c in 1..side - 1 {
        add(side - 1, c, -1, 1);
    }
    out
}
