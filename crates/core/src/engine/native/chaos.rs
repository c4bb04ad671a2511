//! Chaos construction in the generic search: each cell's region is a
//! search variable beside its digit, so that the regions and the clues
//! that read them narrow the search from its first node instead of being
//! tested on whole partings (see [`crate::puzzle::chaos`] for the rule).
//!
//! Regions have N cells, N the board's longer side, and there are R of
//! them (the board's cells over N: N on a square). The search keeps,
//! after the digit cells, a second lane of as many label cells, each a
//! set of region labels `0..R` as bits, on the same trail as the digits.
//! One propagator reads both lanes ([`Labels::narrow`]):
//! - labels are names: a label may first appear only after the one before
//!   it in reading order, and a few cells too far apart to share a region
//!   ([`anchors`]) start the first labels, so each parting has one
//!   labelling;
//! - each region has N cells: a label fixed on N cells leaves every other
//!   cell, and one left on exactly N cells takes them;
//! - each region holds N different digits: a digit placed in a region
//!   leaves its other cells and the region leaves the other cells holding
//!   it, and, when the board has N digits (so each region holds every
//!   one), a digit with one place left in a region goes there;
//! - each region is connected: from a cell fixed in it, the region reaches
//!   only the cells within its spare size of open cells, must reach every
//!   cell fixed in it, and takes the only way out of a part too small to
//!   be whole; a region not started needs a connected patch of N cells;
//! - chaos counts and arrows bound their control's digit by the cells
//!   that must and may share the first cell's region, and, once that
//!   region is known, settle cells when the digit leaves no other choice.

use super::generic::Doms;
use crate::puzzle::chaos::{Chaos, Clue};
use crate::puzzle::kinds::chaos::LARGEST_SIDE;
use std::sync::Arc;

/// The most regions the propagator's tables hold: as many as the
/// longest side of a board chaos construction is stated on
/// ([`LARGEST_SIDE`]).
const LABELS: usize = LARGEST_SIDE;

/// The most cells of a board with region labels.
const MAX_CELLS: usize = LABELS * LABELS;

/// Chaos construction as the search reads it: the rule, the cells that
/// take the first labels, and its clues with their arms worked out.
pub(super) struct Labels {
    chaos: Arc<Chaos>,
    anchors: Vec<u16>,
    clues: Vec<Read>,
}

/// A clue over the regions: its control cell, its offset, and what it
/// reads (a count's cells, or an arrow's arms that say something).
struct Read {
    control: usize,
    offset: u8,
    cells: Reads,
}

enum Reads {
    /// A count's cells, and the first cell's neighbours when every one of
    /// them is counted (else none).
    Count(Vec<usize>, Vec<usize>),
    Arrow(Vec<Vec<usize>>),
}

impl Labels {
    pub(super) fn new(chaos: &Arc<Chaos>) -> Labels {
        let clues = chaos
            .clues
            .iter()
            .map(|clue| Read {
                control: clue.control(),
                offset: clue.offset(),
                cells: match clue {
                    Clue::Count { cells, .. } => {
                        Reads::Count(cells.clone(), enclosing(chaos, cells))
                    }
                    Clue::Arrow { arms, .. } => Reads::Arrow(
                        Clue::active_arms(arms)
                            .into_iter()
                            .map(<[usize]>::to_vec)
                            .collect(),
                    ),
                },
            })
            .collect();
        Labels {
            chaos: Arc::clone(chaos),
            anchors: anchors(chaos),
            clues,
        }
    }

    /// Each clue's control cell and the cells whose labels it reads.
    pub(super) fn clue_cells(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.clues.iter().map(|clue| {
            let read = match &clue.cells {
                Reads::Count(cells, _) => cells.clone(),
                Reads::Arrow(arms) => arms.concat(),
            };
            (clue.control, read)
        })
    }

    /// Narrows digits (cells `0..n`) and labels (cells `n..2n`) to what
    /// the regions and their clues allow; `false` at a dead end.
    pub(super) fn narrow<D: Doms>(&self, d: &mut D) -> bool {
        let chaos = &*self.chaos;
        if chaos.regions() > LABELS || chaos.cells() > MAX_CELLS {
            return false;
        }
        canonical(chaos, &self.anchors, d)
            && houses(chaos, d)
            && self.clues.iter().all(|clue| match &clue.cells {
                Reads::Count(cells, around) => {
                    count(chaos, clue.control, (cells, around), clue.offset, d)
                }
                Reads::Arrow(arms) => arrow(chaos, clue.control, arms, clue.offset, d),
            })
            && connected_all(chaos, d)
    }
}

/// Cells far enough apart that no region holds two of them (a region of
/// N cells spans at most N - 1 steps), to take the first labels: up to
/// three (and no more than there are regions), from the corners first.
/// Fixing them early breaks the labels' symmetry where the regions meet
/// the board's edge.
fn anchors(chaos: &Chaos) -> Vec<u16> {
    let (s, regions) = (chaos.region_cells(), chaos.regions());
    let (rows, cols) = (chaos.size.rows(), chaos.size.cols());
    if s < 3 || regions < 2 {
        return vec![0];
    }
    let far =
        |a: usize, b: usize| (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols) >= s;
    let corners = [0, cols - 1, cols * (rows - 1), cols * rows - 1];
    let mut chosen: Vec<usize> = vec![0];
    for &c in corners.iter().chain(&[cols * (rows / 2) + cols / 2]) {
        if chosen.len() < regions.min(3) && chosen.iter().all(|&a| far(a, c)) {
            chosen.push(c);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|c| c as u16).collect()
}

/// The lowest label of a set, as an index.
#[inline]
fn low(mask: u32) -> usize {
    mask.trailing_zeros() as usize
}

#[inline]
fn single(mask: u32) -> bool {
    mask != 0 && mask & (mask - 1) == 0
}

/// Labels in their one order: the anchors hold the first labels, and each
/// other label first appears after the one before it.
fn canonical<D: Doms>(chaos: &Chaos, anchors: &[u16], d: &mut D) -> bool {
    let n = chaos.cells();
    let all = (1u32 << chaos.regions()) - 1;
    for (k, &a) in anchors.iter().enumerate() {
        if !d.keep(n + usize::from(a), 1 << k) {
            return false;
        }
    }
    let mut allowed = ((1u32 << (anchors.len() + 1)) - 1) & all;
    for c in 0..n {
        if allowed == all {
            break;
        }
        let m = d.get(n + c);
        let new = m & allowed;
        if new != m && !d.set(n + c, new) {
            return false;
        }
        allowed |= (new << 1) & all;
    }
    true
}

/// Each region's size and digits: N cells, N different digits (every
/// digit once when the board has N).
fn houses<D: Doms>(chaos: &Chaos, d: &mut D) -> bool {
    let (s, n) = (chaos.region_cells(), chaos.cells());
    let all = u32::MAX >> (32 - chaos.values());
    // Each region holds every digit: a digit with one place left in it
    // goes there.
    let every = chaos.values() == s;
    let mut fixed = [0usize; LABELS];
    let mut open = [0usize; LABELS];
    // Digits placed in cells fixed in each region.
    let mut placed = [0u32; LABELS];
    // The digits some cell that may be in each region can hold, and
    // those two cells or more can.
    let mut once = [0u32; LABELS];
    let mut twice = [0u32; LABELS];
    for c in 0..n {
        let (m, dg) = (d.get(n + c), d.get(c));
        if single(m) {
            let r = low(m);
            fixed[r] += 1;
            if single(dg) {
                if placed[r] & dg != 0 {
                    return false;
                }
                placed[r] |= dg;
            }
        }
        let mut labels = m;
        while labels != 0 {
            let r = low(labels);
            labels &= labels - 1;
            if !single(m) {
                open[r] += 1;
            }
            twice[r] |= once[r] & dg;
            once[r] |= dg;
        }
    }
    let (mut full, mut takes_all) = (0u32, 0u32);
    for r in 0..chaos.regions() {
        if fixed[r] > s || fixed[r] + open[r] < s {
            return false;
        }
        if fixed[r] == s && open[r] > 0 {
            full |= 1 << r;
        }
        if fixed[r] < s && fixed[r] + open[r] == s {
            takes_all |= 1 << r;
        }
    }
    for c in 0..n {
        let (m, dg) = (d.get(n + c), d.get(c));
        if single(m) {
            let r = low(m);
            let own = if single(dg) { dg } else { 0 };
            if !d.keep(c, all & !(placed[r] & !own)) {
                return false;
            }
            continue;
        }
        let mut keep = m & !full;
        if single(dg) {
            let mut labels = keep;
            while labels != 0 {
                let r = low(labels);
                labels &= labels - 1;
                if placed[r] & dg != 0 {
                    keep &= !(1 << r);
                }
            }
        }
        if keep & takes_all != 0 {
            keep &= takes_all;
            if !single(keep) {
                return false;
            }
        }
        if !d.keep(n + c, keep) {
            return false;
        }
    }
    // A region needs N digits among its cells; with every digit, a digit
    // with one place left in a region goes there (unless it is there
    // already).
    for r in 0..chaos.regions() {
        if (once[r].count_ones() as usize) < s {
            return false;
        }
        if !every {
            continue;
        }
        let mut lone = once[r] & !twice[r] & !placed[r];
        while lone != 0 {
            let x = lone & lone.wrapping_neg();
            lone &= lone - 1;
            let Some(c) = (0..n).find(|&c| d.get(n + c) & (1 << r) != 0 && d.get(c) & x != 0)
            else {
                return false;
            };
            if !(d.keep(n + c, 1 << r) && d.keep(c, x)) {
                return false;
            }
        }
    }
    true
}

/// Each region is one connected piece of N cells. The fixed cells and
/// the first of them are counted once for every region: a region's
/// narrowing can fix cells of others, which then count fewer than they
/// have, and so only reach further (which is sound).
fn connected_all<D: Doms>(chaos: &Chaos, d: &mut D) -> bool {
    let n = chaos.cells();
    let mut fixed = [0usize; LABELS];
    let mut core = [usize::MAX; LABELS];
    for c in 0..n {
        let m = d.get(n + c);
        if single(m) {
            let r = low(m);
            fixed[r] += 1;
            if core[r] == usize::MAX {
                core[r] = c;
            }
        }
    }
    (0..chaos.regions()).all(|r| match core[r] {
        usize::MAX => patches(chaos, r, d),
        core => connected(chaos, r, core, fixed[r], d),
    })
}

/// A region with no cell fixed yet needs a patch of N cells that may
/// hold it: smaller patches lose it.
fn patches<D: Doms>(chaos: &Chaos, r: usize, d: &mut D) -> bool {
    let (s, n) = (chaos.region_cells(), chaos.cells());
    let bit = 1u32 << r;
    let neighbours = chaos.neighbours();
    let mut seen = [false; MAX_CELLS];
    let mut stack = [0u16; MAX_CELLS];
    let mut patch = [0u16; MAX_CELLS];
    let mut any = false;
    for start in 0..n {
        if seen[start] || d.get(n + start) & bit == 0 {
            continue;
        }
        seen[start] = true;
        stack[0] = start as u16;
        let (mut top, mut size) = (1, 0);
        while top > 0 {
            top -= 1;
            let c = usize::from(stack[top]);
            patch[size] = c as u16;
            size += 1;
            for &m in &neighbours[c] {
                let m = usize::from(m);
                if !seen[m] && d.get(n + m) & bit != 0 {
                    seen[m] = true;
                    stack[top] = m as u16;
                    top += 1;
                }
            }
        }
        if size >= s {
            any = true;
        } else {
            for &c in &patch[..size] {
                if !d.keep(n + usize::from(c), !bit) {
                    return false;
                }
            }
        }
    }
    any
}

/// Region `r`, with `fixed` cells fixed in it, the first `core`: the
/// region reaches from the core only the cells within its spare size of
/// open cells (fixed cells cost none on the way), and must reach every
/// cell fixed in it.
fn connected<D: Doms>(chaos: &Chaos, r: usize, core: usize, fixed: usize, d: &mut D) -> bool {
    let (s, n) = (chaos.region_cells(), chaos.cells());
    let bit = 1u32 << r;
    let neighbours = chaos.neighbours();
    if fixed > s {
        return false;
    }
    let budget = (s - fixed) as u8;
    // Open cells on the way, by distance: the cells of this distance
    // still to spread from, and those of the next.
    let mut dist = [u8::MAX; MAX_CELLS];
    let mut stack = [0u16; MAX_CELLS];
    let mut next = [0u16; MAX_CELLS];
    let (mut top, mut queued) = (1, 0);
    stack[0] = core as u16;
    dist[core] = 0;
    let mut layer = 0u8;
    loop {
        while top > 0 {
            top -= 1;
            let c = usize::from(stack[top]);
            for &m in &neighbours[c] {
                let m = usize::from(m);
                let lm = d.get(n + m);
                if lm & bit == 0 || dist[m] != u8::MAX {
                    continue;
                }
                if lm == bit {
                    dist[m] = layer;
                    stack[top] = m as u16;
                    top += 1;
                } else if layer < budget {
                    dist[m] = layer + 1;
                    next[queued] = m as u16;
                    queued += 1;
                }
            }
        }
        if queued == 0 {
            break;
        }
        layer += 1;
        stack[..queued].copy_from_slice(&next[..queued]);
        top = queued;
        queued = 0;
    }
    let mut reached = 0;
    for (c, &far) in dist[..n].iter().enumerate() {
        let lc = d.get(n + c);
        if lc & bit == 0 {
            continue;
        }
        if far == u8::MAX {
            // A fixed cell out of reach is a dead end; an open one is
            // not in the region.
            if lc == bit || !d.keep(n + c, !bit) {
                return false;
            }
        } else {
            reached += 1;
        }
    }
    if reached < s {
        return false;
    }
    if reached == s {
        return dist[..n]
            .iter()
            .enumerate()
            .all(|(c, &far)| far == u8::MAX || d.keep(n + c, bit));
    }
    doors(chaos, r, d)
}

/// Each piece of cells fixed in region `r`, short of N cells, must grow
/// through an open neighbour: with none it is a dead end, and with one
/// that neighbour joins it.
fn doors<D: Doms>(chaos: &Chaos, r: usize, d: &mut D) -> bool {
    let (s, n) = (chaos.region_cells(), chaos.cells());
    let bit = 1u32 << r;
    let neighbours = chaos.neighbours();
    let mut seen = [false; MAX_CELLS];
    let mut stack = [0u16; MAX_CELLS];
    for start in 0..n {
        if seen[start] || d.get(n + start) != bit {
            continue;
        }
        seen[start] = true;
        stack[0] = start as u16;
        let (mut top, mut size) = (1, 0);
        // The first open neighbour, and whether there is another.
        let (mut door, mut several) = (None, false);
        while top > 0 {
            top -= 1;
            let c = usize::from(stack[top]);
            size += 1;
            for &m in &neighbours[c] {
                let m = usize::from(m);
                let lm = d.get(n + m);
                if lm == bit {
                    if !seen[m] {
                        seen[m] = true;
                        stack[top] = m as u16;
                        top += 1;
                    }
                } else if lm & bit != 0 {
                    match door {
                        None => door = Some(m),
                        Some(other) if other != m => several = true,
                        Some(_) => {}
                    }
                }
            }
        }
        if size >= s {
            continue;
        }
        match door {
            None => return false,
            Some(m) if !several => return d.keep(n + m, bit),
            Some(_) => {}
        }
    }
    true
}

/// The digits `v` of the control cell (of `values`) with `v + offset` in
/// `numbers` (bit k for the number k).
#[inline]
fn digits_of(numbers: u64, offset: u8, values: usize) -> u32 {
    let shifted = numbers >> (1 + u32::from(offset));
    (shifted as u32) & (u32::MAX >> (32 - values))
}

/// The numbers (bit k for k) the control's digits make, with the offset.
#[inline]
fn numbers_of(digits: u32, offset: u8) -> u64 {
    u64::from(digits) << (1 + u32::from(offset))
}

/// Bits `lo..=hi` of a u64 (none when `lo > hi`).
#[inline]
fn range(lo: usize, hi: usize) -> u64 {
    if lo > hi || lo > 63 {
        return 0;
    }
    let hi = hi.min(63);
    (u64::MAX >> (63 - (hi - lo))) << lo
}

/// The neighbours of a count's first cell when every one of them is
/// counted, else none. Its region has two cells or more and is
/// connected, so one of them shares it, and the count is one more than
/// the cells fixed in it until one of them is (sigh's "enclosed first
/// cell").
fn enclosing(chaos: &Chaos, cells: &[usize]) -> Vec<usize> {
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    let around: Vec<usize> = chaos.neighbours()[first]
        .iter()
        .map(|&c| usize::from(c))
        .collect();
    if around.iter().all(|c| cells.contains(c)) {
        around
    } else {
        Vec::new()
    }
}

/// A chaos count: how many of `cells` share the first one's region, with
/// the first cell's neighbours when they are all counted ([`enclosing`]).
fn count<D: Doms>(
    chaos: &Chaos,
    control: usize,
    (cells, around): (&[usize], &[usize]),
    offset: u8,
    d: &mut D,
) -> bool {
    let n = chaos.cells();
    let Some(&first) = cells.first() else {
        return false;
    };
    let wanted = numbers_of(d.get(control), offset);
    let starts = d.get(n + first);
    let (mut made, mut keep_start) = (0u64, 0u32);
    let mut labels = starts;
    while labels != 0 {
        let r = low(labels);
        labels &= labels - 1;
        let bit = 1u32 << r;
        let (mut lo, mut hi) = (0, 0);
        for &c in cells {
            let lc = if c == first { bit } else { d.get(n + c) };
            if lc == bit {
                lo += 1;
            }
            if lc & bit != 0 {
                hi += 1;
            }
        }
        // An enclosed first cell with no neighbour fixed in the region yet
        // still takes one of them.
        let waiting = !around.is_empty() && around.iter().all(|&c| d.get(n + c) != bit);
        let numbers = range(lo + usize::from(waiting), hi);
        if numbers & wanted != 0 {
            keep_start |= bit;
            made |= numbers;
        }
        if starts == bit {
            // The region is known: the count's bounds settle the cells.
            let ok = numbers & wanted;
            if ok == 0 {
                return false;
            }
            let (least, most) = (
                ok.trailing_zeros() as usize,
                63 - ok.leading_zeros() as usize,
            );
            if most == lo || least == hi {
                let keep = if most == lo { !bit } else { bit };
                for &c in cells {
                    let lc = d.get(n + c);
                    if c != first && lc != bit && lc & bit != 0 && !d.keep(n + c, keep) {
                        return false;
                    }
                }
            }
        }
    }
    d.keep(n + first, keep_start) && d.keep(control, digits_of(made, offset, chaos.values()))
}

/// For region `r` from the arm's first cell: the extra run lengths (bit e
/// for e cells past the first) the labels allow, and how many cells past
/// the first are already fixed in it.
fn runs<D: Doms>(n: usize, arm: &[usize], bit: u32, d: &D) -> (u64, usize) {
    let mut lengths = 0u64;
    let mut sure = 0;
    let mut all_sure = true;
    for (e, &c) in arm.iter().enumerate().skip(1) {
        let lc = d.get(n + c);
        // The run may stop before cell e when that cell can be elsewhere.
        if lc != bit && e <= 63 {
            lengths |= 1 << (e - 1);
        }
        if lc & bit == 0 {
            return (lengths, sure);
        }
        if all_sure && lc == bit {
            sure += 1;
        } else {
            all_sure = false;
        }
    }
    let e = arm.len().saturating_sub(1);
    if e <= 63 {
        lengths |= 1 << e;
    }
    (lengths, sure)
}

/// The sums of one length from each set (bit k for k).
fn sumset(sets: &[u64]) -> u64 {
    let mut sums = 1u64;
    for &set in sets {
        let mut next = 0u64;
        let mut bits = set;
        while bits != 0 {
            let e = bits.trailing_zeros();
            bits &= bits - 1;
            next |= sums << e;
        }
        sums = next;
    }
    sums
}

/// A chaos arrow: how far the first cell's region runs along the arms.
fn arrow<D: Doms>(
    chaos: &Chaos,
    control: usize,
    arms: &[Vec<usize>],
    offset: u8,
    d: &mut D,
) -> bool {
    let n = chaos.cells();
    let Some(&start) = arms.first().and_then(|a| a.first()) else {
        return false;
    };
    // Lengths are 1 + the extra cells of each arm: `wanted` as extras.
    let wanted = numbers_of(d.get(control), offset) >> 1;
    let starts = d.get(n + start);
    let (mut made, mut keep_start) = (0u64, 0u32);
    let mut sets = [0u64; 8];
    let mut sure = [0usize; 8];
    let many = arms.len() > sets.len();
    let mut labels = starts;
    while labels != 0 {
        let r = low(labels);
        labels &= labels - 1;
        let bit = 1u32 << r;
        let extras = if many {
            // Too many arms to narrow: only their bounds are read.
            u64::MAX
        } else {
            for (k, arm) in arms.iter().enumerate() {
                (sets[k], sure[k]) = runs(n, arm, bit, d);
            }
            sumset(&sets[..arms.len()])
        };
        if extras & wanted != 0 {
            keep_start |= bit;
            made |= extras;
        }
        if starts == bit && !many {
            let ok = extras & wanted;
            if ok == 0 {
                return false;
            }
            for (k, arm) in arms.iter().enumerate() {
                let mut others = [0u64; 8];
                let mut m = 0;
                for (j, &set) in sets[..arms.len()].iter().enumerate() {
                    if j != k {
                        others[m] = set;
                        m += 1;
                    }
                }
                let rest = sumset(&others[..m]);
                // The arm's extras that some choice of the others meets.
                let mut fits = 0u64;
                let mut bits = sets[k];
                while bits != 0 {
                    let e = bits.trailing_zeros();
                    bits &= bits - 1;
                    if (rest << e) & ok != 0 {
                        fits |= 1 << e;
                    }
                }
                if fits == 0 {
                    return false;
                }
                let least = fits.trailing_zeros() as usize;
                let most = 63 - fits.leading_zeros() as usize;
                for &c in &arm[1..=least.min(arm.len() - 1)] {
                    if !d.keep(n + c, bit) {
                        return false;
                    }
                }
                if most == sure[k]
                    && let Some(&c) = arm.get(most + 1)
                    && !d.keep(n + c, !bit)
                {
                    return false;
                }
            }
        }
    }
    d.keep(n + start, keep_start) && d.keep(control, digits_of(made << 1, offset, chaos.values()))
}
