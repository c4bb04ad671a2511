//! Steps that read the variant rules: each named by the rule instance it
//! comes from, with its cells and digits, and rated on the scale in
//! docs/variants.md.
//!
//! Every rule instance (a cage, a line, a dot, a clue; for a whole-board
//! rule, each of its primitives) is a *unit*: its cells and the
//! primitives it was lowered to. The one finder they share
//! ([`support::supports`]) walks every assignment of the unit's candidates
//! that the unit alone allows, with the houses among its own cells, and a
//! candidate no such assignment uses is false: a killer cage's
//! combinations, a rising line's ranges by position, an arrow's sum bounds,
//! a dot's pair table, a diagonal sum's or an outside clue's combinations
//! along its line, all come from it. Because the finder reads primitives,
//! a rule kind added to the registry is covered the day it is lowered,
//! with no code here; the named forms on top of it are the words (a cage's
//! combinations), the digits a unit must hold ([`Technique::RuleContains`])
//! and the 45 rule's sums ([`innies`]).
//!
//! Why here and not in each kind's module: the kinds live in the core
//! crate, which has no candidate grid and no houses' geometry, and their
//! lowering already states each of them in the eight primitives; one
//! finder over primitives is one piece of code to get right, where forty
//! hooks would be forty (build.md, "Rule steps").

mod chains;
mod forcing;
mod innies;
mod pointing;
mod support;

use super::pencil::{Pencil, bit, digits};
use super::seen::Seen;
use super::step::Step;
use super::technique::{Difficulty, Technique};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Cell, Clue};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rules::Constraint;
use std::fmt::Write;
use std::sync::OnceLock;

/// The most cells a rule instance may have to be walked as a whole; a
/// larger one (a whole-board rule) is walked primitive by primitive.
const WHOLE: usize = 12;

/// What a unit is, for its technique and its words.
#[derive(Clone, Debug)]
enum UnitKind {
    /// A killer cage with a sum.
    Cage,
    /// Any other rule instance, or a piece of one.
    Rule,
    /// A 45 rule sum, with its equation in words.
    Innies(String),
}

/// Cells and primitives that hold together, and how steps name them.
#[derive(Clone, Debug)]
struct Unit {
    name: String,
    kind: UnitKind,
    /// Row-major, sorted, each once.
    cells: Vec<usize>,
    prims: Vec<Primitive>,
    /// For a piece of a whole-board rule, the rule's name: the pieces a
    /// placed digit narrows make one step together.
    whole: Option<String>,
}

impl Unit {
    fn technique(&self) -> Technique {
        match self.kind {
            UnitKind::Cage => Technique::CageCombination,
            UnitKind::Rule => Technique::RuleCandidates,
            UnitKind::Innies(_) => Technique::InniesOuties,
        }
    }
}

/// What a unit's last walk found, with the candidates it was walked over:
/// while those stay, the walk would find the same.
#[derive(Clone, Debug, Default)]
struct Memo {
    narrowed: Option<(Vec<u32>, Option<Vec<u32>>)>,
    /// The candidates over which no digit had to be in the unit with
    /// something to eliminate.
    contains_nothing: Option<Vec<u32>>,
    /// The digits the unit must hold, with the candidates they were
    /// worked out over.
    holds: Option<(Vec<u32>, u32)>,
}

/// The rule steps of one puzzle, with what their finders have looked at.
#[derive(Clone, Debug)]
pub struct RuleSteps {
    units: Vec<Unit>,
    memo: Vec<Memo>,
    links: pointing::Links,
}

/// The path's order of techniques: [`Technique::NAMED`] with
/// [`Technique::RULES`] before pointing, after the singles and SE's
/// direct techniques, so a variant path takes its house singles first and
/// then what its rules say (as a setter reads a variant), and on a
/// classic puzzle, which has no rule step, the order is SE's.
pub fn order() -> &'static [Technique] {
    static ORDER: OnceLock<Vec<Technique>> = OnceLock::new();
    ORDER.get_or_init(|| {
        let mut order = Technique::NAMED.to_vec();
        let at = order
            .iter()
            .position(|&t| t == Technique::Pointing)
            .unwrap_or(order.len());
        for (k, &t) in Technique::RULES.iter().enumerate() {
            order.insert(at + k, t);
        }
        // Chains through the rules come right after SE's chains, whose
        // ratings they share: where SE's, which read the houses alone,
        // find a chain, a variant path takes it as a classic one would.
        let at = order
            .iter()
            .position(|&t| t == Technique::ForcingXChain)
            .map_or(order.len(), |k| k + 1);
        order.insert(at, Technique::RuleXChain);
        // Forcing through the rules is the last resort before the engine
        // reasons a step out: it is the dearest to find.
        order.push(Technique::RuleForcingChain);
        order.push(Technique::RuleDynamicForcingChain);
        order
    })
}

impl RuleSteps {
    /// The units of `puzzle`'s rules.
    pub fn new(puzzle: &Puzzle) -> RuleSteps {
        let rules = puzzle.rules();
        let size = puzzle.size();
        let mut units = Vec::new();
        for (constraint, prims) in rules.constraints().iter().zip(rules.lowered()) {
            let mut cells: Vec<usize> = prims.iter().flat_map(Primitive::cells).collect();
            cells.sort_unstable();
            cells.dedup();
            if cells.is_empty() {
                continue;
            }
            let kind = match constraint {
                Constraint::Cage(cage) if cage.sum.is_some() => UnitKind::Cage,
                _ => UnitKind::Rule,
            };
            if cells.len() <= WHOLE {
                units.push(Unit {
                    name: constraint.to_string(),
                    kind,
                    cells,
                    prims: prims.clone(),
                    whole: None,
                });
                continue;
            }
            for prim in prims {
                let cells = prim.cells();
                let at: Vec<String> = cells.iter().map(|&c| size.cell_at(c).to_string()).collect();
                // A piece over the whole board is the rule itself.
                let name = if cells.len() == size.cells() {
                    constraint.to_string()
                } else {
                    format!("{constraint} at {}", at.join(" "))
                };
                units.push(Unit {
                    name,
                    kind: kind.clone(),
                    cells,
                    prims: vec![prim.clone()],
                    whole: Some(constraint.to_string()),
                });
            }
        }
        units.extend(innies::units(rules));
        RuleSteps {
            memo: vec![Memo::default(); units.len()],
            units,
            links: pointing::Links::new(puzzle),
        }
    }

    /// The first step of technique `t` (one of [`Technique::RULES`]); for
    /// the narrowing techniques, the one over the fewest open cells.
    pub fn find(&mut self, t: Technique, p: &Pencil, seen: &Seen) -> Option<Step> {
        match t {
            Technique::RuleContains => self.contains(p, seen),
            Technique::RulePointing => self.links.find(p, seen),
            Technique::RuleForcingChain => self.forcing(p, seen, false),
            Technique::RuleDynamicForcingChain => self.forcing(p, seen, true),
            Technique::RuleXChain | Technique::RuleXyChain | Technique::RuleAic => {
                self.chain(p, seen)
            }
            Technique::RuleCandidates | Technique::CageCombination | Technique::InniesOuties => {
                self.narrowing(t, p, seen)
            }
            _ => None,
        }
    }

    fn narrowing(&mut self, t: Technique, p: &Pencil, seen: &Seen) -> Option<Step> {
        let mut best: Option<(usize, usize, Vec<u32>, Vec<u32>)> = None;
        for (u, unit) in self.units.iter().enumerate() {
            if unit.technique() != t {
                continue;
            }
            let open = unit.cells.iter().filter(|&&c| p.value(c) == 0).count();
            if open == 0 || best.as_ref().is_some_and(|b| b.0 <= open) {
                continue;
            }
            let doms = domains(p, &unit.cells);
            let memo = &mut self.memo[u].narrowed;
            let used = match memo {
                Some((before, used)) if *before == doms => used.clone(),
                _ => {
                    let s = support::supports(&unit.cells, &doms, &unit.prims, p.geometry(), false);
                    let used = (s.complete && s.used.iter().all(|&u| u != 0) && s.used != doms)
                        .then_some(s.used);
                    *memo = Some((doms.clone(), used.clone()));
                    used
                }
            };
            if let Some(used) = used {
                best = Some((open, u, doms, used));
            }
        }
        let (open, u, doms, used) = best?;
        let mut step = self.narrowing_step(u, open, p, &doms, &used, seen);
        if let (Some(whole), 1) = (&self.units[u].whole, open) {
            self.join_pieces(u, whole.clone(), p, &mut step, seen);
        }
        Some(step)
    }

    /// Adds to `step`, the narrowing of piece `u` of a whole-board rule
    /// by a placed digit, what the same digit narrows through the rule's
    /// other pieces: `anti-king: r3c3 is 7, so r2c4 r4c2 r4c4 are not 7`.
    fn join_pieces(&mut self, u: usize, whole: String, p: &Pencil, step: &mut Step, seen: &Seen) {
        let placed: Vec<usize> = self.units[u]
            .cells
            .iter()
            .copied()
            .filter(|&c| p.value(c) != 0)
            .collect();
        let [from] = placed[..] else {
            return;
        };
        let mut removed: Vec<(Cell, u32)> = Vec::new();
        let add = |cell: Cell, digit: u8, removed: &mut Vec<(Cell, u32)>| match removed
            .iter_mut()
            .find(|(c, _)| *c == cell)
        {
            Some((_, m)) => *m |= bit(digit),
            None => removed.push((cell, bit(digit))),
        };
        for e in &step.eliminations {
            add(e.cell, e.digit, &mut removed);
        }
        for v in 0..self.units.len() {
            let unit = &self.units[v];
            if v == u
                || unit.whole.as_deref() != Some(whole.as_str())
                || !unit.cells.contains(&from)
                || unit.cells.iter().filter(|&&c| p.value(c) == 0).count() != 1
            {
                continue;
            }
            let doms = domains(p, &unit.cells);
            let s = support::supports(&unit.cells, &doms, &unit.prims, p.geometry(), false);
            if !s.complete || s.used.contains(&0) {
                continue;
            }
            for (k, &c) in unit.cells.iter().enumerate() {
                let gone = doms[k] & !s.used[k];
                if p.value(c) != 0 || gone == 0 {
                    continue;
                }
                for d in digits(gone) {
                    let e = Clue {
                        cell: p.cell(c),
                        digit: d,
                    };
                    if !step.eliminations.contains(&e) {
                        step.eliminations.push(e);
                        add(e.cell, d, &mut removed);
                    }
                }
                if s.used[k].is_power_of_two() {
                    let placed = Clue {
                        cell: p.cell(c),
                        digit: s.used[k].trailing_zeros() as u8 + 1,
                    };
                    if !step.placements.iter().any(|q| q.cell == placed.cell) {
                        step.placements.push(placed);
                    }
                }
            }
        }
        let mut cells: Vec<usize> = vec![from];
        cells.extend(removed.iter().map(|(c, _)| p.size().index(*c)));
        step.cells = cells.iter().map(|&c| p.cell(c)).collect();
        if seen.words() {
            step.explanation = format!(
                "{whole}: {} is {}, so {}",
                p.cell(from),
                crate::puzzle::grid::digit_char(p.value(from)),
                removals_text(&removed, &step.placements)
            );
        }
    }

    fn narrowing_step(
        &self,
        u: usize,
        open: usize,
        p: &Pencil,
        doms: &[u32],
        used: &[u32],
        seen: &Seen,
    ) -> Step {
        let unit = &self.units[u];
        let t = unit.technique();
        let mut step = Step::new(t).pattern(p, &unit.cells, &[]);
        step.difficulty = Some(rated(t, open));
        let mut removed: Vec<(Cell, u32)> = Vec::new();
        for (k, &c) in unit.cells.iter().enumerate() {
            let gone = doms[k] & !used[k];
            if p.value(c) != 0 || gone == 0 {
                continue;
            }
            for d in digits(gone) {
                step.eliminations.push(Clue {
                    cell: p.cell(c),
                    digit: d,
                });
            }
            if used[k].is_power_of_two() {
                step.placements.push(Clue {
                    cell: p.cell(c),
                    digit: used[k].trailing_zeros() as u8 + 1,
                });
            }
            removed.push((p.cell(c), gone));
        }
        if !seen.words() {
            return step;
        }
        let why = match &unit.kind {
            UnitKind::Cage => {
                let s = support::supports(&unit.cells, doms, &unit.prims, p.geometry(), true);
                let mut combos = s.combos;
                combos.sort_unstable_by_key(|&m| (m.trailing_zeros(), m));
                if combos.len() <= 6 && s.complete {
                    let sets: Vec<String> = combos
                        .iter()
                        .map(|&m| format!("{{{}}}", set_text(m, ",")))
                        .collect();
                    format!("only {}", join_or(&sets))
                } else {
                    format!("{} combinations fit", combos.len())
                }
            }
            UnitKind::Innies(equation) => equation.clone(),
            UnitKind::Rule => {
                let placed: Vec<String> = unit
                    .cells
                    .iter()
                    .filter(|&&c| p.value(c) != 0)
                    .map(|&c| format!("{} is {}", p.cell(c), p.value(c)))
                    .collect();
                placed.join(", ")
            }
        };
        let mut text = unit.name.clone();
        text += ": ";
        if !why.is_empty() {
            text += &why;
            text += ", so ";
        }
        text += &removals_text(&removed, &step.placements);
        step.explanation = text;
        step
    }

    /// The digits unit `u` must hold in `p` (none placed in it yet): with
    /// the digit taken from all its cells, no assignment satisfies it.
    /// A 45 rule sum holds no digit of its own.
    fn must_hold(&mut self, u: usize, p: &Pencil) -> u32 {
        let unit = &self.units[u];
        if matches!(unit.kind, UnitKind::Innies(_)) {
            return 0;
        }
        let doms = domains(p, &unit.cells);
        if let Some((before, holds)) = &self.memo[u].holds
            && *before == doms
        {
            return *holds;
        }
        let placed: u32 = unit
            .cells
            .iter()
            .filter(|&&c| p.value(c) != 0)
            .fold(0, |m, &c| m | bit(p.value(c)));
        let open: u32 = unit
            .cells
            .iter()
            .filter(|&&c| p.value(c) == 0)
            .fold(0, |m, &c| m | p.candidates(c));
        let mut holds = 0;
        for d in digits(open & !placed) {
            let without: Vec<u32> = doms.iter().map(|&m| m & !bit(d)).collect();
            if without.contains(&0) {
                continue;
            }
            let s = support::supports(&unit.cells, &without, &unit.prims, p.geometry(), false);
            if s.complete && s.used.iter().all(|&m| m == 0) {
                holds |= bit(d);
            }
        }
        self.memo[u].holds = Some((doms, holds));
        holds
    }

    fn contains(&mut self, p: &Pencil, seen: &Seen) -> Option<Step> {
        let cells = p.size().cells();
        for (u, unit) in self.units.iter().enumerate() {
            if matches!(unit.kind, UnitKind::Innies(_)) {
                continue;
            }
            let doms = domains(p, &unit.cells);
            if self.memo[u].contains_nothing.as_ref() == Some(&doms) {
                continue;
            }
            let open: u32 = unit
                .cells
                .iter()
                .filter(|&&c| p.value(c) == 0)
                .fold(0, |m, &c| m | p.candidates(c));
            let placed: u32 = unit
                .cells
                .iter()
                .filter(|&&c| p.value(c) != 0)
                .fold(0, |m, &c| m | bit(p.value(c)));
            for d in digits(open & !placed) {
                let places: Vec<usize> = unit
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| p.has(c, d))
                    .collect();
                let targets: Vec<usize> = (0..cells)
                    .filter(|&c| {
                        p.has(c, d)
                            && !unit.cells.contains(&c)
                            && places.iter().all(|&q| p.geometry().sees(c, q))
                    })
                    .collect();
                if targets.is_empty() {
                    continue;
                }
                let without: Vec<u32> = doms.iter().map(|&m| m & !bit(d)).collect();
                if without.contains(&0) {
                    // A cell whose only candidate is d holds it: a single,
                    // found by the singles.
                    continue;
                }
                let s = support::supports(&unit.cells, &without, &unit.prims, p.geometry(), false);
                if !s.complete || s.used.iter().any(|&m| m != 0) {
                    continue;
                }
                let mut step = Step::new(Technique::RuleContains).pattern(p, &places, &[d]);
                step.eliminations = targets
                    .iter()
                    .map(|&c| Clue {
                        cell: p.cell(c),
                        digit: d,
                    })
                    .collect();
                if seen.words() {
                    let at: Vec<String> = places.iter().map(|&c| p.cell(c).to_string()).collect();
                    let removed: Vec<(Cell, u32)> =
                        targets.iter().map(|&c| (p.cell(c), bit(d))).collect();
                    step.explanation = format!(
                        "{}: must hold {d}, in {}, so {}",
                        unit.name,
                        join_or(&at),
                        removals_text(&removed, &[])
                    );
                }
                return Some(step);
            }
            self.memo[u].contains_nothing = Some(doms);
        }
        None
    }
}

/// The candidates of `cells`, a placed digit as a one-digit set.
fn domains(p: &Pencil, cells: &[usize]) -> Vec<u32> {
    cells
        .iter()
        .map(|&c| match p.value(c) {
            0 => p.candidates(c),
            v => bit(v),
        })
        .collect()
}

/// A rule step's rating: its technique's base, and 0.2 for each open cell
/// beyond the first, up to 2.0 more.
fn rated(t: Technique, open: usize) -> Difficulty {
    let base = t.base_rating().map_or(0, |d| d.0);
    let more = u16::try_from(open.saturating_sub(1)).unwrap_or(u16::MAX);
    Difficulty(base + more.saturating_mul(2).min(20))
}

/// Digits as runs: `1-5`, `6,9`, `2-4,7`.
fn set_text(mask: u32, sep: &str) -> String {
    let ds: Vec<u8> = digits(mask).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ds.len() {
        let mut j = k;
        while j + 1 < ds.len() && ds[j + 1] == ds[j] + 1 {
            j += 1;
        }
        let name = |d: u8| crate::puzzle::grid::digit_char(d).to_string();
        if j >= k + 2 {
            parts.push(format!("{}-{}", name(ds[k]), name(ds[j])));
        } else {
            parts.extend(ds[k..=j].iter().map(|&d| name(d)));
        }
        k = j + 1;
    }
    parts.join(sep)
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(words: &[String]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// `r1c1 r1c2 are not 1-5; r1c3 is 7`.
fn removals_text(removed: &[(Cell, u32)], placed: &[Clue]) -> String {
    let mut groups: Vec<(u32, Vec<Cell>)> = Vec::new();
    for &(cell, gone) in removed {
        if placed.iter().any(|p| p.cell == cell) {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| *g == gone) {
            Some((_, cells)) => cells.push(cell),
            None => groups.push((gone, vec![cell])),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for (gone, cells) in groups {
        let mut text = String::new();
        for (k, c) in cells.iter().enumerate() {
            let _ = write!(text, "{}{c}", if k == 0 { "" } else { " " });
        }
        let verb = if cells.len() == 1 { "is" } else { "are" };
        let _ = write!(text, " {verb} not {}", set_text(gone, ","));
        parts.push(text);
    }
    parts.extend(
        placed
            .iter()
            .map(|p| format!("{} is {}", p.cell, crate::puzzle::grid::digit_char(p.digit))),
    );
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_read_as_runs() {
        assert_eq!(set_text(0b1_1111, ","), "1-5");
        assert_eq!(set_text(bit(6) | bit(9), ","), "6,9");
        assert_eq!(set_text(bit(2) | bit(3) | bit(4) | bit(7), ","), "2-4,7");
        assert_eq!(set_text(bit(1) | bit(2), ","), "1,2");
    }

    #[test]
    fn the_path_tries_rules_before_pointing() {
        let order = order();
        let at = |t| order.iter().position(|&x| x == t);
        assert!(at(Technique::NakedSingle) < at(Technique::RuleCandidates));
        assert!(at(Technique::InniesOuties) < at(Technique::Pointing));
        assert_eq!(
            order.len(),
            Technique::NAMED.len() + Technique::RULES.len() + 3
        );
        assert!(at(Technique::ForcingXChain) < at(Technique::RuleXChain));
        assert!(at(Technique::RuleXChain) < at(Technique::ForcingChain));
    }
}
