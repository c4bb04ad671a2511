//! Benchmarks: the same puzzles solved by each chosen engine and encoding,
//! every answer checked, summed up as one table.

use crate::batch::{LineError, Lines, MAX_LINE_BYTES};
use crate::engine::{EncodingKind, EngineKind, Settings};
use crate::puzzle::Puzzle;
use crate::puzzle::input::InputError;
use crate::solve::{InternalError, Pipeline, Request, Status};
use crate::timing::Timings;
use std::io::BufReader;
use std::path::Path;
use std::time::{Duration, Instant};
use thiserror::Error;

/// One row of a benchmark: an engine, and for Z3 an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The engine.
    pub engine: EngineKind,
    /// The encoding, for engines that have one (Z3).
    pub encoding: Option<EncodingKind>,
}

impl Config {
    /// Every combination: each engine, and for Z3 each encoding.
    pub fn combinations(engines: &[EngineKind], encodings: &[EncodingKind]) -> Vec<Config> {
        engines
            .iter()
            .flat_map(|&engine| {
                let encodings: Vec<Option<EncodingKind>> = if engine == EngineKind::Z3 {
                    encodings.iter().copied().map(Some).collect()
                } else {
                    vec![None]
                };
                encodings
                    .into_iter()
                    .map(move |encoding| Config { engine, encoding })
            })
            .collect()
    }

    /// The engine settings for this row.
    pub fn settings(&self) -> Settings {
        Settings {
            engine: self.engine,
            encoding: self.encoding.unwrap_or_default(),
            ..Settings::default()
        }
    }

    /// The row's name, e.g. `z3 bool` or `native`.
    pub fn label(&self) -> String {
        match self.encoding {
            Some(encoding) => format!("{} {}", self.engine.name(), encoding.name()),
            None => self.engine.name().to_string(),
        }
    }
}

/// What one row measured.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was run.
    pub config: Config,
    /// Puzzles with a (checked) solution.
    pub solved: usize,
    /// Puzzles proven to have exactly one (with uniqueness asked).
    pub unique: usize,
    /// Puzzles the engine gave up on.
    pub gave_up: usize,
    /// Each puzzle's time in the engine.
    pub timings: Timings,
    /// The whole row's elapsed time, checking included.
    pub wall: Duration,
}

impl Row {
    /// Puzzles per second over the row's elapsed time.
    pub fn rate(&self) -> f64 {
        self.timings.rate(self.wall)
    }
}

/// Solves every puzzle with every configuration, in order (with `unique`,
/// also proving each solution unique). Every solution goes through the
/// independent checker, and the rows must agree on each puzzle's status:
/// either failing is an [`InternalError`].
pub fn run(
    puzzles: &[Puzzle],
    configs: &[Config],
    unique: bool,
    timeout: Option<Duration>,
) -> Result<Vec<Row>, InternalError> {
    let mut rows: Vec<Row> = Vec::with_capacity(configs.len());
    let mut first: Vec<Status> = Vec::new();
    for &config in configs {
        let mut pipeline = Pipeline::new(Request {
            settings: config.settings(),
            unique,
            timeout,
            ..Request::default()
        });
        let mut row = Row {
            config,
            solved: 0,
            unique: 0,
            gave_up: 0,
            timings: Timings::new(),
            wall: Duration::ZERO,
        };
        let mut statuses = Vec::with_capacity(puzzles.len());
        let start = Instant::now();
        for puzzle in puzzles {
            let outcome = pipeline.solve(puzzle)?;
            row.timings.push(outcome.elapsed);
            row.solved += usize::from(!outcome.solutions.is_empty());
            row.unique += usize::from(outcome.status == Status::Unique);
            row.gave_up += usize::from(outcome.status == Status::GaveUp);
            statuses.push(outcome.status);
        }
        row.wall = start.elapsed();
        if first.is_empty() {
            first = statuses;
        } else if let Some((i, (a, b))) = first
            .iter()
            .zip(&statuses)
            .enumerate()
            .find(|(_, (a, b))| a != b && **a != Status::GaveUp && **b != Status::GaveUp)
        {
            return Err(InternalError(format!(
                "engines disagree on puzzle {} ({}): {} says {}, {} says {}",
                i + 1,
                puzzles[i],
                rows[0].config.label(),
                a.name(),
                row.config.label(),
                b.name()
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Why a bench file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BenchFileError {
    /// The file could not be opened.
    #[error("{0}")]
    Open(#[from] InputError),
    /// A line is not a puzzle (or could not be read).
    #[error("{0}")]
    Line(#[from] LineError),
    /// Nothing but comments and blank lines: nothing to measure.
    #[error("no puzzles in the file (only blank or comment lines)")]
    Empty,
}

/// Reads a file of one-line puzzles (blank and `#` lines skipped), the
/// first `limit` of them when a limit is given, with the same bounded
/// reader as `batch`. A file without puzzles is an error: a bench of
/// nothing would measure nothing.
pub fn read_puzzles(path: &Path, limit: Option<usize>) -> Result<Vec<Puzzle>, BenchFileError> {
    let input = crate::batch::open(&path.to_string_lossy())?;
    let lines = Lines::new(BufReader::with_capacity(MAX_LINE_BYTES, input));
    let mut puzzles = Vec::new();
    for line in lines.take(limit.unwrap_or(usize::MAX)) {
        let text = line.text?;
        puzzles.push(crate::batch::puzzle_of_line(&text, line.number, None)?);
    }
    if puzzles.is_empty() {
        return Err(BenchFileError::Empty);
    }
    Ok(puzzles)
}
