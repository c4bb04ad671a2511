//! Rating speed and reach on a file of puzzles: the time `rate` takes per
//! puzzle (finding the one solution with the native engine, the SE path and
//! qqwing's path), how many puzzles the techniques finish without search,
//! the ER distribution, and which technique is the hardest step how often.
//!
//! `cargo run --release --example rate_speed [FILE] [LIMIT]`; FILE defaults
//! to `../shared/data/puzzles3_magictour_top1465.txt`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use z3doku::bench::read_puzzles;
use z3doku::engine::{EngineKind, Settings, new_engine};
use z3doku::logic::{Logic, Rating, unique_solution};
use z3doku::timing::Timings;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args().nth(1).map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/data/puzzles3_magictour_top1465.txt")
        },
        PathBuf::from,
    );
    let limit = std::env::args().nth(2).map(|n| n.parse()).transpose()?;
    let set = read_puzzles(&file, limit)?;
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let mut timings = Timings::new();
    let mut er: BTreeMap<u16, usize> = BTreeMap::new();
    let mut hardest: BTreeMap<&str, usize> = BTreeMap::new();
    let mut levels: BTreeMap<&str, usize> = BTreeMap::new();
    let mut searched = 0;
    for puzzle in &set {
        let start = Instant::now();
        let solution = unique_solution(
            engine.as_mut(),
            puzzle,
            &z3doku::engine::Budget::unbounded(),
        )?;
        // As `z3doku rate` does: a rating needs no sentences.
        let logic = Logic {
            words: false,
            ..Logic::default()
        };
        let (rating, path) = Rating::rate(puzzle, &solution, logic, engine.as_mut())?;
        timings.push(start.elapsed());
        searched += usize::from(rating.searched);
        *er.entry(rating.er.0).or_default() += 1;
        *levels.entry(rating.qqwing.name()).or_default() += 1;
        if let Some(step) = path
            .steps
            .iter()
            .filter(|s| s.difficulty.is_some())
            .max_by_key(|s| s.difficulty)
        {
            *hardest.entry(step.technique.name()).or_default() += 1;
        }
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "{} puzzles: median {:.3} ms, mean {:.3} ms, p99 {:.3} ms; rated without search: {} ({} needed search)",
        timings.count(),
        ms(timings.median()),
        ms(timings.total()) / timings.count() as f64,
        ms(timings.p99()),
        timings.count() - searched,
        searched
    );
    println!("\n| ER | puzzles |\n|---|---:|");
    let mut bands: BTreeMap<u16, usize> = BTreeMap::new();
    for (tenths, n) in er {
        *bands.entry(tenths / 10).or_default() += n;
    }
    for (whole, n) in bands {
        println!("| {whole}.0 to {whole}.9 | {n} |");
    }
    println!("\n| hardest step | puzzles |\n|---|---:|");
    for (name, n) in hardest {
        println!("| {name} | {n} |");
    }
    println!("\n| qqwing level | puzzles |\n|---|---:|");
    for (name, n) in levels {
        println!("| {name} | {n} |");
    }
    Ok(())
}
