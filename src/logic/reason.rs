//! Steps from first principles, for variant puzzles: when no technique on
//! the houses applies, the engine proves a candidate false from a small set
//! of facts (clues and placed digits) and rule instances (cages,
//! lines, anti-knight, ...), and that set is the step's reason.
//!
//! A false candidate `d` in cell `c` is one the puzzle's solution does not
//! have, so the facts and rules with `c = d` added have no solution. The
//! engine's unsat core (Z3's, over the facts) gives a first set; deletion
//! then shrinks it to a minimal one, fact by fact and then rule by rule,
//! each check a search for a solution. Of the candidates examined, the one
//! with the smallest reason is the step. Constraints are handled only
//! through the engine and their names (`Display`), so every rule the engine
//! knows is explained the same way.

use super::error::PathError;
use super::pencil::{Pencil, digits};
use super::seen::Seen;
use super::step::Step;
use super::technique::Technique;
use crate::engine::{Budget, Engine, EngineError, EngineKind, Settings, new_engine};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Clue, Grid, digit_char};
use crate::puzzle::rules::{Constraint, Rules};
use crate::solve::shrink;
use std::ops::ControlFlow;
use std::sync::Arc;

/// How many false candidates to examine for the smallest reason, fewest
/// candidates per cell first.
const EXAMINED: usize = 8;

/// A candidate's reason: the facts and the rule instances.
struct Reason {
    cell: usize,
    digit: u8,
    facts: Vec<Clue>,
    rules: Vec<Constraint>,
}

/// Whether the puzzle has a solution; `None` when the engine gave up.
fn solvable(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<Option<bool>, PathError> {
    let mut found = false;
    let limits = budget.limits(1);
    match engine.solutions(puzzle, limits, &mut |_| {
        found = true;
        ControlFlow::Break(())
    }) {
        Ok(()) => Ok(Some(found)),
        Err(EngineError::GaveUp(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The minimal reason why `digit` is not in `cell`, or `None` when the
/// time ran out first.
fn reason_for(
    puzzle: &Puzzle,
    facts: &[Clue],
    cell: usize,
    digit: u8,
    core_engine: &mut dyn Engine,
    checker: &mut dyn Engine,
    budget: &Budget,
) -> Result<Option<Reason>, PathError> {
    let size = puzzle.size();
    let assumed = Clue {
        cell: size.cell_at(cell),
        digit,
    };
    let with = |rules: &Arc<Rules>, kept: &[Clue]| {
        let mut all = kept.to_vec();
        all.push(assumed);
        Puzzle::new(Grid::empty(size).with_clues(&all), Arc::clone(rules))
    };
    let full = Arc::clone(puzzle.rules());
    // Z3's core names the facts it used; the assumption is always kept.
    let core = match core_engine.conflict(&with(&full, facts), budget) {
        Ok(Some(conflict)) => facts
            .iter()
            .copied()
            .filter(|f| conflict.clues.contains(&size.index(f.cell)))
            .collect(),
        Ok(None) | Err(EngineError::GaveUp(_)) => facts.to_vec(),
        Err(e) => return Err(e.into()),
    };
    let internal = |e: PathError| crate::solve::InternalError(e.to_string());
    let mut refuted = |rules: &Arc<Rules>, kept: &[Clue]| {
        solvable(checker, &with(rules, kept), budget).map(|a| a.map(|s| !s))
    };
    let start = if refuted(&full, &core)? == Some(true) {
        core
    } else if refuted(&full, facts)? == Some(true) {
        // The core did not hold on its own: start from every fact.
        facts.to_vec()
    } else {
        return Ok(None);
    };
    let (kept, minimal) = shrink(start, &mut |without: &[Clue]| {
        refuted(&full, without).map_err(internal)
    })
    .map_err(|e| PathError::Internal(e.0))?;
    let constraints: Vec<usize> = (0..puzzle.rules().constraints().len()).collect();
    let (rules, rules_minimal) = shrink(constraints, &mut |without: &[usize]| {
        refuted(&puzzle.rules().keeping(without), &kept).map_err(internal)
    })
    .map_err(|e| PathError::Internal(e.0))?;
    let rules = rules
        .into_iter()
        .map(|k| puzzle.rules().constraints()[k].clone())
        .collect();
    Ok((minimal && rules_minimal).then_some(Reason {
        cell,
        digit,
        facts: kept,
        rules,
    }))
}

/// The step whose reason is smallest among the false candidates examined
/// (up to [`EXAMINED`], cells with fewest candidates first), or `None`
/// when time ran out before any was found.
pub fn reasoned_step(
    puzzle: &Puzzle,
    p: &Pencil,
    solution: &Grid,
    engine: &mut dyn Engine,
    budget: &Budget,
) -> Result<Option<Step>, PathError> {
    let size = puzzle.size();
    let facts: Vec<Clue> = (0..size.cells())
        .filter(|&c| p.value(c) != 0)
        .map(|c| Clue {
            cell: size.cell_at(c),
            digit: p.value(c),
        })
        .collect();
    let mut false_ones: Vec<(usize, u8)> = (0..size.cells())
        .flat_map(|c| digits(p.candidates(c)).map(move |d| (c, d)))
        .filter(|&(c, d)| solution.get(c) != d)
        .collect();
    false_ones.sort_by_key(|&(c, _)| p.candidates(c).count_ones());
    // The referee of each candidate set is the native engine: many small
    // searches, each cheaper there than a Z3 call (asked for through the
    // engine contract, like any other engine).
    let mut checker = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let mut best: Option<Reason> = None;
    for &(cell, digit) in false_ones.iter().take(EXAMINED) {
        if budget.spent().is_some() {
            break;
        }
        let Some(reason) = reason_for(
            puzzle,
            &facts,
            cell,
            digit,
            engine,
            checker.as_mut(),
            budget,
        )?
        else {
            continue;
        };
        let weight = |r: &Reason| r.facts.len() + r.rules.len();
        if best.as_ref().is_none_or(|b| weight(&reason) < weight(b)) {
            let done = weight(&reason) <= 2;
            best = Some(reason);
            if done {
                break;
            }
        }
    }
    Ok(best.map(|r| step_of(puzzle, p, &r)))
}

fn step_of(puzzle: &Puzzle, p: &Pencil, r: &Reason) -> Step {
    let givens = puzzle.givens();
    let size = puzzle.size();
    let mut cells = vec![r.cell];
    cells.extend(r.facts.iter().map(|f| size.index(f.cell)));
    let mut step = Step::new(Technique::Reasoned).pattern(p, &cells, &[r.digit]);
    let target = size.cell_at(r.cell);
    step.eliminations = vec![Clue {
        cell: target,
        digit: r.digit,
    }];
    let mut because: Vec<String> = r
        .facts
        .iter()
        .map(|f| {
            let placed = if givens.get(size.index(f.cell)) == 0 {
                " (placed)"
            } else {
                ""
            };
            format!("{f}{placed}")
        })
        .collect();
    because.extend(r.rules.iter().map(|c| c.to_string()));
    let with = if because.is_empty() {
        "the houses alone".to_string()
    } else {
        because.join(", ")
    };
    // Reasoned steps are few and slow to find: they always get their words.
    step.say(&Seen::none(), || {
        format!(
            "{target} is not {}: with {with}, {target}={} leaves no solution",
            digit_char(r.digit),
            digit_char(r.digit)
        )
    })
}
