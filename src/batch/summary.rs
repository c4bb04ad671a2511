//! What a batch run came to: puzzles per status, times, and the exit status
//! of the worst outcome.

use super::{LineStatus, Record};
use hdrhistogram::Histogram;
use std::time::Duration;
use tabled::builder::Builder;
use tabled::settings::Style;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Modify};

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
    counts: [usize; LineStatus::ALL.len()],
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
}

/// Why no summary could be kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot keep the times: {0}")]
pub struct SummaryError(String);

impl Summary {
    /// An empty summary.
    pub fn new() -> Result<Summary, SummaryError> {
        Ok(Summary {
            counts: [0; LineStatus::ALL.len()],
            times: Histogram::new_with_bounds(1, LONGEST_MICROS, SIGNIFICANT_FIGURES)
                .map_err(|e| SummaryError(e.to_string()))?,
            solve_time: Duration::ZERO,
            wall: Duration::ZERO,
            worst: 0,
            interrupted: false,
        })
    }

    /// Counts one written line.
    pub fn add(&mut self, record: &Record) {
        let status = record.status();
        self.counts[status as usize] += 1;
        self.worst = self.worst.max(record.exit_code());
        if status != LineStatus::Error {
            let micros = u64::try_from(record.time.as_micros()).unwrap_or(u64::MAX);
            self.times.saturating_record(micros.max(1));
            self.solve_time += record.time;
        }
    }

    /// How many lines had `status`.
    pub fn count(&self, status: LineStatus) -> usize {
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

    /// The summary as a table, for standard error.
    pub fn table(&self) -> String {
        let mut builder = Builder::default();
        builder.push_record(["status", "puzzles"]);
        for status in LineStatus::ALL {
            builder.push_record([status.name().to_string(), self.count(status).to_string()]);
        }
        let rows = [
            ("total", self.total().to_string()),
            ("total time", human(self.wall)),
            ("puzzles/s", format!("{:.1}", self.rate())),
            ("median", human(self.median())),
            ("p99", human(self.p99())),
            ("solver time", human(self.solve_time)),
        ];
        for (name, value) in rows {
            builder.push_record([name.to_string(), value]);
        }
        let mut table = builder.build();
        table
            .with(Style::rounded())
            .with(Modify::new(Columns::new(1..)).with(Alignment::right()));
        let note = if self.interrupted {
            "stopped early: the summary covers the lines written\n"
        } else {
            ""
        };
        format!("{note}{table}\n")
    }
}

/// A duration to three significant figures, in a unit that suits it.
fn human(d: Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    match micros {
        m if m < 1e3 => format!("{m:.0} µs"),
        m if m < 1e6 => format!("{:.3} ms", m / 1e3),
        m if m < 60e6 => format!("{:.3} s", m / 1e6),
        m => {
            let secs = (m / 1e6).round() as u64;
            format!("{}m {:02}s", secs / 60, secs % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::LineError;
    use super::*;
    use crate::grid::Grid;
    use crate::verdict::{Outcome, Status};

    fn record(status: Option<Status>, millis: u64) -> Record {
        let result = match status {
            Some(status) => Ok(Outcome {
                status,
                solutions: Vec::new(),
                ..Outcome::new(&Grid::empty(crate::grid::Size::NINE))
            }),
            None => Err(LineError::TooLong { line: 1 }),
        };
        Record {
            line: 1,
            puzzle: None,
            result,
            time: Duration::from_millis(millis),
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
        assert_eq!(s.count(LineStatus::Solved), 100);
        assert_eq!(s.count(LineStatus::None), 1);
        assert_eq!(s.count(LineStatus::Error), 1);
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
        let table = s.table();
        for row in [
            "│ solved      │       100 │",
            "│ total       │       103 │",
            "│ total time  │   2.000 s │",
        ] {
            assert!(table.contains(row), "{row} in\n{table}");
        }
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(human(Duration::from_micros(17)), "17 µs");
        assert_eq!(human(Duration::from_micros(41_234)), "41.234 ms");
        assert_eq!(human(Duration::from_millis(12_345)), "12.345 s");
        assert_eq!(human(Duration::from_secs(725)), "12m 05s");
    }
}
