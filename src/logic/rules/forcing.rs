//! Forcing chains through the rules: assume a candidate, then apply the
//! houses' singles and every rule instance's candidates until nothing
//! changes. A contradiction (a cell with no candidate, a digit with no
//! place in a house, a rule with no support) rules the candidate out;
//! a cell whose every candidate (or a house whose every place for a
//! digit) rules out the same candidate, or places the same digit, rules
//! it out or places it too. SE's forcing chains follow the houses alone; these
//! follow every rule, through the same finder as the rule steps.

use super::support::supports;
use super::{RuleSteps, domains, removals_text};
use crate::logic::intersections::intersection;
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
    fn propagate(
        &self,
        p: &mut Pencil,
        last: &mut [Vec<u32>],
        dynamic: bool,
    ) -> Result<(), Broken> {
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
                if !dynamic {
                    return Ok(());
                }
                // A dynamic chain goes on with pointing and claiming, and
                // with rule pointing, before it gives up.
                let mut quiet = Seen::none().silent();
                let step = intersection(p, true, &mut quiet)
                    .or_else(|| intersection(p, false, &mut quiet))
                    .or_else(|| self.links.find(p, &quiet));
                match step {
                    Some(step) => {
                        for e in &step.eliminations {
                            let c = p.size().index(e.cell);
                            if p.value(c) == 0 {
                                p.eliminate(c, e.digit);
                            }
                        }
                    }
                    None => return Ok(()),
                }
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
        dynamic: bool,
    ) -> Result<Pencil, Broken> {
        let mut q = p.clone();
        q.place(cell, digit);
        let mut last = before.to_vec();
        self.propagate(&mut q, &mut last, dynamic).map(|()| q)
    }

    /// The first rule forcing chain: a two-candidate cell first (both
    /// cases, or one that breaks), then any candidate that breaks, cells
    /// with fewest candidates first; then a cell whose every candidate,
    /// or a house whose every place for a digit, leads to the same
    /// elimination or placement.
    pub(super) fn forcing(&self, p: &Pencil, seen: &Seen, dynamic: bool) -> Option<Step> {
        if self.units.is_empty() {
            return None;
        }
        let cells = p.size().cells();
        let side = p.size().side();
        let before: Vec<Vec<u32>> = self.units.iter().map(|u| domains(p, &u.cells)).collect();
        let mut open: Vec<usize> = (0..cells)
            .filter(|&c| p.value(c) == 0 && p.candidates(c).count_ones() >= 2)
            .collect();
        open.sort_by_key(|&c| p.candidates(c).count_ones());
        // Each assumption is propagated once: the cells' cases and the
        // houses' cases share them.
        let mut tried: Vec<Option<Result<Pencil, Broken>>> = vec![None; cells * side];
        let mut outcome = |c: usize, d: u8| -> Result<Pencil, Broken> {
            tried[c * side + usize::from(d - 1)]
                .get_or_insert_with(|| self.assume(p, &before, c, d, dynamic))
                .clone()
        };
        for &c in open.iter().filter(|&&c| p.candidates(c).count_ones() == 2) {
            let [x, y]: [u8; 2] = {
                let ds: Vec<u8> = digits(p.candidates(c)).collect();
                [ds[0], ds[1]]
            };
            match (outcome(c, x), outcome(c, y)) {
                (Err(why), _) => return Some(broken(p, c, x, &why, seen, dynamic)),
                (_, Err(why)) => return Some(broken(p, c, y, &why, seen, dynamic)),
                (Ok(a), Ok(b)) => {
                    let gone = common(p, &[a, b], &[c], false);
                    if !gone.0.is_empty() {
                        return Some(both(p, c, [x, y], gone.0, seen, dynamic));
                    }
                }
            }
        }
        let mut cases: Vec<(usize, Vec<Pencil>)> = Vec::new();
        for &c in open.iter().filter(|&&c| p.candidates(c).count_ones() > 2) {
            let mut all = Vec::new();
            for d in digits(p.candidates(c)) {
                match outcome(c, d) {
                    Err(why) => return Some(broken(p, c, d, &why, seen, dynamic)),
                    Ok(q) => all.push(q),
                }
            }
            cases.push((c, all));
        }
        for (c, all) in &cases {
            let (gone, placed) = common(p, all, &[*c], true);
            if !gone.is_empty() || !placed.is_empty() {
                return Some(forced(p, seen, &Case::Cell(*c), gone, placed, dynamic));
            }
        }
        let geometry = p.geometry();
        for (h, house) in geometry.houses().iter().enumerate() {
            for d in 1..=side as u8 {
                if p.placed_in(h, d) {
                    continue;
                }
                let places: Vec<usize> = house.iter().copied().filter(|&c| p.has(c, d)).collect();
                if places.len() < 2 {
                    continue;
                }
                let mut all = Vec::new();
                for &c in &places {
                    // Every candidate was tried above: none breaks.
                    if let Ok(q) = outcome(c, d) {
                        all.push(q);
                    }
                }
                if all.len() != places.len() {
                    continue;
                }
                let (gone, placed) = common(p, &all, &places, true);
                if !gone.is_empty() || !placed.is_empty() {
                    let case = Case::House(geometry.name(h).to_string(), d, places);
                    return Some(forced(p, seen, &case, gone, placed, dynamic));
                }
            }
        }
        None
    }
}

/// What every grid of `all` (the cases of an assumption, each propagated
/// from `p`) rules out of `p`, and (`placements`) places in it, outside
/// the cells `skip` whose cases they are.
fn common(p: &Pencil, all: &[Pencil], skip: &[usize], placements: bool) -> (Vec<Clue>, Vec<Clue>) {
    let mut gone: Vec<Clue> = Vec::new();
    let mut placed: Vec<Clue> = Vec::new();
    for o in 0..p.size().cells() {
        if skip.contains(&o) || p.value(o) != 0 {
            continue;
        }
        let left = |q: &Pencil| match q.value(o) {
            0 => q.candidates(o),
            v => bit(v),
        };
        let kept = all.iter().fold(0, |m, q| m | left(q));
        let lost = p.candidates(o) & !kept;
        if placements && kept.is_power_of_two() {
            placed.push(Clue {
                cell: p.cell(o),
                digit: kept.trailing_zeros() as u8 + 1,
            });
        }
        gone.extend(digits(lost).map(|d| Clue {
            cell: p.cell(o),
            digit: d,
        }));
    }
    (gone, placed)
}

/// The cases of a forcing chain: every candidate of a cell, or every
/// place of a digit in a house.
enum Case {
    Cell(usize),
    House(String, u8, Vec<usize>),
}

fn forced(
    p: &Pencil,
    seen: &Seen,
    case: &Case,
    gone: Vec<Clue>,
    placed: Vec<Clue>,
    dynamic: bool,
) -> Step {
    let (cells, ds) = match case {
        Case::Cell(c) => (vec![*c], digits(p.candidates(*c)).collect::<Vec<u8>>()),
        Case::House(_, d, places) => (places.clone(), vec![*d]),
    };
    let mut step = Step::new(technique(dynamic)).pattern(p, &cells, &ds);
    if seen.words() {
        let mut removed: Vec<(Cell, u32)> = Vec::new();
        for e in &gone {
            if placed.iter().any(|q| q.cell == e.cell) {
                continue;
            }
            match removed.iter_mut().find(|(x, _)| *x == e.cell) {
                Some((_, m)) => *m |= bit(e.digit),
                None => removed.push((e.cell, bit(e.digit))),
            }
        }
        let cases = match case {
            Case::Cell(c) => {
                let words: Vec<String> = ds.iter().map(|&d| digit_char(d).to_string()).collect();
                format!("{} is {}", p.cell(*c), super::join_or(&words))
            }
            Case::House(name, d, places) => {
                let at: Vec<String> = places.iter().map(|&c| p.cell(c).to_string()).collect();
                format!(
                    "in {name}, {} can only go in {}",
                    digit_char(*d),
                    super::join_or(&at)
                )
            }
        };
        step.explanation = format!(
            "{}: {cases}, and every case, with {} and the rules, leaves {}",
            technique(dynamic).name(),
            means(dynamic),
            removals_text(&removed, &placed)
        );
    }
    step.eliminations = gone;
    step.placements = placed;
    step
}

fn broken(p: &Pencil, c: usize, d: u8, why: &str, seen: &Seen, dynamic: bool) -> Step {
    let mut step = Step::new(technique(dynamic)).pattern(p, &[c], &[d]);
    step.eliminations = vec![Clue {
        cell: p.cell(c),
        digit: d,
    }];
    if seen.words() {
        step.explanation = format!(
            "{}: if {} were {}, {} and the rules would leave {why}, so {} is not {}",
            technique(dynamic).name(),
            p.cell(c),
            digit_char(d),
            means(dynamic),
            p.cell(c),
            digit_char(d)
        );
    }
    step
}

fn both(p: &Pencil, c: usize, xy: [u8; 2], gone: Vec<Clue>, seen: &Seen, dynamic: bool) -> Step {
    let mut step = Step::new(technique(dynamic)).pattern(p, &[c], &xy);
    if seen.words() {
        let mut removed: Vec<(Cell, u32)> = Vec::new();
        for e in &gone {
            match removed.iter_mut().find(|(x, _)| *x == e.cell) {
                Some((_, m)) => *m |= bit(e.digit),
                None => removed.push((e.cell, bit(e.digit))),
            }
        }
        step.explanation = format!(
            "{}: {} is {} or {}, and either way {} and the rules leave {}",
            technique(dynamic).name(),
            p.cell(c),
            digit_char(xy[0]),
            digit_char(xy[1]),
            means(dynamic),
            removals_text(&removed, &[])
        );
    }
    step.eliminations = gone;
    step
}

/// The technique of a static (singles and rule candidates) or dynamic
/// (pointing, claiming and rule pointing too) forcing chain.
fn technique(dynamic: bool) -> Technique {
    if dynamic {
        Technique::RuleDynamicForcingChain
    } else {
        Technique::RuleForcingChain
    }
}

/// What a forcing chain applies besides the rules' candidates, in words.
fn means(dynamic: bool) -> &'static str {
    if dynamic {
        "singles, pointing, claiming, rule pointing"
    } else {
        "singles"
    }
}
