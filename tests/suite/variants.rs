//! Variant Sudoku end to end: the shared WPF puzzles on both engines and
//! every encoding, a puzzle per rule that needs the rule, known counts,
//! verdicts without a solution or with several, the checker, and the
//! f-puzzles input forms.

use crate::common;

use common::{NOTEBOOK_SOLUTION, output_of, puzzle};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use z3doku::engine::contract::{EncodingKind, EngineKind, Settings};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::{CheckError, verify_solution};
use z3doku::puzzle::grid::{Cell, Grid, Size};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::kinds::{
    board::{AntiKing, AntiKnight, NonConsecutive},
    cages::Cage,
    cells::Allowed,
    lines::Thermo,
};
use z3doku::puzzle::rules::{Constraint, Diagonal, Rules, RulesBuilder};
use z3doku::solve::{Pipeline, Request, Status};

fn name(settings: &Settings) -> String {
    match settings.engine {
        EngineKind::Native => "native".into(),
        EngineKind::Race => "race".into(),
        EngineKind::Z3 => format!("z3/{}", settings.encoding.name()),
    }
}

fn pipeline(settings: &Settings, unique: bool) -> Pipeline {
    Pipeline::new(Request {
        settings: settings.clone(),
        unique,
        timeout: Some(Duration::from_secs(60)),
        ..Request::default()
    })
}

/// The number of solutions of `puzzle`, up to `limit`.
fn count(settings: &Settings, puzzle: &Puzzle, limit: usize) -> usize {
    let count = pipeline(settings, false)
        .count(puzzle, limit, &mut |_| {})
        .unwrap();
    assert_eq!(count.gave_up, None, "{}", name(settings));
    count.solutions
}

fn native() -> Settings {
    Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    }
}

/// The shared puzzles and their solutions, or `None` when the shared data
/// is missing.
fn shared_puzzles() -> Option<Vec<(PathBuf, Grid)>> {
    let list = common::shared_data("variants/solutions.txt")?;
    let dir = list.parent()?.to_path_buf();
    let text = std::fs::read_to_string(&list).unwrap();
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (file, solution) = line.split_once(' ').unwrap();
                (dir.join(file), puzzle(solution.trim()).givens().clone())
            })
            .collect(),
    )
}

/// Solves every shared puzzle with `settings`, asking for uniqueness, and
/// prints the median and largest time per puzzle.
fn shared_puzzles_are_unique(settings: Settings) {
    let Some(puzzles) = shared_puzzles() else {
        return;
    };
    assert_eq!(puzzles.len(), 35);
    let mut pipeline = pipeline(&settings, true);
    let mut times = Vec::new();
    for (path, solution) in &puzzles {
        let puzzle = Source::File(path.clone()).read_puzzle(None).unwrap();
        let start = Instant::now();
        let outcome = pipeline.solve(&puzzle).unwrap();
        times.push((
            start.elapsed(),
            path.file_name().unwrap().to_string_lossy().to_string(),
        ));
        assert_eq!(
            outcome.status,
            Status::Unique,
            "{}: {path:?}",
            name(&settings)
        );
        assert_eq!(&outcome.solutions[0].grid, solution, "{path:?}");
    }
    times.sort();
    let (median, (max, slowest)) = (times[times.len() / 2].0, times[times.len() - 1].clone());
    println!(
        "{}: 35 shared variant puzzles unique; median {median:.2?}, max {max:.2?} ({slowest})",
        name(&settings)
    );
}

#[test]
fn shared_puzzles_native() {
    shared_puzzles_are_unique(common::every_engine()[0].clone());
}

#[test]
fn shared_puzzles_z3_int() {
    shared_puzzles_are_unique(common::every_engine()[1].clone());
}

#[test]
fn shared_puzzles_z3_bool() {
    shared_puzzles_are_unique(common::every_engine()[2].clone());
}

#[test]
fn shared_puzzles_z3_pb() {
    shared_puzzles_are_unique(common::every_engine()[3].clone());
}

fn cell(name: &str) -> Cell {
    let (row, col) = name[1..].split_once('c').unwrap();
    Size::NINE.cell(
        row.parse::<usize>().unwrap() - 1,
        col.parse::<usize>().unwrap() - 1,
    )
}

fn cells(names: &str) -> Vec<Cell> {
    names.split_whitespace().map(cell).collect()
}

/// Rules of 9x9 made by `add`.
fn rules(add: impl FnOnce(&mut RulesBuilder)) -> Arc<Rules> {
    let mut builder = Rules::builder(Size::NINE);
    add(&mut builder);
    builder.build().unwrap()
}

/// A puzzle under `rules` made from its first solution: clues are taken
/// away, row by row, while the puzzle stays unique under the rules. It must
/// then have more than one solution under classic rules (so the rules
/// decide it), and exactly that one solution under them, on every engine.
fn needs_rules(label: &str, rules: Arc<Rules>) {
    let empty = Puzzle::new(Grid::empty(Size::NINE), Arc::clone(&rules));
    let mut first = None;
    pipeline(&native(), false)
        .count(&empty, 1, &mut |g| first = Some(g.clone()))
        .unwrap();
    let solution = first.unwrap_or_else(|| panic!("{label}: no solution at all"));
    let mut givens = solution.clone();
    for index in 0..81 {
        let digit = givens.get(index);
        givens.set(index, 0);
        if count(&native(), &empty.with_givens(givens.clone()), 2) != 1 {
            givens.set(index, digit);
        }
    }
    let variant = empty.with_givens(givens.clone());
    assert!(
        count(&native(), &Puzzle::classic(givens.clone()), 2) > 1,
        "{label}: classic rules alone fix {}",
        givens.to_line()
    );
    for settings in common::every_engine() {
        let outcome = pipeline(&settings, true).solve(&variant).unwrap();
        assert_eq!(
            outcome.status,
            Status::Unique,
            "{label} {}",
            name(&settings)
        );
        assert_eq!(
            outcome.solutions[0].grid,
            solution,
            "{label} {}",
            name(&settings)
        );
    }
}

#[test]
fn each_rule_decides_a_puzzle() {
    needs_rules(
        "diagonals",
        rules(|b| {
            b.diagonal(Diagonal::Rising).diagonal(Diagonal::Falling);
        }),
    );
    for (label, constraint) in [
        ("anti-knight", Constraint::AntiKnight(AntiKnight)),
        ("anti-king", Constraint::AntiKing(AntiKing)),
        ("nonconsecutive", Constraint::NonConsecutive(NonConsecutive)),
    ] {
        needs_rules(
            label,
            rules(|b| {
                b.constraint(constraint).unwrap();
            }),
        );
    }
    needs_rules(
        "thermometers",
        rules(|b| {
            for line in [
                "r1c1 r1c2 r1c3 r2c4",
                "r5c5 r4c5 r3c5 r3c6",
                "r9c9 r8c8 r7c7",
            ] {
                b.constraint(Constraint::Thermo(Thermo { cells: cells(line) }))
                    .unwrap();
            }
        }),
    );
    // Cages over the first notebook solution's dominoes, with their sums.
    let solution = puzzle(NOTEBOOK_SOLUTION).givens().clone();
    needs_rules(
        "killer cages",
        rules(|b| {
            for row in 0..9 {
                for col in (0..8).step_by(2) {
                    let pair = [Size::NINE.cell(row, col), Size::NINE.cell(row, col + 1)];
                    let sum = pair
                        .iter()
                        .map(|&c| u32::from(solution.get(Size::NINE.index(c))))
                        .sum();
                    b.constraint(Constraint::Cage(Cage {
                        cells: pair.to_vec(),
                        sum: Some(sum),
                    }))
                    .unwrap();
                }
            }
        }),
    );
}

#[test]
fn anti_king_anti_knight_nonconsecutive_has_72_solutions() {
    let rules = rules(|b| {
        for c in [
            Constraint::AntiKing(AntiKing),
            Constraint::AntiKnight(AntiKnight),
            Constraint::NonConsecutive(NonConsecutive),
        ] {
            b.constraint(c).unwrap();
        }
    });
    let empty = Puzzle::new(Grid::empty(Size::NINE), rules);
    // Not `int`: each of its 72 checks costs about a second on the empty
    // board (87 s in all; see build.md, "Variant rules"), where the one-hot
    // encodings count them all in one.
    for settings in common::every_engine()
        .into_iter()
        .filter(|s| s.encoding != EncodingKind::Int || s.engine == EngineKind::Native)
    {
        let start = Instant::now();
        assert_eq!(count(&settings, &empty, 100), 72, "{}", name(&settings));
        println!(
            "72 solutions on {}: {:.2?}",
            name(&settings),
            start.elapsed()
        );
    }
}

#[test]
fn no_solution_and_several() {
    // A thermometer cannot rise from a 9.
    let mut givens = Grid::empty(Size::NINE);
    givens.set(0, 9);
    let thermo = rules(|b| {
        b.constraint(Constraint::Thermo(Thermo {
            cells: cells("r1c1 r1c2"),
        }))
        .unwrap();
    });
    let none = Puzzle::new(givens, thermo);
    let several = Puzzle::new(
        Grid::empty(Size::NINE),
        rules(|b| {
            b.diagonal(Diagonal::Rising);
        }),
    );
    for settings in common::every_engine() {
        let outcome = pipeline(&settings, true).solve(&none).unwrap();
        assert_eq!(outcome.status, Status::None, "{}", name(&settings));
        let outcome = pipeline(&settings, true).solve(&several).unwrap();
        assert_eq!(outcome.status, Status::Multiple, "{}", name(&settings));
        // Explaining names clues that conflict under the rules (here the
        // lone 9: the pipeline's own final check would fail otherwise).
        let mut explaining = Pipeline::new(Request {
            settings: settings.clone(),
            explain: true,
            ..Request::default()
        });
        let outcome = explaining.solve(&none).unwrap();
        assert_eq!(outcome.status, Status::None);
        assert_eq!(
            outcome
                .conflicting
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["r1c1=9"]
        );
    }
}

#[test]
fn the_checker_names_each_broken_rule() {
    // The notebook's solution keeps the classic rules but not these.
    let solution = puzzle(NOTEBOOK_SOLUTION).givens().clone();
    let broken = |rules: Arc<Rules>| {
        verify_solution(&Puzzle::new(Grid::empty(Size::NINE), rules), &solution)
    };
    let classic = |c: Constraint| {
        broken(rules(|b| {
            b.constraint(c).unwrap();
        }))
    };
    let message = |r: Result<(), CheckError>| r.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        message(classic(Constraint::Cage(Cage {
            cells: cells("r1c1 r1c2"),
            sum: Some(9)
        })))
        .starts_with("cage 9 (r1c1 r1c2) is broken: the digits add up to 8")
    );
    assert!(
        message(classic(Constraint::Thermo(Thermo {
            cells: cells("r1c1 r1c2")
        })))
        .starts_with("thermo r1c1→r1c2 is broken: r1c1 holds 7 and r1c2 holds 1")
    );
    assert!(
        message(classic(Constraint::AntiKnight(AntiKnight))).starts_with("anti-knight is broken")
    );
    assert!(message(classic(Constraint::AntiKing(AntiKing))).starts_with("anti-king is broken"));
    assert!(
        message(classic(Constraint::NonConsecutive(NonConsecutive)))
            .starts_with("nonconsecutive is broken")
    );
    assert!(
        message(classic(Constraint::Allowed(Allowed {
            cell: cell("r1c1"),
            digits: 0b11
        })))
        .starts_with("r1c1 is one of 1 2 is broken: r1c1 holds 7")
    );
    assert!(matches!(
        broken(rules(|b| {
            b.diagonal(Diagonal::Falling);
        })),
        Err(CheckError::Repeated { house, .. }) if house == "falling diagonal"
    ));
    // And a cage it keeps passes.
    assert_eq!(
        classic(Constraint::Cage(Cage {
            cells: cells("r1c1 r1c2 r2c1"),
            sum: Some(10)
        })),
        Ok(())
    );
}

#[test]
fn rules_are_checked_when_built() {
    let mut builder = Rules::builder(Size::NINE);
    let sum = builder.constraint(Constraint::Cage(Cage {
        cells: cells("r1c1 r1c2"),
        sum: Some(18),
    }));
    assert_eq!(
        sum.err().map(|e| e.to_string()).as_deref(),
        Some("cage 18 (r1c1 r1c2): no 2 different digits add up to 18 (they make 3 to 17)")
    );
    let twice = builder.constraint(Constraint::Thermo(Thermo {
        cells: cells("r1c1 r1c1"),
    }));
    assert!(twice.is_err_and(|e| e.to_string().contains("r1c1 is listed twice")));
    assert!(Arc::ptr_eq(
        &builder.build().unwrap(),
        &Rules::classic(Size::NINE)
    ));
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("z3doku-variants-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn unsupported_keys_are_input_errors_that_name_them() {
    let json = r#"{"size":9,"grid":[],"fogofwar":[{"cells":["R1C1"]}]}"#;
    let path = temp_file("fog.json", json);
    let out = common::z3doku()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unsupported rule `fogofwar`"), "{stderr}");
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/puzzles/killer.json")
}

#[test]
fn payloads_and_links_read_as_the_json() {
    let json = std::fs::read_to_string(example()).unwrap();
    let from_json = Source::File(example()).read_puzzle(None).unwrap();
    let payload = lz_str::compress_to_base64(json.as_str());
    let escaped: String = payload
        .chars()
        .map(|c| match c {
            '+' => "%2B".into(),
            '/' => "%2F".into(),
            '=' => "%3D".into(),
            c => c.to_string(),
        })
        .collect();
    for text in [
        payload.clone(),
        format!("https://f-puzzles.com/?load={payload}"),
        format!("https://f-puzzles.com/?load={escaped}"),
        format!("https://sudokupad.app/fpuzzles{payload}"),
        format!("https://sudokupad.app/fpuz{escaped}"),
    ] {
        assert!(matches!(Source::from_arg(&text), Source::Text(_)), "{text}");
        let puzzle = Source::from_arg(&text).read_puzzle(None).unwrap();
        assert_eq!(puzzle, from_json, "{text}");
    }
}

#[test]
fn the_binary_solves_a_variant_file_and_emits_its_sums_as_clauses() {
    let out = output_of(["solve".into(), example().display().to_string()], 0);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("7 8 2 │ 1 5 6 │ 4 3 9"), "{text}");
    let out = output_of(
        [
            "emit".into(),
            "--format".into(),
            "dimacs".into(),
            example().display().to_string(),
        ],
        0,
    );
    let cnf = String::from_utf8(out).unwrap();
    assert!(cnf.contains("auxiliary variables"), "{}", &cnf[..400]);
    let header = cnf.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let declared: usize = header.split(' ').nth(2).unwrap().parse().unwrap();
    assert!(declared > 729, "{header}");
}

#[test]
fn explanations_name_the_rules_to_blame() {
    let thermos = rules(|b| {
        b.constraint(Constraint::Thermo(Thermo {
            cells: cells("r1c1 r1c2"),
        }))
        .unwrap();
        b.constraint(Constraint::Thermo(Thermo {
            cells: cells("r1c2 r1c1"),
        }))
        .unwrap();
        b.constraint(Constraint::Cage(Cage {
            cells: cells("r5c5 r5c6"),
            sum: Some(3),
        }))
        .unwrap();
    });
    let cage = rules(|b| {
        b.constraint(Constraint::Cage(Cage {
            cells: cells("r1c1 r1c2"),
            sum: Some(4),
        }))
        .unwrap();
    });
    let mut given = Grid::empty(Size::NINE);
    given.set(0, 2);
    for settings in common::every_engine() {
        let mut pipeline = Pipeline::new(Request {
            settings: settings.clone(),
            explain: true,
            timeout: Some(Duration::from_secs(60)),
            ..Request::default()
        });
        let outcome = pipeline
            .solve(&Puzzle::new(Grid::empty(Size::NINE), thermos.clone()))
            .unwrap();
        assert_eq!(
            outcome.summary(),
            "no solution: these conflict: thermo r1c1→r1c2, thermo r1c2→r1c1",
            "{}",
            name(&settings)
        );
        let outcome = pipeline
            .solve(&Puzzle::new(given.clone(), cage.clone()))
            .unwrap();
        assert_eq!(
            outcome.summary(),
            "no solution: these conflict: r1c1=2, cage 4 (r1c1 r1c2)",
            "{}",
            name(&settings)
        );
    }
}

#[test]
fn batch_reads_a_payload_per_line() {
    let json = std::fs::read_to_string(example()).unwrap();
    let payload = lz_str::compress_to_base64(json.as_str());
    let text = format!(
        "# a killer as a payload, a link, and a classic line\n{payload}\nhttps://f-puzzles.com/?load={payload}\n{}\n",
        common::NOTEBOOK
    );
    let path = temp_file("batch.txt", &text);
    let out = common::z3doku()
        .args(["batch", "--unique", "--quiet", "--output", "line"])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let killer =
        "782156439569432178413987265348261597956874321271395846894713652627548913135629784";
    assert_eq!(stdout.matches(killer).count(), 2, "{stdout}");
    assert_eq!(stdout.matches(NOTEBOOK_SOLUTION).count(), 1, "{stdout}");
}

/// Killer puzzles with few givens (made by `generate --killer`): the native
/// engine and Z3 find the same one solution, which the checker accepts, and
/// the native search stays quick on them.
#[test]
fn sparse_killers_agree_and_stay_quick() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/killers.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let links: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(links.len(), 8);
    let z3 = Settings {
        engine: EngineKind::Z3,
        encoding: EncodingKind::Bool,
        ..Settings::default()
    };
    for link in links {
        let puzzle = Source::Text(link.to_string()).read_puzzle(None).unwrap();
        let start = Instant::now();
        let native = pipeline(&native(), true).solve(&puzzle).unwrap();
        let took = start.elapsed();
        assert_eq!(native.status, Status::Unique, "{link}");
        // Well over the few milliseconds they take, for a loaded machine:
        // before the innie and outie sums, one took a minute.
        assert!(took < Duration::from_secs(5), "{took:?}: {link}");
        let solution = &native.solutions[0].grid;
        verify_solution(&puzzle, solution).unwrap();
        let z3 = pipeline(&z3, true).solve(&puzzle).unwrap();
        assert_eq!(z3.status, Status::Unique, "{link}");
        assert_eq!(&z3.solutions[0].grid, solution, "{link}");
    }
}
