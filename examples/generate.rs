//! Generates unique puzzles of any size, for benchmarks: a solved board made
//! by the standard pattern under random symmetries, then clues removed in a
//! random order as long as the puzzle keeps exactly one solution (checked
//! with the native engine, which gives up on a removal it cannot settle in
//! 100 ms; that clue then stays).
//!
//! `cargo run --release --example generate -- SIDE COUNT [SEED] > puzzles.txt`
//! prints COUNT puzzles of side SIDE (4, 9, 16 or 25), one per line.

use std::time::Duration;
use z3doku::engine::{EngineKind, Settings, new_engine};
use z3doku::grid::{Grid, Size};
use z3doku::verdict::count_with;

/// A small xorshift generator: reproducible puzzles from a seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

fn solved(size: Size, rng: &mut Rng) -> Grid {
    let (n, side) = (size.box_size(), size.side());
    let mut lines = || -> Vec<usize> {
        let mut bands: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut bands);
        bands
            .into_iter()
            .flat_map(|b| {
                let mut within: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut within);
                within.into_iter().map(move |r| b * n + r)
            })
            .collect()
    };
    let (rows, cols) = (lines(), lines());
    let mut digits: Vec<u8> = (1..=side as u8).collect();
    rng.shuffle(&mut digits);
    let cells: Vec<u8> = (0..size.cells())
        .map(|i| {
            let (r, c) = (rows[i / side], cols[i % side]);
            digits[(n * (r % n) + r / n + c) % side]
        })
        .collect();
    Grid::from_cells(size, &cells).unwrap_or_else(|| Grid::empty(size))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: generate SIDE COUNT [SEED]";
    let side: usize = args.first().ok_or(usage)?.parse()?;
    let count: usize = args.get(1).ok_or(usage)?.parse()?;
    let seed: u64 = args
        .get(2)
        .map_or(Ok(0x2545_f491_4f6c_dd1d), |s| s.parse())?;
    let size = Size::from_side(side).ok_or("SIDE is 4, 9, 16 or 25")?;
    let mut rng = Rng(seed | 1);
    let settings = Settings {
        engine: EngineKind::Native,
        timeout: Some(Duration::from_millis(100)),
        ..Settings::default()
    };
    let mut engine = new_engine(&settings);
    for _ in 0..count {
        let mut puzzle = solved(size, &mut rng);
        let mut order: Vec<usize> = (0..size.cells()).collect();
        rng.shuffle(&mut order);
        for cell in order {
            let digit = puzzle.get(cell);
            puzzle.set(cell, 0);
            let unique = count_with(engine.as_mut(), &puzzle, 2, &mut |_| {})?;
            if unique.solutions != 1 || unique.gave_up.is_some() {
                puzzle.set(cell, digit);
            }
        }
        println!("{puzzle}");
    }
    Ok(())
}
