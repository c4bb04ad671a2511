//! Steps that read the variant rules: the shared variants and z3doku's own
//! variant set finish with named steps, every step is checked against the
//! solution here as well as on the path, the words name the rule, puzzles
//! with more than one solution get the steps true in all of them, and the
//! techniques can be chosen.

use crate::common;

use common::{example, shared_dir, z3doku};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use z3doku::engine::{Budget, EngineKind};
use z3doku::logic::rules::RuleSteps;
use z3doku::logic::{PathError, Pencil, Seen, Step, Technique, Tutor, Walk};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::input::Source;

fn read(text: &str) -> Puzzle {
    Source::Text(text.to_string())
        .read_puzzle(None)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn walk(puzzle: &Puzzle) -> Walk {
    try_walk(puzzle).unwrap_or_else(|e| panic!("{e}"))
}

/// The path within the default budget; past it, finding the solution
/// itself may give up on a loaded machine.
fn try_walk(puzzle: &Puzzle) -> Result<Walk, PathError> {
    let limit = Some(Duration::from_secs(10));
    Tutor::new(EngineKind::Native, limit).walk(puzzle, &Budget::within(limit), &mut |_| {})
}

/// Replays the steps on a fresh candidate grid, checking each against
/// `solution` on its own (not trusting the path's check): no placement
/// other than the solution's digit, no elimination of it.
fn replay(puzzle: &Puzzle, steps: &[Step], solution: &Grid) -> Pencil {
    let mut p = Pencil::new(puzzle).unwrap();
    let size = puzzle.size();
    for step in steps {
        for e in &step.eliminations {
            let c = size.index(e.cell);
            assert_ne!(solution.get(c), e.digit, "{step}");
        }
        for q in &step.placements {
            assert_eq!(solution.get(size.index(q.cell)), q.digit, "{step}");
        }
        p.apply(&step.placements, &step.eliminations);
    }
    p
}

fn named_only(walk: &Walk) -> bool {
    walk.gave_up.is_none()
        && !walk.path.searched()
        && walk
            .path
            .steps
            .iter()
            .all(|s| !matches!(s.technique, Technique::Reasoned | Technique::Search))
}

#[test]
fn the_killer_example_finishes_with_named_steps_within_a_second() {
    let puzzle = Source::File(example("killer.json"))
        .read_puzzle(None)
        .unwrap();
    let start = Instant::now();
    let walk = walk(&puzzle);
    let took = start.elapsed();
    assert!(named_only(&walk), "{:?}", walk.path.steps.last());
    assert!(took < Duration::from_secs(1), "{took:?}");
    let used = |t| walk.path.steps.iter().any(|s| s.technique == t);
    assert!(used(Technique::CageCombination) && used(Technique::InniesOuties));
    let p = replay(&puzzle, &walk.path.steps, &walk.path.solution);
    assert_eq!(p.grid(), walk.path.solution);
}

/// The share of puzzles per kind whose path finishes with named steps,
/// printed, and the whole share.
fn shares(results: &[(String, bool)]) -> f64 {
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (kind, named) in results {
        let e = by_kind.entry(kind).or_default();
        e.0 += usize::from(*named);
        e.1 += 1;
    }
    for (kind, (named, all)) in &by_kind {
        println!("{kind}: {named}/{all}");
    }
    let named = results.iter().filter(|(_, n)| *n).count();
    named as f64 / results.len().max(1) as f64
}

#[test]
fn the_shared_variants_finish_with_named_steps() {
    let Some(dir) = shared_dir("variants") else {
        return;
    };
    let mut results = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for file in files {
        let puzzle = Source::File(file.clone()).read_puzzle(None).unwrap();
        let walk = walk(&puzzle);
        replay(&puzzle, &walk.path.steps, &walk.path.solution);
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let kind = name
            .rsplit_once('-')
            .map_or(name.clone(), |(k, _)| k.to_string());
        results.push((kind, named_only(&walk)));
    }
    assert_eq!(results.len(), 35);
    let share = shares(&results);
    assert!(share >= 0.9, "{share}");
}

#[test]
fn the_own_variant_set_finishes_with_named_steps() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variant_steps.txt"),
    )
    .unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // Each puzzle on its own: on every core.
    let results: Vec<(String, bool)> = lines
        .par_iter()
        .map(|line| {
            let (kind, link) = line.split_once(' ').unwrap();
            let puzzle = read(link);
            let walk = match try_walk(&puzzle) {
                Ok(walk) => walk,
                // Out of time before the path could start: not finished.
                Err(PathError::GaveUp(_)) => return (kind.to_string(), false),
                Err(e) => panic!("{kind}: {e}"),
            };
            assert!(walk.unique, "{kind}: {link}");
            replay(&puzzle, &walk.path.steps, &walk.path.solution);
            (kind.to_string(), named_only(&walk))
        })
        .collect();
    assert!(results.len() >= 100, "{}", results.len());
    let share = shares(&results);
    assert!(share >= 0.9, "{share}");
}

const EMPTY: &str =
    ".................................................................................";

#[test]
fn a_cage_step_names_the_cage_its_combinations_and_what_goes() {
    let puzzle = read(&format!("{EMPTY}\ncage 15 (r1c1 r1c2)"));
    let mut tutor = Tutor::new(EngineKind::Native, None);
    let (step, unique) = tutor.hint_open(&puzzle, &Budget::unbounded()).unwrap();
    assert!(!unique);
    let step = step.unwrap();
    assert_eq!(step.technique, Technique::CageCombination);
    assert_eq!(
        step.explanation,
        "cage 15 (r1c1 r1c2): only {6,9} or {7,8}, so r1c1 r1c2 are not 1-5"
    );
    assert_eq!(
        step.difficulty.map(|d| d.to_string()).as_deref(),
        Some("1.2")
    );
}

#[test]
fn the_45_rule_finds_the_cell_a_row_of_cages_leaves() {
    // Row 1: cages 15, 20 and 5 over eight cells leave r1c9 = 45 - 40.
    let puzzle = read(&format!(
        "{EMPTY}\ncage 15 (r1c1 r1c2 r1c3)\ncage 20 (r1c4 r1c5 r1c6)\ncage 5 (r1c7 r1c8)"
    ));
    let p = Pencil::new(&puzzle).unwrap();
    let step = RuleSteps::new(&puzzle)
        .find(Technique::InniesOuties, &p, &Seen::none())
        .unwrap();
    assert_eq!(step.explanation, "45 rule on row 1: r1c9 = 5, so r1c9 is 5");
    assert_eq!(step.placements.len(), 1);
}

#[test]
fn a_puzzle_with_more_than_one_solution_gets_the_steps_true_in_all() {
    // The killer example without two of its cages has many solutions.
    let text = std::fs::read_to_string(example("killer.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cages = json["killercage"].as_array_mut().unwrap();
    cages.truncate(cages.len() - 6);
    let puzzle = read(&json.to_string());
    let walk = walk(&puzzle);
    assert!(!walk.unique);
    // Where the steps run out (or the budget, on a loaded machine), the
    // path stops: no search picks one of the solutions.
    assert!(!walk.path.steps.is_empty());
    assert!(
        walk.path
            .steps
            .iter()
            .all(|s| s.technique != Technique::Search)
    );
    assert!(walk.path.stuck_at.is_some_and(|open| open > 0));
    // Every step holds in every solution: checked against the path's
    // solution here, and against a second one by the tutor.
    replay(&puzzle, &walk.path.steps, &walk.path.solution);
}

#[test]
fn steps_chooses_techniques_and_says_where_an_open_puzzle_stops() {
    let killer = example("killer.json");
    let out = z3doku()
        .args(["steps", "--techniques", "singles,cage-combination"])
        .arg(&killer)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().all(|l| {
        l.contains("cage ")
            || l.contains("single")
            || l.contains("full house")
            || l.contains("search")
    }));
    let out = z3doku()
        .args(["steps", "--without", "wingz"])
        .arg(&killer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no technique is called \"wingz\""));
    let open = format!("{EMPTY}\ncage 15 (r1c1 r1c2)");
    let out = z3doku().args(["steps", &open]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("cage 15 (r1c1 r1c2): only {6,9}"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than one solution"));
}

/// The `k`-th puzzle of `kind` in z3doku's own variant set.
fn own(kind: &str, k: usize) -> Puzzle {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variant_steps.txt"),
    )
    .unwrap();
    let link = text
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(kd, _)| *kd == kind)
        .nth(k)
        .unwrap()
        .1;
    read(link)
}

#[test]
fn chains_through_the_rules_name_their_links_and_hold() {
    // A negative ratio puzzle of the own set: its path goes through
    // chains whose weak links come from the rule (r1c1=2 and r1c2=1 may
    // not stand side by side).
    let puzzle = own("negratio", 0);
    let walk = walk(&puzzle);
    assert!(named_only(&walk), "{:?}", walk.path.steps.last());
    let chains: Vec<&Step> = walk
        .path
        .steps
        .iter()
        .filter(|s| {
            matches!(
                s.technique,
                Technique::RuleXChain | Technique::RuleXyChain | Technique::RuleAic
            )
        })
        .collect();
    assert!(!chains.is_empty());
    for step in &chains {
        let rated = step.difficulty.unwrap().0;
        let base = step.technique.base_rating().unwrap().0;
        assert!(rated >= base && rated <= base + 10, "{step}");
        assert!(step.explanation.contains("negative ratio"), "{step}");
        assert!(step.explanation.contains(" = ") && !step.eliminations.is_empty());
        assert!(step.cells.len() >= 2 && !step.digits.is_empty());
    }
    // Each step, chains included, against the solution on its own.
    let p = replay(&puzzle, &walk.path.steps, &walk.path.solution);
    assert_eq!(p.grid(), walk.path.solution);
}

#[test]
fn a_dynamic_forcing_chain_applies_pointing_and_the_rules_along_the_way() {
    // A negative ratio puzzle whose path needs forcing chains that apply
    // pointing and rule pointing along the way.
    let puzzle = own("negratio", 2);
    let walk = walk(&puzzle);
    let dynamic: Vec<&Step> = walk
        .path
        .steps
        .iter()
        .filter(|s| s.technique == Technique::RuleDynamicForcingChain)
        .collect();
    assert!(!dynamic.is_empty());
    for step in dynamic {
        assert_eq!(step.difficulty.map(|d| d.0), Some(90));
        assert!(step.explanation.starts_with("rule dynamic forcing chain: "));
    }
    replay(&puzzle, &walk.path.steps, &walk.path.solution);
}
