//! Pointing through the rules: a digit's places in a house, or a cell's
//! candidates, are the only ways something can happen, so what each of
//! them rules out is false. A place rules out its digit in the cells it
//! sees (the houses) and, through every rule that ties two cells (a pair
//! primitive: anti-king, anti-knight, nonconsecutive, dots, difference lines, a
//! cage's or a line's digits that differ), the digits its rule forbids
//! opposite. Only what the houses alone would not give is taken: that is
//! pointing and claiming, which come later on the path.

use crate::logic::pencil::{Pencil, bit, digits};
use crate::logic::seen::Seen;
use crate::logic::step::Step;
use crate::logic::technique::{Difficulty, Technique};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Clue, digit_char};
use crate::puzzle::primitive::{Primitive, Relation};

/// One tie: the partner, the digits allowed there opposite each digit
/// here (`allowed[x - 1]`), and the numbers of the constraints that say so.
type Tie = (usize, Vec<u32>, Vec<usize>);

/// Each cell's ties to other cells: for each partner, the digits allowed
/// there opposite each digit here, and the rule instances that say so.
#[derive(Clone, Debug)]
pub(super) struct Links {
    side: usize,
    /// By cell: `(partner, allowed[x - 1], constraint numbers)`.
    of: Vec<Vec<Tie>>,
    names: Vec<String>,
}

impl Links {
    pub(super) fn new(puzzle: &Puzzle) -> Links {
        let rules = puzzle.rules();
        let side = puzzle.size().side();
        let all = u32::MAX >> (32 - side);
        let mut of: Vec<Vec<Tie>> = vec![Vec::new(); puzzle.size().cells()];
        let mut tie = |a: usize, b: usize, allows: &dyn Fn(u8, u8) -> bool, k: usize| {
            for (x, y) in [(a, b), (b, a)] {
                let table: Vec<u32> = (1..=side as u8)
                    .map(|dx| {
                        (1..=side as u8)
                            .filter(|&dy| {
                                if x == a {
                                    allows(dx, dy)
                                } else {
                                    allows(dy, dx)
                                }
                            })
                            .fold(0, |m, dy| m | bit(dy))
                    })
                    .collect();
                if table.iter().all(|&m| m == all) {
                    continue;
                }
                match of[x].iter_mut().find(|(p, _, _)| *p == y) {
                    Some((_, t, ks)) => {
                        for (m, n) in t.iter_mut().zip(&table) {
                            *m &= n;
                        }
                        if !ks.contains(&k) {
                            ks.push(k);
                        }
                    }
                    None => of[x].push((y, table, vec![k])),
                }
            }
        };
        for (k, prims) in rules.lowered().iter().enumerate() {
            for prim in prims {
                match prim {
                    Primitive::Pair { a, b, relation } => {
                        let r = *relation;
                        tie(*a, *b, &|x, y| r.allows(x, y), k);
                    }
                    Primitive::Distinct { cells, .. } => {
                        for (i, &a) in cells.iter().enumerate() {
                            for &b in &cells[i + 1..] {
                                if !rules.share_house(a, b) {
                                    tie(a, b, &|x, y| Relation::Differ.allows(x, y), k);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Links {
            side,
            of,
            names: rules.constraints().iter().map(|c| c.to_string()).collect(),
        }
    }

    /// The ties of `cell`: each partner, the digits allowed there opposite
    /// each digit here, and the constraints that say so.
    pub(super) fn ties(&self, cell: usize) -> &[Tie] {
        &self.of[cell]
    }

    pub(super) fn is_empty(&self) -> bool {
        self.of.iter().all(Vec::is_empty)
    }

    /// What `q = x` rules out, cell by cell, through the houses and the
    /// ties, into `out` (which it clears first); and through the ties
    /// alone into `tied`.
    fn ruled(&self, p: &Pencil, q: usize, x: u8, out: &mut [u32], tied: &mut [u32]) {
        out.fill(0);
        tied.fill(0);
        let all = u32::MAX >> (32 - self.side);
        out[q] = all & !bit(x);
        for &c in p.geometry().peers(q) {
            out[c] |= bit(x);
        }
        for (c, table, _) in &self.of[q] {
            let gone = all & !table[usize::from(x - 1)];
            out[*c] |= gone;
            tied[*c] |= gone;
        }
    }

    pub(super) fn rule_names(&self, from: &[usize], to: &[usize]) -> String {
        let mut ks: Vec<usize> = Vec::new();
        for &q in from {
            for (c, _, numbers) in &self.of[q] {
                if to.contains(c) {
                    for &k in numbers {
                        if !ks.contains(&k) {
                            ks.push(k);
                        }
                    }
                }
            }
        }
        ks.sort_unstable();
        let names: Vec<&str> = ks.iter().map(|&k| self.names[k].as_str()).collect();
        names.join(", ")
    }

    /// The first house whose places for a digit, or cell whose
    /// candidates, all rule out one more candidate than the houses do.
    pub(super) fn find(&self, p: &Pencil, seen: &Seen) -> Option<Step> {
        if self.is_empty() {
            return None;
        }
        let cells = p.size().cells();
        let mut acc = vec![0u32; cells];
        let mut tied_any = vec![0u32; cells];
        let mut out = vec![0u32; cells];
        let mut tied = vec![0u32; cells];
        let geometry = p.geometry();
        for (h, house) in geometry.houses().iter().enumerate() {
            for d in 1..=self.side as u8 {
                let places: Vec<usize> = house.iter().copied().filter(|&c| p.has(c, d)).collect();
                if places.len() < 2 || p.placed_in(h, d) {
                    continue;
                }
                if let Some(step) = self
                    .common(
                        p,
                        &places,
                        &|_| d,
                        &mut acc,
                        &mut tied_any,
                        &mut out,
                        &mut tied,
                    )
                    .map(|e| self.step(p, seen, &places, &e, Some((geometry.name(h), d))))
                {
                    return Some(step);
                }
            }
        }
        for c in 0..cells {
            let cand = p.candidates(c);
            if p.value(c) != 0 || cand.count_ones() < 2 || self.of[c].is_empty() {
                continue;
            }
            let options: Vec<u8> = digits(cand).collect();
            let places = vec![c; options.len()];
            if let Some(e) = self.common(
                p,
                &places,
                &|k| options[k],
                &mut acc,
                &mut tied_any,
                &mut out,
                &mut tied,
            ) {
                return Some(self.step(p, seen, &[c], &e, None));
            }
        }
        None
    }

    /// The candidates every case (`places[k]` holds `digit(k)`) rules
    /// out, with at least one tie among the reasons.
    #[allow(clippy::too_many_arguments)]
    fn common(
        &self,
        p: &Pencil,
        places: &[usize],
        digit: &dyn Fn(usize) -> u8,
        acc: &mut [u32],
        tied_any: &mut [u32],
        out: &mut [u32],
        tied: &mut [u32],
    ) -> Option<Vec<Clue>> {
        acc.fill(u32::MAX);
        tied_any.fill(0);
        for (k, &q) in places.iter().enumerate() {
            self.ruled(p, q, digit(k), out, tied);
            for c in 0..acc.len() {
                acc[c] &= out[c];
                tied_any[c] |= tied[c];
            }
        }
        let mut found = Vec::new();
        for c in 0..acc.len() {
            if p.value(c) != 0 {
                continue;
            }
            let gone = acc[c] & p.candidates(c) & tied_any[c];
            for d in digits(gone) {
                found.push(Clue {
                    cell: p.cell(c),
                    digit: d,
                });
            }
        }
        (!found.is_empty()).then_some(found)
    }

    fn step(
        &self,
        p: &Pencil,
        seen: &Seen,
        places: &[usize],
        eliminations: &[Clue],
        house: Option<(&str, u8)>,
    ) -> Step {
        let size = p.size();
        let mut unique: Vec<usize> = places.to_vec();
        unique.dedup();
        let digits_of: Vec<u8> = match house {
            Some((_, d)) => vec![d],
            None => digits(p.candidates(unique[0])).collect(),
        };
        let mut step = Step::new(Technique::RulePointing).pattern(p, &unique, &digits_of);
        step.eliminations = eliminations.to_vec();
        if house.is_none() {
            step.difficulty = Some(Difficulty(30));
        }
        if !seen.words() {
            return step;
        }
        let to: Vec<usize> = eliminations.iter().map(|e| size.index(e.cell)).collect();
        let at: Vec<String> = unique.iter().map(|&c| p.cell(c).to_string()).collect();
        let gone = super::removals_text(
            &eliminations.iter().map(|e| (e.cell, bit(e.digit))).fold(
                Vec::new(),
                |mut v: Vec<(crate::puzzle::grid::Cell, u32)>, (c, m)| {
                    match v.iter_mut().find(|(x, _)| *x == c) {
                        Some((_, n)) => *n |= m,
                        None => v.push((c, m)),
                    }
                    v
                },
            ),
            &[],
        );
        let rules = self.rule_names(&unique, &to);
        let cases = match house {
            Some((name, d)) => format!(
                "in {name}, {} can only go in {}",
                digit_char(d),
                super::join_or(&at)
            ),
            None => {
                let ds: Vec<String> = digits_of
                    .iter()
                    .map(|&d| digit_char(d).to_string())
                    .collect();
                format!("{} can only be {}", at[0], super::join_or(&ds))
            }
        };
        step.explanation = format!(
            "rule pointing: {cases}, and each case rules it out through {rules}, so {gone}"
        );
        step
    }
}
