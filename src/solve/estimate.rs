//! An estimate of how many solutions a puzzle has, when there are too many
//! to count: Knuth's tree estimator, with exact counts of small subtrees,
//! its walks resampled as they go (sequential Monte Carlo).
//!
//! A *walk* goes from the puzzle down to a point where the solutions left
//! are few enough to count. At each step it takes the empty cell with the
//! fewest digits its houses allow, and counts each digit's subtree up to
//! [`EXACT_BELOW`] solutions with the engine. The digits whose subtrees were
//! counted to the end add their counts, times the walk's weight; of the
//! others (the *big* ones), one is drawn uniformly, the weight is
//! multiplied by their number, and the walk goes on from it. The sum of
//! what a walk adds has exactly the number of solutions as its expectation:
//! at every step, the counted subtrees add their true counts and the drawn
//! big one stands, on average, for all of them.
//!
//! Alone (Knuth's estimator), walks are unbiased but heavy-tailed: a walk's
//! weight is the product of every step's branching, and a few walks in a
//! thousand carry much of the total. Means of a few hundred walks then
//! miss those more often than a normal interval allows (the 95% interval
//! held the 8x8 count in 88 of 100 runs of 200 walks, the 9x9 in 91). So
//! a *sample* here is [`PARTICLES`] walks that go down together and are
//! resampled after every step in proportion to their weights (see
//! [`sample`]): still unbiased, and with the spread of the weights reset at
//! each step its value is close to normal (skewness near 0 where single
//! walks have 3 to 4). The estimate is the mean of independent samples and
//! its interval a t interval on them, widened to hold its 95% (see
//! [`t_point`]), which the coverage check (`examples/estimate_coverage.rs`,
//! docs/setter.md) measures.
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

/// Walks to a sample (see [`sample`]).
pub const PARTICLES: usize = 32;

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
        let half = t_point(self.n - 1) * stderr;
        (
            self.mean,
            stderr,
            (self.mean - half).max(0.0),
            self.mean + half,
        )
    }
}

/// The interval's half-width, in standard errors, from `df + 1` samples:
/// the 99% point of Student's t distribution, so a two-sided 98% t
/// interval, stated as the 95% interval it is at least. The margin is for
/// the samples' tails, which are heavier than a normal's: at the 97.5%
/// point the intervals held the 9x9 count in 94 of 100 seeded runs and
/// the 4x4 in 96 (docs/setter.md), short of or just at their 95%. Exact
/// to three decimals for the smallest `df`, then the Cornish-Fisher
/// expansion around the normal's 2.326 (within 0.005 from `df` 6 on).
fn t_point(df: usize) -> f64 {
    const SMALL: [f64; 5] = [31.821, 6.965, 4.541, 3.747, 3.365];
    if let Some(&t) = df.checked_sub(1).and_then(|k| SMALL.get(k)) {
        return t;
    }
    let z: f64 = 2.326_348;
    let n = df as f64;
    z + (z.powi(3) + z) / (4.0 * n)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * n.powi(3))
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
    // Every digit the board has: more than a row's cells with sigh's
    // `Shape~9x9~10` or `Shape~6x9~10`.
    let side = puzzle.size().values();
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

/// One sample: an unbiased estimate of the solutions below the puzzle's
/// givens, which has at least `EXACT_BELOW` of them, from `particles`
/// walks that go down together, a cell a step. `Err` when the budget ran
/// out in the middle (the sample is then dropped).
///
/// Each walk carries a weight. A step expands every walk's node as
/// Knuth's estimator does (the counted subtrees add their counts times the
/// weight; one big child is drawn, its weight multiplied by the number of
/// big ones), and then the walks are *resampled*: `particles` walks are
/// drawn from those still going, each in proportion to its weight
/// (systematic resampling), and each gets the mean weight. A walk of
/// little weight is then likely dropped and a heavy one goes on as
/// several, which later steps tell apart. Resampling keeps every weighted
/// sum's expectation (a walk's expected copies times the mean weight is its
/// own weight), so the sample stays unbiased; but where Knuth's walks end
/// with weights that spread as the product of every step's branching,
/// here the spread is reset at each step. With one particle this is
/// Knuth's estimator exactly.
fn sample(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    particles: usize,
    rng: &mut impl Rng,
    budget: &Budget,
    searches: &mut u64,
) -> Result<Result<f64, GiveUp>, EngineError> {
    let particles = particles.max(1);
    let mut total = 0.0f64;
    // The walks as distinct nodes, each with its copies and the weight of
    // one copy: copies of a node expand alike, so each node is expanded
    // once.
    let mut nodes: Vec<(Grid, usize, f64)> =
        vec![(puzzle.givens().clone(), particles, 1.0 / particles as f64)];
    while !nodes.is_empty() {
        let mut walks: Vec<(Grid, f64)> = Vec::new();
        for (node, copies, weight) in nodes {
            let Some((cell, digits)) = fewest(puzzle, &node) else {
                // A full grid with as many solutions as the cap: it is one.
                total += weight * copies as f64;
                continue;
            };
            let mut big = Vec::new();
            let mut child = node;
            // While more than half the board is open a subtree is seldom
            // small, and counting one to the cap is the walk's dearest
            // search: it is only asked whether it has a solution, and
            // walked into when it has. (Which subtrees are counted is free
            // to choose: one walked into is counted by the walk, so the
            // estimate stays unbiased.) On the empty 8x8 and 9x9 boards no
            // such subtree was ever small, so the samples are the same,
            // 2x (8x8) and 2.7x (9x9) sooner.
            let open = child.cells().iter().filter(|&&d| d == 0).count();
            let cap = match 2 * open > child.cells().len() {
                true => 1,
                false => EXACT_BELOW,
            };
            for digit in digits {
                child.set(cell, digit);
                match count_to(engine, puzzle, &child, cap, budget, searches)? {
                    Ok(n) if n < cap => total += weight * copies as f64 * n as f64,
                    Ok(_) => big.push(digit),
                    Err(reason) => return Ok(Err(reason)),
                }
            }
            if big.is_empty() {
                continue;
            }
            for _ in 0..copies {
                child.set(cell, big[rng.random_range(0..big.len())]);
                walks.push((child.clone(), weight * big.len() as f64));
            }
        }
        nodes = resample(walks, particles, rng);
    }
    Ok(Ok(total))
}

/// Draws `particles` walks from `walks` in proportion to their weights by
/// systematic resampling (one uniform draw, then evenly spaced points on
/// the weights' running sum), each with the mean weight, and gathers the
/// copies of each node.
fn resample(
    walks: Vec<(Grid, f64)>,
    particles: usize,
    rng: &mut impl Rng,
) -> Vec<(Grid, usize, f64)> {
    let sum: f64 = walks.iter().map(|(_, w)| w).sum();
    if walks.is_empty() || sum <= 0.0 || !sum.is_finite() {
        return Vec::new();
    }
    let step = sum / particles as f64;
    let mut point = rng.random::<f64>() * step;
    let mut running = 0.0;
    let mut gathered: Vec<(Grid, usize, f64)> = Vec::new();
    let mut index: std::collections::HashMap<Grid, usize> = std::collections::HashMap::new();
    let mut drawn = 0;
    let last = walks.len() - 1;
    for (k, (grid, weight)) in walks.into_iter().enumerate() {
        running += weight;
        let mut copies = 0;
        // Rounding may leave the last points just past the sum: they fall
        // on the last walk.
        while drawn < particles && (point < running || k == last) {
            copies += 1;
            drawn += 1;
            point += step;
        }
        if copies > 0 {
            match index.get(&grid) {
                Some(&at) => gathered[at].1 += copies,
                None => {
                    index.insert(grid.clone(), gathered.len());
                    gathered.push((grid, copies, step));
                }
            }
        }
    }
    gathered
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
    estimate_with_particles(engine, puzzle, samples, PARTICLES, rng, budget, progress)
}

/// [`estimate_with`] with `particles` walks to a sample (1: Knuth's
/// estimator, each walk a sample of its own).
pub fn estimate_with_particles(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    samples: usize,
    particles: usize,
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
        match sample(engine, puzzle, particles, rng, budget, &mut searches)? {
            Ok(x) => moments.add(x),
            Err(reason) => {
                estimate.gave_up = Some(reason);
                break;
            }
        }
        // An estimate so far needs two samples for its interval.
        if moments.n >= 2 && told.elapsed() >= Duration::from_millis(200) {
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
    fn resampling_keeps_the_walks_and_their_total_weight() {
        let size = Size::from_side(4).unwrap_or(Size::NINE);
        let grid = |d: u8| {
            let mut g = Grid::empty(size);
            g.set(0, d);
            g
        };
        let walks = vec![
            (grid(1), 1.0),
            (grid(2), 6.0),
            (grid(1), 1.0),
            (grid(3), 0.5),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for particles in [1, 4, 7, 32] {
            let drawn = resample(walks.clone(), particles, &mut rng);
            let copies: usize = drawn.iter().map(|(_, c, _)| c).sum();
            assert_eq!(copies, particles);
            let total: f64 = drawn.iter().map(|(_, c, w)| *c as f64 * w).sum();
            assert!((total - 8.5).abs() < 1e-9, "{total}");
            // A node drawn twice is expanded once.
            let nodes: std::collections::HashSet<&Grid> = drawn.iter().map(|(g, _, _)| g).collect();
            assert_eq!(nodes.len(), drawn.len());
            // The heavy walk, 6 of the 8.5 weight, gets its share of the
            // copies, rounded down or up (systematic resampling).
            let heavy = drawn
                .iter()
                .find(|(g, _, _)| *g == grid(2))
                .map_or(0, |d| d.1);
            let share = particles as f64 * 6.0 / 8.5;
            assert!((heavy as f64 - share).abs() < 1.0, "{particles}: {heavy}");
        }
    }

    #[test]
    fn the_t_points_are_students() {
        // Tables of Student's t, 99%.
        for (df, t) in [
            (1, 31.821),
            (4, 3.747),
            (6, 3.143),
            (9, 2.821),
            (15, 2.602),
            (30, 2.457),
            (120, 2.358),
        ] {
            assert!((t_point(df) - t).abs() < 0.006, "{df}: {}", t_point(df));
        }
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
        let four = run(&empty(4), 10, 1);
        assert!(!four.exact);
        assert!(
            four.low <= 288.0 && 288.0 <= four.high,
            "{}",
            four.summary()
        );
        let six = run(&empty(6), 6, 7);
        assert!(
            six.low <= 28_200_960.0 && 28_200_960.0 <= six.high,
            "{}",
            six.summary()
        );
        // Another seed, another estimate: the samples are random.
        assert_ne!(run(&empty(6), 2, 8).estimate, run(&empty(6), 2, 9).estimate);
    }
}
