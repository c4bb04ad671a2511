//! The native engine on the hardest public sets, uniqueness included: each
//! puzzle is searched until a second solution is ruled out.
//!
//! `cargo bench --bench native` (the sets are read from `../shared/data`;
//! `NATIVE_BENCH_PUZZLES=N` takes the first N of each, all by default).
//! Criterion reports the time for the whole set and, as throughput,
//! puzzles per second.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

mod common;

use common::shared_puzzles;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::ops::ControlFlow;
use z3doku::engine::{Engine, EngineKind, Limits, Settings, new_engine};
use z3doku::puzzle::Puzzle;

const SETS: [&str; 2] = [
    "puzzles3_magictour_top1465.txt",
    "puzzles6_forum_hardest_1106.txt",
];

/// Searches `puzzle` for up to two solutions; returns how many.
fn solutions(engine: &mut dyn Engine, puzzle: &Puzzle) -> usize {
    let mut found = 0;
    let result = engine.solutions(puzzle, Limits::solutions(2), &mut |_| {
        found += 1;
        if found >= 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert!(result.is_ok(), "{puzzle}: {result:?}");
    found
}

fn bench(c: &mut Criterion) {
    let limit = std::env::var("NATIVE_BENCH_PUZZLES")
        .ok()
        .and_then(|n| n.parse().ok());
    let settings = Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    };
    let mut engine = new_engine(&settings);
    let mut group = c.benchmark_group("native-unique");
    group.sample_size(20);
    for name in SETS {
        let Some(set) = shared_puzzles(name, limit) else {
            continue;
        };
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(name.trim_end_matches(".txt"), |b| {
            b.iter(|| {
                for puzzle in &set {
                    black_box(solutions(engine.as_mut(), black_box(puzzle)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
