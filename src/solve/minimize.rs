//! The setter's second question: which clues of a unique puzzle are
//! needed, and a minimal puzzle with the same solution.
//!
//! A clue is needed when the puzzle without it has a second solution; the
//! engine is asked for a solution other than the known one, which Z3
//! answers in one check with that solution blocked. A needed clue stays
//! needed in every smaller puzzle (fewer clues only allow more solutions),
//! so the minimal puzzle keeps the needed clues and shrinks only the
//! redundant ones, by the same deletion that names the clues to blame for a
//! puzzle without solution.

use super::{
    InternalError, Outcome, Pipeline, Status, Verification, search_excluding, shrink, solve_with,
};
use crate::engine::{Budget, Engine, GiveUp};
use crate::puzzle::Puzzle;
use crate::puzzle::check::verify_solution;
use crate::puzzle::grid::{Cell, Clue, Grid, Size};
use crate::puzzle::rules::{RuleItem, Rules};
use std::fmt;
use std::time::Instant;

/// What minimizing a puzzle found.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The verdict on the puzzle as given: only a [`Status::Unique`] one is
    /// minimized; [`Status::None`] comes with the clues to blame when
    /// explained, [`Status::Multiple`] with two solutions.
    pub outcome: Outcome,
    /// The clues without which the puzzle has a second solution.
    pub needed: Vec<Clue>,
    /// The clues the puzzle can do without, each on its own.
    pub redundant: Vec<Clue>,
    /// Whether the rules were minimized ([`minimize_rules_with`]) rather
    /// than the clues; then `needed` and `redundant` are empty, and the
    /// three lists below hold the rules by name.
    pub rules: bool,
    /// The rules without which the puzzle has a second solution (or loses
    /// its solution).
    pub needed_rules: Vec<String>,
    /// The rules the puzzle can do without, each on its own.
    pub redundant_rules: Vec<String>,
    /// The rules of the minimal puzzle.
    pub kept_rules: Vec<String>,
    /// A puzzle with the same unique solution in which every clue is
    /// needed (but for the ones asked to be kept); `None` unless the
    /// puzzle is unique and the engine did not give up.
    pub minimal: Option<Puzzle>,
    /// Searches the engine ran (for Z3, about one satisfiability check
    /// each).
    pub checks: usize,
}

impl Minimized {
    /// One line about the result: the verdict when the puzzle is not
    /// unique (as [`Outcome::summary`]), else e.g. `24 clues: 20 needed, 4
    /// redundant; a minimal puzzle keeps 22 (61 checks, 3.1 ms)`.
    pub fn summary(&self) -> String {
        match (&self.minimal, self.outcome.status) {
            (Some(_), Status::Unique) if self.rules => format!(
                "{} rules: {} needed, {} redundant; a minimal puzzle keeps {} ({} checks, {:.1} ms)",
                self.needed_rules.len() + self.redundant_rules.len(),
                self.needed_rules.len(),
                self.redundant_rules.len(),
                self.kept_rules.len(),
                self.checks,
                self.outcome.elapsed.as_secs_f64() * 1000.0
            ),
            (Some(minimal), Status::Unique) => format!(
                "{} clues: {} needed, {} redundant; a minimal puzzle keeps {} ({} checks, {:.1} ms)",
                self.outcome.puzzle.givens().clue_count(),
                self.needed.len(),
                self.redundant.len(),
                minimal.givens().clue_count(),
                self.checks,
                self.outcome.elapsed.as_secs_f64() * 1000.0
            ),
            _ => self.outcome.summary(),
        }
    }
}

impl Pipeline {
    /// Minimizes `puzzle` (see [`minimize_with`]) within the request's
    /// timeout; with [`super::Request::explain`], the clues to blame when
    /// there is no solution.
    pub fn minimize(&mut self, puzzle: &Puzzle, keep: &[Cell]) -> Result<Minimized, InternalError> {
        self.minimize_by(&mut |engine, budget| minimize_with(engine, puzzle, keep, budget))
    }

    /// Minimizes the rules of `puzzle` (see [`minimize_rules_with`]) as
    /// [`Pipeline::minimize`] does its clues.
    pub fn minimize_rules(
        &mut self,
        puzzle: &Puzzle,
        keep: &[RuleItem],
    ) -> Result<Minimized, InternalError> {
        self.minimize_by(&mut |engine, budget| minimize_rules_with(engine, puzzle, keep, budget))
    }

    /// Runs a minimization with the pipeline's engine, and with
    /// [`super::Request::verify`] again with the other engine, which must
    /// reach the same result.
    fn minimize_by(
        &mut self,
        run: &mut dyn FnMut(&mut dyn Engine, &Budget) -> Result<Minimized, InternalError>,
    ) -> Result<Minimized, InternalError> {
        let start = Instant::now();
        let budget = self.request.budget();
        let mut minimized = run(self.engine.as_mut(), &budget)?;
        self.record_and_explain(&mut minimized.outcome, &budget)?;
        if self.request.verify && minimized.outcome.status != Status::GaveUp {
            // The deletion is deterministic: engines that agree on every
            // question reach the same minimal puzzle.
            let (kind, referee) = self.referee();
            let again = run(referee, &budget)?;
            let same = |m: &Minimized| {
                (
                    m.outcome.status,
                    m.needed.clone(),
                    m.needed_rules.clone(),
                    m.minimal.as_ref().map(|p| p.givens().to_line()),
                    m.kept_rules.clone(),
                )
            };
            minimized.outcome.verification = if again.outcome.status == Status::GaveUp {
                Verification::NotVerified
            } else if same(&again) == same(&minimized) {
                Verification::Verified(kind)
            } else {
                return Err(InternalError(format!(
                    "the {} engine does not confirm the minimization: it says {}, against {}",
                    kind.name(),
                    again.summary(),
                    minimized.summary()
                )));
            };
        }
        minimized.outcome.elapsed = start.elapsed();
        Ok(minimized)
    }
}

/// Finds which clues of `puzzle` are needed and a minimal puzzle with the
/// same solution, with `engine`; the clues in the `keep` cells stay in it
/// whether needed or not (cells without a clue are ignored). Gives up when
/// `budget` is spent, with [`Status::GaveUp`].
pub fn minimize_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    keep: &[Cell],
    budget: &Budget,
) -> Result<Minimized, InternalError> {
    let start = Instant::now();
    let mut minimized = solved(engine, puzzle, budget)?;
    let Some(solution) = unique_solution(&minimized) else {
        return Ok(minimized);
    };
    let clues = puzzle.givens().clue_list();
    let deleted = delete(
        &clues,
        &|clue: &Clue| keep.contains(&clue.cell),
        &|| true,
        &mut |clues: &[Clue]| {
            has_other_solution(engine, &puzzle.with_clues(clues), &solution, budget)
                .map(|other| other.map(|other| !other))
        },
    )?;
    minimized.needed = deleted.needed;
    minimized.redundant = deleted.redundant;
    minimized.minimal = deleted.minimal.map(|clues| puzzle.with_clues(&clues));
    minimized.finish(deleted.checks, deleted.gave_up, start);
    Ok(minimized)
}

/// Finds which rules of `puzzle` ([`Rules::items`]: its diagonals, disjoint
/// groups and constraints) it stays unique without, and a puzzle with the
/// same givens, the same unique solution and only the rules it needs; the
/// rules in `keep` stay whether needed or not. A rule is left out by
/// building the rules again without it ([`Rules::without`]), so the puzzle
/// asked about is the one that is written. Gives up when `budget` is
/// spent, with [`Status::GaveUp`].
pub fn minimize_rules_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    keep: &[RuleItem],
    budget: &Budget,
) -> Result<Minimized, InternalError> {
    let start = Instant::now();
    let mut minimized = solved(engine, puzzle, budget)?;
    let Some(solution) = unique_solution(&minimized) else {
        return Ok(minimized);
    };
    let rules = puzzle.rules();
    let items = rules.items();
    // Whether every set of rules asked about was the full rules' lowering
    // with some constraints left out. A rule that reads the others (a
    // nonconsecutive board exempts dotted pairs) can tighten when one is
    // dropped, and then a rule kept in one pass may be droppable later.
    let loosening_only = std::cell::Cell::new(true);
    // The rules built again with only the `kept` items.
    let keeping = |kept: &[RuleItem]| {
        let dropped: Vec<RuleItem> = items
            .iter()
            .filter(|i| !kept.contains(i))
            .copied()
            .collect();
        rules
            .without(&dropped)
            .map_err(|e| InternalError(format!("the rules without {dropped:?}: {e}")))
    };
    let deleted = delete(
        &items,
        &|item: &RuleItem| keep.contains(item),
        &|| loosening_only.get(),
        &mut |kept: &[RuleItem]| {
            let smaller = keeping(kept)?;
            if !only_loosened(rules, &smaller) {
                loosening_only.set(false);
            }
            let candidate = Puzzle::new(puzzle.givens().clone(), smaller);
            // Without a rule the solution may break another (a dot
            // dropped on a nonconsecutive board): then it is not the
            // puzzle's solution any more.
            if verify_solution(&candidate, &solution).is_err() {
                return Ok(Ok(false));
            }
            has_other_solution(engine, &candidate, &solution, budget)
                .map(|other| other.map(|other| !other))
        },
    )?;
    minimized.rules = true;
    minimized.needed_rules = names(rules, &deleted.needed);
    minimized.redundant_rules = names(rules, &deleted.redundant);
    minimized.minimal = match deleted.minimal {
        Some(kept) => {
            let smaller = keeping(&kept)?;
            minimized.kept_rules = smaller
                .items()
                .into_iter()
                .map(|i| smaller.item_name(i))
                .collect();
            Some(
                Puzzle::new(puzzle.givens().clone(), smaller)
                    .with_cosmetics(puzzle.cosmetics().cloned()),
            )
        }
        None => None,
    };
    minimized.finish(deleted.checks, deleted.gave_up, start);
    Ok(minimized)
}

/// The rule items' names.
fn names(rules: &Rules, items: &[RuleItem]) -> Vec<String> {
    items.iter().map(|&i| rules.item_name(i)).collect()
}

/// Whether each constraint of `smaller` (built from `full` without some of
/// its rules) is lowered as in `full`: then `smaller` only lost
/// primitives, and allows every grid `full` allows.
fn only_loosened(full: &Rules, smaller: &Rules) -> bool {
    smaller
        .constraints()
        .iter()
        .zip(smaller.lowered())
        .all(|(constraint, lowered)| {
            full.constraints()
                .iter()
                .zip(full.lowered())
                .any(|(c, l)| c == constraint && l == lowered)
        })
}

/// The puzzle solved and proven unique (or not): what minimizing starts
/// from.
fn solved(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<Minimized, InternalError> {
    Ok(Minimized {
        outcome: solve_with(engine, puzzle, true, budget)?,
        needed: Vec::new(),
        redundant: Vec::new(),
        rules: false,
        needed_rules: Vec::new(),
        redundant_rules: Vec::new(),
        kept_rules: Vec::new(),
        minimal: None,
        checks: 2,
    })
}

/// The solution of a puzzle found unique.
fn unique_solution(minimized: &Minimized) -> Option<Grid> {
    match (
        minimized.outcome.status,
        minimized.outcome.solutions.first(),
    ) {
        (Status::Unique, Some(solution)) => Some(solution.grid.clone()),
        _ => None,
    }
}

impl Minimized {
    /// Counts the deletion's checks and its time; a deletion that ran out
    /// of budget gives up, with no minimal puzzle.
    fn finish(&mut self, checks: usize, gave_up: Option<GiveUp>, start: Instant) {
        self.checks += checks;
        self.outcome.elapsed = start.elapsed();
        if let Some(reason) = gave_up {
            self.outcome.status = Status::GaveUp;
            self.outcome.gave_up = Some(reason);
            self.minimal = None;
        }
    }
}

/// Whether a set of items keeps the puzzle unique; `Err` inside when the
/// engine gave up.
type Answer = Result<Result<bool, GiveUp>, InternalError>;

/// What the deletion loop found.
struct Deleted<T> {
    /// The items without which the puzzle is not unique (each on its own).
    needed: Vec<T>,
    /// The items it stays unique without (each on its own).
    redundant: Vec<T>,
    /// The items of a minimal puzzle: every one needed, but for the kept
    /// ones; `None` when the budget ran out.
    minimal: Option<Vec<T>>,
    /// Checks made.
    checks: usize,
    /// Why it stopped early, if it did.
    gave_up: Option<GiveUp>,
}

/// The deletion loop clue and rule minimization share: which of `items`
/// the puzzle stays unique without, each on its own, and a minimal set
/// that keeps it unique. `unique` answers for a set of items (`Err` when
/// the engine gave up); `keep` names items that stay whatever.
///
/// A needed item stays needed in every smaller set when dropping items
/// only loosens the puzzle, so the minimal set keeps the needed and kept
/// items and shrinks only the redundant ones, by the deletion that names
/// the facts to blame for a puzzle without solution ([`shrink`]). When
/// `loosening_only` says afterwards that some set was not a loosening,
/// every item of the result (but the kept ones) is tried once more against
/// it, until none can go, so the result is minimal either way.
fn delete<T: Clone + PartialEq>(
    items: &[T],
    keep: &dyn Fn(&T) -> bool,
    loosening_only: &dyn Fn() -> bool,
    unique: &mut dyn FnMut(&[T]) -> Answer,
) -> Result<Deleted<T>, InternalError> {
    let mut deleted = Deleted {
        needed: Vec::new(),
        redundant: Vec::new(),
        minimal: None,
        checks: 0,
        gave_up: None,
    };
    let mut checks = 0;
    let mut ask = |set: &[T]| {
        checks += 1;
        unique(set)
    };
    for (k, item) in items.iter().enumerate() {
        let mut others = items.to_vec();
        others.remove(k);
        match ask(&others)? {
            Ok(true) => deleted.redundant.push(item.clone()),
            Ok(false) => deleted.needed.push(item.clone()),
            Err(reason) => {
                deleted.gave_up = Some(reason);
                break;
            }
        }
    }
    if deleted.gave_up.is_none() {
        let (kept, droppable): (Vec<T>, Vec<T>) =
            deleted.redundant.iter().cloned().partition(|i| keep(i));
        let fixed: Vec<T> = deleted.needed.iter().cloned().chain(kept).collect();
        let mut gave_up = None;
        let (left, complete) = shrink(droppable, &mut |subset| {
            let together: Vec<T> = fixed.iter().chain(subset).cloned().collect();
            Ok(match ask(&together)? {
                Ok(unique) => Some(unique),
                Err(reason) => {
                    gave_up = Some(reason);
                    None
                }
            })
        })?;
        let mut minimal: Vec<T> = fixed.into_iter().chain(left).collect();
        let mut complete = complete;
        // Each item once more against the result, while one can go.
        let mut again = complete && !loosening_only();
        while again {
            again = false;
            let mut k = 0;
            while k < minimal.len() {
                if keep(&minimal[k]) {
                    k += 1;
                    continue;
                }
                let mut without = minimal.clone();
                without.remove(k);
                match ask(&without)? {
                    Ok(true) => {
                        minimal = without;
                        again = true;
                    }
                    Ok(false) => k += 1,
                    Err(reason) => {
                        gave_up = Some(reason);
                        complete = false;
                        again = false;
                        break;
                    }
                }
            }
        }
        deleted.gave_up = gave_up;
        if complete {
            deleted.minimal = Some(minimal);
        }
    }
    deleted.checks = checks;
    Ok(deleted)
}

/// Whether `puzzle` has a solution other than `solution`; `Err` when the
/// engine gave up.
fn has_other_solution(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    solution: &Grid,
    budget: &Budget,
) -> Result<Result<bool, GiveUp>, InternalError> {
    let mut found = false;
    let searched = search_excluding(
        engine,
        puzzle,
        std::slice::from_ref(solution),
        1,
        budget,
        &mut |_| found = true,
    )?;
    Ok(searched.map(|()| found))
}

/// Why a list of cells could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellListError {
    /// The token that is not a cell of the board.
    pub token: String,
    /// The board's side.
    pub side: usize,
}

impl fmt::Display for CellListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a cell: write rROWcCOL, with ROW and COL from 1 to {}, e.g. r1c1",
            self.token, self.side
        )
    }
}

impl std::error::Error for CellListError {}

/// Reads cells written as `r1c1,r5c5` (commas or spaces between them,
/// either case) on a board of `size`.
pub fn parse_cells(text: &str, size: Size) -> Result<Vec<Cell>, CellListError> {
    let side = size.side();
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|token| {
            let bad = || CellListError {
                token: token.to_string(),
                side,
            };
            let lower = token.to_ascii_lowercase();
            let (row, col) = lower
                .strip_prefix('r')
                .and_then(|rest| rest.split_once('c'))
                .ok_or_else(bad)?;
            let number = |s: &str| {
                s.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=side).contains(n) && s.chars().all(|c| c.is_ascii_digit()))
            };
            match (number(row), number(col)) {
                (Some(r), Some(c)) => Ok(size.cell(r - 1, c - 1)),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// A rule `--keep` names that the puzzle does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleNameError {
    /// The name as written.
    pub name: String,
    /// Why it names no rule of the puzzle.
    pub problem: String,
}

impl fmt::Display for RuleNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}", self.name, self.problem)
    }
}

impl std::error::Error for RuleNameError {}

/// Reads the rules of `puzzle` named in `text`, separated by `;`: each is
/// `#N`, the rule's number in [`Rules::items`] (from 1, as `minimize
/// --rules` lists them), or the rule written as a rule line (`cage 15
/// (r1c1 r1c2)`, `diagonal+`; read as any rule line is, so case and
/// spacing do not matter).
pub fn parse_rule_items(text: &str, puzzle: &Puzzle) -> Result<Vec<RuleItem>, RuleNameError> {
    let rules = puzzle.rules();
    let items = rules.items();
    let names: Vec<String> = items.iter().map(|&i| rules.item_name(i)).collect();
    let mut found = Vec::new();
    for name in text.split(';').map(str::trim).filter(|n| !n.is_empty()) {
        let fail = |problem: String| RuleNameError {
            name: name.to_string(),
            problem,
        };
        if let Some(number) = name.strip_prefix('#') {
            let item = number
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|k| items.get(k))
                .ok_or_else(|| {
                    fail(format!(
                        "is not a rule's number: the puzzle's rules are #1 to #{}",
                        items.len()
                    ))
                })?;
            found.push(*item);
            continue;
        }
        // The line read on its own board, then named as the puzzle's
        // rules are: the same rule has the same name.
        let mut builder = Rules::builder(puzzle.size());
        let read = crate::puzzle::rule_text::read_rules(&[(1, name)], puzzle.size(), &mut builder)
            .map_err(|e| e.to_string())
            .and_then(|()| builder.build().map_err(|e| e.to_string()))
            .map_err(|e| fail(format!("is not a rule line ({e})")))?;
        let wanted: Vec<String> = read
            .items()
            .into_iter()
            .map(|i| read.item_name(i))
            .collect();
        if wanted.is_empty() {
            return Err(fail("names no rule".into()));
        }
        for one in wanted {
            match names.iter().position(|n| *n == one) {
                Some(k) => found.push(items[k]),
                None => {
                    return Err(fail(
                        "is not a rule of this puzzle (`minimize --rules` lists them; name one \
                         as #N or as its line)"
                            .into(),
                    ));
                }
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_bad_tokens_are_named() {
        let nine = Size::NINE;
        assert_eq!(
            parse_cells("r1c1, R9C9", nine),
            Ok(vec![nine.cell(0, 0), nine.cell(8, 8)])
        );
        for bad in ["r0c1", "r1c10", "x1c1", "r1", "r+1c1", "r1c1c1"] {
            let error = parse_cells(&format!("r2c2,{bad}"), nine).err();
            assert_eq!(error.map(|e| e.token), Some(bad.to_string()), "{bad}");
        }
    }
}
