//! Benchmarks: the same puzzles solved by each chosen engine and encoding,
//! every answer checked, summed up as one table.

use crate::encoding::EncodingKind;
use crate::engine::{EngineKind, Settings, new_engine};
use crate::grid::Grid;
use crate::input::InputError;
use crate::parse::{is_skipped, parse_line};
use crate::timing::Timings;
use crate::verdict::{InternalError, Status, solve_with};
use std::io::BufRead;
use std::path::Path;
use std::time::{Duration, Instant};
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

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
    pub fn settings(&self, timeout: Option<Duration>) -> Settings {
        Settings {
            engine: self.engine,
            encoding: self.encoding.unwrap_or_default(),
            timeout,
            ..Settings::default()
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
    puzzles: &[Grid],
    configs: &[Config],
    unique: bool,
    timeout: Option<Duration>,
) -> Result<Vec<Row>, InternalError> {
    let mut rows = Vec::with_capacity(configs.len());
    let mut first: Vec<Status> = Vec::new();
    for &config in configs {
        let mut engine = new_engine(&config.settings(timeout));
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
            let outcome = solve_with(engine.as_mut(), puzzle, unique)?;
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
                label(&rows[0]),
                a.name(),
                label(&row),
                b.name()
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

fn label(row: &Row) -> String {
    match row.config.encoding {
        Some(encoding) => format!("{} {}", row.config.engine.name(), encoding.name()),
        None => row.config.engine.name().to_string(),
    }
}

/// The rows as a table: puzzles, solved (and unique), seconds, puzzles per
/// second, median and p99 milliseconds per puzzle, and how many times the
/// fastest row's time each row takes (1.00x for the fastest).
pub fn table(rows: &[Row], unique: bool) -> String {
    let fastest = rows.iter().map(Row::rate).fold(0.0, f64::max);
    let mut builder = Builder::new();
    let mut header = vec!["engine", "encoding", "puzzles", "solved"];
    if unique {
        header.push("unique");
    }
    header.extend([
        "gave up",
        "seconds",
        "puzzles/s",
        "median ms",
        "p99 ms",
        "time vs fastest",
    ]);
    builder.push_record(header);
    for row in rows {
        let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1e3);
        let mut record = vec![
            row.config.engine.name().to_string(),
            row.config
                .encoding
                .map_or("-", EncodingKind::name)
                .to_string(),
            row.timings.count().to_string(),
            row.solved.to_string(),
        ];
        if unique {
            record.push(row.unique.to_string());
        }
        let slower = match row.rate() {
            rate if rate > 0.0 => fastest / rate,
            _ => f64::INFINITY,
        };
        let relative = match slower {
            s if s >= 100.0 => format!("{s:.0}x"),
            s if s >= 10.0 => format!("{s:.1}x"),
            s => format!("{s:.2}x"),
        };
        record.extend([
            row.gave_up.to_string(),
            format!("{:.3}", row.wall.as_secs_f64()),
            format!("{:.1}", row.rate()),
            ms(row.timings.median()),
            ms(row.timings.p99()),
            relative,
        ]);
        builder.push_record(record);
    }
    let mut table = builder.build();
    table
        .with(Style::markdown())
        .modify(Columns::new(2..), Alignment::right());
    format!("{table}\n")
}

/// Reads a file of one-line puzzles (blank and `#` lines skipped), the
/// first `limit` of them when a limit is given.
pub fn read_puzzles(path: &Path, limit: Option<usize>) -> Result<Vec<Grid>, InputError> {
    let io = |e: std::io::Error| InputError::Io(e.to_string());
    if path.is_dir() {
        return Err(InputError::Directory);
    }
    let reader = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut puzzles = Vec::new();
    for (number, line) in reader.lines().enumerate() {
        if limit.is_some_and(|n| puzzles.len() >= n) {
            break;
        }
        let line = line.map_err(io)?;
        if !is_skipped(&line) {
            puzzles.push(parse_line(&line, number + 1, None).map_err(InputError::Parse)?);
        }
    }
    Ok(puzzles)
}
