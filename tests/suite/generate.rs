//! `z3doku generate`: the same seed gives the same puzzles whatever the
//! jobs; every puzzle is unique, and minimal when asked, by the other
//! engine (Z3) and by an independent counter; the clue pattern keeps each
//! symmetry; every board size works; asks that cannot be met are refused
//! or given up on, with their exit statuses.

use crate::common;

use common::{backtracking_count, output_of, z3doku};
use predicates::prelude::*;
use std::num::NonZeroUsize;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::generate::{Generated, Generator, Spec, Symmetry, SymmetryChoice};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::Size;
use z3doku::puzzle::kinds::cages::Cage;
use z3doku::solve::count_with;

fn lines(args: &[&str]) -> Vec<String> {
    let out = output_of(["generate", "--quiet"].iter().chain(args), 0);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["--output", "json"];
    all.extend_from_slice(args);
    lines(&all)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The puzzles of `generate ARGS -o json`, one line each.
fn json_puzzles(args: &[&str]) -> Vec<String> {
    json(args)
        .iter()
        .map(|o| o["puzzle"].as_str().unwrap().to_string())
        .collect()
}

/// The solutions of `puzzle` up to 2, by Z3.
fn z3_count(puzzle: &Puzzle) -> usize {
    let mut z3 = new_engine(&Settings {
        engine: EngineKind::Z3,
        ..Settings::default()
    });
    let count = count_with(z3.as_mut(), puzzle, 2, &Budget::unbounded(), &mut |_| {})
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    assert!(count.gave_up.is_none(), "{puzzle}");
    count.solutions
}

/// Asserts with Z3 that `made` is unique, solved by its solution, and (when
/// `minimal`) that every clue is needed.
fn z3_confirms(made: &Generated, minimal: bool) {
    let puzzle = &made.puzzle;
    assert_eq!(verify_solution(puzzle, &made.solution), Ok(()));
    assert_eq!(z3_count(puzzle), 1, "{puzzle} is not unique");
    if minimal {
        let clues = puzzle.givens().clue_list();
        for k in 0..clues.len() {
            let mut fewer = clues.clone();
            let clue = fewer.remove(k);
            assert_eq!(
                z3_count(&puzzle.with_clues(&fewer)),
                2,
                "{puzzle}: {clue} is not needed"
            );
        }
    }
}

fn generator(side: usize, symmetry: SymmetryChoice, minimal: bool, seed: u64) -> Generator {
    let spec = Spec {
        size: Size::from_side(side).unwrap(),
        symmetry,
        minimal,
        ..Spec::default()
    };
    Generator::new(spec, seed).unwrap_or_else(|e| panic!("{e}"))
}

/// Where cell `(r, c)` goes under `symmetry` on a board of `side`, worked
/// out here again rather than taken from the library.
fn image(symmetry: &str, side: usize, r: usize, c: usize) -> (usize, usize) {
    let last = side - 1;
    match symmetry {
        "none" => (r, c),
        "rotate180" => (last - r, last - c),
        "rotate90" => (c, last - r),
        "mirror" => (r, last - c),
        "flip" => (last - r, c),
        "diagonal" => (c, r),
        other => panic!("unknown symmetry {other}"),
    }
}

fn keeps_symmetry(line: &str, symmetry: &str, side: usize) -> bool {
    let cells: Vec<bool> = line.chars().map(|ch| ch != '.').collect();
    (0..side * side).all(|i| {
        let (r, c) = image(symmetry, side, i / side, i % side);
        cells[i] == cells[r * side + c]
    })
}

#[test]
fn the_same_seed_gives_the_same_puzzles_whatever_the_jobs() {
    for extra in [
        &["--symmetry", "random"][..],
        &["--symmetry", "rotate180", "--minimal"][..],
        &["--size", "6"][..],
    ] {
        let run = |jobs: &str| {
            let mut args = vec!["--count", "24", "--seed", "2024", "--jobs", jobs];
            args.extend_from_slice(extra);
            lines(&args)
        };
        let one = run("1");
        assert_eq!(one.len(), 24);
        assert_eq!(one, run("2"), "{extra:?}");
        assert_eq!(one, run("5"), "{extra:?}");
        let mut distinct = one.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 24, "{extra:?}: puzzles repeat");
    }
    // Another seed, other puzzles; the JSON's puzzles are the lines'.
    let line = lines(&["--count", "3", "--seed", "7"]);
    assert_ne!(line, lines(&["--count", "3", "--seed", "8"]));
    assert_eq!(json_puzzles(&["--count", "3", "--seed", "7"]), line);
}

#[test]
fn z3_confirms_the_puzzles_unique_and_minimal() {
    // Without symmetry every puzzle is minimal; with one, only when asked.
    let cases = [
        (9, Symmetry::None, false),
        (9, Symmetry::Rotate180, true),
        (9, Symmetry::Rotate90, true),
        (9, Symmetry::Diagonal, false),
        (6, Symmetry::Mirror, true),
        (4, Symmetry::Flip, true),
        (5, Symmetry::None, false),
    ];
    for (side, symmetry, minimal) in cases {
        let generator = generator(side, SymmetryChoice::Fixed(symmetry), minimal, 99);
        for index in 0..2 {
            let made = generator.puzzle(index).unwrap_or_else(|e| panic!("{e}"));
            let known_minimal = minimal || symmetry == Symmetry::None;
            if known_minimal {
                assert_eq!(made.minimal, Some(true));
            }
            z3_confirms(&made, known_minimal);
        }
    }
}

#[test]
fn every_symmetry_shapes_the_clue_pattern() {
    for symmetry in [
        "none",
        "rotate180",
        "rotate90",
        "mirror",
        "flip",
        "diagonal",
    ] {
        for side in ["9", "8", "7"] {
            let n: usize = side.parse().unwrap();
            for object in json(&[
                "--count",
                "4",
                "--seed",
                "3",
                "--size",
                side,
                "--symmetry",
                symmetry,
            ]) {
                let puzzle = object["puzzle"].as_str().unwrap();
                assert_eq!(object["symmetry"], symmetry);
                assert!(keeps_symmetry(puzzle, symmetry, n), "{symmetry} {puzzle}");
            }
        }
    }
    // A random symmetry is one of the five, and the pattern keeps it.
    let mut seen = Vec::new();
    for object in json(&["--count", "30", "--seed", "1", "--symmetry", "random"]) {
        let symmetry = object["symmetry"].as_str().unwrap().to_string();
        assert_ne!(symmetry, "none");
        assert!(keeps_symmetry(
            object["puzzle"].as_str().unwrap(),
            &symmetry,
            9
        ));
        seen.push(symmetry);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 5, "{seen:?}");
}

#[test]
fn every_size_gives_unique_puzzles() {
    for size in Size::all().filter(|s| s.side() <= 12) {
        let side = size.side().to_string();
        for object in json(&["--count", "3", "--seed", "11", "--size", &side]) {
            let line = object["puzzle"].as_str().unwrap();
            let puzzle = common::puzzle(line);
            assert_eq!(puzzle.size(), size);
            // An independent counter: plain backtracking, nothing from the
            // library's search.
            assert_eq!(backtracking_count(puzzle.givens(), 2), 1, "{size}: {line}");
            let solution = common::puzzle(object["solutions"][0].as_str().unwrap());
            assert_eq!(verify_solution(&puzzle, solution.givens()), Ok(()));
            assert_eq!(object["clues"], puzzle.givens().clue_count());
            assert_eq!(object["every_clue_needed"], true);
        }
    }
    // The large boards: Z3 confirms uniqueness.
    for (side, count) in [(16, "2"), (25, "1")] {
        for line in lines(&["--count", count, "--seed", "5", "--size", &side.to_string()]) {
            let puzzle = common::puzzle(&line);
            assert_eq!(puzzle.size().side(), side);
            assert_eq!(z3_count(&puzzle), 1, "{line}");
        }
    }
}

#[test]
fn clue_counts_stay_within_the_maximum() {
    for object in json(&["--count", "5", "--seed", "4", "--max-clues", "23"]) {
        assert!(object["clues"].as_u64().unwrap() <= 23, "{object}");
    }
}

#[test]
fn asks_no_puzzle_can_meet_are_refused_and_rare_ones_given_up() {
    z3doku()
        .args(["generate", "--max-clues", "16"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "z3doku: no 9x9 puzzle with at most 16 clues has one solution: it takes at least 17\n",
        );
    z3doku()
        .args(["generate", "--size", "25", "--minimal"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "minimal 25x25 puzzles are out of reach",
        ));
    // 17 clues is possible but far too rare for three grids: the puzzles
    // before the one given up on are still printed.
    z3doku()
        .args([
            "generate",
            "--quiet",
            "--max-clues",
            "20",
            "--tries",
            "3",
            "--count",
            "50",
        ])
        .args(["--seed", "1", "--jobs", "2"])
        .assert()
        .code(4)
        .stderr(predicate::str::starts_with("z3doku: gave up: puzzle "))
        .stderr(predicate::str::contains(
            "none of 3 full grids gave a puzzle that fits",
        ));
    z3doku()
        .args(["generate", "--symmetry", "sideways"])
        .assert()
        .code(2);
    z3doku().args(["generate", "--count", "0"]).assert().code(2);
}

#[test]
fn the_summary_names_the_seed_and_quiet_drops_it() {
    z3doku()
        .args(["generate", "--count", "2", "--seed", "31"])
        .assert()
        .code(0)
        .stderr(
            predicate::str::is_match(r"^made 2 9x9 puzzles in [0-9.]+ s \([0-9.]+/s\), seed 31\n$")
                .unwrap(),
        );
    z3doku()
        .args(["generate", "--count", "2", "--seed", "31", "--quiet"])
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn a_filter_plugs_in() {
    // The place a difficulty rating goes: puzzles it turns down are drawn
    // again, and the run stays the same whatever the jobs.
    let few = std::sync::Arc::new(|made: &Generated| made.puzzle.givens().clue_count() <= 24);
    let generator = generator(9, SymmetryChoice::default(), false, 8).with_filter(few);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut runs = Vec::new();
    for jobs in [1, 3] {
        let mut lines = Vec::new();
        let jobs = NonZeroUsize::new(jobs).unwrap();
        generator
            .run(6, jobs, &stop, |made| {
                assert!(made.puzzle.givens().clue_count() <= 24);
                lines.push(made.puzzle.to_string());
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        runs.push(lines);
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn killer_puzzles_are_unique_and_their_givens_needed() {
    let spec = Spec {
        killer: true,
        ..Spec::default()
    };
    let generator = Generator::new(spec, 16).unwrap_or_else(|e| panic!("{e}"));
    for index in 0..2 {
        let made = generator.puzzle(index).unwrap_or_else(|e| panic!("{e}"));
        let cages = made.puzzle.rules().constraints();
        assert!(cages.len() >= 81 / 5, "{} cages", cages.len());
        let mut caged = 0;
        for cage in cages {
            let z3doku::puzzle::rules::Constraint::Cage(Cage { cells, sum }) = cage else {
                panic!("{cage} is not a cage");
            };
            assert!((2..=5).contains(&cells.len()), "{cage}");
            let total: u32 = cells
                .iter()
                .map(|&c| u32::from(made.solution.get(Size::NINE.index(c))))
                .sum();
            assert_eq!(*sum, Some(total), "{cage}");
            caged += cells.len();
        }
        assert!(caged >= 72, "{caged} cells caged");
        // Unique by Z3, and each given needed (a killer puzzle's givens
        // come only where the cages leave more than one solution).
        z3_confirms(&made, true);
        // The f-puzzles link reads back as the same puzzle.
        let link = z3doku::puzzle::fpuzzles::write::to_link(&made.puzzle, None);
        assert_eq!(
            z3doku::puzzle::fpuzzles::parse(&link).as_ref(),
            Ok(&made.puzzle)
        );
    }
}

#[test]
fn killer_puzzles_are_the_same_whatever_the_jobs() {
    let args = ["--killer", "--size", "6", "--seed", "5"];
    let run = |jobs: &str| {
        let mut all = vec!["--count", "8", "--jobs", jobs];
        all.extend_from_slice(&args);
        lines(&all)
    };
    let one = run("1");
    assert_eq!(one.len(), 8);
    assert!(
        one.iter()
            .all(|l| l.starts_with("https://f-puzzles.com/?load="))
    );
    assert_eq!(one, run("3"));
    let mut two = vec!["--count", "2"];
    two.extend_from_slice(&args);
    let objects = json(&two);
    let links: Vec<&str> = objects
        .iter()
        .map(|o| o["fpuzzles"].as_str().unwrap())
        .collect();
    assert_eq!(links, one[..2]);
    // Symmetry and large boards are refused at once.
    z3doku()
        .args(["generate", "--killer", "--symmetry", "rotate180"])
        .assert()
        .code(2);
    z3doku()
        .args(["generate", "--killer", "--size", "16"])
        .assert()
        .code(2);
}

/// `rate`'s ratings of a generated puzzle line, by the logic module.
fn rated(line: &str) -> z3doku::logic::Rating {
    let puzzle = common::puzzle(line);
    let (rating, _) = z3doku::logic::Tutor::new(EngineKind::Native, None)
        .rate(&puzzle)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    rating
}

#[test]
fn a_difficulty_gives_puzzles_of_that_qqwing_level() {
    for level in ["simple", "easy", "intermediate", "expert"] {
        let made = json(&["--count", "3", "--seed", "5", "--difficulty", level]);
        assert_eq!(made.len(), 3);
        for object in made {
            let rating = rated(object["puzzle"].as_str().unwrap());
            assert_eq!(rating.qqwing.name(), level, "{object}");
            // The report's ratings are `rate`'s, field for field.
            let report = &object["rating"];
            assert_eq!(report["qqwing"], level, "{object}");
            assert_eq!(report["er"].as_f64(), Some(rating.er.value()), "{object}");
            assert_eq!(report["ep"].as_f64(), Some(rating.ep.value()), "{object}");
            assert_eq!(report["ed"].as_f64(), Some(rating.ed.value()), "{object}");
            assert_eq!(report["searched"], rating.searched, "{object}");
        }
    }
    // Lines carry no ratings, and are the same puzzles.
    let args = ["--count", "3", "--seed", "5", "--difficulty", "expert"];
    assert_eq!(lines(&args), json_puzzles(&args));
}

#[test]
fn a_rating_range_keeps_er_within_it() {
    for (range, low, high) in [
        ("7.0..9.0", 7.0, 9.0),
        ("..2.0", 0.0, 2.0),
        ("8.5", 8.5, 8.5),
    ] {
        for object in json(&["--count", "3", "--seed", "9", "--rating", range]) {
            let rating = rated(object["puzzle"].as_str().unwrap());
            assert!(!rating.searched, "{range}: {object}");
            let er = rating.er.value();
            assert!((low..=high).contains(&er), "{range}: ER {er}: {object}");
            assert_eq!(object["rating"]["er"].as_f64(), Some(er));
        }
    }
    // Both filters at once.
    for line in lines(&[
        "--count",
        "2",
        "--seed",
        "3",
        "--difficulty",
        "intermediate",
        "--rating",
        "3.0..",
    ]) {
        let rating = rated(&line);
        assert_eq!(rating.qqwing.name(), "intermediate", "{line}");
        assert!(rating.er.value() >= 3.0, "{line}");
    }
}

#[test]
fn rated_runs_are_the_same_whatever_the_jobs() {
    let args = |jobs| {
        lines(&[
            "--count",
            "12",
            "--seed",
            "21",
            "--difficulty",
            "expert",
            "--rating",
            "7..",
            "--jobs",
            jobs,
        ])
    };
    let one = args("1");
    assert_eq!(one.len(), 12);
    assert_eq!(one, args("2"));
}

/// A file holding `text`, removed when the test ends.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("z3doku-gen-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn puzzles_under_rules_are_unique_under_them_and_keep_their_givens() {
    // 6x6 with both diagonals and a given to keep; 9x9 anti-king.
    let six = TempFile::new(
        "six.txt",
        "..3...\n......\n......\n......\n......\n......\ndiagonal+\ndiagonal-\n",
    );
    let king = TempFile::new("king.txt", &format!("{}\nantiking\n", ".".repeat(81)));
    for (file, count) in [(&six, "4"), (&king, "2")] {
        let rules = z3doku::puzzle::input::Source::from_arg(file.path())
            .read_puzzle(None)
            .unwrap();
        let made = json(&["--count", count, "--seed", "2", "--rules", file.path()]);
        assert_eq!(made.len(), count.parse::<usize>().unwrap());
        for object in made {
            let link = object["fpuzzles"].as_str().unwrap();
            let puzzle = z3doku::puzzle::input::Source::from_arg(link)
                .read_puzzle(None)
                .unwrap();
            assert_eq!(puzzle.rules(), rules.rules(), "{link}");
            assert_eq!(
                puzzle.givens().to_line(),
                object["puzzle"].as_str().unwrap()
            );
            for (cell, digit) in rules.givens().clues() {
                assert_eq!(puzzle.givens().get(cell), digit, "{link}");
            }
            let solution = common::puzzle(object["solutions"][0].as_str().unwrap());
            assert_eq!(
                verify_solution(&puzzle, solution.givens()),
                Ok(()),
                "{link}"
            );
            assert_eq!(z3_count(&puzzle), 1, "{link} is not unique under its rules");
        }
        // Lines are the links, the same whatever the jobs.
        let one = lines(&[
            "--count",
            count,
            "--seed",
            "2",
            "--rules",
            file.path(),
            "--jobs",
            "1",
        ]);
        assert!(
            one.iter()
                .all(|l| l.starts_with("https://f-puzzles.com/?load="))
        );
        let two = lines(&[
            "--count",
            count,
            "--seed",
            "2",
            "--rules",
            file.path(),
            "--jobs",
            "2",
        ]);
        assert_eq!(one, two);
    }
}

#[test]
fn bad_ranges_and_rules_are_refused_with_one_line() {
    let refused = |args: &[&str], code: i32, message: &str| {
        z3doku()
            .arg("generate")
            .args(args)
            .assert()
            .code(code)
            .stdout("")
            .stderr(format!("z3doku: {message}\n"));
    };
    refused(
        &["--rating", "9..7"],
        2,
        "--rating: `9..7` is empty: its low end is above its high end",
    );
    refused(
        &["--rating", "hard"],
        2,
        "--rating: `hard` is not a rating: ratings are numbers in tenths from 0.0, like 7.2",
    );
    refused(
        &["--rating", "..0.9"],
        2,
        "no puzzle rates below 1.0: the easiest step, a full house, rates that",
    );
    refused(
        &["--killer", "--difficulty", "easy"],
        2,
        "killer puzzles are not rated: the ratings' techniques see the houses, not the cages",
    );
    let unsat = TempFile::new("unsat.txt", &format!("1{}1\ndiagonal-\n", ".".repeat(79)));
    refused(
        &["--rules", unsat.path()],
        1,
        &format!(
            "--rules {}: no solution: r1c1 and r9c9 both hold 1",
            unsat.path()
        ),
    );
    let fog = TempFile::new("fog.json", r#"{"size":4,"grid":[],"fogofwar":[]}"#);
    z3doku()
        .args(["generate", "--rules", fog.path()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unsupported rule `fogofwar`"));
    let example = common::example("antiknight.txt");
    let example = example.to_str().unwrap();
    refused(
        &["--rules", example, "--difficulty", "easy"],
        2,
        "puzzles under given rules are not rated: the ratings' techniques see only the houses",
    );
    let six = TempFile::new(
        "given.txt",
        "..3...\n.....2\n......\n......\n......\n......\ndiagonal+\n",
    );
    refused(
        &["--rules", six.path(), "--max-clues", "1"],
        2,
        "the rules come with 2 givens, more than the 1 clues asked for",
    );
    z3doku()
        .args(["generate", "--rules", example, "--size", "9"])
        .assert()
        .code(2);
}
