//! An estimate of how many solutions a puzzle has, when there are too many
//! to count: Knuth's tree estimator, with exact counts of small subtrees.
//!
//! One *sample* walks from the puzzle down to a point where the solutions
//! left are few enough to count. At each step it takes the empty cell with
//! the fewest digits its houses allow, and counts each digit's subtree up
//! to [`EXACT_BELOW`] solutions with the engine. The digits whose subtrees
//! were counted to the end add their counts, times the walk's weight; of the
//! others (the *big* ones), one is drawn uniformly, the weight is multiplied
//! by their number, and the walk goes on from it. The sample's value is the
//! sum of what was added, and its expectation is exactly the number of
//! solutions: at every step, the counted subtrees add their true counts and
//! the drawn big one stands, on average, for all of them. So the mean of
//! independent samples is an unbiased estimate, and its spread gives the
//! interval: the mean plus or minus 1.96 standard errors (the normal
//! approximation, which the tests hold to its 95%).
//!
//! The engine does every rule's reasoning: the walk itself only reads the
//! houses, to choose a cell and its digits (a digit that breaks some other
//! rule has a subtree of no solutions, which the engine counts as 0).

use crate::engine::{Budget, Engine, EngineError, GiveUp};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Grid;
use rand::{Rng, RngExt};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// A subtree with fewer solutions than this is counted to the end; one
/// with as many is sampled. Larger means fewer, costlier steps and less
/// spread: 64 gave the best intervals for the time on the empty 6x6, 8x8
/// and 9x9 boards (docs/setter.md).
pub const EXACT_BELOW: usize = 64;

/// What [`estimate_with`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The estimated number of solutions (exact when [`Estimate::exact`]).
    pub estimate: f64,
    /// The 95% interval's lower end (never below 0).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The estimate's standard error (0 when exact).
    pub stderr: f64,
    /// Samples taken (0 when the count was exact from the start).
    pub samples: usize,
    /// Whether the puzzle had so few solutions that they were counted.
    pub exact: bool,
    /// Engine searches made.
    pub searches: u64,
    /// Why sampling stopped before the samples asked for, if it did: the
    /// estimate is then that of the samples taken.
    pub gave_up: Option<GiveUp>,
    /// Time spent.
    pub elapsed: Duration,
}

impl Estimate {
    /// An exact count of `n` solutions.
    pub fn counted(n: usize, elapsed: Duration) -> Estimate {
        Estimate {
            estimate: n as f64,
            low: n as f64,
            high: n as f64,
            stderr: 0.0,
            samples: 0,
            exact: true,
            searches: 0,
            gave_up: None,
            elapsed,
        }
    }

    /// The estimate in words: `about 2.82e7 solutions (95%: 2.61e7 to
    /// 3.03e7, 1000 samples)`, or the count when it is exact.
    pub fn summary(&self) -> String {
        let given_up = match &self.gave_up {
            Some(reason) => format!("; stopped early: {reason}"),
            None => String::new(),
        };
        if self.exact {
            let n = self.estimate as u64;
            let noun = if n == 1 { "solution" } else { "solutions" };
            return format!("exactly {n} {noun} (few enough to count)");
        }
        format!(
            "about {} solutions (95%: {} to {}, {} samples{given_up})",
            number(self.estimate),
            number(self.low),
            number(self.high),
            self.samples
        )
    }
}

/// A large number in three significant figures: `28200960` as `2.82e7`,
/// small ones whole.
pub fn number(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.2e}")
    }
}

/// Running sums of the samples, for the mean and its interval.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: usize,
    mean: f64,
    /// Sum of squared differences from the mean (Welford's).
    m2: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// The mean, its standard error, and the 95% interval's ends.
    fn interval(&self) -> (f64, f64, f64, f64) {
        if self.n < 2 {
            return (self.mean, f64::INFINITY, 0.0, f64::INFINITY);
        }
        let variance = self.m2 / (self.n - 1) as f64;
        let stderr = (variance / self.n as f64).sqrt();
        let half = 1.96 * stderr;
        (
            self.mean,
            stderr,
            (self.mean - half).max(0.0),
            self.mean + half,
        )
    }
}

/// Counts the solutions of `puzzle` under `givens` up to `cap`; `None`
/// when the budget ran out.
fn count_to(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    givens: &Grid,
    cap: usize,
    budget: &Budget,
    searches: &mut u64,
) -> Result<Result<usize, GiveUp>, EngineError> {
    // The engine reads its clock only every few thousand nodes, and these
    // searches are short: the budget is read before each.
    if let Some(reason) = budget.spent() {
        return Ok(Err(reason));
    }
    *searches += 1;
    let mut found = 0;
    let node = puzzle.with_givens(givens.clone());
    match engine.solutions(&node, budget.limits(cap), &mut |_| {
        found += 1;
        ControlFlow::Continue(())
    }) {
        Ok(()) => Ok(Ok(found)),
        Err(EngineError::GaveUp(reason)) => Ok(Err(reason)),
        Err(e) => Err(e),
    }
}

/// The empty cell with the fewest digits its houses allow, and those
/// digits; `None` when no cell is empty.
pub(crate) fn fewest(puzzle: &Puzzle, givens: &Grid) -> Option<(usize, Vec<u8>)> {
    let rules = puzzle.rules();
    let side = puzzle.size().side();
    let all: u64 = (1u64 << side) - 1;
    let mut best: Option<(usize, u64)> = None;
    for cell in 0..puzzle.size().cells() {
        if givens.get(cell) != 0 {
            continue;
        }
        let mut free = all;
        for &house in rules.houses_of(cell) {
            for &other in &rules.houses()[house].cells {
                let digit = givens.get(other);
                if digit != 0 {
                    free &= !(1u64 << (digit - 1));
                }
            }
        }
        if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
            best = Some((cell, free));
        }
    }
    best.map(|(cell, free)| {
        let digits = (1..=side as u8)
            .filter(|d| free >> (d - 1) & 1 == 1)
            .collect();
        (cell, digits)
    })
}

/// One sample: an unbiased estimate of the solutions below `givens`,
/// which has at least `EXACT_BELOW` of them. `Err` when the budget ran out
/// in the middle (the sample is then dropped).
fn sample(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    rng: &mut impl Rng,
    budget: &Budget,
    searches: &mut u64,
) -> Result<Result<f64, GiveUp>, EngineError> {
    let mut givens = puzzle.givens().clone();
    let mut weight = 1.0f64;
    let mut total = 0.0f64;
    loop {
        let Some((cell, digits)) = fewest(puzzle, &givens) else {
            // A full grid with as many solutions as the cap: it is one.
            return Ok(Ok(total + weight));
        };
        let mut big = Vec::new();
        for digit in digits {
            givens.set(cell, digit);
            match count_to(engine, puzzle, &givens, EXACT_BELOW, budget, searches)? {
                Ok(n) if n < EXACT_BELOW => total += weight * n as f64,
                Ok(_) => big.push(digit),
                Err(reason) => return Ok(Err(reason)),
            }
        }
        if big.is_empty() {
            return Ok(Ok(total));
        }
        weight *= big.len() as f64;
        let digit = big[rng.random_range(0..big.len())];
        givens.set(cell, digit);
    }
}

/// Estimates the number of solutions of `puzzle` from `samples` samples
/// drawn with `rng`, with `engine` counting small subtrees; `progress` is
/// told the estimate so far now and then (about every 0.2 s), and stops
/// the sampling by breaking (the estimate is then that so far). When the
/// puzzle has fewer than [`EXACT_BELOW`] solutions they are counted and
/// the estimate is exact. When `budget` runs out, the samples taken so far
/// make the estimate (and `gave_up` says why).
pub fn estimate_with(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    samples: usize,
    rng: &mut impl Rng,
    budget: &Budget,
    progress: &mut dyn FnMut(&Estimate) -> ControlFlow<()>,
) -> Result<Estimate, EngineError> {
    let start = Instant::now();
    let mut searches = 0;
    let mut estimate = Estimate {
        estimate: 0.0,
        low: 0.0,
        high: 0.0,
        stderr: 0.0,
        samples: 0,
        exact: true,
        searches: 0,
        gave_up: None,
        elapsed: Duration::ZERO,
    };
    match count_to(
        engine,
        puzzle,
        puzzle.givens(),
        EXACT_BELOW,
        budget,
        &mut searches,
    )? {
        Ok(n) if n < EXACT_BELOW => {
            let mut counted = Estimate::counted(n, start.elapsed());
            counted.searches = searches;
            return Ok(counted);
        }
        Ok(_) => estimate.exact = false,
        Err(reason) => {
            estimate.gave_up = Some(reason);
            estimate.exact = false;
            estimate.high = f64::INFINITY;
            estimate.stderr = f64::INFINITY;
            estimate.elapsed = start.elapsed();
            return Ok(estimate);
        }
    }
    let mut moments = Moments::default();
    let mut told = Instant::now();
    let fill = |estimate: &mut Estimate, moments: &Moments, searches: u64| {
        let (mean, stderr, low, high) = moments.interval();
        estimate.estimate = mean;
        estimate.stderr = stderr;
        estimate.low = low;
        estimate.high = high;
        estimate.samples = moments.n;
        estimate.searches = searches;
        estimate.elapsed = start.elapsed();
    };
    while moments.n < samples {
        match sample(engine, puzzle, rng, budget, &mut searches)? {
            Ok(x) => moments.add(x),
            Err(reason) => {
                estimate.gave_up = Some(reason);
                break;
            }
        }
        if told.elapsed() >= Duration::from_millis(200) {
            told = Instant::now();
            fill(&mut estimate, &moments, searches);
            if progress(&estimate).is_break() {
                break;
            }
        }
    }
    fill(&mut estimate, &moments, searches);
    Ok(estimate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Settings, native::NativeEngine};
    use crate::puzzle::grid::Size;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn empty(side: usize) -> Puzzle {
        let size = Size::from_side(side).unwrap_or(Size::NINE);
        Puzzle::classic(Grid::empty(size))
    }

    fn run(puzzle: &Puzzle, samples: usize, seed: u64) -> Estimate {
        let mut engine = NativeEngine::new(&Settings::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        estimate_with(
            &mut engine,
            puzzle,
            samples,
            &mut rng,
            &Budget::unbounded(),
            &mut |_| ControlFlow::Continue(()),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn few_solutions_are_counted() {
        // 1..4 / .... / 3... / 4..1 has 2 solutions... counted, not sampled.
        let mut cells = [0u8; 16];
        for (at, digit) in [(0, 1), (3, 4), (8, 3), (12, 4), (15, 1)] {
            cells[at] = digit;
        }
        let grid = Grid::from_cells(Size::from_side(4).unwrap_or(Size::NINE), &cells)
            .unwrap_or_else(|| panic!("a grid"));
        let puzzle = Puzzle::classic(grid);
        let estimate = run(&puzzle, 10, 1);
        assert!(estimate.exact, "{}", estimate.summary());
        assert_eq!(estimate.samples, 0);
        let mut native = NativeEngine::new(&Settings::default());
        let mut n = 0;
        native
            .solutions(&puzzle, crate::engine::Limits::solutions(100), &mut |_| {
                n += 1;
                ControlFlow::Continue(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(estimate.estimate, n as f64);
    }

    #[test]
    fn empty_boards_fall_within_the_interval() {
        // 288 solutions: above the exact bound, so sampled.
        let four = run(&empty(4), 100, 1);
        assert!(!four.exact);
        assert!(
            four.low <= 288.0 && 288.0 <= four.high,
            "{}",
            four.summary()
        );
        let six = run(&empty(6), 200, 7);
        assert!(
            six.low <= 28_200_960.0 && 28_200_960.0 <= six.high,
            "{}",
            six.summary()
        );
        // Another seed, another estimate: the samples are random.
        assert_ne!(
            run(&empty(6), 20, 8).estimate,
            run(&empty(6), 20, 9).estimate
        );
    }
}
