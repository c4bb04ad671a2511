//! Drawing 9x9 variant puzzles: the SVG alone, and the SVG rendered to a
//! PNG file (`cargo bench --bench draw`). The puzzles are the examples'
//! killer (29 cages, with its solution drawn in) and the docs' thermo-arrow
//! puzzle; the goal is a median within 5 ms for SVG and 50 ms for PNG.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use z3doku::draw::{Picture, Raster, png};
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::input::Source;

const KILLER_SOLUTION: &str =
    "782156439569432178413987265348261597956874321271395846894713652627548913135629784";

fn bench(c: &mut Criterion) {
    let root = env!("CARGO_MANIFEST_DIR");
    let killer = Source::File(format!("{root}/examples/puzzles/killer.json").into())
        .read_puzzle(None)
        .unwrap();
    let thermo = Source::File(format!("{root}/docs/pictures/thermo-arrow.txt").into())
        .read_puzzle(None)
        .unwrap();
    let digits: Vec<u8> = KILLER_SOLUTION.bytes().map(|b| b - b'0').collect();
    let solution = Grid::from_cells(Size::from_side(9).unwrap(), &digits).unwrap();
    let mut group = c.benchmark_group("draw");
    group.bench_function("killer svg", |b| {
        b.iter(|| black_box(Picture::new(&killer).digits(&solution).draw().svg.len()))
    });
    group.bench_function("killer png", |b| {
        b.iter(|| {
            let svg = Picture::new(&killer).digits(&solution).draw().svg;
            black_box(png(&svg).unwrap().len())
        })
    });
    // The parts of a PNG: rendering alone, and its encoding.
    let svg = Picture::new(&killer).digits(&solution).draw().svg;
    group.bench_function("killer raster", |b| {
        b.iter(|| black_box(Raster::of_svg(&svg, 1.0).unwrap().width()))
    });
    let raster = Raster::of_svg(&svg, 1.0).unwrap();
    group.bench_function("killer encode", |b| {
        b.iter(|| black_box(raster.png().unwrap().len()))
    });
    group.bench_function("thermo-arrow svg", |b| {
        b.iter(|| black_box(Picture::new(&thermo).draw().svg.len()))
    });
    group.bench_function("thermo-arrow png", |b| {
        b.iter(|| black_box(png(&Picture::new(&thermo).draw().svg).unwrap().len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
