//! µs per puzzle for the native engine on the public sets, uniqueness
//! included (each search goes on until a second solution is ruled out).
//!
//! `cargo run --release --example native_speed [PASSES]`: every puzzle of
//! each set in `../shared/data`, `PASSES` times (3 by default); a puzzle's
//! time is its fastest pass, and the table gives the mean and the median,
//! and the mean number of search nodes. The last column is the time of all
//! passes over the number of searches, as tdoku's benchmark counts: unlike
//! the best pass, it includes whatever the machine's load takes away.
//! `Z3DOKU_DATA` names another folder of the sets (for a checkout that is
//! not beside `shared`). With `Z3DOKU_NODES` set, each puzzle's search
//! nodes also go to standard error, one a line in the sets' order, to put
//! beside tdoku's (`TDOKU_NODES=1 tdoku_best_pass 1 FILE...`, from
//! benches/tdoku_best_pass.cc) puzzle by puzzle.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use z3doku::bench::read_puzzles;
use z3doku::engine::{Engine, EngineKind, Limits, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::timing::Timings;

const SETS: [&str; 3] = [
    "puzzles3_magictour_top1465.txt",
    "puzzles6_forum_hardest_1106.txt",
    "puzzles2_17_clue.txt",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let passes: usize = std::env::args().nth(1).map_or(Ok(3), |a| a.parse())?;
    let settings = Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    };
    let mut engine = new_engine(&settings);
    let per_puzzle = std::env::var_os("Z3DOKU_NODES").is_some();
    println!("| set | puzzles | mean µs | median µs | p99 µs | mean nodes | mean µs, all passes |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let data = std::env::var_os("Z3DOKU_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    );
    for name in SETS {
        let path = data.join(name);
        let set = read_puzzles(&path, None)?;
        let mut best = vec![Duration::MAX; set.len()];
        let mut nodes = 0;
        let all = Instant::now();
        for pass in 0..passes {
            for (puzzle, best) in set.iter().zip(&mut best) {
                let start = Instant::now();
                let count = unique(engine.as_mut(), puzzle)?;
                *best = (*best).min(start.elapsed());
                if pass == 0 {
                    let these = search_nodes(engine.as_ref());
                    nodes += these;
                    if per_puzzle {
                        eprintln!("{these}");
                    }
                }
                if count != 1 {
                    return Err(format!("{puzzle}: {count} solutions").into());
                }
            }
        }
        let all = all.elapsed();
        let mut timings = Timings::new();
        best.into_iter().for_each(|t| timings.push(t));
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "| {name} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            timings.count(),
            micros(timings.total()) / timings.count() as f64,
            micros(timings.median()),
            micros(timings.p99()),
            nodes as f64 / timings.count() as f64,
            micros(all) / (passes * timings.count()) as f64,
        );
    }
    Ok(())
}

/// The search nodes of the engine's last search.
fn search_nodes(engine: &dyn Engine) -> u64 {
    let statistics = engine.statistics();
    let nodes = statistics.iter().find(|(name, _)| name == "nodes");
    nodes.map_or(0, |(_, value)| value.parse().unwrap())
}

/// The number of solutions of `puzzle`, up to two.
fn unique(engine: &mut dyn Engine, puzzle: &Puzzle) -> Result<usize, Box<dyn std::error::Error>> {
    let mut found = 0;
    engine.solutions(puzzle, Limits::solutions(2), &mut |_| {
        found += 1;
        if found >= 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(found)
}
