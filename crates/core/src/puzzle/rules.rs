//! The rules of a puzzle: which groups of cells (houses) must hold
//! different digits, and the variant [`Constraint`]s beyond them.
//!
//! Classic Sudoku's houses are its rows, columns and boxes; a board with no
//! boxes (a side with no divisor between 1 and itself that fits, such as 5
//! or 7) is a Latin square of rows and columns. Variants add the diagonals
//! as houses, and constraints: killer cages, lines, cells a knight's
//! or king's move apart that differ, orthogonal neighbours that are not
//! consecutive, and the digits a cell may hold. Every part of z3doku that
//! knows a rule reads it from here: the encodings, both engines, the checker
//! and the renderers. Nothing else derives a house from a board size.

pub use super::constraint::Constraint;
use super::constraint::Context;
use super::grid::Size;
use super::kinds::cages::PartialRegion;
use super::kinds::cells::{Indexer, Indexing};
use super::kinds::shifted::Shifted;
use super::kinds::{Added, FromZero};
use super::primitive::Primitive;
use std::fmt;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Which kind of house a [`House`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box: one of the board's regions, where they are the usual boxes.
    Box,
    /// A region of a jigsaw board, whose regions are not the boxes.
    Region,
    /// A disjoint group: the cells at one place (in reading order) of
    /// every region.
    DisjointGroup,
    /// A diagonal of a diagonal Sudoku: number 0 falls from r1c1 to the
    /// bottom right corner (f-puzzles' `diagonal-`), number 1 rises from
    /// the bottom left corner to the top right (`diagonal+`).
    Diagonal,
}

impl HouseKind {
    /// Whether it is one of the board's regions (a box or a jigsaw
    /// region): techniques treat both alike.
    pub fn is_region(self) -> bool {
        matches!(self, HouseKind::Box | HouseKind::Region)
    }

    /// The word for it in messages: `row`, `column`, `box`, `region`...
    pub fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
            HouseKind::Region => "region",
            HouseKind::Diagonal => "diagonal",
            HouseKind::DisjointGroup => "disjoint group",
        }
    }
}

/// A set of cells that holds every digit exactly once: or, on a board with
/// more digits than a row has cells ([`Size::values`]), a row, column or
/// box that only keeps its digits apart, as sigh's are. A house is full
/// ([`House::is_full`]) when it has a cell per digit; only then does every
/// digit stand in it, so only then do hidden singles and "each digit once"
/// hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct House {
    /// Which kind of house.
    pub kind: HouseKind,
    /// Its number among houses of its kind, 0-based (boxes count
    /// row-major).
    pub number: usize,
    /// The row-major indexes of its cells, one per digit when it is full.
    pub cells: Vec<usize>,
}

impl House {
    /// Whether it holds every digit of a board of `size`: it has a cell
    /// per digit.
    pub fn is_full(&self, size: Size) -> bool {
        self.cells.len() == size.values()
    }
}

impl fmt::Display for House {
    /// As messages name it: `row 3`, `box 5` (1-based).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.number) {
            (HouseKind::Diagonal, 0) => f.write_str("falling diagonal"),
            (HouseKind::Diagonal, _) => f.write_str("rising diagonal"),
            (kind, number) => write!(f, "{} {}", kind.name(), number + 1),
        }
    }
}

/// One of a board's two long diagonals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// From the top left corner to the bottom right (f-puzzles'
    /// `diagonal-`).
    Falling,
    /// From the bottom left corner to the top right (`diagonal+`).
    Rising,
}

/// One rule of a puzzle that the puzzle could do without, as
/// [`Rules::items`] lists them: a diagonal, the disjoint groups, or a
/// constraint (by its index among [`Rules::constraints`]). Rows, columns
/// and regions are what make the board Sudoku, and are not items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleItem {
    /// A diagonal house.
    Diagonal(Diagonal),
    /// The disjoint groups.
    DisjointGroups,
    /// A constraint, by its index.
    Constraint(usize),
}

/// Why a rule cannot be part of a board's rules. Prints as
/// `cage 50 (r1c1 r1c2): no 2 different digits add up to 50`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{rule}: {problem}")]
pub struct RuleError {
    /// The rule, as people name it.
    pub rule: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Makes variant [`Rules`]: the classic houses of a size, or jigsaw
/// regions instead of its boxes, plus diagonals, disjoint groups and
/// constraints, each checked as it is added.
#[derive(Clone, Debug)]
pub struct RulesBuilder {
    size: Size,
    diagonals: [bool; 2],
    disjoint_groups: bool,
    /// Each cell's region, when the puzzle draws its own.
    regions: Option<Vec<Option<usize>>>,
    constraints: Vec<Constraint>,
    /// The value the digit 1 stands for: 1, or 0 on a board whose digits
    /// run from 0.
    lowest: u8,
}

impl RulesBuilder {
    /// Adds a diagonal as a house (adding it twice changes nothing).
    pub fn diagonal(&mut self, diagonal: Diagonal) -> &mut Self {
        self.diagonals[diagonal as usize] = true;
        self
    }

    /// Adds the disjoint groups as houses: the cells at the same place in
    /// every region.
    pub fn disjoint_groups(&mut self) -> &mut Self {
        self.disjoint_groups = true;
        self
    }

    /// Draws the board's regions: `regions[cell]` is the region of each
    /// row-major cell, or `None` for a cell in no region. A region of
    /// `side` cells is a house; a smaller one only keeps its digits apart.
    /// Says why not when a region has more cells than a row or the list
    /// does not cover the board.
    pub fn regions(&mut self, regions: Vec<Option<usize>>) -> Result<&mut Self, RuleError> {
        let side = self.size.side();
        let fail = |problem: String| RuleError {
            rule: "the regions".into(),
            problem,
        };
        if regions.len() != self.size.cells() {
            return Err(fail(format!(
                "{} cells, not {}",
                regions.len(),
                self.size.cells()
            )));
        }
        let mut count = std::collections::HashMap::new();
        for region in regions.iter().flatten() {
            *count.entry(*region).or_insert(0usize) += 1;
        }
        if let Some((region, n)) = count.iter().find(|(_, n)| **n > side) {
            // Numbered as given, from 0 (as f-puzzles numbers them), so
            // the message names the number the puzzle wrote.
            return Err(fail(format!(
                "region {region} (numbered from 0) has {n} cells, more than the {side} digits"
            )));
        }
        self.regions = Some(regions);
        Ok(self)
    }

    /// Makes the values run from 0 to N - 1, as sigh's `Shape~9x9~0-8`
    /// says: every digit stands for the value one less. The search and
    /// the checker still work on the digits 1 to N, so each rule is kept
    /// as it is there ([`Constraint::on_values_from_zero`]): as it is when it reads
    /// only how digits compare, restated when it reads what the values
    /// are (a cage's sum), refused by name when no rule says it on the
    /// digits. Best said before the rules are added, which are then
    /// checked as they are solved.
    pub fn digits_from_zero(&mut self) -> &mut Self {
        self.lowest = 0;
        self
    }

    /// `constraint` as it is solved on this board: itself, or on a board
    /// whose values run from 0, what it is on the digits (see
    /// [`digits_from_zero`](Self::digits_from_zero)).
    fn on_digits(&self, constraint: Constraint) -> Result<Constraint, RuleError> {
        if self.lowest != 0 {
            return Ok(constraint);
        }
        match constraint.on_values_from_zero() {
            FromZero::Same => Ok(constraint),
            FromZero::As(solved) => Ok(Shifted {
                stated: Box::new(constraint),
                solved: Box::new(solved),
            }
            .into()),
            FromZero::Cannot => Err(RuleError {
                rule: constraint.to_string(),
                problem: format!(
                    "it reads what the values are, and z3doku has no rule that says it on values \
                     from 0 to {}",
                    self.size.values() - 1
                ),
            }),
        }
    }

    /// Adds what reading a rule gave.
    pub fn add(&mut self, added: Added) -> Result<&mut Self, RuleError> {
        match added {
            Added::Constraint(constraint) => self.constraint(constraint),
            Added::Diagonal(diagonal) => Ok(self.diagonal(diagonal)),
            Added::DisjointGroups => Ok(self.disjoint_groups()),
            Added::Regions(regions) => self.regions(regions),
        }
    }

    /// Why a kind of [`on_rectangles_from_one`] is refused on this
    /// rectangle: its values do not run from 1 to the longer side.
    fn not_from_one(&self) -> String {
        let (low, high) = (
            usize::from(self.lowest),
            usize::from(self.lowest) + self.size.values() - 1,
        );
        format!(
            "z3doku solves it on rectangles whose values run from 1 to the longer side, and \
             this {} runs from {low} to {high}",
            self.size
        )
    }

    /// Refuses, on a board with more digits than a row has cells,
    /// `constraint` when it is not one of the kinds z3doku solves there
    /// (see [`with_more_digits`]), on a rectangle one that is not of the
    /// kinds it solves there (see [`on_rectangles`]), and on a `Raw` grid
    /// one [`on_raw_grid`] refuses.
    fn fits_digit_count(&self, constraint: &Constraint) -> Result<(), RuleError> {
        if self.size.is_raw() {
            return on_raw_grid(constraint, self.size, self.lowest).map_err(|problem| RuleError {
                rule: constraint.to_string(),
                problem,
            });
        }
        if !self.size.is_square() {
            // A rectangle keeps what `on_rectangles` says, whatever its
            // values.
            // A rule restated on the digits of a board from 0 is judged as
            // the rule it becomes there.
            let solved = constraint.solved();
            let problem = match constraint {
                _ if on_rectangles(constraint, self.size, self.lowest) => return Ok(()),
                // sigh refuses them on a rectangle too (their
                // `VALIDATE_SHAPE_FN` is `isSquare`).
                Constraint::Windoku(_) | Constraint::FullRank(_) => {
                    format!(
                        "it is defined on square boards, and this one is {}",
                        self.size
                    )
                }
                _ if on_rectangles_from_one(solved) => self.not_from_one(),
                _ => format!(
                    "z3doku solves it on square boards, and this one is {}",
                    self.size
                ),
            };
            return Err(RuleError {
                rule: constraint.to_string(),
                problem,
            });
        }
        if self.size.lines_full() || with_more_digits(constraint) {
            return Ok(());
        }
        Err(RuleError {
            rule: constraint.to_string(),
            problem: format!(
                "z3doku solves it on boards with as many values as a row has cells, and this \
                 {} board has {}",
                self.size,
                self.size.values()
            ),
        })
    }

    /// Adds `constraint`, or says why it cannot be kept on this board (see
    /// [`Constraint::validate`]).
    pub fn constraint(
        &mut self,
        constraint: impl Into<Constraint>,
    ) -> Result<&mut Self, RuleError> {
        let constraint = self.on_digits(constraint.into())?;
        self.fits_digit_count(&constraint)?;
        if let Err(problem) = constraint.validate(self.size) {
            return Err(RuleError {
                rule: constraint.to_string(),
                problem,
            });
        }
        if !self.constraints.contains(&constraint) {
            self.constraints.push(constraint);
        }
        Ok(self)
    }

    /// The rules: shared classic ones when nothing was added. Fails only
    /// when disjoint groups were asked for on a board whose regions do not
    /// make them (fewer full regions than digits).
    pub fn build(&self) -> Result<Arc<Rules>, RuleError> {
        if self.diagonals == [false; 2]
            && self.lowest == 1
            && self.size.lines_full()
            && self.constraints.is_empty()
            && self.regions.is_none()
            && !self.disjoint_groups
        {
            return Ok(Rules::classic(self.size));
        }
        let size = self.size;
        let side = size.side();
        // sigh draws diagonals and the disjoint groups on square Sudoku
        // grids only: a rectangle has no corner-to-corner line of a cell per
        // digit, and its boxes are not one per digit; a `Raw` grid (sigh's
        // `REQUIRES_SUDOKU_GRID`) has no boxes, nor regions of any kind.
        let shape_problem = if size.is_raw() {
            Some(ON_SUDOKU_GRIDS.to_string())
        } else {
            (!size.is_square())
                .then(|| format!("it is defined on square boards, and this one is {size}"))
        };
        if let Some(problem) = shape_problem {
            let drawn = [
                (self.diagonals[0], "diagonal-"),
                (self.diagonals[1], "diagonal+"),
                (self.disjoint_groups, "disjoint groups"),
                (size.is_raw() && self.regions.is_some(), "regions"),
            ];
            if let Some((_, rule)) = drawn.iter().find(|(on, _)| *on) {
                return Err(RuleError {
                    rule: (*rule).into(),
                    problem,
                });
            }
        }
        let regions = match &self.regions {
            Some(regions) => regions.clone(),
            None => default_regions(size),
        };
        let mut rules = Rules::build(size, &regions);
        // Rules added before the values were made to run from 0 are
        // restated now (restating twice changes nothing), and checked as
        // they are solved.
        let mut constraints = Vec::with_capacity(self.constraints.len());
        for constraint in &self.constraints {
            let solved = self.on_digits(constraint.clone())?;
            self.fits_digit_count(&solved)?;
            if solved != *constraint
                && let Err(problem) = solved.validate(size)
            {
                return Err(RuleError {
                    rule: solved.to_string(),
                    problem,
                });
            }
            constraints.push(solved);
        }
        // Regions too small to be houses keep their digits apart.
        let mut partial: Vec<(usize, Vec<usize>)> = Vec::new();
        for (cell, region) in regions.iter().enumerate() {
            if let Some(region) = *region {
                match partial.iter_mut().find(|(r, _)| *r == region) {
                    Some((_, cells)) => cells.push(cell),
                    None => partial.push((region, vec![cell])),
                }
            }
        }
        partial.sort_unstable();
        for (number, cells) in partial {
            if cells.len() < side && cells.len() > 1 {
                constraints.push(
                    PartialRegion {
                        number,
                        cells: cells.iter().map(|&c| size.cell_at(c)).collect(),
                    }
                    .into(),
                );
            }
        }
        for (number, on) in self.diagonals.iter().enumerate() {
            if *on {
                let cells = (0..side)
                    .map(|k| match number {
                        0 => k * side + k,
                        _ => (side - 1 - k) * side + k,
                    })
                    .collect();
                rules.add_house(House {
                    kind: HouseKind::Diagonal,
                    number,
                    cells,
                });
            }
        }
        // A clue over chaos construction's regions needs the rule.
        let has_chaos = constraints
            .iter()
            .any(|c| matches!(c, Constraint::ChaosConstruction(_)));
        let clue = constraints
            .iter()
            .find(|c| matches!(c, Constraint::ChaosCount(_) | Constraint::ChaosArrow(_)));
        if has_chaos && size.extra() > 0 {
            return Err(RuleError {
                rule: "chaos construction".into(),
                problem: "z3doku builds regions on boards without cells outside the grid".into(),
            });
        }
        if let (false, Some(clue)) = (has_chaos, clue) {
            return Err(RuleError {
                rule: clue.to_string(),
                problem: "it reads chaos construction's regions, and the puzzle has no \
                          `chaos construction`"
                    .into(),
            });
        }
        if self.disjoint_groups {
            let full: Vec<Vec<usize>> = rules.region_cells.clone();
            if full.len() != side {
                return Err(RuleError {
                    rule: "disjoint groups".into(),
                    problem: format!(
                        "they need {side} full regions, and the board has {}",
                        full.len()
                    ),
                });
            }
            for place in 0..side {
                let cells = full.iter().map(|region| region[place]).collect();
                rules.add_house(House {
                    kind: HouseKind::DisjointGroup,
                    number: place,
                    cells,
                });
            }
        }
        let context = Context {
            size,
            regions: &rules.region_cells,
            region_of: &rules.region_of,
            all: &constraints,
        };
        let mut lowered: Vec<Vec<Primitive>> = Vec::with_capacity(constraints.len());
        for constraint in &constraints {
            let mut primitives = constraint.lower(&context);
            // What a pair rule says of two cells a house keeps apart, the
            // house says already.
            primitives.retain(|p| match p {
                Primitive::Pair { a, b, relation } if relation.holds_when_different() => {
                    !rules.share_house(*a, *b)
                }
                _ => true,
            });
            lowered.push(primitives);
        }
        rules.constraints = constraints;
        rules.lowered = lowered;
        rules.classic = false;
        rules.drawn_regions = self.regions.clone();
        rules.lowest = self.lowest;
        Ok(Arc::new(rules))
    }
}

/// Whether `constraint` is one of the kinds z3doku solves on a board with
/// more digits than a row has cells (sigh's `Shape~9x9~10`): those that
/// read how digits compare, differ or add up, and the board's geometry,
/// with the count of digits taken from [`Size::values`], and an `or` or
/// `and` of such rules. The others (their bounds, keys or tables made for
/// `N` digits on an `N`x`N` board) are refused by name rather than solved
/// with the wrong count.
fn with_more_digits(constraint: &Constraint) -> bool {
    match constraint.solved() {
        Constraint::Either(either) => either.0.iter().flatten().all(with_more_digits),
        other => matches!(
            other,
            Constraint::Cage(_)
                | Constraint::ExtraRegion(_)
                | Constraint::PartialRegion(_)
                | Constraint::Thermo(_)
                | Constraint::SlowThermo(_)
                | Constraint::Arrow(_)
                | Constraint::Palindrome(_)
                | Constraint::Renban(_)
                | Constraint::Whispers(_)
                | Constraint::BetweenLine(_)
                | Constraint::Lockout(_)
                | Constraint::ModularLine(_)
                | Constraint::AntiKnight(_)
                | Constraint::AntiKing(_)
                | Constraint::NonConsecutive(_)
                | Constraint::Allowed(_)
                | Constraint::Odd(_)
                | Constraint::Even(_)
                | Constraint::Difference(_)
                | Constraint::Ratio(_)
                | Constraint::Xv(_)
                | Constraint::WeightedSum(_)
                | Constraint::Pairwise(_)
                | Constraint::Doppelganger(_)
                | Constraint::RegionSameValues(_)
                | Constraint::Clone(_)
                | Constraint::SameValues(_)
                | Constraint::ChaosConstruction(_)
                | Constraint::ChaosCount(_)
                | Constraint::ChaosArrow(_)
                | Constraint::ExtraCells(_)
        ),
    }
}

/// Whether `constraint` is one of the kinds z3doku solves on a rectangle
/// (sigh's `Shape~6x9`) of `size` whose values start at `lowest`: those
/// of [`with_more_digits`], whose
/// geometry reads only the cells they name or a cell's neighbours on the
/// board (a knight's or king's move, orthogonal pairs), which a rectangle
/// defines as a square does; and, when its values run from 1 to the
/// longer side, those of [`on_rectangles_from_one`]. The others are
/// refused by name: windoku and full rank as sigh refuses them, the rest
/// as kinds z3doku does not solve there.
fn on_rectangles(constraint: &Constraint, size: Size, lowest: u8) -> bool {
    match constraint {
        // An `or` or `and` of rules holds as its rules do.
        Constraint::Either(either) => either
            .0
            .iter()
            .flatten()
            .all(|rule| on_rectangles(rule, size, lowest)),
        _ => {
            with_more_digits(constraint)
                || lowest == 1 && size.values() == size.side() && on_rectangles_from_one(constraint)
        }
    }
}

/// Why sigh refuses a kind on a `Raw` grid (its `REQUIRES_SUDOKU_GRID`).
const ON_SUDOKU_GRIDS: &str =
    "sigh defines it on Sudoku grids only, and this is a Raw grid (no rows, columns or boxes)";

/// Whether z3doku keeps `constraint` on a `Raw` grid of `size` whose values
/// start at `lowest`, or why not. Kept: the kinds of [`with_more_digits`]
/// that read only the cells they name or a cell's orthogonal neighbours,
/// and, when the values run from 1 to the longer side, those of
/// [`on_rectangles_from_one`] that do. Refused: sigh's kinds made for a
/// Sudoku grid (its `REQUIRES_SUDOKU_GRID`: clues outside the grid,
/// anti-knight, anti-king, windoku, doppelganger, region same values,
/// chaos construction, indexing), as sigh refuses them, and the kinds
/// z3doku states by what a row or box holds (connected values, Dutch
/// flatmates, region-sum lines).
fn on_raw_grid(constraint: &Constraint, size: Size, lowest: u8) -> Result<(), String> {
    let solved = constraint.solved();
    match solved {
        Constraint::Either(either) => either
            .0
            .iter()
            .flatten()
            .try_for_each(|rule| on_raw_grid(rule, size, lowest)),
        Constraint::AntiKnight(_)
        | Constraint::AntiKing(_)
        | Constraint::Windoku(_)
        | Constraint::Doppelganger(_)
        | Constraint::RegionSameValues(_)
        | Constraint::ChaosConstruction(_)
        | Constraint::ChaosCount(_)
        | Constraint::ChaosArrow(_)
        | Constraint::PartialRegion(_)
        | Constraint::FullRank(_)
        | Constraint::LittleKiller(_)
        | Constraint::Sandwich(_)
        | Constraint::XSum(_)
        | Constraint::Skyscraper(_)
        | Constraint::HiddenSkyscraper(_)
        | Constraint::NumberedRoom(_)
        | Constraint::Indexer(_) => Err(ON_SUDOKU_GRIDS.into()),
        Constraint::ConnectedValues(_)
        | Constraint::DutchFlatmates(_)
        | Constraint::RegionSumLine(_) => Err(
            "z3doku states it by what a row, column or box holds, and a Raw grid has none".into(),
        ),
        _ if with_more_digits(solved) => Ok(()),
        _ if on_rectangles_from_one(solved) && lowest == 1 && size.values() == size.side() => {
            Ok(())
        }
        _ if on_rectangles_from_one(solved) => Err(format!(
            "z3doku solves it on Raw grids whose values run from 1 to the longer side ({}), and \
             this one's run from {lowest} to {}",
            size.side(),
            usize::from(lowest) + size.values() - 1
        )),
        _ => Err("z3doku does not solve it on a Raw grid".into()),
    }
}

/// Whether `constraint` is one of sigh's kinds that hold on a rectangle
/// whose values run from 1 to its longer side as on a square: they count
/// values as [`Size::side`] does, which is that count there, and read
/// only the cells they name or walk the whole board by rows and columns
/// apart (anti-taxicab's distances, the flatmates above and below, the
/// 2x2 windows, strict Kropki's and strict XV's orthogonal pairs; a
/// region-sum line reads the boxes of the rectangle), or
/// read a row or column from a clue beside it, or a diagonal from one
/// edge to the other, as sigh reads lines of either length (a short
/// line's sandwich is the lunchbox of its cells). Values from 0 are not
/// among them, whether the rule is restated on the digits or kept as it
/// is (a skyscraper, where sigh's 0 is no building): no test holds those
/// kinds to sigh's on such a rectangle. Each is checked against sigh's solver on
/// rectangles in `tests/suite/rectangles.rs`.
fn on_rectangles_from_one(constraint: &Constraint) -> bool {
    matches!(
        constraint,
        Constraint::SumLine(_)
            | Constraint::CountDistinct(_)
            | Constraint::ValueIndexing(_)
            | Constraint::Regex(_)
            | Constraint::LookAndSay(_)
            | Constraint::RellikCage(_)
            | Constraint::EqualityCage(_)
            | Constraint::Lunchbox(_)
            | Constraint::EqualSum(_)
            | Constraint::CountingCircles(_)
            | Constraint::GreaterThan(_)
            | Constraint::Contains(_)
            | Constraint::AntiTaxicab(_)
            | Constraint::DutchFlatmates(_)
            | Constraint::GlobalEntropy(_)
            | Constraint::GlobalMod(_)
            | Constraint::NegativeRatio(_)
            | Constraint::NegativeXv(_)
            | Constraint::LittleKiller(_)
            | Constraint::Sandwich(_)
            | Constraint::XSum(_)
            | Constraint::Skyscraper(_)
            | Constraint::HiddenSkyscraper(_)
            | Constraint::NumberedRoom(_)
            | Constraint::ZipperLine(_)
            | Constraint::DoubleArrow(_)
            | Constraint::Quadruple(_)
            | Constraint::EntropicLine(_)
            | Constraint::RegionSumLine(_)
            | Constraint::StateMachine(_)
            | Constraint::ConnectedValues(_)
            | Constraint::Indexer(Indexer {
                kind: Indexing::Row | Indexing::Column,
                ..
            })
    )
}

/// Each cell's region on a board of `size` when the puzzle draws none: the
/// boxes of [`Size::region_shape`], or none at all.
/// Whether two region maps group the cells alike, whatever the ids.
fn same_partition(a: &[Option<usize>], b: &[Option<usize>]) -> bool {
    let mut to = std::collections::HashMap::new();
    let mut from = std::collections::HashMap::new();
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (None, None) => true,
            (Some(x), Some(y)) => {
                *to.entry(x).or_insert(y) == y && *from.entry(y).or_insert(x) == x
            }
            _ => false,
        })
}

fn default_regions(size: Size) -> Vec<Option<usize>> {
    let cols = size.cols();
    let Some((height, width)) = size.region_shape() else {
        return vec![None; size.cells()];
    };
    // Boxes are `height` rows by `width` columns, `cols / width` across.
    let across = cols / width;
    (0..size.cells())
        .map(|cell| {
            let (row, col) = (cell / cols, cell % cols);
            Some(row / height * across + col / width)
        })
        .collect()
}

/// The rules of a board: its size and its houses.
///
/// Rules are shared: [`Rules::classic`] builds the classic rules of each
/// size once per process and hands out the same [`Arc`], so a file of
/// puzzles costs nothing per puzzle here, and engines that prepare
/// themselves for a set of rules can tell at a glance that it has not
/// changed.
#[derive(Clone, Debug)]
pub struct Rules {
    size: Size,
    houses: Vec<House>,
    /// For each cell, the indexes (into `houses`) of the houses holding it.
    houses_of: Vec<Vec<usize>>,
    /// For each cell, its region's number, when it is in a full region.
    region_of: Vec<Option<usize>>,
    /// The full regions' cells, in reading order, by region number.
    region_cells: Vec<Vec<usize>>,
    constraints: Vec<Constraint>,
    /// Each constraint as primitives.
    lowered: Vec<Vec<Primitive>>,
    classic: bool,
    /// The value the digit 1 stands for: 1, or 0 on a board whose digits
    /// run from 0 (see [`RulesBuilder::digits_from_zero`]).
    lowest: u8,
    /// The regions as the builder was given them (`None`: the usual
    /// boxes), so that the rules can be built again without some of them
    /// ([`Rules::without`]).
    drawn_regions: Option<Vec<Option<usize>>>,
}

/// Rules are equal when they say the same: `drawn_regions` is left out, as
/// it follows from the houses and the partial regions' constraints but for
/// the numbers a file gave its regions (a jigsaw written and read back
/// numbers them anew).
impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        self.size == other.size
            && self.houses == other.houses
            && self.houses_of == other.houses_of
            && self.region_of == other.region_of
            && self.region_cells == other.region_cells
            && self.constraints == other.constraints
            && self.lowered == other.lowered
            && self.classic == other.classic
            && self.lowest == other.lowest
    }
}

impl Eq for Rules {}

impl std::hash::Hash for Rules {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.size.hash(state);
        self.houses.hash(state);
        self.houses_of.hash(state);
        self.region_of.hash(state);
        self.region_cells.hash(state);
        self.constraints.hash(state);
        self.lowered.hash(state);
        self.classic.hash(state);
        self.lowest.hash(state);
    }
}

impl Rules {
    /// Classic Sudoku on boards of `size`: every row, every column and
    /// every box holds each digit once. Boxes take the shape
    /// [`Size::region_shape`] gives; sides without one have none.
    pub fn classic(size: Size) -> Arc<Rules> {
        static CLASSIC: OnceLock<Vec<Arc<Rules>>> = OnceLock::new();
        let all = CLASSIC.get_or_init(|| {
            Size::all()
                .map(|s| Arc::new(Rules::build(s, &default_regions(s))))
                .collect()
        });
        match all.iter().find(|r| r.size == size) {
            Some(rules) => Arc::clone(rules),
            // Every Size is one of Size::all(); this only keeps the
            // function total.
            None => Arc::new(Rules::build(size, &default_regions(size))),
        }
    }

    /// Rows, columns, and the regions of `regions` that have `side` cells,
    /// numbered in the order their first cells come on the board.
    fn build(size: Size, regions: &[Option<usize>]) -> Rules {
        // A box holds as many cells as the longer side; on a rectangle the
        // shorter lines are houses that are not full.
        let (side, rows, cols) = (size.side(), size.rows(), size.cols());
        let mut houses = Vec::with_capacity(rows + cols + side);
        let line = |kind, number, length, cell: &dyn Fn(usize) -> usize| House {
            kind,
            number,
            cells: (0..length).map(cell).collect(),
        };
        // A `Raw` grid's rows and columns are no houses (nor its boxes:
        // it has no `region_shape`).
        if !size.is_raw() {
            for r in 0..rows {
                houses.push(line(HouseKind::Row, r, cols, &|k| r * cols + k));
            }
            for c in 0..cols {
                houses.push(line(HouseKind::Column, c, rows, &|k| k * cols + c));
            }
        }
        let mut ids: Vec<usize> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (cell, region) in regions.iter().enumerate() {
            if let Some(region) = *region {
                match ids.iter().position(|&id| id == region) {
                    Some(k) => members[k].push(cell),
                    None => {
                        ids.push(region);
                        members.push(vec![cell]);
                    }
                }
            }
        }
        // Cells outside the grid are in no region and no house.
        let mut region_of = vec![None; size.all_cells()];
        let mut region_cells = Vec::new();
        // Messages say `box 5` for the usual boxes and `region 5` for a
        // jigsaw's, which a solver would not call boxes.
        let kind = if same_partition(regions, &default_regions(size)) {
            HouseKind::Box
        } else {
            HouseKind::Region
        };
        for cells in members.into_iter().filter(|cells| cells.len() == side) {
            let number = region_cells.len();
            for &cell in &cells {
                region_of[cell] = Some(number);
            }
            houses.push(House {
                kind,
                number,
                cells: cells.clone(),
            });
            region_cells.push(cells);
        }
        let mut houses_of = vec![Vec::new(); size.all_cells()];
        for (h, house) in houses.iter().enumerate() {
            for &cell in &house.cells {
                houses_of[cell].push(h);
            }
        }
        Rules {
            size,
            houses,
            houses_of,
            region_of,
            region_cells,
            constraints: Vec::new(),
            lowered: Vec::new(),
            // More digits than a row has cells make no house full, which
            // every classic path takes for granted.
            classic: size.lines_full(),
            lowest: 1,
            drawn_regions: None,
        }
    }

    /// A builder of variant rules on boards of `size`, starting from the
    /// classic houses.
    pub fn builder(size: Size) -> RulesBuilder {
        RulesBuilder {
            size,
            diagonals: [false; 2],
            disjoint_groups: false,
            regions: None,
            constraints: Vec::new(),
            lowest: 1,
        }
    }

    fn add_house(&mut self, house: House) {
        for &cell in &house.cells {
            self.houses_of[cell].push(self.houses.len());
        }
        self.houses.push(house);
    }

    /// The constraints beyond the houses, in the order they were added
    /// (then any regions too small to be houses).
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Each of [`Rules::constraints`] as the primitives the solvers
    /// state, in the same order.
    pub fn lowered(&self) -> &[Vec<Primitive>] {
        &self.lowered
    }

    /// These rules with only the constraints numbered in `keep` (indexes
    /// into [`Rules::constraints`]): what is left when the others are
    /// dropped, as an explanation does to find which ones conflict. The
    /// houses stay, and each kept constraint keeps the primitives it was
    /// lowered to.
    pub fn keeping(&self, keep: &[usize]) -> Arc<Rules> {
        let mut rules = self.clone();
        let kept = |k: &usize| keep.contains(k);
        rules.constraints = (0..self.constraints.len())
            .filter(kept)
            .map(|k| self.constraints[k].clone())
            .collect();
        rules.lowered = (0..self.lowered.len())
            .filter(kept)
            .map(|k| self.lowered[k].clone())
            .collect();
        // Chaos construction's primitive holds the clues over its regions:
        // it keeps only the clues kept.
        let clues: Vec<crate::puzzle::chaos::Clue> = rules
            .constraints
            .iter()
            .filter_map(|c| crate::puzzle::kinds::chaos::clue_of(c, self.size))
            .collect();
        for primitives in &mut rules.lowered {
            for primitive in primitives.iter_mut() {
                if let Primitive::Chaos(rule) = primitive {
                    *primitive = Primitive::Chaos(Arc::new(crate::puzzle::chaos::Chaos::new(
                        rule.size,
                        rule.region_cells(),
                        clues.clone(),
                    )));
                }
            }
        }
        Arc::new(rules)
    }

    /// The rules this board could do without, in order: the diagonals
    /// (`diagonal-`, then `diagonal+`), the disjoint groups, then each
    /// constraint as the puzzle states it. Regions too small to be houses
    /// are part of the regions, so not items.
    pub fn items(&self) -> Vec<RuleItem> {
        let mut items: Vec<RuleItem> = Vec::new();
        for house in &self.houses {
            match (house.kind, house.number) {
                (HouseKind::Diagonal, 0) => items.push(RuleItem::Diagonal(Diagonal::Falling)),
                (HouseKind::Diagonal, _) => items.push(RuleItem::Diagonal(Diagonal::Rising)),
                (HouseKind::DisjointGroup, 0) => items.push(RuleItem::DisjointGroups),
                _ => {}
            }
        }
        items.extend(
            self.constraints
                .iter()
                .enumerate()
                .filter(|(_, c)| !matches!(c, Constraint::PartialRegion(_)))
                .map(|(k, _)| RuleItem::Constraint(k)),
        );
        items
    }

    /// How people name `item`: its rule line (`diagonal+`, `disjoint
    /// groups`, `cage 15 (r1c1 r1c2)`), which reads back as the same rule.
    pub fn item_name(&self, item: RuleItem) -> String {
        match item {
            RuleItem::Diagonal(Diagonal::Falling) => "diagonal-".into(),
            RuleItem::Diagonal(Diagonal::Rising) => "diagonal+".into(),
            RuleItem::DisjointGroups => "disjoint groups".into(),
            RuleItem::Constraint(k) => self
                .constraints
                .get(k)
                .map_or_else(String::new, |c| c.to_string()),
        }
    }

    /// These rules built again without the items in `drop`: the same
    /// houses and regions, and the other constraints lowered afresh, as a
    /// puzzle written without those rules reads back. Unlike
    /// [`Rules::keeping`], a rule whose lowering reads the others (a
    /// nonconsecutive board exempts the pairs with a white dot) sees them
    /// gone. Fails only as building the rules could (never for items of
    /// rules that were built).
    pub fn without(&self, drop: &[RuleItem]) -> Result<Arc<Rules>, RuleError> {
        let mut builder = Rules::builder(self.size);
        if self.lowest == 0 {
            builder.digits_from_zero();
        }
        if let Some(regions) = &self.drawn_regions {
            builder.regions(regions.clone())?;
        }
        for item in self.items() {
            if drop.contains(&item) {
                continue;
            }
            match item {
                RuleItem::Diagonal(diagonal) => {
                    builder.diagonal(diagonal);
                }
                RuleItem::DisjointGroups => {
                    builder.disjoint_groups();
                }
                RuleItem::Constraint(k) => {
                    if let Some(constraint) = self.constraints.get(k) {
                        builder.constraint(constraint.clone())?;
                    }
                }
            }
        }
        builder.build()
    }

    /// The regions as drawn, cell by cell (`None`: in no region), when the
    /// board's regions are not its usual boxes.
    pub fn drawn_regions(&self) -> Option<&[Option<usize>]> {
        self.drawn_regions
            .as_deref()
            .filter(|regions| !same_partition(regions, &default_regions(self.size)))
    }

    /// Whether the board also parts into regions to be found (chaos
    /// construction): its solutions then carry them.
    pub fn has_chaos(&self) -> bool {
        self.chaos().is_some()
    }

    /// Chaos construction's primitive, when the board has it.
    pub fn chaos(&self) -> Option<&Arc<crate::puzzle::chaos::Chaos>> {
        self.primitives().find_map(|p| match p {
            Primitive::Chaos(chaos) => Some(chaos),
            _ => None,
        })
    }

    /// Every primitive of every constraint.
    pub fn primitives(&self) -> impl Iterator<Item = &Primitive> {
        self.lowered.iter().flatten()
    }

    /// The full regions' cells (row-major indexes, in reading order), by
    /// region number.
    pub fn regions(&self) -> &[Vec<usize>] {
        &self.region_cells
    }

    /// Whether cells `a` and `b` (row-major) share a house, so that they
    /// differ whatever else the rules say.
    pub fn share_house(&self, a: usize, b: usize) -> bool {
        self.houses_of[a]
            .iter()
            .any(|h| self.houses_of[b].contains(h))
    }

    /// The board size the rules are for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Every house: the rows, then the columns, then the regions, then the
    /// diagonals.
    pub fn houses(&self) -> &[House] {
        &self.houses
    }

    /// The indexes into [`Rules::houses`] of the houses that hold `cell`
    /// (a row-major index).
    pub fn houses_of(&self, cell: usize) -> &[usize] {
        &self.houses_of[cell]
    }

    /// The number of the region that holds `cell`, when the board has
    /// regions.
    pub fn region_of(&self, cell: usize) -> Option<usize> {
        self.region_of[cell]
    }

    /// Whether these are the classic rules of their size: rows, columns and
    /// the default boxes, no diagonal and no constraint. Engines with a fast path for classic
    /// Sudoku take it only then.
    pub fn is_classic(&self) -> bool {
        self.classic
    }

    /// The value the digit 1 stands for: 1, or 0 on a board whose digits
    /// run from 0 (sigh's `Shape~9x9~0-8`).
    pub fn lowest_value(&self) -> u8 {
        self.lowest
    }

    /// How `digit` (1 to N, 0 for a blank) is written on this board: its
    /// value's character (see [`value_char`](super::grid::value_char)).
    pub fn value_char(&self, digit: u8) -> char {
        super::grid::value_char(digit, self.lowest)
    }

    /// `grid` as one line of values, `.` for a blank: its
    /// [`to_line`](super::grid::Grid::to_line) when the digits run from 1, and each
    /// character one less (`0` to `8` on 9x9) when they run from 0, as
    /// sigh prints a solution.
    pub fn value_line(&self, grid: &super::grid::Grid) -> String {
        grid.cells().iter().map(|&d| self.value_char(d)).collect()
    }

    /// What `grid` holds in the cells outside the grid, in their order (`v1`
    /// first), a character each as [`Rules::value_line`] writes them;
    /// `None` on a board without such cells.
    pub fn extra_line(&self, grid: &super::grid::Grid) -> Option<String> {
        let extra = grid.extra_cells();
        (!extra.is_empty()).then(|| extra.iter().map(|&d| self.value_char(d)).collect())
    }

    /// The cells outside the grid as sigh's groups name them (`VA1`, `VB`),
    /// in their order (`v1` first).
    pub fn extra_cell_ids(&self) -> Vec<String> {
        let mut ids: Vec<(usize, String)> = self
            .constraints
            .iter()
            .filter_map(|c| match c {
                Constraint::ExtraCells(group) => Some(group),
                _ => None,
            })
            .flat_map(|group| (0..group.count).map(|k| (group.first + k, group.id(k))))
            .collect();
        ids.sort_unstable();
        ids.into_iter().map(|(_, id)| id).collect()
    }

    /// A solution as one line: [`Rules::value_line`], and after a blank the
    /// cells outside the grid ([`Rules::extra_line`]) when there are any.
    pub fn solution_line(&self, grid: &super::grid::Grid) -> String {
        match self.extra_line(grid) {
            Some(extra) => format!("{} {extra}", self.value_line(grid)),
            None => self.value_line(grid),
        }
    }

    /// Each cell outside the grid with what `grid` holds there, as the
    /// text forms show them: `v1 (VA1) = 2`.
    pub fn extra_values(&self, grid: &super::grid::Grid) -> Vec<String> {
        self.extra_cell_ids()
            .iter()
            .zip(grid.extra_cells())
            .enumerate()
            .map(|(n, (id, &d))| format!("v{} ({id}) = {}", n + 1, self.value_char(d)))
            .collect()
    }

    /// `clue` as messages name it on this board: `r1c1=5`, with its value.
    pub fn clue_text(&self, clue: &super::grid::Clue) -> String {
        format!("{}={}", clue.cell, self.value_char(clue.digit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn houses_cover_every_cell_once_per_kind() {
        for size in Size::all() {
            let rules = Rules::classic(size);
            let kinds = if size.region_shape().is_some() { 3 } else { 2 };
            assert_eq!(rules.houses().len(), kinds * size.side(), "{size}");
            let mut seen = vec![0; size.cells()];
            for house in rules.houses() {
                assert_eq!(house.cells.len(), size.side());
                for &c in &house.cells {
                    seen[c] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == kinds), "{size}");
            assert!((0..size.cells()).all(|c| rules.houses_of(c).len() == kinds));
        }
    }

    #[test]
    fn boxes_have_the_region_shape() {
        let six = Rules::classic(Size::from_side(6).unwrap_or_default());
        let first = six.houses().iter().find(|h| h.kind == HouseKind::Box);
        assert_eq!(first.map(|h| h.cells.clone()), Some(vec![0, 1, 2, 6, 7, 8]));
        let nine = Rules::classic(Size::NINE);
        assert_eq!(
            nine.houses()[18 + 4].cells,
            vec![30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(nine.region_of(40), Some(4));
        assert_eq!(nine.houses()[22].to_string(), "box 5");
    }

    #[test]
    fn an_overfull_region_is_named_as_numbered() {
        let error = Rules::builder(Size::from_side(4).unwrap_or_default())
            .regions(vec![Some(7); 16])
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("the regions: region 7 (numbered from 0) has 16 cells, more than the 4 digits")
        );
    }

    #[test]
    fn classic_rules_are_shared() {
        assert!(Arc::ptr_eq(
            &Rules::classic(Size::NINE),
            &Rules::classic(Size::NINE)
        ));
    }
}
