//! The search for every board and set of rules.
//!
//! Each house keeps the digits still to place in it as bits of a `u32`; a
//! blank cell's candidates are the digits free in all of its houses. Blank
//! cells sit in a to-do list: the cells before `depth` are filled, the rest
//! are open. Each search node fills one cell: a cell with no candidates ends
//! the branch, a cell with one (a naked single) or a digit with one place
//! left in a house (a hidden single) is filled without branching, and
//! otherwise the search branches on the cell with the fewest candidates.
//! Filling and emptying a cell only flips bits, so the search undoes its
//! moves instead of copying state.
//!
//! Variant constraints narrow a cell's candidates further, computed from
//! the filled cells around it whenever they are asked for (so there is
//! nothing to undo): digits a filled knight's or king's move away or in the
//! same cage are out, and so are the neighbours of a filled digit next to a
//! nonconsecutive cell; an increasing line bounds a cell by the filled cells
//! before and after it on the line; a cage's sum keeps only digits that
//! leave its other open cells a reachable remainder; a pencil-marked cell
//! keeps only its marks. Every constraint thus holds between each cell and
//! those filled before it, so a full board keeps them all. Killer cages
//! also bring the sums they imply within a house (see [`crate::puzzle::implied`]),
//! each searched as one more cage.

use super::{Flow, Search};
use crate::puzzle::Puzzle;
use crate::puzzle::constraint::digit_range;
use crate::puzzle::grid::{Grid, MAX_CELLS, MAX_SIDE, Size};
use crate::puzzle::implied::implied_cages;
use crate::puzzle::kinds::formula;
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rules::Rules;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The search's tables and state. The tables are built once per set of
/// rules; the state is sized for the largest board, so that no puzzle
/// allocates.
pub(super) struct Generic {
    /// The rules the tables below were built for.
    rules: Option<Arc<Rules>>,
    /// The houses of cell `c` are `house_list[house_start[c]..house_start[c + 1]]`.
    house_start: Vec<usize>,
    house_list: Vec<u16>,
    /// Each house's cells.
    members: Vec<Vec<u16>>,
    /// The variant constraints' tables, when the rules have any.
    variant: Option<Variant>,
    /// The board as filled so far.
    grid: Grid,
    /// Each house's digits still to place: bit `d - 1` for digit `d`.
    free: Vec<u32>,
    /// The blank cells of the puzzle; those from `depth` on are still open.
    todo: [u16; MAX_CELLS],
    /// How many cells `todo` holds.
    open: usize,
    /// For a randomised search, each cell's digits (as bits) in the order
    /// they are tried; `None` tries them from the smallest up.
    orders: Option<Vec<[u32; MAX_SIDE]>>,
}

/// The variant constraints, as tables per cell.
struct Variant {
    /// The digits each cell may hold at all: its pencil marks, and what
    /// its places on increasing lines leave.
    allowed: Vec<u32>,
    /// For each cell, the cells it stands in a relation with, each with
    /// the table of digits it may hold for each digit of the other.
    pairs: Vec<Vec<(u16, u16)>>,
    /// `tables[t][e]`: the digits allowed opposite digit `e`.
    tables: Vec<[u32; MAX_SIDE + 1]>,
    /// Each cage with a sum: its cells and the sum.
    cages: Vec<(Vec<u16>, u32)>,
    /// The cages with sums that hold each cell.
    cage_of: Vec<Vec<u16>>,
    /// On boards up to 12x12, every set of different digits (as bits) by
    /// its size and sum: `sets[size][sum]`.
    sets: Vec<Vec<Vec<u32>>>,
    /// The primitives without tables of their own (sums, counts, between
    /// lines, buildings seen, conditions), each checked digit by digit.
    others: Vec<Primitive>,
    /// Those that read each cell.
    other_of: Vec<Vec<u16>>,
}

impl Variant {
    fn new(rules: &Rules) -> Variant {
        let size = rules.size();
        let (cells, side) = (size.cells(), size.side());
        let all = u32::MAX >> (32 - side);
        let mut variant = Variant {
            allowed: vec![all; cells],
            pairs: vec![Vec::new(); cells],
            tables: Vec::new(),
            cages: Vec::new(),
            cage_of: vec![Vec::new(); cells],
            sets: Vec::new(),
            others: Vec::new(),
            other_of: vec![Vec::new(); cells],
        };
        let has_sums = rules
            .primitives()
            .any(|p| matches!(p, Primitive::Distinct { sum: Some(_), .. }));
        if side <= 12 && has_sums {
            let top = side * (side + 1) / 2;
            variant.sets = vec![vec![Vec::new(); top + 1]; side + 1];
            for set in 0..=all {
                variant.sets[set.count_ones() as usize][digit_sum(set) as usize].push(set);
            }
        }
        for primitive in rules.primitives() {
            match primitive {
                Primitive::Distinct { cells, sum } => {
                    for (k, &a) in cells.iter().enumerate() {
                        for &b in &cells[k + 1..] {
                            if !rules.share_house(a, b) {
                                variant.relate(a, b, Relation::Differ, side);
                            }
                        }
                    }
                    if let Some(sum) = sum {
                        variant.add_cage(cells, *sum);
                    }
                }
                Primitive::Pair { a, b, relation } => variant.relate(*a, *b, *relation, side),
                Primitive::Allowed { cell, digits } => variant.allowed[*cell] &= digits,
                other => variant.add_other(other.clone()),
            }
        }
        // What the cages imply with the houses: one more cage each.
        for implied in implied_cages(rules) {
            variant.add_cage(&implied.cells, implied.sum);
        }
        variant
    }

    /// Adds a cage with a sum: different digits in `cells`, adding up to
    /// `sum`.
    fn add_cage(&mut self, cells: &[usize], sum: u32) {
        let number = self.cages.len() as u16;
        for &cell in cells {
            self.cage_of[cell].push(number);
        }
        self.cages
            .push((cells.iter().map(|&c| c as u16).collect(), sum));
    }

    /// Adds a primitive checked digit by digit.
    fn add_other(&mut self, primitive: Primitive) {
        let number = self.others.len() as u16;
        for cell in primitive.cells() {
            self.other_of[cell].push(number);
        }
        self.others.push(primitive);
    }

    /// Records that cells `a` and `b` stand in `relation`, with a table
    /// for each side (shared with any equal table already made).
    fn relate(&mut self, a: usize, b: usize, relation: Relation, side: usize) {
        for (me, other, flip) in [(a, b, false), (b, a, true)] {
            let mut table = [0u32; MAX_SIDE + 1];
            for (e, allowed) in table.iter_mut().enumerate().take(side + 1).skip(1) {
                for d in 1..=side as u8 {
                    let ok = if flip {
                        relation.allows(e as u8, d)
                    } else {
                        relation.allows(d, e as u8)
                    };
                    if ok {
                        *allowed |= 1 << (d - 1);
                    }
                }
            }
            let number = match self.tables.iter().position(|t| *t == table) {
                Some(number) => number,
                None => {
                    self.tables.push(table);
                    self.tables.len() - 1
                }
            };
            self.pairs[me].push((other as u16, number as u16));
        }
    }

    /// The digits the constraints leave open cell `cell` of `grid`;
    /// `houses` gives a cell's candidates by its houses alone.
    fn candidates(&self, grid: &Grid, cell: usize, houses: &dyn Fn(usize) -> u32) -> u32 {
        let mut mask = self.allowed[cell];
        for &(other, table) in &self.pairs[cell] {
            let other = usize::from(other);
            let table = &self.tables[usize::from(table)];
            match grid.get(other) {
                0 => {
                    // Only digits some candidate of the other cell allows.
                    let mut support = 0;
                    let mut left = houses(other) & self.allowed[other];
                    while left != 0 {
                        support |= table[left.trailing_zeros() as usize + 1];
                        left &= left - 1;
                    }
                    mask &= support;
                }
                digit => mask &= table[usize::from(digit)],
            }
            if mask == 0 {
                return 0;
            }
        }
        for &number in &self.cage_of[cell] {
            let (members, sum) = &self.cages[usize::from(number)];
            mask &= self.cage_options(grid, members, *sum, mask, houses);
        }
        for &number in &self.other_of[cell] {
            let primitive = &self.others[usize::from(number)];
            let mut left = mask;
            while left != 0 {
                let bit = left & left.wrapping_neg();
                left ^= bit;
                let digit = bit.trailing_zeros() as u8 + 1;
                let value = |c: usize| if c == cell { digit } else { grid.get(c) };
                let open = |c: usize| if value(c) == 0 { houses(c) } else { 0 };
                if !feasible(primitive, &value, &open, grid.size().side() as u8) {
                    mask &= !bit;
                }
            }
        }
        mask
    }

    /// Which of `mask`'s digits an open cell of a cage (`members`, `sum`)
    /// may take: those in some set of different digits the cage does not
    /// hold yet that makes up the rest of its sum, with one digit per open
    /// cell and each open cell able to take one of them (by `houses`, its
    /// houses' candidates). Boards above 12x12 (too many sets to list)
    /// only check that the other
    /// open cells can still reach the remainder.
    fn cage_options(
        &self,
        grid: &Grid,
        members: &[u16],
        sum: u32,
        mask: u32,
        houses: &dyn Fn(usize) -> u32,
    ) -> u32 {
        let (mut used, mut total, mut open) = (0u32, 0u32, 0u32);
        for &member in members {
            match grid.get(usize::from(member)) {
                0 => open += 1,
                digit => {
                    used |= 1 << (digit - 1);
                    total += u32::from(digit);
                }
            }
        }
        let Some(rest) = sum.checked_sub(total) else {
            return 0;
        };
        let free = (u32::MAX >> (32 - grid.size().side())) & !used;
        if !self.sets.is_empty() {
            let Some(sets) = self
                .sets
                .get(open as usize)
                .and_then(|by_sum| by_sum.get(rest as usize))
            else {
                return 0;
            };
            // The open cells' candidates by their houses, on the stack.
            let mut open_candidates = [0u32; MAX_SIDE];
            let mut count = 0;
            for &member in members {
                let member = usize::from(member);
                if grid.get(member) == 0 && count < MAX_SIDE {
                    open_candidates[count] = houses(member);
                    count += 1;
                }
            }
            let open_candidates = &open_candidates[..count];
            let mut options = 0;
            for &set in sets {
                if set & !free == 0
                    && set & !options != 0
                    && open_candidates.iter().all(|&c| c & set != 0)
                {
                    options |= set;
                }
            }
            return mask & options;
        }
        let others = open.saturating_sub(1);
        let mut options = 0;
        let mut left = mask & free;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let digit = bit.trailing_zeros() + 1;
            let Some(remainder) = rest.checked_sub(digit) else {
                continue;
            };
            let (low, high) = extreme_sums(free & !bit, others);
            if (low..=high).contains(&remainder) {
                options |= bit;
            }
        }
        options
    }
}

/// Whether `primitive` can still hold, given each cell's digit by `value`
/// (0 when open) and an open cell's candidates by `open`. Exact once every
/// cell it reads is filled, so that a full board keeps it; before that it
/// prunes what it cheaply can.
fn feasible(
    primitive: &Primitive,
    value: &dyn Fn(usize) -> u8,
    open: &dyn Fn(usize) -> u32,
    side: u8,
) -> bool {
    match primitive {
        Primitive::Distinct { cells, sum } => {
            let mut seen = 0u32;
            let mut total = 0u32;
            for &c in cells {
                let d = value(c);
                if d != 0 {
                    if seen >> (d - 1) & 1 == 1 {
                        return false;
                    }
                    seen |= 1 << (d - 1);
                    total += u32::from(d);
                }
            }
            let terms: Vec<(usize, i32)> = cells.iter().map(|&c| (c, 1)).collect();
            sum.is_none_or(|s| sum_reachable(&terms, &[s as i32], value, open) && total <= s)
        }
        Primitive::Pair { a, b, relation } => {
            let (x, y) = (value(*a), value(*b));
            x == 0 || y == 0 || relation.allows(x, y)
        }
        Primitive::Sum { terms, totals } => sum_reachable(terms, totals, value, open),
        Primitive::Allowed { cell, digits } => match value(*cell) {
            0 => open(*cell) & digits != 0,
            d => digits >> (d - 1) & 1 == 1,
        },
        Primitive::Contains {
            cells,
            digit,
            count,
        } => {
            let bit = 1 << (digit - 1);
            let possible = cells
                .iter()
                .filter(|&&c| match value(c) {
                    0 => open(c) & bit != 0,
                    d => d == *digit,
                })
                .count();
            possible >= *count
        }
        Primitive::Between { ends, middle } => {
            let (x, y) = (value(ends.0), value(ends.1));
            let filled = middle.iter().map(|&m| value(m)).filter(|&d| d != 0);
            match (x, y) {
                (0, 0) => true,
                (0, e) | (e, 0) => {
                    // The middle lies on one side of the known end, and the
                    // open end must reach beyond it.
                    let (low, high) = filled.fold((u8::MAX, 0), |(l, h), d| (l.min(d), h.max(d)));
                    if high == 0 {
                        return true;
                    }
                    let other = if x == 0 { ends.0 } else { ends.1 };
                    let beyond_high = open(other) >> high != 0;
                    let below_low = open(other) & ((1u32 << (low - 1)) - 1) != 0;
                    (low > e && beyond_high) || (high < e && below_low)
                }
                (x, y) => {
                    let (low, high) = (x.min(y), x.max(y));
                    let inside =
                        digit_range(usize::from(low) + 1, usize::from(high).saturating_sub(1));
                    middle.iter().all(|&m| match value(m) {
                        0 => open(m) & inside != 0,
                        d => d > low && d < high,
                    })
                }
            }
        }
        Primitive::Visible { cells, count } => {
            // The buildings seen along the filled stretch from the clue,
            // and how many more the rest of the line can show.
            let (mut seen, mut top, mut filled) = (0, 0, 0);
            for &c in cells {
                match value(c) {
                    0 => break,
                    d => {
                        if d > top {
                            seen += 1;
                            top = d;
                        }
                        filled += 1;
                    }
                }
            }
            let rest = cells.len() - filled;
            let least = seen + usize::from(top < side);
            let most = seen + rest.min(usize::from(side - top));
            (least..=most).contains(count)
        }
        // Some literal can still be true; when all but one are false the
        // digit-by-digit test leaves that cell only its mask's digits.
        Primitive::Any { literals } => literals.iter().any(|&(c, digits)| match value(c) {
            0 => open(c) & digits != 0,
            d => digits >> (d - 1) & 1 == 1,
        }),
        Primitive::When { when, then } => {
            when.iter().any(|&(c, d)| value(c) != d) || feasible(then, value, open, side)
        }
        Primitive::Formula(test) => formula::feasible(test, value, open),
    }
}

/// Whether `Σ weight · digit` over `terms` can still reach one of
/// `totals`, with open cells ranging over their candidates.
fn sum_reachable(
    terms: &[(usize, i32)],
    totals: &[i32],
    value: &dyn Fn(usize) -> u8,
    open: &dyn Fn(usize) -> u32,
) -> bool {
    let (mut low, mut high) = (0i32, 0i32);
    for &(cell, weight) in terms {
        let (least, most) = match value(cell) {
            0 => {
                let candidates = open(cell);
                if candidates == 0 {
                    return false;
                }
                let least = candidates.trailing_zeros() as i32 + 1;
                let most = 32 - candidates.leading_zeros() as i32;
                (least, most)
            }
            d => (i32::from(d), i32::from(d)),
        };
        if weight > 0 {
            low += weight * least;
            high += weight * most;
        } else {
            low += weight * most;
            high += weight * least;
        }
    }
    totals.iter().any(|t| (low..=high).contains(t))
}

/// The sum of the digits whose bits are in `set`.
fn digit_sum(mut set: u32) -> u32 {
    let mut sum = 0;
    while set != 0 {
        sum += set.trailing_zeros() + 1;
        set &= set - 1;
    }
    sum
}

/// The least and greatest sums of `count` different digits from `pool`
/// (bits); `(1, 0)`, an empty range, when the pool is too small.
fn extreme_sums(pool: u32, count: u32) -> (u32, u32) {
    if pool.count_ones() < count {
        return (1, 0);
    }
    let (mut low, mut high) = (0, 0);
    let (mut small, mut large) = (pool, pool);
    for _ in 0..count {
        low += small.trailing_zeros() + 1;
        small &= small - 1;
        let top = 31 - large.leading_zeros();
        high += top + 1;
        large &= !(1 << top);
    }
    (low, high)
}

/// What a scan for hidden singles found.
enum Hidden {
    /// A house where some digit has no place left.
    Dead,
    /// A cell that must take a digit (as a bit).
    Forced(usize, u32),
    /// Nothing forced.
    Nothing,
}

impl Generic {
    pub(super) fn new() -> Generic {
        Generic {
            rules: None,
            house_start: Vec::new(),
            house_list: Vec::new(),
            members: Vec::new(),
            variant: None,
            grid: Grid::empty(Size::NINE),
            free: Vec::new(),
            todo: [0; MAX_CELLS],
            open: 0,
            orders: None,
        }
    }

    fn build_tables(&mut self, rules: &Arc<Rules>) {
        let cells = rules.size().cells();
        self.house_start.clear();
        self.house_list.clear();
        for cell in 0..cells {
            self.house_start.push(self.house_list.len());
            self.house_list
                .extend(rules.houses_of(cell).iter().map(|&h| h as u16));
        }
        self.house_start.push(self.house_list.len());
        self.members = rules
            .houses()
            .iter()
            .map(|house| house.cells.iter().map(|&c| c as u16).collect())
            .collect();
        self.free = vec![0; self.members.len()];
        self.variant = (!rules.constraints().is_empty()).then(|| Variant::new(rules));
        self.rules = Some(Arc::clone(rules));
    }

    /// Visits every solution of `puzzle` until `search` stops.
    pub(super) fn solve(&mut self, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let rules = puzzle.rules();
        if !self
            .rules
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, rules) || r == rules)
        {
            self.build_tables(rules);
        }
        let size = puzzle.size();
        let all = u32::MAX >> (32 - size.side());
        self.free.fill(all);
        self.grid = Grid::empty(size);
        self.open = 0;
        for (cell, &digit) in puzzle.givens().cells().iter().enumerate() {
            if digit == 0 {
                self.todo[self.open] = cell as u16;
                self.open += 1;
                continue;
            }
            let bit = 1 << (digit - 1);
            if self.candidates(cell) & bit == 0 {
                // Two clues share a digit in a house.
                return ControlFlow::Continue(());
            }
            self.place(cell, bit);
        }
        self.search(0, search)
    }

    /// Tries each cell's digits in the order `orders` gives (each cell's
    /// digits as bits, every digit of the board once), or from the
    /// smallest up with `None`.
    pub(super) fn set_orders(&mut self, orders: Option<Vec<[u32; MAX_SIDE]>>) {
        self.orders = orders;
    }

    /// The houses holding `cell`.
    #[inline]
    fn houses(&self, cell: usize) -> &[u16] {
        &self.house_list[self.house_start[cell]..self.house_start[cell + 1]]
    }

    /// The digits the houses of `cell` still need.
    #[inline]
    fn house_candidates(&self, cell: usize) -> u32 {
        self.houses(cell)
            .iter()
            .fold(u32::MAX, |free, &h| free & self.free[usize::from(h)])
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u32 {
        let free = self.house_candidates(cell);
        match &self.variant {
            Some(variant) if free != 0 => {
                free & variant.candidates(&self.grid, cell, &|c| self.house_candidates(c))
            }
            _ => free,
        }
    }

    #[inline]
    fn place(&mut self, cell: usize, bit: u32) {
        for k in self.house_start[cell]..self.house_start[cell + 1] {
            self.free[usize::from(self.house_list[k])] &= !bit;
        }
        self.grid.set(cell, bit.trailing_zeros() as u8 + 1);
    }

    #[inline]
    fn unplace(&mut self, cell: usize, bit: u32) {
        for k in self.house_start[cell]..self.house_start[cell + 1] {
            self.free[usize::from(self.house_list[k])] |= bit;
        }
        self.grid.set(cell, 0);
    }

    fn search(&mut self, depth: usize, search: &mut Search<'_>) -> Flow {
        if depth == self.open {
            return search.found(&self.grid);
        }
        search.node()?;
        // The open cell with the fewest candidates: (count, place in todo,
        // candidates).
        let mut best = (u32::MAX, depth, 0);
        for pos in depth..self.open {
            let candidates = self.candidates(usize::from(self.todo[pos]));
            let count = candidates.count_ones();
            if count < best.0 {
                best = (count, pos, candidates);
                if count <= 1 {
                    break;
                }
            }
        }
        match best.0 {
            0 => return ControlFlow::Continue(()),
            1 => {}
            _ => match self.hidden_single() {
                Hidden::Dead => return ControlFlow::Continue(()),
                Hidden::Forced(cell, bit) => {
                    let pos = (depth..self.open)
                        .find(|&p| usize::from(self.todo[p]) == cell)
                        .unwrap_or(depth);
                    best = (1, pos, bit);
                }
                Hidden::Nothing => {}
            },
        }
        self.todo.swap(depth, best.1);
        let cell = usize::from(self.todo[depth]);
        let mut candidates = best.2;
        let mut next = 0;
        while candidates != 0 {
            let bit = match &self.orders {
                None => candidates & candidates.wrapping_neg(),
                Some(orders) => {
                    // The cell's order holds every candidate, so one is met.
                    let order = &orders[cell];
                    while order[next] & candidates == 0 {
                        next += 1;
                    }
                    order[next]
                }
            };
            candidates ^= bit;
            self.place(cell, bit);
            let flow = self.search(depth + 1, search);
            self.unplace(cell, bit);
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Looks through every house for a digit with no place left (a dead
    /// end) or exactly one (a hidden single).
    fn hidden_single(&self) -> Hidden {
        for (members, &free) in self.members.iter().zip(&self.free) {
            if free == 0 {
                continue;
            }
            // Bit-sliced counting: the digits seen in at least one open cell
            // of the house, and in at least two.
            let (mut once, mut twice) = (0, 0);
            for &cell in members {
                let cell = usize::from(cell);
                if self.grid.get(cell) == 0 {
                    let candidates = self.candidates(cell);
                    twice |= once & candidates;
                    once |= candidates;
                }
            }
            if free & !once != 0 {
                return Hidden::Dead;
            }
            let singles = once & !twice;
            if singles != 0 {
                let bit = singles & singles.wrapping_neg();
                for &cell in members {
                    let cell = usize::from(cell);
                    if self.grid.get(cell) == 0 && self.candidates(cell) & bit != 0 {
                        return Hidden::Forced(cell, bit);
                    }
                }
            }
        }
        Hidden::Nothing
    }
}
