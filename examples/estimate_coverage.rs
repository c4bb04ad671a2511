//! How often `count --estimate`'s 95% interval holds the known count.
//!
//! `cargo run --release --example estimate_coverage [RUNS | FIRST..LAST] [SAMPLES]
//! [PARTICLES] [SIDE...]`: for the empty 4x4, 6x6 (2x3 boxes), 8x8 (2x4
//! boxes) and 9x9 boards (or those of the sides named), `RUNS` estimates
//! (default 100) from seeds 1 to `RUNS`, each of `SAMPLES` samples
//! (default 16, the command's) of `PARTICLES` walks (default the command's; 1 is Knuth's
//! estimator, a walk a sample), with the native engine. Prints, per board, how
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
use z3doku::solve::estimate::{PARTICLES, estimate_with_particles};

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
    // `RUNS`, or `FIRST..LAST` for some of the seeds (a long run split
    // across processes).
    let seeds = args.next().unwrap_or_else(|| "100".into());
    let (first, last): (u64, u64) = match seeds.split_once("..") {
        Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
        None => (1, seeds.parse().unwrap()),
    };
    let runs = last + 1 - first;
    let samples: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let particles: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(PARTICLES);
    // The boards to run, by side (all four when none are named).
    let sides: Vec<usize> = args.filter_map(|a| a.parse().ok()).collect();
    println!(
        "| board | runs | samples | walks a sample | interval holds the count | median half-width | median time |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (side, known) in BOARDS {
        if !sides.is_empty() && !sides.contains(&side) {
            continue;
        }
        let puzzle = Puzzle::classic(Grid::empty(Size::from_side(side).unwrap()));
        let mut engine = NativeEngine::new(&Settings::default());
        let (mut held, mut widths, mut times) = (0, Vec::new(), Vec::new());
        for seed in first..=last {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let e = estimate_with_particles(
                &mut engine,
                &puzzle,
                samples,
                particles,
                &mut rng,
                &Budget::unbounded(),
                &mut |_| std::ops::ControlFlow::Continue(()),
            )
            .unwrap();
            if e.low <= known && known <= e.high {
                held += 1;
            }
            widths.push((e.high - e.low) / 2.0 / e.estimate);
            // Each run as it ends, for a long measurement watched (or cut
            // short) as it goes.
            eprintln!(
                "{side}x{side} seed {seed}: {:.4} of the count, standard error {:.4}, {}, {:.2} s",
                e.estimate / known,
                e.stderr / known,
                match (e.low <= known, known <= e.high) {
                    (true, true) => "held",
                    (false, _) => "missed (above)",
                    (_, false) => "missed (below)",
                },
                e.elapsed.as_secs_f64()
            );
            times.push(e.elapsed.as_secs_f64());
        }
        println!(
            "| {side}x{side} | {runs} | {samples} | {particles} | {held} of {runs} | ±{:.1}% | {:.2} s |",
            100.0 * median(widths),
            median(times)
        );
    }
}
