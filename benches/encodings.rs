//! The hot paths of solving: one puzzle through each encoding (with and
//! without the uniqueness proof), and building each encoding.

use criterion::{Criterion, criterion_group, criterion_main};
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
    targets = solving, building
}
criterion_main!(benches);
