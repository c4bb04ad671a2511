//! Solving whole files of puzzles, one per line, as a stream: a reader, a
//! pool of workers each with its own engine, and the caller's thread writing
//! the results back in input order.
//!
//! Memory stays flat whatever the input's length: lines are read in bounded
//! pieces ([`lines`]), at most a fixed window of puzzles is between the
//! reader and the writer at any time, and the [`Summary`] keeps a histogram
//! of times rather than a list.
//!
//! ```
//! use std::sync::{Arc, atomic::AtomicBool};
//! use z3doku::batch::Batch;
//! use z3doku::solve::Status;
//!
//! let input = "# two puzzles and a bad line\n\
//!     ....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....\n\
//!     not a puzzle\n\
//!     11..94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....\n";
//! let mut statuses = Vec::new();
//! let summary = Batch::default().run(
//!     Box::new(input.as_bytes()),
//!     Arc::new(AtomicBool::new(false)),
//!     |record| {
//!         statuses.push((record.line, record.status()));
//!         std::ops::ControlFlow::Continue(())
//!     },
//! )?;
//! assert_eq!(
//!     statuses,
//!     [(2, Status::Solved), (3, Status::Error), (4, Status::None)]
//! );
//! assert_eq!((summary.total(), summary.worst), (3, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod lines;
pub mod summary;

pub use lines::{Lines, MAX_LINE_BYTES, MAX_SKIPPED_BYTES, PuzzleLine};
pub use summary::Summary;

use crate::engine::EngineKind;
use crate::logic::{PathError, Rating, Tutor};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::Size;
use crate::puzzle::input::InputError;
use crate::puzzle::parse::{ParseError, parse_line};
use crate::solve::{InternalError, Outcome, Pipeline, Request, Status, exit};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How many puzzles each worker may be ahead of the writer. A slow puzzle
/// holds the output back while the others go on, up to this window.
const WINDOW_PER_WORKER: usize = 32;

/// How often an idle worker looks at the stop flag: a reader blocked on a
/// terminal or pipe must not keep the run from stopping.
const STOP_POLL: Duration = Duration::from_millis(50);

/// How many puzzles a worker thread solves before it hands over to a fresh
/// one. Starting a thread and its engine costs far less than one puzzle.
const PUZZLES_PER_THREAD: usize = 250;

/// Why a line has no verdict. Each message starts with the line number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// Longer than [`MAX_LINE_BYTES`].
    #[error("line {line}: longer than {} KiB, far more than a puzzle", MAX_LINE_BYTES / 1024)]
    TooLong {
        /// The line.
        line: usize,
    },
    /// Longer than [`MAX_LINE_BYTES`], with no end within
    /// [`MAX_SKIPPED_BYTES`] more; the run ends here.
    #[error(
        "line {line}: no end of line within {} MiB: not a file of puzzles; stopped reading",
        MAX_SKIPPED_BYTES >> 20
    )]
    Endless {
        /// The line.
        line: usize,
    },
    /// Bytes that are not UTF-8, first at this place.
    #[error("line {line}, column {column}: bytes that are not UTF-8 text")]
    NotUtf8 {
        /// The line.
        line: usize,
        /// Column (in characters) of the first bad byte.
        column: usize,
    },
    /// The input could not be read from this line on; the run ends here.
    #[error("line {line}: cannot read it: {message}")]
    Io {
        /// The line that could not be read.
        line: usize,
        /// The operating system's reason.
        message: String,
    },
    /// The text is not a puzzle.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The engine broke its contract on this puzzle: a bug in z3doku.
    #[error("line {line}: {error}")]
    Internal {
        /// The line.
        line: usize,
        /// What went wrong.
        error: InternalError,
    },
}

impl LineError {
    /// The exit status that reports it: 5 for an internal error, 2 (input
    /// error) for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            LineError::Internal { .. } => exit::INTERNAL,
            _ => exit::INPUT,
        }
    }
}

/// The result for one puzzle line.
#[derive(Clone, Debug)]
pub struct Record {
    /// The 1-based line number in the input.
    pub line: usize,
    /// The line's text, trimmed, when it could be read.
    pub puzzle: Option<String>,
    /// The verdict, or why there is none.
    pub result: Result<Outcome, LineError>,
    /// Time spent on the line: reading the puzzle and solving it (and
    /// rating it, when asked).
    pub time: Duration,
    /// With [`Batch::rate`], the puzzle's ratings, or why it has none (not
    /// unique, or out of time); `None` when not asked or the line has no
    /// solution.
    pub rating: Option<Result<Rating, PathError>>,
}

impl Record {
    /// The line's status.
    pub fn status(&self) -> Status {
        match &self.result {
            Ok(outcome) => outcome.status,
            Err(_) => Status::Error,
        }
    }

    /// The exit status that reports this line alone.
    pub fn exit_code(&self) -> u8 {
        match &self.result {
            Ok(outcome) => outcome.status.exit_code(),
            Err(error) => error.exit_code(),
        }
    }

    /// The first solution as a line, if there is one.
    pub fn solution(&self) -> Option<String> {
        let outcome = self.result.as_ref().ok()?;
        outcome.solutions.first().map(|s| s.grid.to_line())
    }
}

/// Why a batch could not run at all.
#[derive(Debug, Error)]
pub enum BatchError {
    /// A thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(String),
    /// The summary could not be set up.
    #[error(transparent)]
    Summary(#[from] summary::SummaryError),
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct Batch {
    /// What to find out about each puzzle; each worker answers it with a
    /// [`Pipeline`] of its own. The timeout is per puzzle.
    pub request: Request,
    /// Force the board size of every puzzle.
    pub size: Option<Size>,
    /// How many puzzles to solve at once, each in its own thread; see
    /// [`max_jobs`].
    pub jobs: NonZeroUsize,
    /// Also rate each solved puzzle ([`crate::logic::Rating`]).
    pub rate: bool,
}

impl Default for Batch {
    /// The default engine, one worker per core.
    fn default() -> Batch {
        Batch {
            request: Request::default(),
            size: None,
            jobs: default_jobs(),
            rate: false,
        }
    }
}

/// The number of cores, or 1 when it cannot be told.
pub fn default_jobs() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Workers per core at most. One per core keeps every core busy; a few
/// more let quick puzzles through while others wait on a timeout. Beyond
/// that, threads (two per worker, each with its Z3 context) cost memory and
/// can fail to start, and buy nothing.
pub const JOBS_PER_CORE: usize = 8;

/// The most workers a batch runs: [`JOBS_PER_CORE`] per core.
pub fn max_jobs() -> NonZeroUsize {
    default_jobs().saturating_mul(NonZeroUsize::new(JOBS_PER_CORE).unwrap_or(NonZeroUsize::MIN))
}

/// A puzzle line on its way to a worker, numbered in input order.
struct Job {
    seq: u64,
    line: PuzzleLine,
}

impl Batch {
    /// Solves every puzzle line of `input`, handing each [`Record`] to
    /// `write` in input order as soon as it and all before it are done.
    ///
    /// Setting `stop` (from a Ctrl-C handler, say) ends the run early: no
    /// new puzzle is started, the ones in hand are finished, and every line
    /// finished in order is still written. When `write` breaks (the output
    /// closed), the run ends the same way. Either way the summary says it
    /// was interrupted and covers the lines written.
    ///
    /// The input is read on a thread of its own that is not waited for when
    /// the run stops early, as it may be blocked on a terminal or pipe; it
    /// ends at the next line it reads.
    pub fn run(
        &self,
        input: Box<dyn Read + Send>,
        stop: Arc<AtomicBool>,
        mut write: impl FnMut(&Record) -> ControlFlow<()>,
    ) -> Result<Summary, BatchError> {
        let start = Instant::now();
        let mut summary = Summary::new()?;
        let jobs = self.jobs.min(max_jobs());
        let window = jobs.get().saturating_mul(WINDOW_PER_WORKER);
        // A slot per puzzle between reader and writer: the reader takes one
        // before sending a puzzle, the writer gives it back once the result
        // is written, so neither channels nor the reorder buffer outgrow it.
        let (slots_tx, slots_rx) = bounded::<()>(window);
        let (jobs_tx, jobs_rx) = bounded::<Job>(window);
        let (results_tx, results_rx) = bounded::<(u64, Record)>(window);
        std::thread::scope(|scope| -> Result<(), BatchError> {
            let mut workers = Vec::new();
            let mut started = Ok(());
            for n in 0..jobs.get() {
                let (jobs, results, stop) = (jobs_rx.clone(), results_tx.clone(), &stop);
                let worker = std::thread::Builder::new()
                    .name(format!("z3doku-worker-{n}"))
                    .spawn_scoped(scope, move || self.work(&jobs, &results, stop));
                match worker {
                    Ok(handle) => workers.push(handle),
                    Err(e) => {
                        started = Err(BatchError::Thread(e.to_string()));
                        break;
                    }
                }
            }
            drop((jobs_rx, results_tx));
            // Without workers the reader is never started, and dropping its
            // sender here lets any started workers end.
            let started = started.and_then(|()| {
                let stop = Arc::clone(&stop);
                let lines = Lines::new(BufReader::with_capacity(MAX_LINE_BYTES, input));
                std::thread::Builder::new()
                    .name("z3doku-reader".into())
                    .spawn(move || read(lines, &jobs_tx, &slots_tx, &stop))
                    .map(drop)
                    .map_err(|e| BatchError::Thread(e.to_string()))
            });
            if started.is_ok() {
                write_in_order(&results_rx, &slots_rx, &mut summary, &mut write, &stop);
            }
            // Unblock workers waiting to hand in a result, then the reader.
            drop((results_rx, slots_rx));
            // Joined by hand, not by the scope, to hear how each ended.
            let mut failed = Ok(());
            for worker in workers {
                let ended = match worker.join() {
                    Ok(ended) => ended,
                    Err(_) => Err("a worker stopped unexpectedly".into()),
                };
                failed = failed.and(ended.map_err(BatchError::Thread));
            }
            started.and(failed)
        })?;
        summary.interrupted = stop.load(Ordering::SeqCst);
        summary.wall = start.elapsed();
        Ok(summary)
    }

    /// A worker: solves puzzles until the input ends or the run stops, on
    /// a fresh thread (so with a fresh Z3 context) every
    /// [`PUZZLES_PER_THREAD`] puzzles. A Z3 context keeps some memory from
    /// every puzzle it sees; recycling it keeps the run's memory flat.
    fn work(
        &self,
        jobs: &Receiver<Job>,
        results: &Sender<(u64, Record)>,
        stop: &AtomicBool,
    ) -> Result<(), String> {
        loop {
            let solver = std::thread::scope(|scope| {
                let generation = std::thread::Builder::new()
                    .spawn_scoped(scope, || self.solve_some(jobs, results, stop))
                    .map_err(|e| e.to_string())?;
                // A real join, so that the thread's Z3 context is freed now.
                generation
                    .join()
                    .map_err(|_| "a worker stopped unexpectedly".to_string())
            })?;
            if solver.is_break() {
                return Ok(());
            }
        }
    }

    /// Solves up to [`PUZZLES_PER_THREAD`] puzzles with one engine; breaks
    /// when there are no more to solve.
    fn solve_some(
        &self,
        jobs: &Receiver<Job>,
        results: &Sender<(u64, Record)>,
        stop: &AtomicBool,
    ) -> ControlFlow<()> {
        let mut pipeline = Pipeline::new(self.request.clone());
        // Classic lines never need a reasoned step, so the native engine
        // serves as prover too.
        let mut tutor = self
            .rate
            .then(|| Tutor::new(EngineKind::Native, self.request.timeout));
        for _ in 0..PUZZLES_PER_THREAD {
            let job = loop {
                match jobs.recv_timeout(STOP_POLL) {
                    Ok(job) => break job,
                    Err(RecvTimeoutError::Timeout) if !stop.load(Ordering::SeqCst) => continue,
                    Err(_) => return ControlFlow::Break(()),
                }
            };
            if stop.load(Ordering::SeqCst) {
                return ControlFlow::Break(());
            }
            let start = Instant::now();
            let number = job.line.number;
            let result = job
                .line
                .text
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|text| {
                    let puzzle = Puzzle::classic(parse_line(text, number, self.size)?);
                    // An engine that panics is a bug like a wrong answer: the
                    // line says so and the run goes on with fresh engines.
                    let solved = catch_unwind(AssertUnwindSafe(|| pipeline.solve(&puzzle)));
                    let solved = solved.unwrap_or_else(|_| {
                        pipeline = Pipeline::new(self.request.clone());
                        Err(InternalError("the engine panicked".into()))
                    });
                    solved.map_err(|error| LineError::Internal {
                        line: number,
                        error,
                    })
                });
            let rating = match (&mut tutor, &result) {
                (Some(tutor), Ok(outcome)) if !outcome.solutions.is_empty() => {
                    Some(tutor.rate(&outcome.puzzle).map(|(rating, _)| rating))
                }
                _ => None,
            };
            let record = Record {
                line: number,
                puzzle: job.line.text.ok(),
                result,
                time: start.elapsed(),
                rating,
            };
            if results.send((job.seq, record)).is_err() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

/// The writer: hands records to `write` in input order, each as soon as it
/// and all before it are done, giving back a slot to the reader for each.
fn write_in_order(
    results: &Receiver<(u64, Record)>,
    slots: &Receiver<()>,
    summary: &mut Summary,
    write: &mut impl FnMut(&Record) -> ControlFlow<()>,
    stop: &AtomicBool,
) {
    // At most a window's worth of records wait here for an earlier one.
    let mut pending = BTreeMap::new();
    let mut next = 0;
    for (seq, record) in results {
        pending.insert(seq, record);
        while let Some(record) = pending.remove(&next) {
            next += 1;
            let _ = slots.try_recv();
            summary.add(&record);
            if write(&record).is_break() {
                stop.store(true, Ordering::SeqCst);
                return;
            }
        }
    }
}

/// The reader: numbers the puzzle lines and hands them to the workers, a
/// window's worth ahead of the writer at most.
fn read(lines: Lines<impl BufRead>, jobs: &Sender<Job>, slots: &Sender<()>, stop: &AtomicBool) {
    for (seq, line) in (0..).zip(lines) {
        if stop.load(Ordering::SeqCst)
            || slots.send(()).is_err()
            || jobs.send(Job { seq, line }).is_err()
        {
            return;
        }
    }
}

/// Opens a batch input: a file, or standard input for `-`.
pub fn open(path: &str) -> Result<Box<dyn Read + Send>, InputError> {
    if path == "-" {
        return Ok(Box::new(std::io::stdin()));
    }
    if std::path::Path::new(path).is_dir() {
        return Err(InputError::Directory);
    }
    let file = std::fs::File::open(path)
        .map_err(|e| InputError::Io(crate::puzzle::input::io_message(&e)))?;
    Ok(Box::new(file))
}

/// How many puzzle lines `input` holds (for a progress bar's length), read
/// in bounded memory like the batch itself.
pub fn count_puzzles(input: impl Read) -> u64 {
    Lines::new(BufReader::with_capacity(MAX_LINE_BYTES, input)).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    fn run(batch: &Batch, input: String) -> (Vec<Record>, Summary) {
        let mut records = Vec::new();
        let summary = batch
            .run(
                Box::new(std::io::Cursor::new(input)),
                Arc::new(AtomicBool::new(false)),
                |r| {
                    records.push(r.clone());
                    ControlFlow::Continue(())
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        (records, summary)
    }

    #[test]
    fn order_is_kept_with_more_workers_than_lines_in_the_window() {
        const LINES: usize = 3 * PUZZLES_PER_THREAD + 7;
        let batch = Batch {
            jobs: NonZeroUsize::new(3).unwrap_or(NonZeroUsize::MIN),
            ..Batch::default()
        };
        // Easy (clash) and real puzzles interleaved, so workers finish out
        // of order; more lines than the window, so slots are reused, and
        // than a worker thread solves, so threads hand over.
        let clash = format!("11{}", &NOTEBOOK[2..]);
        let lines: Vec<&str> = (0..LINES)
            .map(|i| {
                if i % 61 == 0 {
                    NOTEBOOK
                } else {
                    clash.as_str()
                }
            })
            .collect();
        let (records, summary) = run(&batch, lines.join("\n"));
        let numbers: Vec<usize> = records.iter().map(|r| r.line).collect();
        assert_eq!(numbers, (1..=LINES).collect::<Vec<_>>());
        for (record, text) in records.iter().zip(&lines) {
            let want = if *text == NOTEBOOK {
                Status::Solved
            } else {
                Status::None
            };
            assert_eq!(record.status(), want, "line {}", record.line);
        }
        assert_eq!(summary.total(), LINES);
        assert_eq!(summary.count(Status::Solved), LINES.div_ceil(61));
        assert!(!summary.interrupted);
    }

    #[test]
    fn a_closed_output_stops_the_run() {
        let input = vec![NOTEBOOK; 50].join("\n");
        let mut written = 0;
        let summary = Batch::default()
            .run(
                Box::new(std::io::Cursor::new(input)),
                Arc::new(AtomicBool::new(false)),
                |_| {
                    written += 1;
                    if written == 3 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(written, 3);
        assert_eq!(summary.total(), 3);
        assert!(summary.interrupted);
    }

    #[test]
    fn statuses_and_exit_codes_of_lines() {
        let unique = Batch {
            request: Request {
                unique: true,
                ..Request::default()
            },
            ..Batch::default()
        };
        let no_solution = format!("12345678.........9{}", ".".repeat(63));
        let input = [NOTEBOOK, &".".repeat(81), &no_solution, "1234", ""].join("\n");
        let (records, summary) = run(&unique, input);
        let got: Vec<(usize, Status, u8)> = records
            .iter()
            .map(|r| (r.line, r.status(), r.exit_code()))
            .collect();
        assert_eq!(
            got,
            [
                (1, Status::Unique, 0),
                (2, Status::Multiple, 3),
                (3, Status::None, 1),
                (4, Status::Error, 2),
            ]
        );
        assert_eq!(summary.worst, 3);
    }
}
