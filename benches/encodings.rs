//! The hot paths of solving: one puzzle through each encoding (with and
//! without the uniqueness proof), a stream of different puzzles through one
//! engine per encoding (top1465 from `../shared/data`), and building each
//! encoding.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

mod common;

use common::shared_puzzles;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use z3doku::engine::z3::encoding;
use z3doku::engine::{EncodingKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::Size;
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::puzzle::rules::Rules;
use z3doku::solve::solve_with;

/// The SAT lesson's "difficult puzzle".
const PUZZLE: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn solving(c: &mut Criterion) {
    let Ok(givens) = parse_puzzle(PUZZLE, None) else {
        return;
    };
    let puzzle = Puzzle::classic(givens);
    for kind in EncodingKind::ALL {
        for unique in [false, true] {
            let settings = Settings {
                encoding: kind,
                ..Settings::default()
            };
            let mut engine = new_engine(&settings);
            let name = format!(
                "solve/{}{}",
                kind.name(),
                if unique { "/unique" } else { "" }
            );
            c.bench_function(&name, |b| {
                b.iter(|| {
                    solve_with(
                        engine.as_mut(),
                        black_box(&puzzle),
                        unique,
                        &z3doku::engine::Budget::unbounded(),
                    )
                    .map(|o| o.status)
                })
            });
        }
    }
}

/// Puzzle after puzzle through one engine, as `batch` and `bench` use it:
/// what a kept solver carries from one puzzle to the next shows here, and
/// not when the same puzzle is solved over and over.
fn streaming(c: &mut Criterion) {
    // Generated puzzles are too easy to show it: their searches learn
    // next to nothing.
    let Some(puzzles) = shared_puzzles("puzzles3_magictour_top1465.txt", None) else {
        return;
    };
    let mut group = c.benchmark_group("stream");
    group.throughput(Throughput::Elements(1));
    for kind in EncodingKind::ALL {
        let settings = Settings {
            encoding: kind,
            ..Settings::default()
        };
        let mut engine = new_engine(&settings);
        let mut next = puzzles.iter().cycle();
        group.bench_function(format!("{}/unique", kind.name()), |b| {
            b.iter(|| {
                let puzzle = next.next()?;
                solve_with(
                    engine.as_mut(),
                    black_box(puzzle),
                    true,
                    &z3doku::engine::Budget::unbounded(),
                )
                .ok()
                .map(|o| o.status)
            })
        });
    }
    group.finish();
}

fn building(c: &mut Criterion) {
    for kind in EncodingKind::ALL {
        c.bench_function(&format!("build/{}", kind.name()), |b| {
            b.iter(|| {
                encoding::build(kind, black_box(&Rules::classic(Size::NINE)))
                    .rules()
                    .len()
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = solving, streaming, building
}
criterion_main!(benches);
