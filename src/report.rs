//! One JSON schema for every command's results: `solve`, `check`,
//! `count`, `batch`, `queens`, `candidates`, `minimize`, `generate`, `hint`,
//! `steps` and `rate` all print a [`Report`], so a field has the same name
//! and unit wherever it appears. Fields that do not apply to a result are
//! left out.
//!
//! Times are `time_ms`, milliseconds as a number with fractions. `status` is
//! a [`Status`] word; `reason`, when the engine gave up, a [`GiveUp`] word
//! (`timeout`, `memory`, `interrupted`, `unknown`).

use crate::batch::Record;
use crate::engine::GiveUp;
use crate::generate::Generated;
use crate::logic::{Path, PathError, Rating, Step};
use crate::puzzle::grid::{Clue, digit_char};
use crate::queens::{Placement, QueensCount};
use crate::solve::{Candidates, Count, Minimized, Outcome, Status, Verification};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// A result as JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// The input line (batch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The board's side (queens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// The [`Status`] word.
    pub status: &'static str,
    /// The puzzle as one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
    /// The puzzle as an f-puzzles link, rules and all (a generated variant
    /// puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fpuzzles: Option<String>,
    /// The solutions found, each as one line: one, or two when not unique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    /// The solutions' regions, when they have their own (chaos
    /// construction): a line each, a character per cell naming its region
    /// (`1` to `9`, then `A`), in the order of `solutions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<String>>,
    /// The solutions' cells outside the grid (sigh's `Var`), when the
    /// board has some: a line each, a character per cell as `solutions`
    /// writes them, `v1` first, in the order of `solutions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_cells: Option<Vec<String>>,
    /// The names sigh gives the cells outside the grid (`VA1`), in the
    /// order of `extra_cells`' characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_cell_ids: Option<Vec<String>>,
    /// Where the two solutions differ, as `r1c1`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differing_cells: Option<Vec<String>>,
    /// The clues to blame when there is no solution, as `r1c1=5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicting_clues: Option<Vec<String>>,
    /// Rules that conflict together with `conflicting_clues`, as people
    /// name them (`cage 15 (r1c1 r1c2)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicting_rules: Option<Vec<String>>,
    /// Whether no clue or rule can be dropped from `conflicting_clues` and
    /// `conflicting_rules`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict_is_minimal: Option<bool>,
    /// Solutions (or placements) counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// Whether the count stopped at its limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_reached: Option<bool>,
    /// An estimated number of solutions (`count --estimate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// The estimate's 95% interval, lower end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// The estimate's 95% interval, upper end (absent while unbounded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Samples the estimate was made from (0: the count is exact).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// The queens' squares, `[row, column]`, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queens: Option<Vec<[usize; 2]>>,
    /// Why the engine gave up: a [`GiveUp`] word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The verdict, or the reason for giving up, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Why the line holds no puzzle, or what went wrong on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Time spent, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// With `--verify`: whether the other engine confirmed the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The engine that confirmed it, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_by: Option<&'static str>,
    /// Each solution's model as text, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models: Option<Vec<String>>,
    /// `candidates`: each open cell's true candidates, in row-major order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<CellCandidates>>,
    /// `candidates`: the candidates that would make the puzzle unique if
    /// placed (in exactly one solution), as `r1c1=5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deciding: Option<Vec<String>>,
    /// `candidates`: the most solutions counted per candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<usize>,
    /// `candidates`, `minimize` and `generate`: the searches the engine ran
    /// (for Z3, its satisfiability checks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<usize>,
    /// `minimize`: the clues without which the puzzle has a second
    /// solution, as `r1c1=5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed: Option<Vec<String>>,
    /// `minimize`: the clues the puzzle can do without, each on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redundant: Option<Vec<String>>,
    /// `minimize`: a puzzle with the same unique solution in which every
    /// clue is needed, as one line; with `--rules`, the puzzle with only
    /// the rules it needs, as text (its grid's rows, then its rule lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<String>,
    /// `minimize --rules`: the rules without which the puzzle is not
    /// unique (or loses its solution), as rule lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed_rules: Option<Vec<String>>,
    /// `minimize --rules`: the rules the puzzle stays unique without,
    /// each on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redundant_rules: Option<Vec<String>>,
    /// `minimize --rules`: the rules of the minimal puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_rules: Option<Vec<String>>,
    /// `generate`: the puzzle's number in the run, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u64>,
    /// `generate`: the seed the puzzle came from (with `number`, it makes
    /// the puzzle again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// `generate`: the puzzle's clue count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clues: Option<usize>,
    /// `generate`: the symmetry its clue pattern keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<&'static str>,
    /// `generate`: `true` when every clue is proven needed; left out when
    /// not looked at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every_clue_needed: Option<bool>,
    /// `generate`: the full grids drawn for the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tries: Option<usize>,
    /// `hint`: the easiest next step (absent when the puzzle is solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<StepReport>,
    /// `steps`: the solving path, step by step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepReport>>,
    /// `steps`: the open cells left when the techniques ran out (the last
    /// step is then search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stuck_at: Option<usize>,
    /// `rate` and `batch --rate`: the ratings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingReport>,
}

/// One step of a solving path: `{"technique": "hidden-single-box",
/// "rating": 1.2, "cells": ["r4c5"], "digits": ["7"], "placements":
/// ["r4c5=7"], "eliminations": [], "explanation": "hidden single: 7 can
/// only go in r4c5 in box 5"}`. Eliminations read `r1c2<>3`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepReport {
    /// The technique's stable word ([`Technique::word`]).
    pub technique: &'static str,
    /// Its Sudoku Explainer rating; absent for reasoned steps and search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// The cells that make the pattern, as `r1c1`.
    pub cells: Vec<String>,
    /// The digits that make the pattern.
    pub digits: Vec<String>,
    /// The digits placed, as `r1c1=5`.
    pub placements: Vec<String>,
    /// The candidates removed, as `r1c1<>5`.
    pub eliminations: Vec<String>,
    /// The reasoning in one sentence.
    pub explanation: String,
}

impl StepReport {
    /// The report of `step`.
    pub fn of(step: &Step) -> StepReport {
        StepReport {
            technique: step.technique.word(),
            rating: step.difficulty.map(|d| d.value()),
            cells: step.cells.iter().map(|c| c.to_string()).collect(),
            digits: step
                .digits
                .iter()
                .map(|&d| digit_char(d).to_string())
                .collect(),
            placements: clue_strings(&step.placements),
            eliminations: step
                .eliminations
                .iter()
                .map(|e| format!("{}<>{}", e.cell, digit_char(e.digit)))
                .collect(),
            explanation: step.explanation.clone(),
        }
    }
}

/// A puzzle's ratings: `{"er": 7.2, "ep": 7.2, "ed": 2.3, "searched":
/// false, "reasoned": 0, "qqwing": "expert"}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RatingReport {
    /// ER: the hardest step on the path.
    pub er: f64,
    /// EP: the hardest step up to the first placement.
    pub ep: f64,
    /// ED: the hardest step up to the first elimination.
    pub ed: f64,
    /// Whether the techniques ran out and search finished (ER is then a
    /// lower bound).
    pub searched: bool,
    /// Steps the engine reasoned out (variants), which have no rating.
    pub reasoned: usize,
    /// The qqwing level: `simple`, `easy`, `intermediate` or `expert`.
    pub qqwing: &'static str,
}

impl RatingReport {
    /// The report of `rating`.
    pub fn of(rating: &Rating) -> RatingReport {
        RatingReport {
            er: rating.er.value(),
            ep: rating.ep.value(),
            ed: rating.ed.value(),
            searched: rating.searched,
            reasoned: rating.reasoned,
            qqwing: rating.qqwing.name(),
        }
    }
}

/// One open cell's true candidates: `{"cell": "r1c2", "counts": {"4": 1,
/// "7": 2}}`, each digit with the solutions that have it, up to the cap.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellCandidates {
    /// The cell, as `r1c1`.
    pub cell: String,
    /// Digit (as the one-line form writes it) to count.
    pub counts: BTreeMap<String, usize>,
}

/// The `regions` lines of `grids` when they carry their own (chaos
/// construction), in their order; `None` when none do, or there are none.
pub fn regions_of<'a>(
    grids: impl IntoIterator<Item = &'a crate::puzzle::grid::Grid>,
) -> Option<Vec<String>> {
    grids
        .into_iter()
        .map(crate::puzzle::grid::Grid::regions_line)
        .collect::<Option<Vec<String>>>()
        .filter(|lines| !lines.is_empty())
}

impl Report {
    /// The report with `grids`' cells outside the grid, when `rules`' board
    /// has some (`extra_cells`, `extra_cell_ids`).
    pub fn with_extra_cells<'a>(
        mut self,
        rules: &crate::puzzle::rules::Rules,
        grids: impl IntoIterator<Item = &'a crate::puzzle::grid::Grid>,
    ) -> Report {
        let ids = rules.extra_cell_ids();
        if !ids.is_empty() {
            self.extra_cells = grids.into_iter().map(|g| rules.extra_line(g)).collect();
            self.extra_cell_ids = Some(ids);
        }
        self
    }

    /// The report of a solved (or not) puzzle; with `models`, each
    /// solution's model.
    pub fn of_outcome(outcome: &Outcome, models: bool) -> Report {
        let lines =
            |cells: &[crate::puzzle::grid::Cell]| cells.iter().map(|c| c.to_string()).collect();
        let (verified, verified_by) = verification(outcome.verification);
        // Values as the board writes them (from 0 on sigh's 0-based shapes).
        let board = outcome.puzzle.rules();
        Report {
            status: outcome.status.name(),
            puzzle: Some(board.value_line(outcome.puzzle.givens())),
            solutions: Some(
                outcome
                    .solutions
                    .iter()
                    .map(|s| board.value_line(&s.grid))
                    .collect(),
            ),
            regions: regions_of(outcome.solutions.iter().map(|s| &s.grid)),
            differing_cells: Some(lines(&outcome.differing_cells())),
            conflicting_clues: Some(
                outcome
                    .conflicting
                    .iter()
                    .map(|c| board.clue_text(c))
                    .collect(),
            ),
            conflicting_rules: Some(outcome.conflicting_rule_names()),
            conflict_is_minimal: Some(outcome.conflict_is_minimal),
            reason: outcome.gave_up.as_ref().map(GiveUp::word),
            summary: Some(outcome.summary()),
            time_ms: Some(millis(outcome.elapsed)),
            verified,
            verified_by,
            models: models.then(|| {
                outcome
                    .solutions
                    .iter()
                    .filter_map(|s| s.model.clone())
                    .collect()
            }),
            ..Report::default()
        }
        .with_extra_cells(board, outcome.solutions.iter().map(|s| &s.grid))
    }

    /// The report of one line of a batch.
    pub fn of_record(record: &Record) -> Report {
        let mut report = match &record.result {
            Ok(outcome) => Report {
                // The line's time, which covers reading it too.
                time_ms: Some(millis(record.time)),
                ..Report::of_outcome(outcome, false)
            },
            Err(error) => Report {
                status: Status::Error.name(),
                error: Some(error.to_string()),
                ..Report::default()
            },
        };
        report.line = Some(record.line);
        report.puzzle = record.puzzle.clone();
        match &record.rating {
            Some(Ok(rating)) => report.rating = Some(RatingReport::of(rating)),
            Some(Err(e)) => report.error = Some(format!("no rating: {e}")),
            None => {}
        }
        report
    }

    /// The report of a count.
    pub fn of_count(count: &Count, puzzle: &crate::puzzle::Puzzle) -> Report {
        let (verified, verified_by) = verification(count.verification);
        Report {
            status: count.status().name(),
            puzzle: Some(puzzle.rules().value_line(puzzle.givens())),
            count: Some(count.solutions),
            limit_reached: Some(count.limit_reached),
            reason: count.gave_up.as_ref().map(GiveUp::word),
            summary: Some(count.summary()),
            time_ms: Some(millis(count.elapsed)),
            verified,
            verified_by,
            ..Report::default()
        }
    }

    /// The report of an estimate (`count --estimate`).
    pub fn of_estimate(
        estimate: &crate::solve::estimate::Estimate,
        puzzle: &crate::puzzle::Puzzle,
        seed: u64,
    ) -> Report {
        let status = if estimate.gave_up.is_some() && estimate.samples == 0 {
            Status::GaveUp.name()
        } else if estimate.estimate <= 0.0 {
            Status::None.name()
        } else {
            Status::Solved.name()
        };
        Report {
            status,
            puzzle: Some(puzzle.givens().to_line()),
            estimate: Some(estimate.estimate),
            low: Some(estimate.low),
            high: Some(estimate.high).filter(|h| h.is_finite()),
            samples: Some(estimate.samples),
            seed: Some(seed),
            checks: usize::try_from(estimate.searches).ok(),
            reason: estimate.gave_up.as_ref().map(GiveUp::word),
            summary: Some(estimate.summary()),
            time_ms: Some(millis(estimate.elapsed)),
            ..Report::default()
        }
    }

    /// The report of a `candidates` command: the verdict, and when the
    /// puzzle has solutions, the counts of every open cell.
    pub fn of_candidates(candidates: &Candidates) -> Report {
        let outcome = &candidates.outcome;
        let size = outcome.puzzle.size();
        let known = candidates.is_known();
        Report {
            summary: Some(candidates.summary()),
            candidates: known.then(|| {
                (0..size.cells())
                    .filter(|&i| outcome.puzzle.givens().get(i) == 0)
                    .map(|i| CellCandidates {
                        cell: size.cell_at(i).to_string(),
                        counts: candidates
                            .of_cell(i)
                            .into_iter()
                            .map(|(d, n)| (digit_char(d).to_string(), n))
                            .collect(),
                    })
                    .collect()
            }),
            deciding: known.then(|| clue_strings(&candidates.deciding())),
            cap: Some(candidates.cap),
            checks: Some(candidates.checks),
            ..Report::of_outcome(outcome, false)
        }
    }

    /// The report of a `minimize` command: the verdict, and for a unique
    /// puzzle the needed and redundant clues and a minimal puzzle.
    pub fn of_minimized(minimized: &Minimized) -> Report {
        let unique = minimized.outcome.status == Status::Unique;
        if minimized.rules {
            return Report {
                summary: Some(minimized.summary()),
                needed_rules: unique.then(|| minimized.needed_rules.clone()),
                redundant_rules: unique.then(|| minimized.redundant_rules.clone()),
                kept_rules: minimized
                    .minimal
                    .as_ref()
                    .map(|_| minimized.kept_rules.clone()),
                // A board whose regions a `regions` line cannot label has
                // its rules in `kept_rules` alone.
                minimal: minimized
                    .minimal
                    .as_ref()
                    .and_then(|p| crate::puzzle::rule_text::write(p).ok()),
                checks: Some(minimized.checks),
                ..Report::of_outcome(&minimized.outcome, false)
            };
        }
        Report {
            summary: Some(minimized.summary()),
            needed: unique.then(|| clue_strings(&minimized.needed)),
            redundant: unique.then(|| clue_strings(&minimized.redundant)),
            minimal: minimized.minimal.as_ref().map(|p| p.givens().to_line()),
            checks: Some(minimized.checks),
            ..Report::of_outcome(&minimized.outcome, false)
        }
    }

    /// The report of a queens placement (`None`: there is none).
    pub fn of_placement(n: usize, placement: Option<&Placement>, elapsed: Duration) -> Report {
        let status = match placement {
            Some(_) => Status::Solved,
            None => Status::None,
        };
        Report {
            n: Some(n),
            status: status.name(),
            queens: Some(placement.map_or_else(Vec::new, |p| {
                p.columns
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| [r + 1, c + 1])
                    .collect()
            })),
            models: placement.and_then(|p| p.model.clone()).map(|m| vec![m]),
            time_ms: Some(millis(elapsed)),
            ..Report::default()
        }
    }

    /// The report of a queens count.
    pub fn of_queens_count(n: usize, count: &QueensCount) -> Report {
        let status = match (&count.gave_up, count.placements) {
            (Some(_), _) => Status::GaveUp,
            (None, 0) => Status::None,
            _ => Status::Solved,
        };
        Report {
            n: Some(n),
            status: status.name(),
            count: Some(count.placements),
            limit_reached: Some(count.limit_reached),
            reason: count.gave_up.as_ref().map(GiveUp::word),
            summary: Some(count.summary()),
            time_ms: Some(millis(count.elapsed)),
            ..Report::default()
        }
    }

    /// The report of a made puzzle, from `seed`: its number, the puzzle
    /// and its solution, what is known of it, and no time (the same seed
    /// prints the same report).
    pub fn of_generated(made: &Generated, seed: u64) -> Report {
        Report {
            number: Some(made.index + 1),
            seed: Some(seed),
            status: Status::Unique.name(),
            puzzle: Some(made.puzzle.givens().to_line()),
            solutions: Some(vec![made.solution.to_line()]),
            clues: Some(made.puzzle.givens().clue_count()),
            symmetry: Some(made.symmetry.name()),
            every_clue_needed: made.minimal,
            tries: Some(made.tries),
            checks: Some(made.checks),
            ..Report::default()
        }
    }

    /// The report of a `hint`, `steps` or `rate` question on `puzzle`
    /// that could not be answered: the puzzle is not unique, or the
    /// engine gave up.
    pub fn of_path_error(puzzle: &crate::puzzle::Puzzle, error: &PathError) -> Report {
        Report {
            status: error.status().name(),
            puzzle: Some(puzzle.givens().to_line()),
            reason: match error {
                PathError::GaveUp(reason) => Some(reason.word()),
                _ => None,
            },
            summary: Some(error.to_string()),
            ..Report::default()
        }
    }

    /// The report of a `hint`: the next step of a unique puzzle.
    pub fn of_hint(puzzle: &crate::puzzle::Puzzle, step: Option<&Step>) -> Report {
        Report {
            status: Status::Unique.name(),
            puzzle: Some(puzzle.givens().to_line()),
            hint: step.map(StepReport::of),
            ..Report::default()
        }
    }

    /// The report of `steps`: the whole path.
    pub fn of_path(path: &Path) -> Report {
        Report {
            status: Status::Unique.name(),
            puzzle: Some(path.puzzle.givens().to_line()),
            solutions: Some(vec![path.solution.to_line()]),
            steps: Some(path.steps.iter().map(StepReport::of).collect()),
            stuck_at: path.stuck_at,
            ..Report::default()
        }
    }

    /// The report of `rate`.
    pub fn of_rating(path: &Path, rating: &Rating) -> Report {
        Report {
            status: Status::Unique.name(),
            puzzle: Some(path.puzzle.givens().to_line()),
            rating: Some(RatingReport::of(rating)),
            summary: Some(rating.to_string()),
            ..Report::default()
        }
    }

    /// The report as one line of JSON, with its newline.
    pub fn to_json_line(&self) -> String {
        // A struct of strings, numbers and lists always serializes; the
        // fallback keeps one line per result regardless.
        let text = serde_json::to_string(self);
        text.unwrap_or_else(|_| format!(r#"{{"status":"{}"}}"#, self.status)) + "\n"
    }
}

/// `(verified, verified_by)` for a verification.
fn verification(v: Verification) -> (Option<bool>, Option<&'static str>) {
    match v {
        Verification::NotAsked => (None, None),
        Verification::Verified(kind) => (Some(true), Some(kind.name())),
        Verification::NotVerified => (Some(false), None),
    }
}

/// Clues as `r1c1=5`.
fn clue_strings(clues: &[Clue]) -> Vec<String> {
    clues.iter().map(Clue::to_string).collect()
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
