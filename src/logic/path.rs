//! The path a person takes: the easiest step, again and again, until the
//! grid is full or no technique applies. Every step is checked against the
//! puzzle's one solution before it is taken: a wrong step is a bug in
//! z3doku, never output.

pub use super::error::PathError;
use super::pencil::Pencil;
use super::reason;
use super::rules::{self, RuleSteps};
use super::seen::Seen;
use super::step::Step;
use super::technique::Technique;
use super::{
    aligned, binary, bug, chains, direct, fish, forcing, intersections, singles, subsets, unique,
    wings,
};
use crate::engine::{Budget, Engine, GiveUp};
use crate::puzzle::Puzzle;
use crate::puzzle::check::verify_solution;
use crate::puzzle::grid::{Clue, Grid};
use crate::solve::Status;
use std::ops::ControlFlow;

/// How to look for steps.
#[derive(Clone, Debug)]
pub struct Logic<'a> {
    /// The techniques to try, easiest first.
    pub techniques: &'a [Technique],
    /// On a variant puzzle, when no technique applies, ask the engine for
    /// the deduction with the smallest reason before searching.
    pub reasoned: bool,
    /// Stop reasoning (and finish by search) once this is spent.
    pub budget: Budget,
    /// Write each step's sentence ([`Step::explanation`]); a rating, which
    /// reads only the techniques, goes faster without.
    pub words: bool,
}

impl Default for Logic<'_> {
    fn default() -> Self {
        Logic {
            techniques: rules::order(),
            reasoned: true,
            budget: Budget::unbounded(),
            words: true,
        }
    }
}

/// A puzzle's solving path.
#[derive(Clone, Debug)]
pub struct Path {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its one solution.
    pub solution: Grid,
    /// The steps, in order. When the techniques ran out, the last one is
    /// [`Technique::Search`], placing the rest.
    pub steps: Vec<Step>,
    /// The open cells left when the techniques ran out; `None` when they
    /// solved the puzzle.
    pub stuck_at: Option<usize>,
}

/// The one solution of `puzzle`, checked; or why there is none.
pub fn unique_solution(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<Grid, PathError> {
    let mut found: Vec<Grid> = Vec::new();
    engine.solutions(puzzle, budget.limits(2), &mut |f| {
        found.push(f.grid.clone());
        ControlFlow::Continue(())
    })?;
    match found.as_slice() {
        [one] => {
            verify_solution(puzzle, one)
                .map_err(|e| PathError::Internal(format!("the engine's solution is wrong: {e}")))?;
            Ok(one.clone())
        }
        [] => Err(PathError::NotUnique(Status::None)),
        _ => Err(PathError::NotUnique(Status::Multiple)),
    }
}

/// The first of `logic`'s techniques that applies to `p`, as a step.
/// `unique_classic` allows the techniques that assume one solution and
/// classic rules. `solution`, the puzzle's one solution when known, only
/// saves time: the steps are the same without it. `seen`, the memory of
/// the scans of the steps before on the same path ([`Seen::none`] for a
/// scan made once), saves time too.
pub fn next_step(
    p: &Pencil,
    techniques: &[Technique],
    unique_classic: bool,
    solution: Option<&Grid>,
    seen: &mut Seen,
) -> Option<Step> {
    next_step_with(p, techniques, unique_classic, solution, seen, None)
}

/// [`next_step`] with the variant rules' steps, found by `rules` (which
/// remembers what it looked at along one path).
pub fn next_step_with(
    p: &Pencil,
    techniques: &[Technique],
    unique_classic: bool,
    solution: Option<&Grid>,
    seen: &mut Seen,
    mut rules: Option<&mut RuleSteps>,
) -> Option<Step> {
    seen.next_grid();
    techniques.iter().find_map(|&t| {
        if t.reads_rules() {
            return rules.as_mut().and_then(|r| r.find(t, p, seen));
        }
        find(t, p, unique_classic, solution, seen)
    })
}

fn find(
    t: Technique,
    p: &Pencil,
    unique_classic: bool,
    solution: Option<&Grid>,
    seen: &mut Seen,
) -> Option<Step> {
    if t.needs_uniqueness() && !unique_classic {
        return None;
    }
    match t {
        Technique::FullHouse => singles::full_house(p, seen),
        Technique::HiddenSingleBox => singles::hidden_single(p, true, seen),
        Technique::HiddenSingleLine => singles::hidden_single(p, false, seen),
        Technique::NakedSingle => singles::naked_single(p, seen),
        Technique::DirectPointing => direct::intersection(p, true, seen),
        Technique::DirectClaiming => direct::intersection(p, false, seen),
        Technique::DirectHiddenPair => direct::hidden(p, 2, seen),
        Technique::DirectHiddenTriple => direct::hidden(p, 3, seen),
        Technique::Pointing => intersections::intersection(p, true, seen),
        Technique::Claiming => intersections::intersection(p, false, seen),
        Technique::NakedPair => subsets::naked(p, 2, seen),
        Technique::NakedTriple => subsets::naked(p, 3, seen),
        Technique::NakedQuad => subsets::naked(p, 4, seen),
        Technique::HiddenPair => subsets::hidden(p, 2, seen),
        Technique::HiddenTriple => subsets::hidden(p, 3, seen),
        Technique::HiddenQuad => subsets::hidden(p, 4, seen),
        Technique::XWing => fish::fish(p, 2, seen),
        Technique::Swordfish => fish::fish(p, 3, seen),
        Technique::Jellyfish => fish::fish(p, 4, seen),
        Technique::XyWing => wings::wing(p, false, seen),
        Technique::XyzWing => wings::wing(p, true, seen),
        Technique::UniqueRectangle => unique::unique_loop(p, seen),
        Technique::BugOne => direct::bug_one(p, seen),
        Technique::Bug2 => bug::bug(p, seen),
        Technique::AlignedPairExclusion => aligned::aligned_exclusion(p, 2, seen),
        Technique::AlignedTripletExclusion => aligned::aligned_exclusion(p, 3, seen),
        Technique::XChain => chains::x_chain(p, seen),
        Technique::ForcingXChain | Technique::XyForcingChain => {
            binary::forcing_chain(p, solution, seen)
        }
        Technique::XyChain => chains::xy_chain(p, seen),
        Technique::ForcingChain => forcing::forcing_chain(p, false, false, solution, seen),
        Technique::DynamicForcingChain => {
            forcing::forcing_chain(p, true, unique_classic, solution, seen)
        }
        _ => None,
    }
}

impl Path {
    /// The path of `puzzle` (whose one solution is `solution`, checked by
    /// the caller) with `logic`'s techniques. On a variant puzzle, with
    /// [`Logic::reasoned`], `engine` proves the reasoned steps; once
    /// [`Logic::budget`] is spent, search finishes the puzzle.
    pub fn find(
        puzzle: &Puzzle,
        solution: &Grid,
        logic: Logic<'_>,
        engine: &mut dyn Engine,
    ) -> Result<Path, PathError> {
        Ok(Path::run(puzzle, solution, &logic, engine, &mut |_| {}, false, true)?.0)
    }

    /// [`Path::find`], handing each step to `each` as it is taken, and
    /// stopping where [`Logic::budget`] runs out instead of searching: the
    /// path then holds the steps found, [`Path::stuck_at`] the open cells
    /// and no search step, and the reason comes with it.
    pub fn walk(
        puzzle: &Puzzle,
        solution: &Grid,
        logic: Logic<'_>,
        engine: &mut dyn Engine,
        each: &mut dyn FnMut(&Step),
    ) -> Result<(Path, Option<GiveUp>), PathError> {
        Path::run(puzzle, solution, &logic, engine, each, true, true)
    }

    /// [`Path::walk`] on a puzzle that may have more than one solution
    /// (`solution` is one of them): only steps that hold in every
    /// solution are taken (none that assumes one solution), and where
    /// they run out the path stops, with [`Path::stuck_at`] the open
    /// cells and no search step, since search would pick one solution.
    pub fn walk_open(
        puzzle: &Puzzle,
        solution: &Grid,
        logic: Logic<'_>,
        engine: &mut dyn Engine,
        each: &mut dyn FnMut(&Step),
    ) -> Result<(Path, Option<GiveUp>), PathError> {
        Path::run(puzzle, solution, &logic, engine, each, true, false)
    }

    fn run(
        puzzle: &Puzzle,
        solution: &Grid,
        logic: &Logic<'_>,
        engine: &mut dyn Engine,
        each: &mut dyn FnMut(&Step),
        stop_when_spent: bool,
        unique: bool,
    ) -> Result<(Path, Option<GiveUp>), PathError> {
        let mut path = Path {
            puzzle: puzzle.clone(),
            solution: solution.clone(),
            steps: Vec::new(),
            stuck_at: None,
        };
        let mut p = Pencil::new(puzzle).ok_or(PathError::NotUnique(Status::None))?;
        let unique_classic = unique && puzzle.rules().is_classic();
        let variant = !puzzle.rules().is_classic() || !puzzle.rules().constraints().is_empty();
        // SE's nested chains can take longer than the budget within one
        // step: they watch it themselves.
        let _watch = super::nested::Deadline::watch(&logic.budget);
        let mut rule_steps = RuleSteps::new(puzzle);
        let mut seen = if logic.words {
            Seen::new()
        } else {
            Seen::new().silent()
        };
        let spent = |open: usize, path: &mut Path| {
            let reason = logic.budget.spent().filter(|_| stop_when_spent);
            if reason.is_some() {
                path.stuck_at = Some(open);
            }
            reason
        };
        while !p.is_solved() {
            if let Some(reason) = spent(p.open_cells(), &mut path) {
                return Ok((path, Some(reason)));
            }
            let mut step = next_step_with(
                &p,
                logic.techniques,
                unique_classic,
                Some(solution),
                &mut seen,
                Some(&mut rule_steps),
            );
            if step.is_none() && variant && logic.reasoned {
                step = reason::reasoned_step(puzzle, &p, solution, engine, &logic.budget)?;
            }
            let Some(step) = step else {
                if let Some(reason) = spent(p.open_cells(), &mut path) {
                    return Ok((path, Some(reason)));
                }
                path.stuck_at = Some(p.open_cells());
                if !unique {
                    break;
                }
                let last = search_step(&p, solution, &seen);
                each(&last);
                path.steps.push(last);
                break;
            };
            step.check(solution).map_err(PathError::Internal)?;
            if step.is_empty() {
                return Err(PathError::Internal(format!("{step}: changes nothing")));
            }
            p.apply(&step.placements, &step.eliminations);
            each(&step);
            path.steps.push(step);
        }
        Ok((path, None))
    }

    /// Whether the techniques ran out and search finished the puzzle.
    pub fn searched(&self) -> bool {
        self.stuck_at.is_some()
    }
}

/// The last step when no technique applies: the rest of the solution.
fn search_step(p: &Pencil, solution: &Grid, seen: &Seen) -> Step {
    let open: Vec<usize> = (0..p.size().cells()).filter(|&c| p.value(c) == 0).collect();
    let mut step = Step::new(Technique::Search).pattern(p, &open, &[]);
    step.placements = open
        .iter()
        .map(|&c| Clue {
            cell: p.cell(c),
            digit: solution.get(c),
        })
        .collect();
    step.say(seen, || {
        format!(
            "no technique applies with {} cells open; search places the rest",
            open.len()
        )
    })
}

/// The easiest next step of `puzzle` (whose solution is `solution`),
/// from the given digits; `None` when it is already solved.
pub fn hint(
    puzzle: &Puzzle,
    solution: &Grid,
    logic: Logic<'_>,
    engine: &mut dyn Engine,
) -> Result<Option<Step>, PathError> {
    hint_in(puzzle, solution, logic, engine, true)
}

/// [`hint`] on a puzzle that may have more than one solution (`solution`
/// is one of them): the easiest step that holds in every solution, none
/// that assumes one; `None` when the puzzle is solved or no such step is
/// found (search would pick one solution, so it is never the answer).
pub fn hint_open(
    puzzle: &Puzzle,
    solution: &Grid,
    logic: Logic<'_>,
    engine: &mut dyn Engine,
) -> Result<Option<Step>, PathError> {
    hint_in(puzzle, solution, logic, engine, false)
}

fn hint_in(
    puzzle: &Puzzle,
    solution: &Grid,
    logic: Logic<'_>,
    engine: &mut dyn Engine,
    unique: bool,
) -> Result<Option<Step>, PathError> {
    let p = Pencil::new(puzzle).ok_or(PathError::NotUnique(Status::None))?;
    if p.is_solved() {
        return Ok(None);
    }
    let unique_classic = unique && puzzle.rules().is_classic();
    let variant = !puzzle.rules().is_classic() || !puzzle.rules().constraints().is_empty();
    let _watch = super::nested::Deadline::watch(&logic.budget);
    let mut step = next_step_with(
        &p,
        logic.techniques,
        unique_classic,
        Some(solution),
        &mut Seen::none(),
        Some(&mut RuleSteps::new(puzzle)),
    );
    if step.is_none() && variant && logic.reasoned {
        step = reason::reasoned_step(puzzle, &p, solution, engine, &logic.budget)?;
    }
    if step.is_none() && !unique {
        return Ok(None);
    }
    let step = step.unwrap_or_else(|| search_step(&p, solution, &Seen::none()));
    step.check(solution).map_err(PathError::Internal)?;
    Ok(Some(step))
}
