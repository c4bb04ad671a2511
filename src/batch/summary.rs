//! What a batch run came to: puzzles per status, times, and the exit status
//! of the worst outcome.

use super::Record;
use crate::solve::{Status, Verification};
use hdrhistogram::Histogram;
use std::time::Duration;

/// Significant figures kept of each puzzle's time: the median and p99 are
/// within 0.1 % of the exact ones.
const SIGNIFICANT_FIGURES: u8 = 3;

/// The longest time the histogram tells apart, in microseconds (a day);
/// longer ones count as this.
const LONGEST_MICROS: u64 = 86_400_000_000;

/// The totals of a run. Its size does not grow with the number of puzzles:
/// times go into a histogram, not a list.
#[derive(Clone, Debug)]
pub struct Summary {
    counts: [usize; Status::ALL.len()],
    /// Microseconds per solved-or-not puzzle (error lines are not timed).
    times: Histogram<u64>,
    solve_time: Duration,
    /// The elapsed time of the whole run.
    pub wall: Duration,
    /// The exit status of the worst outcome: the largest of the lines'
    /// (see [`Record::exit_code`]), 0 for none.
    pub worst: u8,
    /// Whether the run stopped before the end of the input (interrupted, or
    /// the output closed); the counts cover the lines written.
    pub interrupted: bool,
    /// Lines whose verdict the other engine could not confirm, with
    /// `--verify`, because an engine gave up.
    pub not_verified: usize,
}

/// Why no summary could be kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot keep the times: {0}")]
pub struct SummaryError(String);

impl Summary {
    /// An empty summary.
    pub fn new() -> Result<Summary, SummaryError> {
        Ok(Summary {
            counts: [0; Status::ALL.len()],
            times: Histogram::new_with_bounds(1, LONGEST_MICROS, SIGNIFICANT_FIGURES)
                .map_err(|e| SummaryError(e.to_string()))?,
            solve_time: Duration::ZERO,
            wall: Duration::ZERO,
            worst: 0,
            interrupted: false,
            not_verified: 0,
        })
    }

    /// Counts one written line.
    pub fn add(&mut self, record: &Record) {
        let status = record.status();
        self.counts[status as usize] += 1;
        self.worst = self.worst.max(record.exit_code());
        if let Ok(outcome) = &record.result {
            self.not_verified += usize::from(outcome.verification == Verification::NotVerified);
        }
        if status != Status::Error {
            let micros = u64::try_from(record.time.as_micros()).unwrap_or(u64::MAX);
            self.times.saturating_record(micros.max(1));
            self.solve_time += record.time;
        }
    }

    /// How many lines had `status`.
    pub fn count(&self, status: Status) -> usize {
        self.counts[status as usize]
    }

    /// How many lines were written, of every status.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The per-puzzle time that `q` (0.0 to 1.0) of the timed puzzles took no
    /// longer than; zero when none was timed.
    pub fn quantile(&self, q: f64) -> Duration {
        match self.times.len() {
            0 => Duration::ZERO,
            _ => Duration::from_micros(self.times.value_at_quantile(q.clamp(0.0, 1.0))),
        }
    }

    /// The median time per puzzle.
    pub fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    /// The 99th percentile of the time per puzzle.
    pub fn p99(&self) -> Duration {
        self.quantile(0.99)
    }

    /// The time spent on puzzles, added up over the workers (more than
    /// [`Summary::wall`] when they run in parallel).
    pub fn solve_time(&self) -> Duration {
        self.solve_time
    }

    /// Lines per second of elapsed time.
    pub fn rate(&self) -> f64 {
        match self.wall.as_secs_f64() {
            s if s > 0.0 => self.total() as f64 / s,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::LineError;
    use super::*;
    use crate::puzzle::Puzzle;
    use crate::puzzle::grid::{Grid, Size};
    use crate::solve::Outcome;

    fn record(status: Option<Status>, millis: u64) -> Record {
        let result = match status {
            Some(status) => Ok(Outcome {
                status,
                solutions: Vec::new(),
                ..Outcome::new(&Puzzle::classic(Grid::empty(Size::NINE)))
            }),
            None => Err(LineError::TooLong { line: 1 }),
        };
        Record {
            line: 1,
            puzzle: None,
            result,
            time: Duration::from_millis(millis),
            rating: None,
        }
    }

    #[test]
    fn counts_times_and_the_worst_status() {
        let mut s = Summary::new().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.median(), s.total(), s.worst), (Duration::ZERO, 0, 0));
        for ms in 1..=100 {
            s.add(&record(Some(Status::Solved), ms));
        }
        s.add(&record(Some(Status::None), 1));
        s.add(&record(None, 5_000));
        assert_eq!(s.total(), 102);
        assert_eq!(s.count(Status::Solved), 100);
        assert_eq!(s.count(Status::None), 1);
        assert_eq!(s.count(Status::Error), 1);
        assert_eq!(s.worst, 2, "a bad line (2) is worse than no solution (1)");
        // Error lines are not timed.
        assert_eq!(s.solve_time(), Duration::from_millis(5051));
        let near = |d: Duration, ms: f64| (d.as_secs_f64() * 1e3 - ms).abs() <= ms * 1e-3;
        assert!(near(s.median(), 50.0), "{:?}", s.median());
        assert!(near(s.p99(), 99.0), "{:?}", s.p99());
        s.add(&record(Some(Status::GaveUp), 1));
        assert_eq!(s.worst, 4);
        s.wall = Duration::from_secs(2);
        assert!((s.rate() - 51.5).abs() < 1e-9);
    }
}
