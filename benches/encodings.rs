//! The hot paths of solving: one puzzle through each encoding (with and
//! without the uniqueness proof), a stream of different puzzles through one
//! engine per encoding (top1465 from `../shared/data`), and building each
//! encoding.

mod common;

use common::shared_puzzles;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use z3doku::encoding::EncodingKind;
use z3doku::engine::{Settings, new_engine};
use z3doku::grid::Size;
use z3doku::parse::parse_puzzle;
use z3doku::verdict::solve_with;

/// The SAT lesson's "difficult puzzle".
const PUZZLE: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn solving(c: &mut Criterion) {
    let Ok(puzzle) = parse_puzzle(PUZZLE, None) else {
        return;
    };
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
                b.iter(|| solve_with(engine.as_mut(), black_box(&puzzle), unique).map(|o| o.status))
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
                solve_with(engine.as_mut(), black_box(puzzle), true)
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
            b.iter(|| kind.build(black_box(Size::NINE)).rules().len())
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = solving, streaming, building
}
criterion_main!(benches);
