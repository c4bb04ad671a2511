//! Forcing chains through the rules: assume a candidate, then apply the
//! houses' singles and every rule instance's candidates until nothing
//! changes. A contradiction (a cell with no candidate, a digit with no
//! place in a house, a rule with no support) rules the candidate out;
//! a two-candidate cell whose two cases both rule out the same candidate
//! rules it out too. SE's forcing chains follow the houses alone; these
//! follow every rule, through the same finder as the rule steps.

use super::support::supports;
use super::{RuleSteps, domains, removals_text};
use crate::logic::pencil::{Pencil, bit, digits};
use crate::logic::seen::Seen;
use crate::logic::step::Step;
use crate::logic::technique::Technique;
use crate::puzzle::grid::{Cell, Clue, digit_char};

/// Why an assumption failed, in words.
type Broken = String;

impl RuleSteps {
    /// Applies singles and the rules' candidates to `p` until nothing
    /// changes; the contradiction met, if any. `last` holds each unit's
    /// candidates when it was last walked with nothing to take: a unit
    /// whose candidates are still those is not walked again.
    fn propagate(&self, p: &mut Pencil, last: &mut [Vec<u32>]) -> Result<(), Broken> {
        let cells = p.size().cells();
        loop {
            let mut changed = false;
            for c in 0..cells {
                if p.value(c) != 0 {
                    continue;
                }
                let m = p.candidates(c);
                if m == 0 {
                    return Err(format!("{} has no candidate", p.cell(c)));
                }
                if m.is_power_of_two() {
                    p.place(c, m.trailing_zeros() as u8 + 1);
                    changed = true;
                }
            }
            let houses = p.geometry().houses().len();
            for h in 0..houses {
                for d in 1..=p.size().side() as u8 {
                    if p.placed_in(h, d) {
                        continue;
                    }
                    let at = p.positions(h, d);
                    if at == 0 {
                        return Err(format!(
                            "{} has no place for {}",
                            p.geometry().name(h),
                            digit_char(d)
                        ));
                    }
                    if at.is_power_of_two() {
                        let c = p.geometry().houses()[h][at.trailing_zeros() as usize];
                        p.place(c, d);
                        changed = true;
                    }
                }
            }
            if changed {
                continue;
            }
            for (u, unit) in self.units.iter().enumerate() {
                let doms = domains(p, &unit.cells);
                if last[u] == doms {
                    continue;
                }
                let s = supports(&unit.cells, &doms, &unit.prims, p.geometry(), false);
                if !s.complete {
                    continue;
                }
                if s.used.contains(&0) {
                    return Err(format!("{} cannot hold", unit.name));
                }
                let mut took = false;
                for (k, &c) in unit.cells.iter().enumerate() {
                    let gone = doms[k] & !s.used[k];
                    if p.value(c) == 0 && gone != 0 {
                        for d in digits(gone) {
                            p.eliminate(c, d);
                        }
                        took = true;
                    }
                }
                if took {
                    changed = true;
                } else {
                    last[u] = doms;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// `p` with `cell = digit` assumed and propagated. `before` is each
    /// unit's candidates in `p`, where no rule step applies (this is the
    /// path's last resort), so only the units the assumption reaches are
    /// walked.
    fn assume(
        &self,
        p: &Pencil,
        before: &[Vec<u32>],
        cell: usize,
        digit: u8,
    ) -> Result<Pencil, Broken> {
        let mut q = p.clone();
        q.place(cell, digit);
        let mut last = before.to_vec();
        self.propagate(&mut q, &mut last).map(|()| q)
    }

    /// The first rule forcing chain: a two-candidate cell first (both
    /// cases, or one that breaks), then any candidate that breaks, cells
    /// with fewest candidates first.
    pub(super) fn forcing(&self, p: &Pencil, seen: &Seen) -> Option<Step> {
        if self.units.is_empty() {
            return None;
        }
        let cells = p.size().cells();
        let before: Vec<Vec<u32>> = self.units.iter().map(|u| domains(p, &u.cells)).collect();
        let mut open: Vec<usize> = (0..cells)
            .filter(|&c| p.value(c) == 0 && p.candidates(c).count_ones() >= 2)
            .collect();
        open.sort_by_key(|&c| p.candidates(c).count_ones());
        for &c in open.iter().filter(|&&c| p.candidates(c).count_ones() == 2) {
            let [x, y]: [u8; 2] = {
                let ds: Vec<u8> = digits(p.candidates(c)).collect();
                [ds[0], ds[1]]
            };
            match (self.assume(p, &before, c, x), self.assume(p, &before, c, y)) {
                (Err(why), _) => return Some(broken(p, c, x, &why, seen)),
                (_, Err(why)) => return Some(broken(p, c, y, &why, seen)),
                (Ok(a), Ok(b)) => {
                    let mut gone: Vec<Clue> = Vec::new();
                    for o in 0..cells {
                        if o == c || p.value(o) != 0 {
                            continue;
                        }
                        let left = |q: &Pencil| match q.value(o) {
                            0 => q.candidates(o),
                            v => bit(v),
                        };
                        let lost = p.candidates(o) & !left(&a) & !left(&b);
                        gone.extend(digits(lost).map(|d| Clue {
                            cell: p.cell(o),
                            digit: d,
                        }));
                    }
                    if !gone.is_empty() {
                        return Some(both(p, c, [x, y], gone, seen));
                    }
                }
            }
        }
        for &c in open.iter().filter(|&&c| p.candidates(c).count_ones() > 2) {
            for d in digits(p.candidates(c)) {
                if let Err(why) = self.assume(p, &before, c, d) {
                    return Some(broken(p, c, d, &why, seen));
                }
            }
        }
        None
    }
}

fn broken(p: &Pencil, c: usize, d: u8, why: &str, seen: &Seen) -> Step {
    let mut step = Step::new(Technique::RuleForcingChain).pattern(p, &[c], &[d]);
    step.eliminations = vec![Clue {
        cell: p.cell(c),
        digit: d,
    }];
    if seen.words() {
        step.explanation = format!(
            "rule forcing chain: if {} were {}, singles and the rules would leave {why}, so {} is not {}",
            p.cell(c),
            digit_char(d),
            p.cell(c),
            digit_char(d)
        );
    }
    step
}

fn both(p: &Pencil, c: usize, xy: [u8; 2], gone: Vec<Clue>, seen: &Seen) -> Step {
    let mut step = Step::new(Technique::RuleForcingChain).pattern(p, &[c], &xy);
    if seen.words() {
        let mut removed: Vec<(Cell, u32)> = Vec::new();
        for e in &gone {
            match removed.iter_mut().find(|(x, _)| *x == e.cell) {
                Some((_, m)) => *m |= bit(e.digit),
                None => removed.push((e.cell, bit(e.digit))),
            }
        }
        step.explanation = format!(
            "rule forcing chain: {} is {} or {}, and either way singles and the rules leave {}",
            p.cell(c),
            digit_char(xy[0]),
            digit_char(xy[1]),
            removals_text(&removed, &[])
        );
    }
    step.eliminations = gone;
    step
}
