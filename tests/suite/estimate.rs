//! `count --estimate`: its 95% interval holds known counts about 95% of
//! the time, on empty boards and on variant boards whose count z3doku can
//! finish; and the command line prints its forms.

use crate::common;

use common::z3doku;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;
use z3doku::engine::{Budget, Settings, native::NativeEngine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::solve::count_with;
use z3doku::solve::estimate::{Estimate, estimate_with};

fn estimate(puzzle: &Puzzle, samples: usize, seed: u64) -> Estimate {
    let mut engine = NativeEngine::new(&Settings::default());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    estimate_with(
        &mut engine,
        puzzle,
        samples,
        &mut rng,
        &Budget::unbounded(),
        &mut |_| ControlFlow::Continue(()),
    )
    .unwrap()
}

/// How many of `seeds` estimates of `samples` samples hold `known`.
fn held(puzzle: &Puzzle, known: f64, samples: usize, seeds: u64) -> u64 {
    (1..=seeds)
        .filter(|&seed| {
            let e = estimate(puzzle, samples, seed);
            assert!(!e.exact, "{}", e.summary());
            e.low <= known && known <= e.high
        })
        .count() as u64
}

#[test]
fn the_interval_holds_the_empty_six_by_six() {
    let six = Puzzle::classic(Grid::empty(Size::from_side(6).unwrap()));
    // At 95% coverage, 17 or fewer of 20 happens 1.6% of the time; a
    // biased estimate or too narrow an interval fails far more often.
    let got = held(&six, 28_200_960.0, 5, 20);
    assert!(got >= 18, "{got} of 20 intervals held 28,200,960");
}

#[test]
fn the_interval_holds_the_empty_nine_by_nine() {
    let nine = Puzzle::classic(Grid::empty(Size::NINE));
    let got = held(&nine, 6_670_903_752_021_072_936_960.0, 4, 10);
    assert!(got >= 8, "{got} of 10 intervals held the 9x9 count");
}

#[test]
fn the_interval_holds_variant_counts() {
    // Variant boards whose count the native engine finishes: the estimate
    // sees their rules through the engine's counts.
    let empty6 = |extra: &str| {
        let row = ["{}"; 6].join(",");
        let rows = vec![format!("[{row}]"); 6].join(",");
        format!(r#"{{"size":6,"grid":[{rows}]{extra}}}"#)
    };
    for extra in [
        r#","diagonal+":true"#,
        r#","antiking":true"#,
        r#","killercage":[{"cells":["R1C1","R1C2","R2C1"],"value":"6"}],"thermometer":[{"lines":[["R3C3","R3C4","R4C4"]]}]"#,
    ] {
        let puzzle = fpuzzles::parse(&empty6(extra)).unwrap();
        let mut engine = NativeEngine::new(&Settings::default());
        let count = count_with(
            &mut engine,
            &puzzle,
            usize::MAX,
            &Budget::unbounded(),
            &mut |_| {},
        )
        .unwrap();
        let known = count.solutions as f64;
        assert!(known > 1000.0, "{extra}: {known}");
        let got = held(&puzzle, known, 5, 10);
        assert!(got >= 8, "{extra}: {got} of 10 intervals held {known}");
    }
}

#[test]
fn the_command_line_prints_the_estimate() {
    let out = z3doku()
        .args([
            "count",
            "--estimate",
            "--engine",
            "native",
            "--samples",
            "4",
        ])
        .args(["--seed", "4", "-o", "json", &".".repeat(36)])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in ["estimate", "low", "high"] {
        assert!(report[field].is_f64(), "{field}: {report}");
    }
    assert_eq!(report["samples"], 4);
    assert_eq!(report["seed"], 4);
    assert_eq!(report["status"], "solved");
    let low = report["low"].as_f64().unwrap();
    assert!(low < report["estimate"].as_f64().unwrap());
    // The same seed, the same estimate.
    let again = z3doku()
        .args([
            "count",
            "--estimate",
            "--engine",
            "native",
            "--samples",
            "4",
        ])
        .args(["--seed", "4", "-o", "json", &".".repeat(36)])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["estimate"], report["estimate"]);
    // Text: the estimate and its interval; standard error says how.
    let text = z3doku()
        .args([
            "count",
            "--estimate",
            "--engine",
            "native",
            "--samples",
            "3",
        ])
        .arg(".".repeat(36))
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.starts_with("about "), "{stdout}");
    assert!(stdout.contains("95%"), "{stdout}");
    assert!(String::from_utf8_lossy(&text.stderr).contains("3 samples, seed "));
    // Few solutions: counted, exactly.
    let few = z3doku()
        .args([
            "count",
            "--estimate",
            "--engine",
            "native",
            "1..4....3...4..1",
        ])
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert!(
        String::from_utf8_lossy(&few.stdout)
            .starts_with("exactly 1 solution (few enough to count)")
    );
    // No solution: exit 1.
    z3doku()
        .args([
            "count",
            "--estimate",
            "--engine",
            "native",
            "11..............",
        ])
        .assert()
        .code(1);
    // --estimate with --print is refused.
    z3doku()
        .args(["count", "--estimate", "--print", &".".repeat(16)])
        .assert()
        .code(2);
}

/// The known counts of the empty boards the coverage check runs on: 4x4
/// 288; 6x6 (2x3 boxes) 28,200,960 and 8x8 (2x4 boxes)
/// 29,136,487,207,403,520 (Pettersen); 9x9 6,670,903,752,021,072,936,960
/// (Felgenhauer and Jarvis).
const KNOWN: [(usize, f64); 4] = [
    (4, 288.0),
    (6, 28_200_960.0),
    (8, 29_136_487_207_403_520.0),
    (9, 6_670_903_752_021_072_936_960.0),
];

/// The issue's check at the command's default (16 samples of 32 walks):
/// on each empty board, at least 95 of 100 seeded intervals hold the
/// count. About an hour on two busy cores, most of it the 8x8; run with
/// `cargo test --release --test suite estimate:: -- --ignored` (or the example
/// `estimate_coverage`, which prints each run as it ends).
#[test]
#[ignore = "an hour: the seeded coverage check of docs/setter.md"]
fn the_interval_holds_every_known_count_in_95_of_100_runs() {
    for (side, known) in KNOWN {
        let board = Puzzle::classic(Grid::empty(Size::from_side(side).unwrap()));
        let got = held(&board, known, 16, 100);
        assert!(
            got >= 95,
            "{side}x{side}: {got} of 100 intervals held {known}"
        );
    }
}
