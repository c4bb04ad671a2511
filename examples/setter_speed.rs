//! How fast the setter's questions are answered, against the uniqueness
//! check of the same puzzles.
//!
//! `cargo run --release --example setter_speed [LIMIT]`: the first `LIMIT`
//! puzzles (all by default) of top1465 and forum_hardest_1106 in
//! `../shared/data`. For each puzzle it times, with the same engine:
//! the uniqueness check (a solution, then a search for a second), and
//! `candidates` (cap 2); and with the native engine `minimize`. It prints a
//! Markdown table of medians, and the median of the per-puzzle ratios.
//!
//! A "check's worth of time" for Z3 is half its uniqueness check, which is
//! two checks (one sat, one unsat).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use std::path::PathBuf;
use std::time::{Duration, Instant};
use z3doku::bench::read_puzzles;
use z3doku::engine::{EncodingKind, Engine, EngineKind, Settings, new_engine};
use z3doku::solve::candidates::candidates_with;
use z3doku::solve::minimize::minimize_with;
use z3doku::solve::{Status, solve_with};

const SETS: [&str; 2] = [
    "puzzles3_magictour_top1465.txt",
    "puzzles6_forum_hardest_1106.txt",
];

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let value = f();
    (value, micros(start.elapsed()))
}

fn engine(kind: EngineKind, encoding: EncodingKind) -> Box<dyn Engine> {
    new_engine(&Settings {
        engine: kind,
        encoding,
        ..Settings::default()
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let limit: usize = std::env::args()
        .nth(1)
        .map_or(Ok(usize::MAX), |a| a.parse())?;
    println!(
        "| set | puzzles | engine | unique median µs | candidates median µs | median ratio | mean checks |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|");
    let mut minimize_times = Vec::new();
    for name in SETS {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data")
            .join(name);
        let set = read_puzzles(&path, Some(limit))?;
        for (label, kind, encoding) in [
            ("native", EngineKind::Native, EncodingKind::Int),
            ("z3 bool", EngineKind::Z3, EncodingKind::Bool),
        ] {
            let mut engine = engine(kind, encoding);
            let (mut unique, mut cands, mut ratios, mut checks) =
                (Vec::new(), Vec::new(), Vec::new(), 0);
            for puzzle in &set {
                let (outcome, u) = timed(|| {
                    solve_with(
                        engine.as_mut(),
                        puzzle,
                        true,
                        &z3doku::engine::Budget::unbounded(),
                    )
                });
                assert_eq!(outcome?.status, Status::Unique, "{puzzle}");
                let (c, t) = timed(|| {
                    candidates_with(
                        engine.as_mut(),
                        puzzle,
                        2,
                        &z3doku::engine::Budget::unbounded(),
                    )
                });
                let c = c?;
                assert_eq!(c.outcome.status, Status::Unique, "{puzzle}");
                checks += c.checks;
                unique.push(u);
                cands.push(t);
                ratios.push(t / u);
                if kind == EngineKind::Native {
                    let (m, t) = timed(|| {
                        minimize_with(
                            engine.as_mut(),
                            puzzle,
                            &[],
                            &z3doku::engine::Budget::unbounded(),
                        )
                    });
                    assert!(m?.minimal.is_some(), "{puzzle}");
                    minimize_times.push(t);
                }
            }
            println!(
                "| {} | {} | {label} | {:.0} | {:.0} | {:.2} | {:.2} |",
                name.trim_end_matches(".txt"),
                set.len(),
                median(unique),
                median(cands),
                median(ratios),
                checks as f64 / set.len() as f64
            );
        }
    }
    println!();
    println!(
        "minimize, native engine, both sets: {} puzzles, median {:.2} ms",
        minimize_times.len(),
        median(minimize_times) / 1000.0
    );
    Ok(())
}
