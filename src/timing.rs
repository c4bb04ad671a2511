//! Timing summaries: how long a run of puzzles took, per puzzle and in all.

use std::time::Duration;

/// The per-puzzle times of a run, and what they add up to.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    times: Vec<Duration>,
}

impl Timings {
    /// No times yet.
    pub fn new() -> Timings {
        Timings::default()
    }

    /// Records one puzzle's time.
    pub fn push(&mut self, time: Duration) {
        self.times.push(time);
    }

    /// How many puzzles were timed.
    pub fn count(&self) -> usize {
        self.times.len()
    }

    /// The sum of the times.
    pub fn total(&self) -> Duration {
        self.times.iter().sum()
    }

    /// The `q`-quantile (0.0 to 1.0) by the nearest-rank method: the
    /// smallest time that at least `q` of the puzzles took no longer than.
    /// Zero when nothing was timed.
    pub fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort_unstable();
        let rank = (q.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
        sorted
            .get(rank.saturating_sub(1))
            .copied()
            .unwrap_or_default()
    }

    /// The median time.
    pub fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    /// The 99th percentile.
    pub fn p99(&self) -> Duration {
        self.quantile(0.99)
    }

    /// Puzzles per second over `wall` (the elapsed time of the whole run,
    /// which with parallel workers is less than [`Timings::total`]).
    pub fn rate(&self, wall: Duration) -> f64 {
        match wall.as_secs_f64() {
            s if s > 0.0 => self.count() as f64 / s,
            _ => 0.0,
        }
    }
}

impl Extend<Duration> for Timings {
    fn extend<I: IntoIterator<Item = Duration>>(&mut self, iter: I) {
        self.times.extend(iter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut t = Timings::new();
        assert_eq!(t.median(), Duration::ZERO);
        t.extend((1..=100).rev().map(ms));
        assert_eq!(t.median(), ms(50));
        assert_eq!(t.p99(), ms(99));
        assert_eq!(t.quantile(1.0), ms(100));
        assert_eq!(t.total(), ms(5050));
        assert!((t.rate(Duration::from_secs(2)) - 50.0).abs() < 1e-9);
    }
}
