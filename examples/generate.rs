//! Generates unique puzzles of any size, for benchmarks and examples: a
//! solved board found by the native engine from a few random digits, then
//! clues removed in a random order as long as the puzzle keeps exactly one
//! solution (checked with the native engine, which gives up on a removal it
//! cannot settle in 100 ms; that clue then stays).
//!
//! `cargo run --release --example generate -- SIDE COUNT [SEED] > puzzles.txt`
//! prints COUNT puzzles of side SIDE (1 to 16, or 25), one per line.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use std::time::Duration;
use z3doku::engine::{Budget, Engine, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::clue_clash;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::solve::count_with;

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

/// A solved board: a few random digits in random cells (that do not clash),
/// completed by the native engine.
fn solved(size: Size, rng: &mut Rng, engine: &mut dyn Engine) -> Option<Grid> {
    let mut seeds = Puzzle::classic(Grid::empty(size));
    for _ in 0..size.side() {
        let mut givens = seeds.givens().clone();
        givens.set(rng.below(size.cells()), rng.below(size.side()) as u8 + 1);
        let candidate = Puzzle::classic(givens);
        if clue_clash(&candidate).is_none() {
            seeds = candidate;
        }
    }
    let mut first = None;
    count_with(engine, &seeds, 1, &Budget::unbounded(), &mut |grid| {
        first = Some(grid.clone())
    })
    .ok()?;
    first
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: generate SIDE COUNT [SEED]";
    let side: usize = args.first().ok_or(usage)?.parse()?;
    let count: usize = args.get(1).ok_or(usage)?.parse()?;
    let seed: u64 = args
        .get(2)
        .map_or(Ok(0x2545_f491_4f6c_dd1d), |s| s.parse())?;
    let size = Size::from_side(side).ok_or("SIDE is 1 to 16, or 25")?;
    let mut rng = Rng(seed | 1);
    let settings = Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    };
    let mut engine = new_engine(&settings);
    let mut made = 0;
    while made < count {
        // Some random starts have no solution: draw again.
        let Some(mut grid) = solved(size, &mut rng, engine.as_mut()) else {
            continue;
        };
        let mut order: Vec<usize> = (0..size.cells()).collect();
        rng.shuffle(&mut order);
        for cell in order {
            let digit = grid.get(cell);
            grid.set(cell, 0);
            let budget = Budget::within(Some(Duration::from_millis(100)));
            let puzzle = Puzzle::classic(grid.clone());
            let unique = count_with(engine.as_mut(), &puzzle, 2, &budget, &mut |_| {})?;
            if unique.solutions != 1 || unique.gave_up.is_some() {
                grid.set(cell, digit);
            }
        }
        println!("{grid}");
        made += 1;
    }
    Ok(())
}
