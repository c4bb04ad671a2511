//! The setter's questions, `candidates` and `minimize`: both engines must
//! give the same answers, the answers must hold up against independent
//! counts, and the command line must print every form and refuse what it
//! cannot answer.

use crate::common;

use common::{
    NOTEBOOK, NOTEBOOK_SOLUTION, Rng, backtracking_count, classic, example, output_of, puzzle,
    shared_puzzles, z3doku,
};
use predicates::prelude::*;
use z3doku::engine::{Budget, EncodingKind, Engine, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Clue, Grid, Size};
use z3doku::solve::candidates::candidates_with;
use z3doku::solve::minimize::minimize_with;
use z3doku::solve::{Candidates, Status, count_with};

fn engine(kind: EngineKind, encoding: EncodingKind) -> Box<dyn Engine> {
    new_engine(&Settings {
        engine: kind,
        encoding,
        ..Settings::default()
    })
}

fn native() -> Box<dyn Engine> {
    engine(EngineKind::Native, EncodingKind::default())
}

fn candidates(engine: &mut dyn Engine, puzzle: &Puzzle, cap: usize) -> Candidates {
    candidates_with(engine, puzzle, cap, &Budget::unbounded())
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"))
}

/// Every count of `c`, cell by cell and digit by digit.
fn all_counts(c: &Candidates) -> Vec<usize> {
    let size = c.outcome.puzzle.size();
    (0..size.cells())
        .flat_map(|i| (1..=size.side() as u8).map(move |d| (i, d)))
        .map(|(i, d)| c.count(i, d))
        .collect()
}

/// `puzzle` with `k` of its clues blanked, chosen by `rng`.
fn without_clues(puzzle: &Puzzle, k: usize, rng: &mut Rng) -> Puzzle {
    let mut clues = puzzle.givens().clue_list();
    for _ in 0..k.min(clues.len()) {
        clues.remove(rng.below(clues.len()));
    }
    puzzle.with_clues(&clues)
}

/// The solutions of `puzzle`, up to `limit`, by the independent counter.
fn solutions(puzzle: &Puzzle, limit: usize) -> usize {
    backtracking_count(puzzle.givens(), limit)
}

/// Checks each count of `c` against the independent counter: the count
/// of a candidate is the number of solutions with it placed, up to the cap.
fn check_against_backtracking(c: &Candidates) {
    let puzzle = &c.outcome.puzzle;
    let size = puzzle.size();
    for i in (0..size.cells()).filter(|&i| puzzle.givens().get(i) == 0) {
        for d in 1..=size.side() as u8 {
            let mut placed = puzzle.givens().clone();
            placed.set(i, d);
            let expected = backtracking_count(&placed, c.cap);
            assert_eq!(
                c.count(i, d),
                expected,
                "{puzzle}: {} = {d}",
                size.cell_at(i)
            );
        }
    }
}

#[test]
fn both_engines_find_the_same_candidates_on_top1465() {
    let Some(lines) = shared_puzzles("puzzles3_magictour_top1465.txt", 97) else {
        return;
    };
    let mut z3 = engine(EngineKind::Z3, EncodingKind::Bool);
    let mut native = native();
    let mut rng = Rng(0x5e77e5);
    for line in &lines {
        let unique = puzzle(line);
        // The puzzle as it is, and with clues taken away: several
        // solutions, so that candidates need searches of their own.
        for (puzzle, cap) in [
            (unique.clone(), 2),
            (without_clues(&unique, 3, &mut rng), 2),
            (without_clues(&unique, 5, &mut rng), 3),
        ] {
            let a = candidates(z3.as_mut(), &puzzle, cap);
            let b = candidates(native.as_mut(), &puzzle, cap);
            assert_eq!(a.outcome.status, b.outcome.status, "{puzzle}");
            assert_eq!(all_counts(&a), all_counts(&b), "{puzzle}");
            assert_eq!(a.deciding(), b.deciding(), "{puzzle}");
        }
        // A unique puzzle's candidates are its solution, each in the one
        // solution, found in two checks (a solution, then none).
        let c = candidates(z3.as_mut(), &unique, 2);
        assert_eq!(c.outcome.status, Status::Unique);
        assert_eq!(c.checks, 2);
        let solution = &c.outcome.solutions[0].grid;
        for i in 0..81 {
            let expected: Vec<(u8, usize)> = match unique.givens().get(i) {
                0 => vec![(solution.get(i), 1)],
                _ => vec![],
            };
            assert_eq!(c.of_cell(i), expected);
        }
        assert!(
            c.deciding().is_empty(),
            "a unique puzzle is decided already"
        );
    }
}

#[test]
fn counts_match_an_independent_counter_under_a_cap() {
    let mut rng = Rng(0xca9);
    let mut native = native();
    let mut z3 = engine(EngineKind::Z3, EncodingKind::Bool);
    let notebook = puzzle(NOTEBOOK);
    for k in [4, 6, 8] {
        let puzzle = without_clues(&notebook, k, &mut rng);
        for cap in [2, 3, 5] {
            let c = candidates(native.as_mut(), &puzzle, cap);
            check_against_backtracking(&c);
            assert_eq!(
                all_counts(&c),
                all_counts(&candidates(z3.as_mut(), &puzzle, cap))
            );
        }
    }
}

#[test]
fn with_no_cap_to_speak_of_a_cells_counts_add_up_to_the_count() {
    let mut rng = Rng(0x5);
    let multiple =
        puzzle("....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....");
    let small: Vec<Puzzle> = vec![
        multiple.clone(),
        without_clues(&multiple, 3, &mut rng),
        classic(&Grid::empty(Size::from_side(4).unwrap())),
        puzzle(".3....1.32.1...."),
        without_clues(&puzzle(".3....1.32.1...."), 2, &mut rng),
        without_clues(&puzzle(six_by_six()), 4, &mut rng),
    ];
    for puzzle in &small {
        for mut engine in [native(), engine(EngineKind::Z3, EncodingKind::Bool)] {
            let c = candidates(engine.as_mut(), puzzle, 100_000);
            let total = count_with(
                engine.as_mut(),
                puzzle,
                100_000,
                &Budget::unbounded(),
                &mut |_| {},
            )
            .unwrap()
            .solutions;
            assert!(total > 0 && total < 100_000, "{puzzle}: {total}");
            assert_eq!(c.solutions_seen, total, "{puzzle}");
            let size = puzzle.size();
            for i in (0..size.cells()).filter(|&i| puzzle.givens().get(i) == 0) {
                let sum: usize = c.of_cell(i).iter().map(|&(_, n)| n).sum();
                assert_eq!(sum, total, "{puzzle}: {}", size.cell_at(i));
            }
        }
    }
}

/// The shipped 6x6 example as one line.
fn six_by_six() -> &'static str {
    "..3.2.....14..4...1..5.....16.6....."
}

#[test]
fn every_board_size_has_candidates_and_minimizes() {
    let mut rng = Rng(0x25);
    let mut native = native();
    for size in Size::all() {
        // A full board, then a few cells blanked: a handful of solutions.
        let empty = classic(&Grid::empty(size));
        let mut full = None;
        count_with(native.as_mut(), &empty, 1, &Budget::unbounded(), &mut |g| {
            full = Some(g.clone())
        })
        .unwrap();
        let full = full.unwrap();
        let mut givens = full.clone();
        for _ in 0..size.side().min(6) {
            givens.set(rng.below(size.cells()), 0);
        }
        let puzzle = classic(&givens);
        let c = candidates(native.as_mut(), &puzzle, 2);
        assert!(c.is_known(), "{size}");
        assert_eq!(c.pencilmarks().len(), size.cells() * size.side(), "{size}");
        for i in 0..size.cells() {
            assert!(c.count(i, full.get(i)) > 0 || givens.get(i) != 0, "{size}");
        }
        // Minimizing a large board asks for uniqueness proofs of sparse
        // puzzles, which take the native search minutes from 16x16 on.
        if c.outcome.status == Status::Unique && size.side() <= 12 {
            let m = minimize_with(native.as_mut(), &puzzle, &[], &Budget::unbounded()).unwrap();
            let minimal = m.minimal.unwrap();
            assert_eq!(solutions(&minimal, 2), 1, "{size}");
        }
    }
}

/// Whether every clue of `puzzle` is needed, by the native engine:
/// dropping any one of them gives a second solution.
fn every_clue_needed(puzzle: &Puzzle, except: &[Clue]) -> bool {
    let mut native = native();
    let clues = puzzle.givens().clue_list();
    clues
        .iter()
        .enumerate()
        .filter(|(_, c)| !except.contains(c))
        .all(|(k, _)| {
            let mut others = clues.clone();
            others.remove(k);
            let count = count_with(
                native.as_mut(),
                &puzzle.with_clues(&others),
                2,
                &Budget::unbounded(),
                &mut |_| {},
            )
            .unwrap();
            count.solutions == 2
        })
}

/// The only solution of `puzzle` by the native engine, or `None`.
fn unique_solution(puzzle: &Puzzle) -> Option<Grid> {
    let mut found = Vec::new();
    count_with(
        native().as_mut(),
        puzzle,
        2,
        &Budget::unbounded(),
        &mut |g| found.push(g.clone()),
    )
    .unwrap();
    (found.len() == 1).then(|| found.remove(0))
}

#[test]
fn a_minimal_puzzle_needs_every_clue_and_keeps_the_solution() {
    let Some(lines) = shared_puzzles("puzzles3_magictour_top1465.txt", 61) else {
        return;
    };
    let mut z3 = engine(EngineKind::Z3, EncodingKind::Bool);
    let mut native = native();
    // Top1465's puzzles are near minimal already; with some of their
    // solution's digits added, there is more to take away.
    let mut rng = Rng(0x111);
    for line in &lines {
        let original = puzzle(line);
        let solution = unique_solution(&original).unwrap();
        let mut padded = original.givens().clone();
        for _ in 0..8 {
            let i = rng.below(81);
            padded.set(i, solution.get(i));
        }
        let padded = classic(&padded);
        for puzzle in [&original, &padded] {
            let m = minimize_with(native.as_mut(), puzzle, &[], &Budget::unbounded()).unwrap();
            assert_eq!(m.outcome.status, Status::Unique);
            let minimal = m.minimal.clone().unwrap();
            assert!(every_clue_needed(&minimal, &[]), "{minimal}");
            assert_eq!(unique_solution(&minimal).as_ref(), Some(&solution));
            // Needed clues are exactly those whose removal alone allows a
            // second solution, and they all stay.
            assert_eq!(
                m.needed.len() + m.redundant.len(),
                puzzle.givens().clue_count()
            );
            for clue in &m.needed {
                assert_eq!(
                    minimal.givens().get(Size::NINE.index(clue.cell)),
                    clue.digit
                );
            }
            let z = minimize_with(z3.as_mut(), puzzle, &[], &Budget::unbounded()).unwrap();
            assert_eq!(z.needed, m.needed, "{puzzle}");
            assert_eq!(z.redundant, m.redundant, "{puzzle}");
            assert_eq!(z.minimal, m.minimal, "{puzzle}");
        }
    }
}

#[test]
fn kept_clues_stay_and_the_rest_are_needed() {
    let notebook = puzzle(NOTEBOOK);
    let size = notebook.size();
    let mut native = native();
    let plain = minimize_with(native.as_mut(), &notebook, &[], &Budget::unbounded()).unwrap();
    assert!(!plain.redundant.is_empty());
    let keep: Vec<_> = plain.redundant.iter().map(|c| c.cell).collect();
    let kept = minimize_with(native.as_mut(), &notebook, &keep, &Budget::unbounded()).unwrap();
    let minimal = kept.minimal.unwrap();
    // Every redundant clue is kept, so nothing is dropped at all.
    assert_eq!(minimal.givens(), notebook.givens());
    let one = [plain.redundant[0]];
    let m = minimize_with(
        native.as_mut(),
        &notebook,
        &[one[0].cell],
        &Budget::unbounded(),
    )
    .unwrap()
    .minimal
    .unwrap();
    assert_eq!(m.givens().get(size.index(one[0].cell)), one[0].digit);
    assert!(every_clue_needed(&m, &one));
    assert_eq!(
        unique_solution(&m).map(|g| g.to_line()).as_deref(),
        Some(NOTEBOOK_SOLUTION)
    );
}

fn stdout(args: &[&str], code: i32) -> String {
    String::from_utf8(output_of(args, code)).unwrap()
}

const MULTIPLE: &str =
    "....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

#[test]
fn candidates_prints_every_form() {
    // Z3's `int` encoding makes a solver per search: `bool` keeps one.
    for engine in [&["--encoding", "bool"][..], &["--engine", "native"]] {
        let with = |args: &[&'static str]| [args, engine].concat();
        let pretty = stdout(&with(&["candidates", MULTIPLE]), 0);
        assert!(pretty.contains("4*"), "deciding marked: {pretty}");
        assert!(
            pretty.contains("not unique: at least ") && pretty.contains("; 6 candidates decide"),
            "{pretty}"
        );
        assert!(
            pretty.contains("deciding (*): r1c6=4 r6c4=3 r7c3=3 r7c3=8 r7c5=3 r8c4=8"),
            "{pretty}"
        );
        assert!(
            pretty.contains('┼') && !pretty.contains('\u{1b}'),
            "{pretty}"
        );

        let marks = stdout(&with(&["candidates", MULTIPLE, "-o", "pencilmarks"]), 0);
        let lines: Vec<&str> = marks.lines().collect();
        assert_eq!(lines.len(), 2, "{marks}");
        assert_eq!(lines[0].len(), 729);
        // r1c1 may hold 4, 5 or 6 or 7; r1c5 is the given 9.
        assert_eq!(&lines[0][..9], "...4567..");
        assert_eq!(&lines[0][36..45], "........9");
        assert_eq!(
            lines[1],
            "# deciding: r1c6=4 r6c4=3 r7c3=3 r7c3=8 r7c5=3 r8c4=8"
        );

        let json = stdout(
            &with(&["candidates", MULTIPLE, "-o", "json", "--cap", "5"]),
            0,
        );
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["status"], "multiple");
        assert_eq!(json["cap"], 5);
        assert!(json["checks"].as_u64().unwrap() > 2);
        assert_eq!(json["candidates"][0]["cell"], "r1c1");
        assert_eq!(json["candidates"].as_array().unwrap().len(), 81 - 25);
        // Counts under the cap are exact, and 7 is in at least 5 solutions.
        assert_eq!(
            json["candidates"][0]["counts"],
            serde_json::json!({"4": 4, "5": 2, "6": 3, "7": 5})
        );
        assert_eq!(json["deciding"][0], "r1c6=4");
    }
    // A unique puzzle: nothing decides it, it is decided already.
    let marks = stdout(&["candidates", NOTEBOOK, "-o", "pencilmarks"], 0);
    assert_eq!(marks.lines().count(), 1);
    let colored = stdout(&["candidates", MULTIPLE, "--color", "always"], 0);
    assert!(colored.contains("\u{1b}[1m\u{1b}[33m4*"), "{colored}");
}

#[test]
fn candidates_on_small_boards() {
    let pretty = stdout(&["candidates", example("4x4.txt").to_str().unwrap()], 0);
    assert!(
        pretty.starts_with("┌──────────┬──────────┐\n│ 1 .      │ . 2  . . │\n"),
        "{pretty}"
    );
    let marks = stdout(
        &[
            "candidates",
            example("6x6.txt").to_str().unwrap(),
            "-o",
            "pencilmarks",
        ],
        0,
    );
    assert_eq!(marks.trim_end().len(), 216);
    let json = stdout(&["candidates", "....", "-o", "json"], 0);
    assert!(
        json.contains(r#""candidates":[{"cell":"r1c1","counts":{"1":1,"2":1}}"#),
        "{json}"
    );
}

#[test]
fn minimize_prints_in_the_inputs_form() {
    let line = stdout(&["minimize", NOTEBOOK, "--engine", "native"], 0);
    assert_eq!(
        line,
        "....94.3....51...7.8.....4.........8.6.2.1.5.1.2.......7....52.9...65....4.97....\n"
    );
    z3doku()
        .args(["minimize", NOTEBOOK])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "26 clues: 22 needed, 4 redundant; a minimal puzzle keeps 24",
        ))
        .stderr(predicate::str::contains(
            "redundant: r3c3=9 r4c7=2 r6c3=2 r7c2=7",
        ));
    let grid = stdout(&["minimize", example("notebook.txt").to_str().unwrap()], 0);
    assert_eq!(grid.lines().count(), 9, "{grid}");
    assert!(
        grid.starts_with("....94.3.\n...51...7\n.8.....4.\n"),
        "{grid}"
    );
    let forced = stdout(
        &[
            "minimize",
            example("notebook.txt").to_str().unwrap(),
            "-o",
            "line",
        ],
        0,
    );
    assert_eq!(forced, line);
    let json: serde_json::Value = serde_json::from_str(&stdout(
        &["minimize", NOTEBOOK, "-o", "json", "--keep", "r3c3"],
        0,
    ))
    .unwrap();
    assert_eq!(json["status"], "unique");
    assert_eq!(json["needed"].as_array().unwrap().len(), 22);
    assert_eq!(
        json["redundant"],
        serde_json::json!(["r3c3=9", "r4c7=2", "r6c3=2", "r7c2=7"])
    );
    let minimal = json["minimal"].as_str().unwrap();
    assert_eq!(&minimal[20..21], "9", "the kept r3c3 stays");
    assert_eq!(json["solutions"][0], NOTEBOOK_SOLUTION);
    assert!(json["checks"].as_u64().unwrap() >= 28);
}

#[test]
fn what_cannot_be_answered_is_refused_with_its_reason() {
    let contradiction = example("contradiction.txt");
    let contradiction = contradiction.to_str().unwrap();
    for command in ["candidates", "minimize"] {
        z3doku()
            .args([command, contradiction])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("no solution: these"));
        // Giving up says so, and exits 4.
        z3doku()
            .args([
                command,
                &".".repeat(625),
                "--timeout",
                "50",
                "--engine",
                "z3",
            ])
            .assert()
            .code(4)
            .stderr(predicate::str::contains("gave up: timeout"));
    }
    let json = stdout(&["candidates", contradiction, "-o", "json"], 1);
    assert!(
        json.contains(r#""status":"none""#) && json.contains("conflicting_clues"),
        "{json}"
    );
    z3doku()
        .args(["minimize", MULTIPLE])
        .assert()
        .code(3)
        .stdout("")
        .stderr(predicate::str::contains("not unique: at least 2 solutions"));
    z3doku()
        .args(["minimize", NOTEBOOK, "--keep", "r1c5,r10c1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(r#"--keep: "r10c1" is not a cell"#));
    z3doku()
        .args(["minimize", NOTEBOOK, "--keep", "r1c1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--keep: r1c1 holds no clue"));
    z3doku()
        .args(["candidates", NOTEBOOK, "--cap", "1"])
        .assert()
        .code(2);
    z3doku()
        .args([
            "candidates",
            NOTEBOOK,
            "--verify",
            "--engine",
            "native",
            "--stats",
        ])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("verified: the z3 engine agrees"))
        .stderr(predicate::str::contains("checks"));
}

/// `count --jobs N`'s split count, run with `jobs` threads: the count and
/// the solutions it keeps, in its order.
fn split_count(puzzle: &Puzzle, limit: usize, jobs: usize) -> (usize, bool, Vec<Grid>) {
    let request = z3doku::solve::Request {
        settings: Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        },
        ..Default::default()
    };
    let (count, grids) = z3doku::solve::Pipeline::new(request)
        .count_split(puzzle, limit, jobs, true, &|| {})
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    assert!(count.gave_up.is_none(), "{}", count.summary());
    assert_eq!(count.solutions, grids.len());
    (count.solutions, count.limit_reached, grids)
}

#[test]
fn a_split_count_is_the_same_whatever_the_threads() {
    let empty6 = |extra: &str| {
        let row = ["{}"; 6].join(",");
        let rows = vec![format!("[{row}]"); 6].join(",");
        z3doku::puzzle::fpuzzles::parse(&format!(r#"{{"size":6,"grid":[{rows}]{extra}}}"#)).unwrap()
    };
    let four = puzzle("................");
    let cases = [
        (four.clone(), usize::MAX),
        (four, 100),
        (
            empty6(
                r#","killercage":[{"cells":["R1C1","R1C2","R2C1"],"value":"6"}],"thermometer":[{"lines":[["R3C3","R3C4","R4C4","R5C4"]]}],"antiking":true"#,
            ),
            usize::MAX,
        ),
        (empty6(r#","diagonal+":true"#), 3000),
    ];
    for (puzzle, limit) in cases {
        let mut plain = std::collections::HashSet::new();
        let whole = count_with(
            native().as_mut(),
            &puzzle,
            limit,
            &Budget::unbounded(),
            &mut |g| {
                plain.insert(g.clone());
            },
        )
        .unwrap();
        let (n, reached, grids) = split_count(&puzzle, limit, 1);
        assert_eq!(
            (n, reached),
            (whole.solutions, whole.limit_reached),
            "{puzzle}"
        );
        let distinct: std::collections::HashSet<&Grid> = grids.iter().collect();
        assert_eq!(distinct.len(), n, "{puzzle}: a solution counted twice");
        if !reached {
            // Every solution, as the plain count found them.
            assert!(grids.iter().all(|g| plain.contains(g)), "{puzzle}");
        }
        for jobs in [2, 3, 7] {
            assert_eq!(
                split_count(&puzzle, limit, jobs),
                (n, reached, grids.clone()),
                "{puzzle} with {jobs} threads"
            );
        }
    }
    // The independent counter agrees on the empty 4x4.
    assert_eq!(
        split_count(&puzzle("................"), usize::MAX, 2).0,
        solutions(&puzzle("................"), 1000)
    );
}

#[test]
fn count_jobs_prints_the_same_as_one_thread() {
    let args = |jobs: &str| {
        stdout(
            &[
                "count",
                "--engine",
                "native",
                "--print",
                "--limit",
                "500",
                "--jobs",
                jobs,
                "......".repeat(6).as_str(),
            ],
            0,
        )
    };
    let one = args("1");
    assert!(one.starts_with("500 solutions (limit reached)\n"), "{one}");
    assert_eq!(one.lines().count(), 501);
    assert_eq!(args("2"), one);
}

/// The pipeline `candidates` runs, explaining a puzzle with no solution.
fn pipeline(kind: EngineKind, encoding: EncodingKind) -> z3doku::solve::Pipeline {
    z3doku::solve::Pipeline::new(z3doku::solve::Request {
        settings: Settings {
            engine: kind,
            encoding,
            ..Settings::default()
        },
        explain: true,
        ..Default::default()
    })
}

/// `candidates --jobs N`'s split search, run with `jobs` threads.
fn split_candidates(
    puzzle: &Puzzle,
    cap: usize,
    jobs: usize,
    kind: EngineKind,
    encoding: EncodingKind,
) -> Candidates {
    pipeline(kind, encoding)
        .candidates_split(puzzle, cap, jobs)
        .unwrap_or_else(|e| panic!("{puzzle}: {e}"))
}

#[test]
fn split_candidates_are_those_of_one_thread() {
    let empty6 = |extra: &str| {
        let row = ["{}"; 6].join(",");
        let rows = vec![format!("[{row}]"); 6].join(",");
        z3doku::puzzle::fpuzzles::parse(&format!(r#"{{"size":6,"grid":[{rows}]{extra}}}"#)).unwrap()
    };
    let mut rng = Rng(0x10b5);
    let notebook = puzzle(NOTEBOOK);
    let mut cases = vec![
        // Unique: the first search settles everything.
        (notebook.clone(), 2),
        // Several solutions, classic, under small caps.
        (without_clues(&notebook, 6, &mut rng), 2),
        (without_clues(&notebook, 9, &mut rng), 5),
        // Every solution counted (288), and a cap past the split first
        // search's (the first search then runs on one engine).
        (puzzle("................"), 50),
        (puzzle("................"), 1000),
        // Variant rules, several solutions.
        (
            empty6(
                r#","killercage":[{"cells":["R1C1","R1C2","R2C1"],"value":"6"}],"thermometer":[{"lines":[["R3C3","R3C4","R4C4","R5C4"]]}],"antiking":true"#,
            ),
            3,
        ),
        // No solution: box 1 has no room for a 5.
        (puzzle(&common::contradiction()), 2),
    ];
    cases.push((without_clues(&puzzle(six_by_six()), 5, &mut rng), 4));
    for (puzzle, cap) in &cases {
        let one = pipeline(EngineKind::Native, EncodingKind::default())
            .candidates(puzzle, *cap)
            .unwrap_or_else(|e| panic!("{puzzle}: {e}"));
        for jobs in [1, 2, 3] {
            let split = split_candidates(
                puzzle,
                *cap,
                jobs,
                EngineKind::Native,
                EncodingKind::default(),
            );
            let what = format!("{puzzle}, cap {cap}, {jobs} threads");
            assert_eq!(split.outcome.status, one.outcome.status, "{what}");
            assert_eq!(all_counts(&split), all_counts(&one), "{what}");
            assert_eq!(split.pencilmarks(), one.pencilmarks(), "{what}");
            assert_eq!(split.deciding(), one.deciding(), "{what}");
            assert_eq!(
                split.solutions_seen.min(*cap),
                one.solutions_seen.min(*cap),
                "{what}"
            );
            if one.outcome.status == Status::None {
                // The clues to blame, as one thread names them.
                assert_eq!(split.outcome.conflicting, one.outcome.conflicting);
                assert!(!split.outcome.conflicting.is_empty());
            }
        }
    }
    // Against the independent counter, and with Z3 on its threads.
    // (The independent counter takes tens of seconds on the second.)
    for (k, (puzzle, cap)) in cases[1..3].iter().enumerate() {
        let split = split_candidates(puzzle, *cap, 2, EngineKind::Native, EncodingKind::default());
        if k == 0 {
            check_against_backtracking(&split);
        }
        let z3 = split_candidates(puzzle, *cap, 2, EngineKind::Z3, EncodingKind::Bool);
        assert_eq!(all_counts(&z3), all_counts(&split), "{puzzle}");
    }
}

#[test]
fn candidates_jobs_prints_the_same_as_one_thread() {
    let args = |jobs: Option<&str>| {
        let mut args = vec!["candidates", "--engine", "native", "--cap", "4", MULTIPLE];
        args.extend(["-o", "pencilmarks"]);
        if let Some(jobs) = jobs {
            args.extend(["--jobs", jobs]);
        }
        stdout(&args, 0)
    };
    let one = args(None);
    assert!(one.contains("# deciding: "), "{one}");
    assert_eq!(args(Some("1")), one);
    assert_eq!(args(Some("2")), one);
}
