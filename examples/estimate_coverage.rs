//! How often `count --estimate`'s 95% interval holds the known count.
//!
//! `cargo run --release --example estimate_coverage [RUNS] [SAMPLES]`: for
//! the empty 4x4, 6x6 (2x3 boxes), 8x8 (2x4 boxes) and 9x9 boards, `RUNS`
//! estimates (default 100) from seeds 1 to `RUNS`, each of `SAMPLES`
//! samples (default 200), with the native engine. Prints, per board, how
//! many intervals held the true count, the median relative half-width of
//! the interval, and the median time of one estimate (CPU time of this
//! thread is not separated from waiting: on a loaded machine the times
//! are upper bounds).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use z3doku::engine::{Budget, Settings, native::NativeEngine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::solve::estimate::estimate_with;

/// The known counts: 4x4 288; 6x6 28,200,960 (Pettersen); 8x8 with 2x4
/// boxes 29,136,487,207,403,520 (Pettersen); 9x9
/// 6,670,903,752,021,072,936,960 (Felgenhauer and Jarvis).
const BOARDS: [(usize, f64); 4] = [
    (4, 288.0),
    (6, 28_200_960.0),
    (8, 29_136_487_207_403_520.0),
    (9, 6_670_903_752_021_072_936_960.0),
];

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let samples: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    println!(
        "| board | runs | samples | interval holds the count | median half-width | median time |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (side, known) in BOARDS {
        let puzzle = Puzzle::classic(Grid::empty(Size::from_side(side).unwrap()));
        let mut engine = NativeEngine::new(&Settings::default());
        let (mut held, mut widths, mut times) = (0, Vec::new(), Vec::new());
        for seed in 1..=runs {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let e = estimate_with(
                &mut engine,
                &puzzle,
                samples,
                &mut rng,
                &Budget::unbounded(),
                &mut |_| std::ops::ControlFlow::Continue(()),
            )
            .unwrap();
            if e.low <= known && known <= e.high {
                held += 1;
            }
            widths.push((e.high - e.low) / 2.0 / e.estimate);
            times.push(e.elapsed.as_secs_f64());
        }
        println!(
            "| {side}x{side} | {runs} | {samples} | {held} of {runs} | ±{:.1}% | {:.2} s |",
            100.0 * median(widths),
            median(times)
        );
    }
}
