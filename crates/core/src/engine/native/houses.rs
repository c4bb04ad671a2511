//! The search for rules made of houses alone: classic Sudoku on every
//! board but 9x9 (which has [its own path](super::nine)), and jigsaws.
//!
//! Deciding a sparse 16x16 or 25x25 board takes more than the house masks
//! the generic path works each cell's candidates out from: its search
//! wanders for minutes in branches that a little reasoning closes at once.
//! This one keeps every cell's candidates as state, copied at each branch
//! (at most 2.5 KB), and before each branch narrows them to a fixed point
//! of
//!
//! - naked singles: a cell with one candidate takes it, and it leaves the
//!   cell's peers;
//! - hidden singles: a digit with one place left in a house goes there (a
//!   digit with none ends the branch);
//! - matching: each house's digits must be matched to its cells one to
//!   one, and a candidate that is in no such matching goes (Régin's filter
//!   for "all different", which finds naked and hidden subsets of any
//!   size);
//! - locked candidates: when a digit's places in one house all lie where
//!   it meets another (a box and a line, say), the other house's remaining
//!   cells lose the digit, since the first house must put it there.
//!
//! It then branches on whichever is narrower: the cell with the fewest
//! candidates, or a digit with only two places left in some house (both
//! cover every solution once, as each house holds each digit once).
//! Nothing allocates while it searches, but the board copies, which grow
//! only when a search goes deeper than any before.

use super::{Flow, Halt, Search, ascending};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Grid, MAX_CELLS, MAX_SIDE, Size};
use crate::puzzle::rules::Rules;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Nodes the first attempt of a search may visit before it starts again
/// (see [`Houses::solve`]).
const FIRST_ATTEMPT: u64 = 100;

/// Marks a cell's candidates as its placed digit. Digits use the low 25
/// bits.
const PLACED: u32 = 1 << 31;

/// A board in the middle of a search.
#[derive(Clone)]
struct Board {
    /// Each cell's candidates (bit `d - 1` for digit `d`); a filled cell
    /// holds its digit's bit and [`PLACED`].
    candidates: [u32; MAX_CELLS],
    /// How many cells are still open.
    open: usize,
    /// For each rule of propagation ([`SINGLES`], [`MATCHING`],
    /// [`LOCKED`]), the houses (bit `h` for house `h`) whose cells lost a
    /// candidate since the rule last looked at them.
    stale: [u128; 3],
}

/// Hidden singles: cheap, looked for first.
const SINGLES: usize = 0;
/// Matching digits to cells in a house: dearer, once singles run out.
const MATCHING: usize = 1;
/// Locked candidates: last.
const LOCKED: usize = 2;

impl Board {
    /// Notes that a cell in `houses` lost a candidate.
    #[inline]
    fn touch(&mut self, houses: u128) {
        for stale in &mut self.stale {
            *stale |= houses;
        }
    }

    /// Takes a house `rule` has still to look at, if any.
    #[inline]
    fn take_stale(&mut self, rule: usize) -> Option<usize> {
        let stale = self.stale[rule];
        (stale != 0).then(|| {
            self.stale[rule] = stale & (stale - 1);
            stale.trailing_zeros() as usize
        })
    }
}

/// What a round of propagation did.
#[derive(PartialEq, Eq)]
enum Progress {
    /// It found a contradiction: the branch has no solution.
    Dead,
    /// It placed a digit or removed a candidate.
    Changed,
    /// It found nothing to do.
    Nothing,
}

/// Where the search branches.
enum Branch {
    /// Each of a cell's candidates (as bits).
    Cell(usize, u32),
    /// A digit (as a bit) in each of the two cells of a house it may take.
    Digit(u32, [usize; 2]),
}

/// The tables of one set of rules.
struct Tables {
    /// The rules the tables were built for.
    rules: Arc<Rules>,
    /// Every digit of the board, as bits.
    all: u32,
    /// Each house's cells: house `h` is `house_cells[h * side..(h + 1) * side]`.
    house_cells: Vec<u16>,
    side: usize,
    /// The cells sharing a house with cell `c` are
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<usize>,
    peers: Vec<u16>,
    /// The houses holding each cell, as bits.
    houses_of: Vec<u128>,
    /// Each pair of houses that meet in two cells or more: its cells in
    /// `meet_cells`, from `bounds[0]` on: those in both houses up to
    /// `bounds[1]`, those in the first only up to `bounds[2]`, those in the
    /// second only up to `bounds[3]`; and the two houses, as bits.
    meets: Vec<([usize; 4], u128)>,
    meet_cells: Vec<u16>,
}

impl Tables {
    fn new(rules: &Arc<Rules>) -> Tables {
        let size = rules.size();
        let (side, cells) = (size.side(), size.cells());
        let houses = rules.houses();
        let house_cells = houses
            .iter()
            .flat_map(|house| house.cells.iter().map(|&c| c as u16))
            .collect();
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        let mut seen = vec![usize::MAX; cells];
        for cell in 0..cells {
            peer_start.push(peers.len());
            for &house in rules.houses_of(cell) {
                for &other in &houses[house].cells {
                    if other != cell && seen[other] != cell {
                        seen[other] = cell;
                        peers.push(other as u16);
                    }
                }
            }
        }
        peer_start.push(peers.len());
        let houses_of = (0..cells)
            .map(|cell| {
                rules
                    .houses_of(cell)
                    .iter()
                    .fold(0, |bits, &h| bits | 1u128 << h)
            })
            .collect();
        let mut meets = Vec::new();
        let mut meet_cells = Vec::new();
        let mut inside = vec![false; cells];
        for (a, first) in houses.iter().enumerate() {
            let a_bit = 1u128 << a;
            inside.fill(false);
            for &cell in &first.cells {
                inside[cell] = true;
            }
            for (b, second) in houses.iter().enumerate().skip(a + 1) {
                let shared = second.cells.iter().filter(|&&c| inside[c]).count();
                if shared < 2 {
                    continue;
                }
                let start = meet_cells.len();
                // The cells of `of` that `keep` keeps; where the list then ends.
                let mut add = |of: &[usize], keep: &dyn Fn(usize) -> bool| {
                    meet_cells.extend(of.iter().filter(|&&c| keep(c)).map(|&c| c as u16));
                    meet_cells.len()
                };
                let both = add(&second.cells, &|c| inside[c]);
                let first_only = add(&first.cells, &|c| !second.cells.contains(&c));
                let end = add(&second.cells, &|c| !inside[c]);
                meets.push(([start, both, first_only, end], a_bit | 1 << b));
            }
        }
        Tables {
            rules: Arc::clone(rules),
            all: u32::MAX >> (32 - side),
            house_cells,
            side,
            peer_start,
            peers,
            houses_of,
            meets,
            meet_cells,
        }
    }

    /// Fills `cell` with `bit` and takes the digit from its peers, queueing
    /// those left with one candidate; `false` when a peer is left with
    /// none.
    #[inline]
    fn place(&self, board: &mut Board, queue: &mut Vec<u16>, cell: usize, bit: u32) -> bool {
        board.candidates[cell] = bit | PLACED;
        board.open -= 1;
        board.touch(self.houses_of[cell]);
        for &peer in &self.peers[self.peer_start[cell]..self.peer_start[cell + 1]] {
            let peer = usize::from(peer);
            let before = board.candidates[peer];
            if before & bit == 0 {
                continue;
            }
            let after = before & !bit;
            if before & PLACED != 0 || after == 0 {
                return false;
            }
            board.candidates[peer] = after;
            board.touch(self.houses_of[peer]);
            if after & (after - 1) == 0 {
                queue.push(peer as u16);
            }
        }
        true
    }

    /// Narrows `board` to a fixed point of naked singles (starting with
    /// those in `queue`), matching in each house and locked candidates;
    /// `false` when it has no solution.
    fn propagate(&self, board: &mut Board, queue: &mut Vec<u16>) -> bool {
        loop {
            while let Some(cell) = queue.pop() {
                let cell = usize::from(cell);
                let bit = board.candidates[cell];
                if bit & PLACED == 0 && !self.place(board, queue, cell, bit) {
                    return false;
                }
            }
            if let Some(house) = board.take_stale(SINGLES) {
                if self.hidden_singles(board, queue, self.members(house)) == Progress::Dead {
                    return false;
                }
                continue;
            }
            if let Some(house) = board.take_stale(MATCHING) {
                if self.match_house(board, queue, self.members(house)) == Progress::Dead {
                    return false;
                }
                continue;
            }
            match self.locked(board, queue) {
                Progress::Dead => return false,
                Progress::Changed => {}
                Progress::Nothing => return true,
            }
        }
    }

    /// The cells of house `house`.
    #[inline]
    fn members(&self, house: usize) -> &[u16] {
        &self.house_cells[house * self.side..(house + 1) * self.side]
    }

    /// Places each digit with one place left in a house (`members`); a
    /// digit with none is a dead end.
    fn hidden_singles(&self, board: &mut Board, queue: &mut Vec<u16>, members: &[u16]) -> Progress {
        // Bit-sliced counting: the digits seen in at least one open cell
        // of the house, and in at least two.
        let (mut once, mut twice, mut placed) = (0, 0, 0);
        for &cell in members {
            let candidates = board.candidates[usize::from(cell)];
            if candidates & PLACED != 0 {
                placed |= candidates;
            } else {
                twice |= once & candidates;
                once |= candidates;
            }
        }
        if (once | placed) & self.all != self.all {
            return Progress::Dead;
        }
        let mut singles = once & !twice;
        let mut progress = Progress::Nothing;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles ^= bit;
            // Placing an earlier single may have taken this one's cell;
            // the house, touched, is looked at again.
            let cell = members.iter().map(|&c| usize::from(c)).find(|&c| {
                let candidates = board.candidates[c];
                candidates & PLACED == 0 && candidates & bit != 0
            });
            if let Some(cell) = cell {
                if !self.place(board, queue, cell, bit) {
                    return Progress::Dead;
                }
                progress = Progress::Changed;
            }
        }
        progress
    }

    /// Keeps, in the open cells of a house (`members`), only the digits
    /// some way of giving each open cell a different one of the digits
    /// still missing uses: the house's cells and missing digits, joined
    /// where a cell may take a digit, must have a perfect matching, and a
    /// cell keeps the digits it is matched with in one of them. This is
    /// Régin's filtering for "all different": from one perfect matching, a
    /// cell may also take digit `d` when the cell matched with `d` can
    /// reach it by steps from a cell to the cell matched with one of its
    /// candidates (an alternating cycle swaps the digits around). It finds
    /// hidden singles, naked and hidden subsets of any size, and digits
    /// with no place.
    fn match_house(&self, board: &mut Board, queue: &mut Vec<u16>, members: &[u16]) -> Progress {
        // The open cells, numbered 0.. here.
        let mut cells = [0usize; MAX_SIDE];
        let mut candidates = [0u32; MAX_SIDE];
        let (mut open, mut placed, mut union) = (0, 0, 0);
        for &cell in members {
            let cell = usize::from(cell);
            let c = board.candidates[cell];
            if c & PLACED != 0 {
                placed |= c & self.all;
            } else {
                cells[open] = cell;
                candidates[open] = c;
                union |= c;
                open += 1;
            }
        }
        if (union | placed) != self.all {
            return Progress::Dead;
        }
        if open == 0 {
            return Progress::Nothing;
        }
        // owner[d]: the open cell matched with digit d.
        let mut owner = [u8::MAX; MAX_SIDE];
        let mut matched = [0u32; MAX_SIDE];
        // The digits matched so far.
        let mut taken = 0u32;
        for start in 0..open {
            // A quick match first: a candidate no one holds yet.
            let quick = candidates[start] & !taken;
            if quick != 0 {
                let bit = quick & quick.wrapping_neg();
                owner[bit.trailing_zeros() as usize] = start as u8;
                matched[start] = bit;
                taken |= bit;
                continue;
            }
            let mut seen = 0u32;
            if !augment(start, &candidates, &mut owner, &mut matched, &mut seen) {
                return Progress::Dead;
            }
            taken = matched[..=start].iter().fold(0, |t, &m| t | m);
        }
        // reach[i]: the cells cell i reaches, one step being from a cell
        // to the owner of one of its other candidates.
        let mut reach = [0u32; MAX_SIDE];
        for i in 0..open {
            let mut others = candidates[i] & !matched[i];
            while others != 0 {
                let d = others.trailing_zeros() as usize;
                others &= others - 1;
                reach[i] |= 1 << owner[d];
            }
        }
        for k in 0..open {
            let through = reach[k];
            for row in &mut reach[..open] {
                *row |= through & ((*row >> k) & 1).wrapping_neg();
            }
        }
        let mut progress = Progress::Nothing;
        for i in 0..open {
            let mut keep = matched[i];
            let mut others = candidates[i] & !matched[i];
            while others != 0 {
                let d = others.trailing_zeros() as usize;
                others &= others - 1;
                if reach[usize::from(owner[d])] >> i & 1 != 0 {
                    keep |= 1 << d;
                }
            }
            if keep != candidates[i] {
                let cell = cells[i];
                board.candidates[cell] = keep;
                board.touch(self.houses_of[cell]);
                if keep & (keep - 1) == 0 {
                    queue.push(cell as u16);
                }
                progress = Progress::Changed;
            }
        }
        progress
    }

    /// The digits the open cells among `cells` may take.
    #[inline]
    fn union(board: &Board, cells: &[u16]) -> u32 {
        cells.iter().fold(0, |union, &c| {
            let candidates = board.candidates[usize::from(c)];
            if candidates & PLACED == 0 {
                union | candidates
            } else {
                union
            }
        })
    }

    /// Takes `digits` from the open cells among `cells`.
    #[inline]
    fn remove(
        &self,
        board: &mut Board,
        queue: &mut Vec<u16>,
        cells: &[u16],
        digits: u32,
    ) -> Progress {
        let mut progress = Progress::Nothing;
        for &cell in cells {
            let before = board.candidates[usize::from(cell)];
            if before & PLACED != 0 || before & digits == 0 {
                continue;
            }
            let after = before & !digits;
            if after == 0 {
                return Progress::Dead;
            }
            board.candidates[usize::from(cell)] = after;
            board.touch(self.houses_of[usize::from(cell)]);
            if after & (after - 1) == 0 {
                queue.push(cell);
            }
            progress = Progress::Changed;
        }
        progress
    }

    /// Locked candidates: a digit whose places in one house all lie where
    /// it meets another leaves the rest of the other.
    fn locked(&self, board: &mut Board, queue: &mut Vec<u16>) -> Progress {
        let stale = std::mem::take(&mut board.stale[LOCKED]);
        let mut progress = Progress::Nothing;
        for &([start, both, first_only, end], houses) in &self.meets {
            if houses & stale == 0 {
                continue;
            }
            let shared = Self::union(board, &self.meet_cells[start..both]);
            if shared == 0 {
                continue;
            }
            let first = &self.meet_cells[both..first_only];
            let second = &self.meet_cells[first_only..end];
            let (in_first, in_second) = (Self::union(board, first), Self::union(board, second));
            for (cells, digits) in [
                (second, shared & !in_first & in_second),
                (first, shared & !in_second & in_first),
            ] {
                if digits != 0 {
                    match self.remove(board, queue, cells, digits) {
                        Progress::Dead => return Progress::Dead,
                        Progress::Changed => progress = Progress::Changed,
                        Progress::Nothing => {}
                    }
                }
            }
        }
        progress
    }

    /// Where to branch on a board with open cells and no singles: a cell
    /// with two candidates, else a digit with two places in a house, else
    /// the cell with the fewest candidates.
    fn branch(&self, board: &Board, shift: usize) -> Branch {
        let cells = self.rules.size().cells();
        let mut best = (u32::MAX, 0, 0);
        for cell in (shift..cells).chain(0..shift) {
            let candidates = board.candidates[cell];
            let count = candidates.count_ones();
            if candidates & PLACED == 0 && count < best.0 {
                best = (count, cell, candidates);
                if count <= 2 {
                    return Branch::Cell(cell, candidates);
                }
            }
        }
        let houses = self.house_cells.len() / self.side;
        let first = shift % houses;
        for house in (first..houses).chain(0..first) {
            let members = self.members(house);
            let (mut once, mut twice, mut thrice) = (0, 0, 0);
            for &cell in members {
                let candidates = board.candidates[usize::from(cell)];
                if candidates & PLACED == 0 {
                    thrice |= twice & candidates;
                    twice |= once & candidates;
                    once |= candidates;
                }
            }
            let pairs = twice & !thrice;
            if pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                let mut places = [0; 2];
                let mut found = 0;
                for &cell in members {
                    let candidates = board.candidates[usize::from(cell)];
                    if candidates & PLACED == 0 && candidates & bit != 0 && found < 2 {
                        places[found] = usize::from(cell);
                        found += 1;
                    }
                }
                return Branch::Digit(bit, places);
            }
        }
        Branch::Cell(best.1, best.2)
    }
}

/// Kuhn's augmenting path: matches open cell `cell` with one of its
/// `candidates`, moving the owners of the digits in the way to others of
/// theirs; `seen` holds the digits already tried. `false` when no path
/// exists.
fn augment(
    cell: usize,
    candidates: &[u32; MAX_SIDE],
    owner: &mut [u8; MAX_SIDE],
    matched: &mut [u32; MAX_SIDE],
    seen: &mut u32,
) -> bool {
    let mut left = candidates[cell] & !*seen;
    while left != 0 {
        let d = left.trailing_zeros() as usize;
        left &= left - 1;
        if *seen >> d & 1 != 0 {
            continue;
        }
        *seen |= 1 << d;
        let holder = owner[d];
        if holder == u8::MAX || augment(usize::from(holder), candidates, owner, matched, seen) {
            owner[d] = cell as u8;
            matched[cell] = 1 << d;
            return true;
        }
    }
    false
}

/// The search's tables and state.
pub(super) struct Houses {
    /// The tables of the rules last searched.
    tables: Option<Tables>,
    /// The board at each depth of the search.
    boards: Vec<Board>,
    /// Cells left with one candidate, still to fill.
    queue: Vec<u16>,
    /// The solution handed to the visitor.
    grid: Grid,
    /// Each cell's digits (as bits) in the order they are tried; `None`
    /// tries them from the smallest up.
    orders: Option<Vec<[u32; MAX_SIDE]>>,
    /// Solutions to pass over as if they were none.
    excluded: Vec<Grid>,
    /// The orders of the attempt under way, when it is not the first.
    shuffled: Vec<[u32; MAX_SIDE]>,
    /// Where the attempt under way starts looking for a cell or a house
    /// to branch on.
    shift: usize,
    /// The node count at which the attempt under way starts again.
    restart_at: u64,
    /// The nodes of the first attempt.
    first_attempt: u64,
}

impl Houses {
    pub(super) fn new() -> Houses {
        Houses {
            tables: None,
            boards: Vec::new(),
            queue: Vec::with_capacity(MAX_CELLS),
            grid: Grid::empty(Size::NINE),
            orders: None,
            excluded: Vec::new(),
            shuffled: Vec::new(),
            shift: 0,
            restart_at: u64::MAX,
            first_attempt: FIRST_ATTEMPT,
        }
    }

    /// Solutions the search passes over as if they were none; they do
    /// not count towards its limit.
    pub(super) fn set_excluded(&mut self, excluded: &[Grid]) {
        self.excluded.clear();
        self.excluded.extend_from_slice(excluded);
    }

    /// Whether this path searches `rules`: houses and nothing else.
    pub(super) fn takes(rules: &Rules) -> bool {
        rules.constraints().is_empty() && rules.houses().len() <= 128
    }

    /// Tries each cell's digits in the order `orders` gives (each cell's
    /// digits as bits, every digit of the board once), or from the
    /// smallest up with `None`. A digit with two places is tried first
    /// where it comes earlier in its cell's order.
    pub(super) fn set_orders(&mut self, orders: Option<Vec<[u32; MAX_SIDE]>>) {
        self.orders = orders;
    }

    /// Visits every solution of `puzzle` until `search` stops.
    ///
    /// Until it finds a solution, the search starts again now and then
    /// (after [`FIRST_ATTEMPT`] nodes, then twice as many each time) with
    /// its digits tried in other orders and its branches chosen from
    /// another place on the board: on sparse large boards, how long a
    /// search takes to find a solution depends wildly on its first
    /// choices, and a few short attempts with other ones beat one long
    /// one. The orders come from a generator seeded with the attempt's
    /// number and the budgets count nodes, so the same puzzle meets the
    /// same searches on any machine; the attempts grow without end, so
    /// the last one, if it comes to that, searches everything. Once a
    /// solution is found the attempt goes on to the end, so none comes
    /// twice.
    pub(super) fn solve(&mut self, puzzle: &Puzzle, search: &mut Search<'_>) -> Flow {
        let rules = puzzle.rules();
        let tables = match self.tables.take() {
            Some(t) if Arc::ptr_eq(&t.rules, rules) || *t.rules == **rules => t,
            _ => Tables::new(rules),
        };
        let size = puzzle.size();
        self.grid = Grid::empty(size);
        if self.boards.is_empty() {
            self.boards.push(Board {
                candidates: [0; MAX_CELLS],
                open: 0,
                stale: [0; 3],
            });
        }
        let mut attempt = 0u64;
        let mut budget = self.first_attempt;
        let flow = loop {
            let board = &mut self.boards[0];
            board.candidates[..size.cells()].fill(tables.all);
            board.open = size.cells();
            board.stale = [u128::MAX >> (128 - rules.houses().len().max(1)); 3];
            self.queue.clear();
            let consistent = puzzle
                .givens()
                .cells()
                .iter()
                .enumerate()
                .all(|(cell, &digit)| {
                    // A clue its peers' clues have ruled out: two clues share
                    // a digit in a house.
                    let bit = 1u32 << (digit.max(1) - 1);
                    digit == 0
                        || board.candidates[cell] & bit != 0
                            && tables.place(board, &mut self.queue, cell, bit)
                });
            if !consistent {
                break ControlFlow::Continue(());
            }
            self.restart_at = search.nodes.saturating_add(budget);
            let flow = self.search(&tables, 0, search);
            if flow != ControlFlow::Break(Halt::Restart) {
                break flow;
            }
            attempt += 1;
            budget = budget.saturating_mul(2);
            self.shuffle(size, attempt);
        };
        self.shuffled.clear();
        self.shift = 0;
        self.tables = Some(tables);
        flow
    }

    /// Draws the orders and the starting place of attempt `attempt`.
    fn shuffle(&mut self, size: Size, attempt: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(attempt);
        self.shuffled.clear();
        self.shuffled.extend((0..size.cells()).map(|_| {
            let mut order = ascending(size.side());
            order[..size.side()].shuffle(&mut rng);
            order
        }));
        self.shift = rng.random_range(0..size.cells());
    }

    /// The order cell `cell`'s digits are tried in, when not from the
    /// smallest up.
    #[inline]
    fn order(&self, cell: usize) -> Option<&[u32; MAX_SIDE]> {
        if self.shuffled.is_empty() {
            self.orders.as_ref().map(|orders| &orders[cell])
        } else {
            Some(&self.shuffled[cell])
        }
    }

    fn search(&mut self, tables: &Tables, depth: usize, search: &mut Search<'_>) -> Flow {
        if !tables.propagate(&mut self.boards[depth], &mut self.queue) {
            return ControlFlow::Continue(());
        }
        let cells = tables.rules.size().cells();
        if self.boards[depth].open == 0 {
            for (cell, &candidates) in self.boards[depth].candidates[..cells].iter().enumerate() {
                self.grid
                    .set(cell, (candidates & !PLACED).trailing_zeros() as u8 + 1);
            }
            if self.excluded.contains(&self.grid) {
                return ControlFlow::Continue(());
            }
            // No more attempts: the solutions to come follow this one.
            self.restart_at = u64::MAX;
            return search.found(&self.grid);
        }
        search.node()?;
        if search.nodes >= self.restart_at {
            return ControlFlow::Break(Halt::Restart);
        }
        if self.boards.len() == depth + 1 {
            let copy = self.boards[depth].clone();
            self.boards.push(copy);
        }
        let mut try_one = |this: &mut Houses, cell: usize, bit: u32| -> Flow {
            let (done, next) = this.boards.split_at_mut(depth + 1);
            let next = &mut next[0];
            next.candidates[..cells].copy_from_slice(&done[depth].candidates[..cells]);
            next.open = done[depth].open;
            next.stale = done[depth].stale;
            this.queue.clear();
            if tables.place(next, &mut this.queue, cell, bit) {
                this.search(tables, depth + 1, search)
            } else {
                ControlFlow::Continue(())
            }
        };
        match tables.branch(&self.boards[depth], self.shift) {
            Branch::Cell(cell, mut candidates) => {
                let mut next = 0;
                while candidates != 0 {
                    let bit = match self.order(cell) {
                        None => candidates & candidates.wrapping_neg(),
                        Some(order) => {
                            // The cell's order holds every candidate, so one
                            // is met.
                            while order[next] & candidates == 0 {
                                next += 1;
                            }
                            order[next]
                        }
                    };
                    candidates ^= bit;
                    try_one(self, cell, bit)?;
                }
            }
            Branch::Digit(bit, [a, b]) => {
                let rank = |cell| self.order(cell).map(|o| o.iter().position(|&o| o == bit));
                let (first, second) = if rank(b) < rank(a) { (b, a) } else { (a, b) };
                try_one(self, first, bit)?;
                try_one(self, second, bit)?;
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail loudly
    use super::super::generic::Generic;
    use super::super::{NativeEngine, known_first, visited};
    use super::*;
    use crate::engine::contract::Settings;
    use crate::puzzle::input::Source;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The search for houses and the generic one find the same solutions
    /// of `puzzle`, up to `cap` of them, with and without orders; the
    /// number found (`cap` when capped).
    fn agree(puzzle: &Puzzle, cap: usize, known: &Grid) -> usize {
        assert!(Houses::takes(puzzle.rules()));
        let mut houses = Houses::new();
        let (fast, capped) = visited(cap, &mut |search| houses.solve(puzzle, search));
        let mut unique = fast.clone();
        unique.dedup();
        assert_eq!(unique.len(), fast.len(), "a solution came twice");
        for line in &fast {
            let grid = crate::puzzle::parse::parse_puzzle(line, Some(puzzle.size())).unwrap();
            assert_eq!(crate::puzzle::check::verify_solution(puzzle, &grid), Ok(()));
        }
        houses.set_orders(Some(known_first(known)));
        let (ordered, ordered_capped) = visited(cap, &mut |search| houses.solve(puzzle, search));
        // Attempts of one node each: many start again.
        houses.set_orders(None);
        houses.first_attempt = 1;
        let (restarted, restarted_capped) =
            visited(cap, &mut |search| houses.solve(puzzle, search));
        houses.first_attempt = FIRST_ATTEMPT;
        houses.set_excluded(std::slice::from_ref(known));
        let (others, others_capped) = visited(cap, &mut |search| houses.solve(puzzle, search));
        houses.set_excluded(&[]);
        let mut generic = Generic::new();
        let (slow, slow_capped) = visited(cap, &mut |search| generic.solve(puzzle, search));
        assert_eq!(capped, slow_capped, "{}", puzzle.givens().to_line());
        assert_eq!(capped, ordered_capped, "{}", puzzle.givens().to_line());
        assert_eq!(capped, restarted_capped, "{}", puzzle.givens().to_line());
        let mut once = restarted.clone();
        once.dedup();
        assert_eq!(once, restarted, "a solution came twice after restarts");
        if capped {
            let counts = (fast.len(), ordered.len(), restarted.len(), slow.len());
            assert_eq!(counts, (cap, cap, cap, cap));
        } else {
            assert_eq!(fast, slow, "{}", puzzle.givens().to_line());
            assert_eq!(fast, ordered, "{}", puzzle.givens().to_line());
            assert_eq!(fast, restarted, "{}", puzzle.givens().to_line());
            assert!(!others_capped);
            let known = known.to_line();
            let expected: Vec<String> = fast.iter().filter(|l| **l != known).cloned().collect();
            assert_eq!(others, expected, "{}", puzzle.givens().to_line());
        }
        fast.len()
    }

    /// Puzzles from `solution` under `rules`: random clue subsets, some
    /// with a wrong digit; checks each with [`agree`], and returns how many
    /// had no solution, one, and several.
    fn cross_check(rules: &Puzzle, seed: u64, keep: &[f64], cap: usize) -> [usize; 3] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut engine = NativeEngine::new(&Settings::default());
        let mut kinds = [0; 3];
        for &fraction in keep {
            let solution = engine.random_solution(rules, &mut rng).unwrap();
            let size = solution.size();
            let mut cells: Vec<usize> = (0..size.cells()).collect();
            cells.shuffle(&mut rng);
            let kept = (fraction * size.cells() as f64) as usize;
            let mut givens = Grid::empty(size);
            for &cell in &cells[..kept] {
                givens.set(cell, solution.get(cell));
            }
            let puzzle = Puzzle::new(givens.clone(), Arc::clone(rules.rules()));
            let found = agree(&puzzle, cap, &solution);
            kinds[found.min(2)] += 1;
            assert!(found >= 1);
            // A wrong digit in a blank cell: often no solution at all.
            if kept < size.cells() {
                let cell = cells[kept];
                let wrong = rng.random_range(1..=size.side() as u8);
                givens.set(cell, wrong);
                let puzzle = Puzzle::new(givens, Arc::clone(rules.rules()));
                kinds[agree(&puzzle, cap, &solution).min(2)] += 1;
            }
        }
        kinds
    }

    fn empty(side: usize) -> Puzzle {
        Puzzle::classic(Grid::empty(Size::from_side(side).unwrap()))
    }

    #[test]
    fn classic_boards_of_every_size_agree_with_the_generic_search() {
        let mut kinds = [0; 3];
        for side in [1, 2, 3, 4, 5, 6, 7, 8, 10, 12] {
            for (seed, keep) in [(1, [0.2, 0.35, 0.5]), (2, [0.3, 0.45, 0.6])] {
                let found = cross_check(&empty(side), seed * 100 + side as u64, &keep, 60);
                for (total, k) in kinds.iter_mut().zip(found) {
                    *total += k;
                }
            }
        }
        // Every kind of answer came up: none, one, several.
        assert!(kinds.iter().all(|&k| k >= 5), "{kinds:?}");
    }

    #[test]
    fn large_boards_agree_with_the_generic_search() {
        let mut kinds = [0; 3];
        for (side, keep) in [(16, [0.5, 0.6, 0.7]), (25, [0.72, 0.78, 0.85])] {
            for seed in 0..3 {
                let found = cross_check(&empty(side), seed, &keep, 20);
                for (total, k) in kinds.iter_mut().zip(found) {
                    *total += k;
                }
            }
        }
        assert!(kinds.iter().all(|&k| k >= 2), "{kinds:?}");
    }

    #[test]
    fn jigsaws_agree_with_the_generic_search() {
        let example = include_str!("../../../../../examples/puzzles/jigsaw.txt");
        let jigsaw = Source::Text(example.into()).read_puzzle(None).unwrap();
        let rules = Puzzle::new(Grid::empty(Size::NINE), Arc::clone(jigsaw.rules()));
        assert!(!rules.rules().is_classic());
        let kinds = cross_check(&rules, 7, &[0.2, 0.3, 0.35, 0.4, 0.5, 0.6], 60);
        assert!(kinds.iter().all(|&k| k >= 1), "{kinds:?}");
        let mut engine = NativeEngine::new(&Settings::default());
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let solution = engine.random_solution(&jigsaw, &mut rng).unwrap();
        assert_eq!(agree(&jigsaw, 10, &solution), 1);
    }

    #[test]
    fn clashing_clues_have_no_solution() {
        let mut givens = Grid::empty(Size::from_side(16).unwrap());
        givens.set(0, 3);
        givens.set(17, 3);
        let puzzle = Puzzle::classic(givens);
        assert_eq!(agree(&puzzle, 10, &Grid::empty(puzzle.size())), 0);
    }

    #[test]
    fn variants_go_elsewhere() {
        let text = format!("{}\nantiking\n", ".".repeat(81));
        let puzzle = Source::Text(text).read_puzzle(None).unwrap();
        assert!(!Houses::takes(puzzle.rules()));
    }
}
