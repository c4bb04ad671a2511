//! The digits a rule instance leaves its cells: every assignment of the
//! cells' candidates that satisfies the instance's primitives (and the
//! houses among its own cells) is a support, and a candidate no support
//! uses is false. A depth-first walk over the cells, fewest candidates
//! first, checks each primitive as soon as one of its cells is assigned,
//! through bounds on the cells still open, so most dead branches end
//! within a cell or two.

use crate::logic::pencil::{Geometry, bit, digits};
use crate::puzzle::primitive::Primitive;

/// How many assignments a walk may try before giving up on the instance:
/// a rule that needs more is left to the techniques after it (a 9-cell
/// cage over full candidates takes a few thousand).
const NODES: usize = 200_000;

/// What a walk found.
pub(super) struct Supports {
    /// For each cell (in the order given), the digits some support gives
    /// it.
    pub used: Vec<u32>,
    /// The digit sets of the supports over all the cells, when asked for
    /// (a cage's combinations), at most [`COMBOS`] of them.
    pub combos: Vec<u32>,
    /// Whether the walk went through every assignment (or stopped because
    /// nothing more could be learnt), rather than running out of nodes.
    pub complete: bool,
}

/// The most combinations kept for the words of a step.
pub(super) const COMBOS: usize = 64;

struct Walk<'a> {
    order: Vec<usize>,
    /// Each position's cell's candidates.
    dom: Vec<u32>,
    /// The candidates of each cell of the board the walk reads (0
    /// elsewhere), by cell number.
    dom_of: Vec<u32>,
    /// The digit assigned to each cell of the board (0: open).
    value: Vec<u8>,
    /// For each position, the primitives that read its cell.
    checks: Vec<Vec<usize>>,
    /// For each position, the earlier positions sharing a house with it.
    peers: Vec<Vec<usize>>,
    prims: &'a [Primitive],
    used: Vec<u32>,
    combos: Option<Vec<u32>>,
    nodes: usize,
    aborted: bool,
    /// Stop once every cell has used all its candidates (nothing more to
    /// learn), unless the combinations are wanted.
    stop_when_full: bool,
}

/// The supports of `prims` over `cells`, whose candidates are `doms`
/// (a placed digit is a one-digit set); the houses of `geometry` keep
/// the cells that share one apart.
pub(super) fn supports(
    cells: &[usize],
    doms: &[u32],
    prims: &[Primitive],
    geometry: &Geometry,
    want_combos: bool,
) -> Supports {
    if let [Primitive::Connected(rule)] = prims {
        return connected(rule, cells, doms);
    }
    if let [Primitive::Chaos(rule)] = prims {
        return chaos(rule, cells, doms);
    }
    let n = cells.len();
    let mut positions: Vec<usize> = (0..n).collect();
    positions.sort_by_key(|&k| doms[k].count_ones());
    let order: Vec<usize> = positions.iter().map(|&k| cells[k]).collect();
    let board = geometry.size().cells();
    let mut dom_of = vec![0u32; board];
    for (k, &c) in cells.iter().enumerate() {
        dom_of[c] = doms[k];
    }
    let checks = order
        .iter()
        .map(|&c| {
            (0..prims.len())
                .filter(|&p| prims[p].cells().contains(&c))
                .collect()
        })
        .collect();
    let peers = (0..n)
        .map(|k| {
            (0..k)
                .filter(|&j| geometry.sees(order[j], order[k]))
                .collect()
        })
        .collect();
    let mut walk = Walk {
        dom: positions.iter().map(|&k| doms[k]).collect(),
        order,
        dom_of,
        value: vec![0; board],
        checks,
        peers,
        prims,
        used: vec![0; n],
        combos: want_combos.then(Vec::new),
        nodes: 0,
        aborted: false,
        stop_when_full: !want_combos,
    };
    walk.go(0, 0);
    let mut used = vec![0; n];
    for (p, &k) in positions.iter().enumerate() {
        used[k] = walk.used[p];
    }
    Supports {
        used,
        combos: walk.combos.unwrap_or_default(),
        complete: !walk.aborted,
    }
}

/// A connected region's unit: its own narrowing over the candidates
/// ([`Connected::support`](crate::puzzle::connected::Connected::support))
/// stands in for the walk, which over a whole board's cells would be a
/// search for the whole grid. The narrowing is sound, so the digits it
/// keeps include every digit a support uses: what it takes away is false.
fn connected(
    rule: &crate::puzzle::connected::Connected,
    cells: &[usize],
    doms: &[u32],
) -> Supports {
    // The unit's cells are the area's, in the same order, but for a unit
    // made otherwise.
    if cells == rule.cells.as_slice() {
        let kept = rule.support(doms);
        return Supports {
            used: kept.unwrap_or_else(|| vec![0; cells.len()]),
            combos: Vec::new(),
            complete: true,
        };
    }
    let of = |c: usize| cells.iter().position(|&x| x == c);
    let area: Vec<u32> = rule
        .cells
        .iter()
        .map(|&c| of(c).map_or(0, |k| doms[k]))
        .collect();
    let kept = rule.support(&area);
    let used = cells
        .iter()
        .map(
            |&c| match (&kept, rule.cells.iter().position(|&x| x == c)) {
                (Some(kept), Some(p)) => kept[p],
                _ => 0,
            },
        )
        .collect();
    Supports {
        used,
        combos: Vec::new(),
        complete: true,
    }
}

impl Walk<'_> {
    /// Assigns position `k` on; `set` is the digits assigned so far.
    /// Returns false to stop the whole walk.
    fn go(&mut self, k: usize, set: u32) -> bool {
        if k == self.order.len() {
            for p in 0..k {
                self.used[p] |= bit(self.value[self.order[p]]);
            }
            if let Some(combos) = &mut self.combos
                && combos.len() < COMBOS
                && !combos.contains(&set)
            {
                combos.push(set);
            }
            let full = self.used.iter().zip(&self.dom).all(|(u, d)| u == d);
            return !(self.stop_when_full && full);
        }
        let cell = self.order[k];
        for d in digits(self.dom[k]) {
            self.nodes += 1;
            if self.nodes > NODES {
                self.aborted = true;
                return false;
            }
            if self.peers[k]
                .iter()
                .any(|&j| self.value[self.order[j]] == d)
            {
                continue;
            }
            self.value[cell] = d;
            let fits = self.checks[k]
                .iter()
                .all(|&p| may_hold(&self.prims[p], &self.value, &self.dom_of));
            if fits && !self.go(k + 1, set | bit(d)) {
                self.value[cell] = 0;
                return false;
            }
            self.value[cell] = 0;
        }
        true
    }
}

/// Chaos construction's unit: whether the candidates still part into its
/// regions ([`Chaos::may_part`](crate::puzzle::chaos::Chaos::may_part)),
/// bounded as the native engine bounds it. It takes no digit away from a
/// cell on its own: every cell keeps its candidates, or none when no
/// parting is left.
fn chaos(rule: &crate::puzzle::chaos::Chaos, cells: &[usize], doms: &[u32]) -> Supports {
    let mut board = vec![0u32; rule.cells()];
    for (&c, &d) in cells.iter().zip(doms) {
        if let Some(slot) = board.get_mut(c) {
            *slot = d;
        }
    }
    let answer = if cells.len() == board.len() {
        rule.may_part(&board)
    } else {
        None
    };
    Supports {
        used: match answer {
            Some(false) => vec![0; cells.len()],
            _ => doms.to_vec(),
        },
        combos: Vec::new(),
        complete: answer.is_some(),
    }
}

fn low(set: u32) -> i32 {
    set.trailing_zeros() as i32 + 1
}

fn high(set: u32) -> i32 {
    32 - set.leading_zeros() as i32
}

/// Whether `p` can still hold with the digits of `value` (0: open) and the
/// open cells' candidates `dom`: false only when it surely cannot, and
/// exact once every cell it reads is assigned.
fn may_hold(p: &Primitive, value: &[u8], dom: &[u32]) -> bool {
    match p {
        Primitive::Distinct { cells, sum } => {
            let mut seen = 0u32;
            let (mut total, mut lo, mut hi) = (0i64, 0i64, 0i64);
            for &c in cells {
                match value[c] {
                    0 => {
                        lo += i64::from(low(dom[c]));
                        hi += i64::from(high(dom[c]));
                    }
                    v => {
                        if seen & bit(v) != 0 {
                            return false;
                        }
                        seen |= bit(v);
                        total += i64::from(v);
                    }
                }
            }
            sum.is_none_or(|s| (total + lo..=total + hi).contains(&i64::from(s)))
        }
        Primitive::Pair { a, b, relation } => match (value[*a], value[*b]) {
            (0, 0) => true,
            (x, 0) => digits(dom[*b]).any(|y| relation.allows(x, y)),
            (0, y) => digits(dom[*a]).any(|x| relation.allows(x, y)),
            (x, y) => relation.allows(x, y),
        },
        Primitive::Sum { terms, totals } => {
            let (mut lo, mut hi) = (0i64, 0i64);
            for &(c, w) in terms {
                let w = i64::from(w);
                let (a, b) = match value[c] {
                    0 => (i64::from(low(dom[c])), i64::from(high(dom[c]))),
                    v => (i64::from(v), i64::from(v)),
                };
                if w > 0 {
                    lo += w * a;
                    hi += w * b;
                } else {
                    lo += w * b;
                    hi += w * a;
                }
            }
            totals.iter().any(|&t| (lo..=hi).contains(&i64::from(t)))
        }
        Primitive::Allowed { cell, digits } => value[*cell] == 0 || digits & bit(value[*cell]) != 0,
        Primitive::Contains {
            cells,
            digit,
            count,
        } => {
            let could = cells
                .iter()
                .filter(|&&c| match value[c] {
                    0 => dom[c] & bit(*digit) != 0,
                    v => v == *digit,
                })
                .count();
            could >= *count
        }
        Primitive::Between { ends, middle } => {
            let (x, y) = (value[ends.0], value[ends.1]);
            if x == 0 || y == 0 {
                return true;
            }
            let (lo, hi) = (x.min(y), x.max(y));
            middle.iter().all(|&m| match value[m] {
                0 => digits(dom[m]).any(|d| d > lo && d < hi),
                v => v > lo && v < hi,
            })
        }
        Primitive::Visible { cells, .. } => {
            cells.iter().any(|&c| value[c] == 0) || p.holds(&|c| value[c])
        }
        Primitive::When { when, then } => {
            if when.iter().any(|&(c, d)| value[c] != 0 && value[c] != d) {
                return true;
            }
            if when.iter().all(|&(c, d)| value[c] == d) {
                return may_hold(then, value, dom);
            }
            true
        }
        Primitive::Any { literals } => literals.iter().any(|&(c, digits)| match value[c] {
            0 => dom[c] & digits != 0,
            v => digits & bit(v) != 0,
        }),
        Primitive::Formula(test) => {
            crate::puzzle::kinds::formula::feasible(test, &|c| value[c], &|c| dom[c])
        }
        Primitive::Lunchbox { plain, .. } | Primitive::FirstHidden { plain, .. } => {
            plain.iter().all(|p| may_hold(p, value, dom))
        }
        Primitive::Automaton { cells, automaton } => {
            let doms: Vec<u32> = cells
                .iter()
                .map(|&c| match value[c] {
                    0 => dom[c],
                    v => bit(v),
                })
                .collect();
            automaton.support(&doms).is_some()
        }
        Primitive::Connected(rule) => {
            let doms: Vec<u32> = rule
                .cells
                .iter()
                .map(|&c| match value[c] {
                    0 => dom[c],
                    v => bit(v),
                })
                .collect();
            rule.support(&doms).is_some()
        }
        Primitive::Chaos(rule) => {
            let doms: Vec<u32> = (0..value.len())
                .map(|c| match value[c] {
                    0 => dom[c],
                    v => bit(v),
                })
                .collect();
            rule.may_part(&doms) != Some(false)
        }
        Primitive::Rank(rank) => {
            let mut doms: Vec<u32> = (0..value.len())
                .map(|c| match value[c] {
                    0 => dom[c],
                    v => bit(v),
                })
                .collect();
            rank.narrow(doms.as_mut_slice())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::grid::Size;
    use crate::puzzle::primitive::Relation;
    use crate::puzzle::rules::Rules;

    fn geometry() -> std::sync::Arc<Geometry> {
        Geometry::of(&Rules::classic(Size::NINE))
    }

    #[test]
    fn a_cage_of_two_keeps_its_combinations() {
        let all = 0x1ff;
        let cage = [Primitive::Distinct {
            cells: vec![0, 1],
            sum: Some(15),
        }];
        let s = supports(&[0, 1], &[all, all], &cage, &geometry(), true);
        assert!(s.complete);
        let six_to_nine = bit(6) | bit(7) | bit(8) | bit(9);
        assert_eq!(s.used, [six_to_nine, six_to_nine]);
        let mut combos = s.combos.clone();
        combos.sort_unstable();
        assert_eq!(combos, [bit(7) | bit(8), bit(6) | bit(9)]);
    }

    #[test]
    fn a_placed_partner_narrows_a_pair() {
        let pair = [Primitive::Pair {
            a: 0,
            b: 20,
            relation: Relation::DifferenceAtLeast(2),
        }];
        // r1c1 holds 5; r3c3 (not a peer) may not be 4, 5 or 6.
        let s = supports(&[0, 20], &[bit(5), 0x1ff], &pair, &geometry(), false);
        assert_eq!(s.used[1], 0x1ff & !(bit(4) | bit(5) | bit(6)));
    }

    #[test]
    fn signed_sums_bound_both_ways() {
        // r1c1 - r2c4 = 7 leaves r1c1 8 or 9 and r2c4 1 or 2.
        let sum = [Primitive::Sum {
            terms: vec![(0, 1), (12, -1)],
            totals: vec![7],
        }];
        let s = supports(&[0, 12], &[0x1ff, 0x1ff], &sum, &geometry(), false);
        assert_eq!(s.used, [bit(8) | bit(9), bit(1) | bit(2)]);
    }
}
