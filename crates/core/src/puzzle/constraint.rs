//! What every kind of rule shares: the board as lowering sees it
//! ([`Context`]) and the small helpers that state rules as
//! [primitives](super::primitive). The kinds themselves live in
//! [`kinds`](super::kinds), one module per kind or family, and the
//! [`Constraint`] enum is made by their registry.

use super::grid::{Cell, Size};
pub use super::kinds::Constraint;
pub use super::kinds::outside::Outside;
use super::primitive::{Primitive, Relation};
use std::collections::HashSet;

/// What lowering needs to know of the board beyond a constraint itself.
pub struct Context<'a> {
    /// The board size.
    pub size: Size,
    /// The full regions' cells (row-major indexes, in reading order).
    pub regions: &'a [Vec<usize>],
    /// For each cell, the number of its region, if it is in one.
    pub region_of: &'a [Option<usize>],
    /// Every constraint of the puzzle (dots exempt pairs from whole-board
    /// rules, neighbouring minimums exempt each other).
    pub all: &'a [Constraint],
}

impl Context<'_> {
    /// Pairs `(a, b)`, `a < b`, joined by a mark (a dot, an X or a V)
    /// that `pick` accepts.
    pub fn marked(&self, pick: impl Fn(&Constraint) -> bool) -> HashSet<(usize, usize)> {
        marked(self.size, self.all, pick)
    }
}

/// Every pair of orthogonal neighbours, as `(a, b)` with `a < b`.
pub fn orthogonal_pairs(size: Size) -> Vec<(usize, usize)> {
    steps_pairs(size, &[(0, 1), (1, 0)])
}

/// Every pair of cells one of `steps` apart, each once as `(a, b)`, `a < b`.
pub fn steps_pairs(size: Size, steps: &[(isize, isize)]) -> Vec<(usize, usize)> {
    let (rows, cols) = (size.rows() as isize, size.cols() as isize);
    let mut pairs = Vec::new();
    for a in 0..size.cells() {
        let (row, col) = ((a as isize) / cols, (a as isize) % cols);
        for &(dr, dc) in steps {
            let (r, c) = (row + dr, col + dc);
            if (0..rows).contains(&r) && (0..cols).contains(&c) {
                let b = (r * cols + c) as usize;
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Pairs `(a, b)`, `a < b`, joined by a mark among `all` that `pick`
/// accepts: the two cells of a white or black dot, an X or a V.
pub fn marked(
    size: Size,
    all: &[Constraint],
    pick: impl Fn(&Constraint) -> bool,
) -> HashSet<(usize, usize)> {
    all.iter()
        .filter(|c| pick(c))
        .filter_map(|c| match c {
            Constraint::Difference(dot) => Some(dot.cells),
            Constraint::Ratio(dot) => Some(dot.cells),
            Constraint::Xv(mark) => Some(mark.cells),
            _ => None,
        })
        .map(|cells| {
            let (a, b) = (size.index(cells[0]), size.index(cells[1]));
            (a.min(b), a.max(b))
        })
        .collect()
}

/// Cells as row-major indexes.
pub fn index(size: Size, cells: &[Cell]) -> Vec<usize> {
    cells.iter().map(|&c| size.index(c)).collect()
}

/// The relation between two cells (row-major indexes).
pub fn pair(a: usize, b: usize, relation: Relation) -> Primitive {
    Primitive::Pair { a, b, relation }
}

/// `relation` between every two cells of a line `k` or fewer places apart.
pub fn within(cells: &[usize], k: usize, relation: Relation) -> Vec<Primitive> {
    let mut out = Vec::new();
    for i in 0..cells.len() {
        for j in i + 1..cells.len().min(i + k + 1) {
            out.push(pair(cells[i], cells[j], relation));
        }
    }
    out
}

/// A weighted sum that adds up to one of `totals`.
pub fn sum(terms: Vec<(usize, i32)>, totals: Vec<i32>) -> Primitive {
    Primitive::Sum { terms, totals }
}

/// Each cell with weight 1.
pub fn ones(cells: &[usize]) -> Vec<(usize, i32)> {
    cells.iter().map(|&c| (c, 1)).collect()
}

/// Every digit of a board of `size`, as bits.
pub fn all_digits(size: Size) -> u32 {
    u32::MAX >> (32 - size.values())
}

/// Cells joined by `sep`: `r1c1→r1c2`.
pub fn list(cells: &[Cell], sep: &str) -> String {
    cells
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// Every cell of `groups`, each once, in order.
pub fn cells_of(groups: &[Vec<Cell>]) -> Vec<Cell> {
    let mut cells: Vec<Cell> = groups.concat();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// "If `cell` holds the digit of `bit`, one of `others` holds it too", as
/// a clause over the board's digits `all`.
pub fn held_also(cell: usize, bit: u32, all: u32, others: &[usize]) -> Primitive {
    let mut literals = vec![(cell, all & !bit)];
    literals.extend(others.iter().map(|&c| (c, bit)));
    Primitive::Any { literals }
}

/// Groups of cells as rule lines write them: `(r1c1 r1c2) (r3c3)`.
pub fn bracketed(groups: &[Vec<Cell>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|g| format!("({})", list(g, " ")))
        .collect();
    groups.join(" ")
}

/// Says which cell `cells` lists twice, if one.
pub fn listed_once(cells: &[Cell]) -> Result<(), String> {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    match sorted.windows(2).find(|w| w[0] == w[1]) {
        Some(pair) => Err(format!("{} is listed twice", pair[0])),
        None => Ok(()),
    }
}

/// Whether two cells are orthogonal neighbours.
pub fn neighbours(cells: &[Cell; 2]) -> bool {
    cells[0].beside(cells[1])
}

/// Terms for `Σ plus - Σ minus`.
pub fn weighted(plus: &[usize], minus: &[usize]) -> Vec<(usize, i32)> {
    merged(
        plus.iter()
            .map(|&c| (c, 1))
            .chain(minus.iter().map(|&c| (c, -1))),
    )
}

/// `terms` with each cell's weights added into one term, and terms that
/// cancel out dropped (a primitive sum lists a cell at most once).
pub fn merged(terms: impl IntoIterator<Item = (usize, i32)>) -> Vec<(usize, i32)> {
    let mut out: Vec<(usize, i32)> = Vec::new();
    for (cell, weight) in terms {
        match out.iter_mut().find(|t| t.0 == cell) {
            Some(term) => term.1 += weight,
            None => out.push((cell, weight)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

/// Every `k` of `items`, in order (for rules stated as one clause per so
/// many cells).
pub fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        if items.len() - i < k {
            break;
        }
        for mut rest in subsets(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// How many `k` of `n` there are (0 when `k > n`), saturating at
/// `usize::MAX`: what [`subsets`] would list, counted before listing.
pub fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1usize, |ways, j| ways.saturating_mul(n - j) / (j + 1))
}

/// The bits of digits `low..=high` (empty when `low > high`).
pub fn digit_range(low: usize, high: usize) -> u32 {
    if low > high || high == 0 {
        return 0;
    }
    let up_to_high = (1u64 << high) - 1;
    let below_low = (1u64 << (low.max(1) - 1)) - 1;
    (up_to_high & !below_low) as u32
}
