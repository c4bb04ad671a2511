//! Naked and hidden subsets (pairs, triples, quads) within a house.

use super::pencil::{Pencil, bit, digits};
use super::seen::{ByHouse, Seen};
use super::step::{Step, cell_list, digit_list, eliminations_text};
use super::technique::Technique;
use crate::puzzle::grid::Clue;

/// Calls `visit` with every `k` of `masks` (as indexes into it) whose
/// union has exactly `k` bits, and that union, until it answers `Some`.
/// Naked and hidden subsets and fish all look for such sets; a partial
/// choice whose union already passes `k` bits is dropped with every set
/// that would grow from it, which keeps the quads cheap.
pub(crate) fn tight_sets<T>(
    masks: &[u32],
    k: usize,
    visit: &mut impl FnMut(&[usize], u32) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        start: usize,
        union: u32,
        masks: &[u32],
        chosen: &mut [usize],
        len: usize,
        visit: &mut impl FnMut(&[usize], u32) -> Option<T>,
    ) -> Option<T> {
        let k = chosen.len();
        if len == k {
            return if union.count_ones() as usize == k {
                visit(chosen, union)
            } else {
                None
            };
        }
        for i in start..masks.len() {
            if masks.len() - i < k - len {
                break;
            }
            let grown = union | masks[i];
            if grown.count_ones() as usize > k {
                continue;
            }
            chosen[len] = i;
            if let Some(found) = go(i + 1, grown, masks, chosen, len + 1, visit) {
                return Some(found);
            }
        }
        None
    }
    // On the stack: every house of every step asks. No technique looks
    // for more than four.
    let mut chosen = [0usize; 4];
    go(0, 0, masks, chosen.get_mut(..k)?, 0, visit)
}

/// `k` cells of a house whose candidates are `k` digits between them: the
/// digits go from every other cell of every house holding all `k`. Only
/// the houses `seen` says have changed are looked at.
pub(crate) fn naked(p: &Pencil, k: usize, seen: &mut Seen) -> Option<Step> {
    let t = ByHouse {
        hidden: false,
        k,
        direct: false,
    };
    let technique = match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    let g = p.geometry();
    // Every step scans every house: one pair of lists serves them all.
    let mut small: Vec<usize> = Vec::with_capacity(p.size().side());
    let mut masks: Vec<u32> = Vec::with_capacity(p.size().side());
    for (h, house) in g.houses().iter().enumerate() {
        if !seen.house_to_scan(p, t, h) {
            continue;
        }
        // With exactly `k` open cells the house itself loses nothing, but a
        // second house holding them all (a box) may.
        small.clear();
        small.extend(
            house
                .iter()
                .copied()
                .filter(|&c| (2..=k).contains(&(p.candidates(c).count_ones() as usize))),
        );
        if small.len() < k {
            continue;
        }
        masks.clear();
        masks.extend(small.iter().map(|&c| p.candidates(c)));
        let found = tight_sets(&masks, k, &mut |pick, union| {
            // Most subsets found are old ones whose eliminations are already
            // made: rule them out before building anything.
            let picked = |c: usize| pick.iter().any(|&i| small[i] == c);
            let useful = g.houses_of(small[pick[0]]).iter().any(|&hh| {
                let house = &g.houses()[hh];
                pick.iter().all(|&i| house.contains(&small[i]))
                    && house
                        .iter()
                        .any(|&c| !picked(c) && p.candidates(c) & union != 0)
            });
            if !useful {
                return None;
            }
            let cells: Vec<usize> = pick.iter().map(|&i| small[i]).collect();
            let mut eliminations = Vec::new();
            let mut named = vec![h];
            for &other in g.houses_of(cells[0]) {
                if other != h && cells.iter().all(|c| g.houses()[other].contains(c)) {
                    named.push(other);
                }
            }
            for &hh in &named {
                for &c in &g.houses()[hh] {
                    if cells.contains(&c) {
                        continue;
                    }
                    for d in digits(p.candidates(c) & union) {
                        let e = Clue {
                            cell: p.cell(c),
                            digit: d,
                        };
                        if !eliminations.contains(&e) {
                            eliminations.push(e);
                        }
                    }
                }
            }
            if eliminations.is_empty() {
                return None;
            }
            let ds: Vec<u8> = digits(union).collect();
            let mut step = Step::new(technique).pattern(p, &cells, &ds).say(seen, || {
                format!(
                    "{} hold only {} between them in {}, so {}",
                    cell_list(cells.iter().map(|&c| p.cell(c))),
                    digit_list(&ds, false),
                    g.name(h),
                    eliminations_text(&eliminations)
                )
            });
            step.eliminations = eliminations;
            Some(step)
        });
        if found.is_some() {
            return found;
        }
        seen.nothing_in(p, t, h);
    }
    None
}

/// `k` digits whose places in a house are `k` cells between them: those
/// cells lose every other digit. Only the houses `seen` says have changed
/// are looked at.
pub(crate) fn hidden(p: &Pencil, k: usize, seen: &mut Seen) -> Option<Step> {
    let t = ByHouse {
        hidden: true,
        k,
        direct: false,
    };
    let technique = match k {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    hidden_sets(p, t, seen, &mut |seen, set| {
        // Nothing to eliminate: the set's cells hold its digits alone.
        let (house, union, keep) = (set.house, set.union, set.keep);
        if (0..house.len()).all(|i| union >> i & 1 == 0 || p.candidates(house[i]) & !keep == 0) {
            return None;
        }
        let (ds, cells) = (set.digits(), set.cells());
        let eliminations = set.eliminations(p);
        let mut step = Step::new(technique).pattern(p, &cells, &ds).say(seen, || {
            format!(
                "in {}, {} can only go in {}, so {}",
                p.geometry().name(set.h),
                digit_list(&ds, false),
                cell_list(cells.iter().map(|&c| p.cell(c))),
                eliminations_text(&eliminations)
            )
        });
        step.eliminations = eliminations;
        Some(step)
    })
}

/// `k` digits whose places in a house all fall in `k` of its cells: what
/// hidden subsets and SE's direct hidden pairs and triples are made of.
pub(crate) struct HiddenSet<'a> {
    /// The house's number.
    pub h: usize,
    /// The house's cells.
    pub house: &'a [usize],
    /// Every candidate of the house.
    pub free: u32,
    /// Each digit's places in the house (bit `i`: `house[i]`).
    pub pos: &'a [u32],
    /// The set's digits, as bits.
    pub keep: u32,
    /// The set's cells, as places in the house.
    pub union: u32,
    pick: &'a [usize],
    places: &'a [(u8, u32)],
}

impl HiddenSet<'_> {
    /// The set's digits, in increasing order.
    pub fn digits(&self) -> Vec<u8> {
        self.pick.iter().map(|&i| self.places[i].0).collect()
    }

    /// The set's cells.
    pub fn cells(&self) -> Vec<usize> {
        (0..self.house.len())
            .filter(|&i| self.union >> i & 1 == 1)
            .map(|i| self.house[i])
            .collect()
    }

    /// The set's cells' candidates other than its digits.
    pub fn eliminations(&self, p: &Pencil) -> Vec<Clue> {
        let keep = self.keep;
        self.cells()
            .into_iter()
            .flat_map(|c| digits(p.candidates(c) & !keep).map(move |d| (c, d)))
            .map(|(c, digit)| Clue {
                cell: p.cell(c),
                digit,
            })
            .collect()
    }
}

/// Hands `make` each hidden set of `t.k` digits in the houses `seen` says
/// have changed, until it makes a step; a house with no more than `t.k`
/// open cells has none, and a house where `make` makes none is marked as
/// looked at.
pub(crate) fn hidden_sets(
    p: &Pencil,
    t: ByHouse,
    seen: &mut Seen,
    make: &mut impl FnMut(&Seen, &HiddenSet<'_>) -> Option<Step>,
) -> Option<Step> {
    let k = t.k;
    let mut places: Vec<(u8, u32)> = Vec::with_capacity(p.size().side());
    let mut masks: Vec<u32> = Vec::with_capacity(p.size().side());
    for (h, house) in p.geometry().houses().iter().enumerate() {
        if !seen.house_to_scan(p, t, h) {
            continue;
        }
        let mut free = 0;
        let mut open = 0;
        for &c in house {
            free |= p.candidates(c);
            open += usize::from(p.value(c) == 0);
        }
        if open <= k {
            continue;
        }
        let pos = &p.places()[h];
        places.clear();
        places.extend(
            digits(free)
                .map(|d| (d, pos[usize::from(d - 1)]))
                .filter(|(_, m)| (2..=k).contains(&(m.count_ones() as usize))),
        );
        masks.clear();
        masks.extend(places.iter().map(|&(_, m)| m));
        let found = tight_sets(&masks, k, &mut |pick, union| {
            let set = HiddenSet {
                h,
                house,
                free,
                pos,
                keep: pick.iter().fold(0, |m, &i| m | bit(places[i].0)),
                union,
                pick,
                places: &places,
            };
            make(seen, &set)
        });
        if found.is_some() {
            return found;
        }
        seen.nothing_in(p, t, h);
    }
    None
}
