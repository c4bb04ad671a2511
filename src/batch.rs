//! Solving whole files of puzzles, one per line, as a stream: a reader, a
//! pool of workers each with its own engine, and the caller's thread writing
//! the results back in input order. One job without Z3 is solved in the
//! caller's thread itself, as the search is then quicker than handing the
//! puzzle to a worker.
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
use crate::puzzle::fpuzzles::{self, FpuzzlesError};
use crate::puzzle::grid::Size;
use crate::puzzle::input::InputError;
use crate::puzzle::parse::{ParseError, parse_line};
use crate::puzzle::sigh::{self, SighError};
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

/// How long the writer waits for a result, with a line waiting for a
/// worker, before it starts another worker (up to the jobs asked for). A
/// result this late means every worker is held up by a slow puzzle; quick
/// ones come far more often.
const GROW_AFTER: Duration = Duration::from_millis(200);

/// How many puzzles a worker thread solves before it hands over to a fresh
/// one. Starting a thread and its engine costs far less than one puzzle.
const PUZZLES_PER_THREAD: usize = 250;

/// The most puzzle lines the reader hands over at once to a batch solved
/// in the caller's thread (see [`Batch::run`]). One message per line would
/// cost more than reading and writing the line.
const LINES_PER_CHUNK: usize = 256;

/// How many chunks of lines the reader may be ahead of a batch solved in
/// the caller's thread.
const CHUNKS_AHEAD: usize = 4;

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
    /// An f-puzzles line (a link or compressed payload) that is not a
    /// puzzle z3doku can solve.
    #[error("line {line}: {error}")]
    Fpuzzles {
        /// The line.
        line: usize,
        /// What is wrong with it.
        error: FpuzzlesError,
    },
    /// A sigh line (a puzzle string or a link with `?q=`) that is not a
    /// puzzle z3doku can solve.
    #[error("line {line}: {error}")]
    Sigh {
        /// The line.
        line: usize,
        /// What is wrong with it.
        error: SighError,
    },
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

/// The puzzle on a line of a batch or bench file: a line of cells with
/// the classic rules (of `size`, when given), an f-puzzles link,
/// compressed payload or JSON with its own rules, or a sigh puzzle string
/// or link with its own (read first, as a single puzzle is: see
/// `puzzle::input`).
pub fn puzzle_of_line(text: &str, line: usize, size: Option<Size>) -> Result<Puzzle, LineError> {
    let puzzle = if sigh::is_sigh(text) {
        sigh::parse(text).map_err(|error| LineError::Sigh { line, error })?
    } else if fpuzzles::is_fpuzzles(text) {
        fpuzzles::parse(text).map_err(|error| LineError::Fpuzzles { line, error })?
    } else {
        return Ok(Puzzle::classic(parse_line(text, line, size)?));
    };
    match size {
        Some(size) if !size.same_dimensions(puzzle.size()) => Err(LineError::Fpuzzles {
            line,
            error: FpuzzlesError::Invalid {
                place: "the puzzle".into(),
                problem: format!("it is {}, but {size} was asked for", puzzle.size()),
            },
        }),
        _ => Ok(puzzle),
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
}

/// What a batch hands to its output as it runs
/// ([`Batch::run_streaming`]).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// The next record in input order.
    Record(&'a Record),
    /// No record is ready: the run is about to wait for a puzzle to be
    /// solved or for the input. An output that gathers records should
    /// write them out now.
    Waiting,
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
    ///
    /// With one job and no Z3 to solve or verify with, the puzzles are
    /// solved and written in the caller's thread, the reader handing over
    /// lines in chunks: that saves two hand-overs per puzzle, which cost
    /// as much as the native engine's search itself. With Z3 the workers
    /// are threads of their own, renewed from time to time to free Z3's
    /// memory.
    pub fn run(
        &self,
        input: Box<dyn Read + Send>,
        stop: Arc<AtomicBool>,
        mut write: impl FnMut(&Record) -> ControlFlow<()>,
    ) -> Result<Summary, BatchError> {
        self.run_streaming(input, stop, |event| match event {
            Event::Record(record) => write(record),
            Event::Waiting => ControlFlow::Continue(()),
        })
    }

    /// [`Batch::run`], also telling `output` each time the run is about to
    /// wait ([`Event::Waiting`]), so that an output that gathers records
    /// can write them out then: nothing finished stays held back while the
    /// run waits, and nothing is written a record at a time while records
    /// come quickly.
    pub fn run_streaming(
        &self,
        input: Box<dyn Read + Send>,
        stop: Arc<AtomicBool>,
        mut write: impl FnMut(Event<'_>) -> ControlFlow<()>,
    ) -> Result<Summary, BatchError> {
        let start = Instant::now();
        let mut summary = Summary::new()?;
        if self.jobs.get() == 1 && !self.needs_z3() {
            self.run_here(input, &stop, &mut summary, write)?;
            summary.interrupted = stop.load(Ordering::SeqCst);
            summary.wall = start.elapsed();
            return Ok(summary);
        }
        let jobs = self.jobs.min(max_jobs());
        let window = jobs.get().saturating_mul(WINDOW_PER_WORKER);
        // A slot per puzzle between reader and writer: the reader takes one
        // before sending a puzzle, the writer gives it back once the result
        // is written, so neither channels nor the reorder buffer outgrow it.
        let (slots_tx, slots_rx) = bounded::<()>(window);
        let (jobs_tx, jobs_rx) = bounded::<Job>(window);
        let (results_tx, results_rx) = bounded::<(u64, Record)>(window);
        let reading = Arc::new(AtomicBool::new(true));
        std::thread::scope(|scope| -> Result<(), BatchError> {
            let mut workers = Vec::new();
            let spawn = |n: usize, results: Sender<(u64, Record)>| {
                let (jobs, stop) = (jobs_rx.clone(), &stop);
                std::thread::Builder::new()
                    .name(format!("z3doku-worker-{n}"))
                    .spawn_scoped(scope, move || self.work(&jobs, &results, stop))
                    .map_err(|e| BatchError::Thread(e.to_string()))
            };
            // One worker per core from the start; the rest of those asked
            // for only when every started one is held up (see
            // [`GROW_AFTER`]): each costs a thread and a Z3 context, which a
            // short or quick file never needs.
            let mut started = Ok(());
            for n in 0..jobs.min(default_jobs()).get() {
                match spawn(n, results_tx.clone()) {
                    Ok(handle) => workers.push(handle),
                    Err(e) => {
                        started = Err(e);
                        break;
                    }
                }
            }
            // Kept for workers started later; dropped once no more can be,
            // so that the results channel ends when the last worker does.
            let mut spare = (started.is_ok() && workers.len() < jobs.get()).then_some(results_tx);
            // Without workers the reader is never started, and dropping its
            // sender here lets any started workers end.
            let started = started.and_then(|()| {
                let (stop, reading) = (Arc::clone(&stop), Arc::clone(&reading));
                let lines = Lines::new(BufReader::with_capacity(MAX_LINE_BYTES, input));
                std::thread::Builder::new()
                    .name("z3doku-reader".into())
                    .spawn(move || {
                        read(lines, &jobs_tx, &slots_tx, &stop);
                        reading.store(false, Ordering::SeqCst);
                    })
                    .map(drop)
                    .map_err(|e| BatchError::Thread(e.to_string()))
            });
            let mut grown = Ok(());
            if started.is_ok() {
                let mut grow = |waited: bool| {
                    let Some(results) = spare.as_ref() else {
                        return false;
                    };
                    if stop.load(Ordering::SeqCst) || !reading.load(Ordering::SeqCst) {
                        spare = None;
                        return false;
                    }
                    if !waited || jobs_rx.is_empty() {
                        return true;
                    }
                    match spawn(workers.len(), results.clone()) {
                        Ok(handle) => workers.push(handle),
                        Err(e) => grown = Err(e),
                    }
                    if grown.is_err() || workers.len() >= jobs.get() {
                        spare = None;
                        return false;
                    }
                    true
                };
                write_in_order(
                    &results_rx,
                    &slots_rx,
                    &mut summary,
                    &mut write,
                    &stop,
                    &mut grow,
                );
            }
            drop(spare);
            // Unblock workers waiting to hand in a result, then the reader.
            drop((results_rx, slots_rx, jobs_rx));
            // Joined by hand, not by the scope, to hear how each ended.
            let mut failed = Ok(());
            for worker in workers {
                let ended = match worker.join() {
                    Ok(ended) => ended,
                    Err(_) => Err("a worker stopped unexpectedly".into()),
                };
                failed = failed.and(ended.map_err(BatchError::Thread));
            }
            started.and(grown).and(failed)
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
        let mut pipeline = self.pipeline();
        // Classic lines never need a reasoned step, so the native engine
        // serves as prover too.
        let mut tutor = self.tutor();
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
            let record = self.solve_line(&mut pipeline, tutor.as_mut(), job.line);
            if results.send((job.seq, record)).is_err() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// A pipeline for the request's puzzles, with engines told that many
    /// follow one another (a Z3 engine keeps its solver from the first).
    fn pipeline(&self) -> Pipeline {
        let mut request = self.request.clone();
        request.settings.many_puzzles = true;
        Pipeline::new(request)
    }

    /// Whether the request needs Z3: to search, or to verify the native
    /// engine.
    fn needs_z3(&self) -> bool {
        self.request.settings.engine == EngineKind::Z3 || self.request.verify
    }

    /// Solves one puzzle line with `pipeline` (a fresh one should its
    /// engine panic).
    /// The tutor that rates each puzzle, when [`Batch::rate`] asks.
    fn tutor(&self) -> Option<Tutor> {
        self.rate
            // A rating's reasoned steps get the logic's default budget
            // when no --timeout is set, as `rate` does: past it, search
            // finishes the path and the rating says so.
            .then(|| {
                let budget = self.request.timeout.or(Some(crate::logic::DEFAULT_TIMEOUT));
                Tutor::new(EngineKind::Native, budget)
            })
    }

    fn solve_line(
        &self,
        pipeline: &mut Pipeline,
        tutor: Option<&mut Tutor>,
        line: PuzzleLine,
    ) -> Record {
        let start = Instant::now();
        let number = line.number;
        let result = line.text.as_ref().map_err(Clone::clone).and_then(|text| {
            let puzzle = puzzle_of_line(text, number, self.size)?;
            // An engine that panics is a bug like a wrong answer: the line
            // says so and the run goes on with fresh engines.
            let solved = catch_unwind(AssertUnwindSafe(|| pipeline.solve(&puzzle)));
            let solved = solved.unwrap_or_else(|_| {
                *pipeline = self.pipeline();
                Err(InternalError("the engine panicked".into()))
            });
            solved.map_err(|error| LineError::Internal {
                line: number,
                error,
            })
        });
        let rating = match (tutor, &result) {
            (Some(tutor), Ok(outcome)) => match (outcome.status, outcome.solutions.as_slice()) {
                // Every solution the pipeline hands out has passed the
                // independent checker.
                (Status::Unique, [solution]) => {
                    Some(tutor.rate_unique(&outcome.puzzle, &solution.grid))
                }
                (_, []) => None,
                _ => Some(tutor.rate(&outcome.puzzle)),
            }
            .map(|rated| rated.map(|(rating, _)| rating)),
            _ => None,
        };
        Record {
            line: number,
            puzzle: line.text.ok(),
            result,
            time: start.elapsed(),
            rating,
        }
    }

    /// One job without Z3: the caller's thread solves each line and hands
    /// its record to `write`, in input order by construction, while the
    /// reader's thread reads ahead by a few chunks of lines.
    fn run_here(
        &self,
        input: Box<dyn Read + Send>,
        stop: &Arc<AtomicBool>,
        summary: &mut Summary,
        mut write: impl FnMut(Event<'_>) -> ControlFlow<()>,
    ) -> Result<(), BatchError> {
        let (chunks_tx, chunks_rx) = bounded::<Vec<PuzzleLine>>(CHUNKS_AHEAD);
        let lines = Lines::new(BufReader::with_capacity(MAX_LINE_BYTES, input));
        let reader_stop = Arc::clone(stop);
        std::thread::Builder::new()
            .name("z3doku-reader".into())
            .spawn(move || read_chunks(lines, &chunks_tx, &reader_stop))
            .map_err(|e| BatchError::Thread(e.to_string()))?;
        let mut pipeline = self.pipeline();
        let mut tutor = self.tutor();
        loop {
            let chunk = match chunks_rx.try_recv() {
                Ok(chunk) => chunk,
                Err(_) => {
                    if write(Event::Waiting).is_break() {
                        stop.store(true, Ordering::SeqCst);
                        return Ok(());
                    }
                    match chunks_rx.recv_timeout(STOP_POLL) {
                        Ok(chunk) => chunk,
                        Err(RecvTimeoutError::Timeout) if !stop.load(Ordering::SeqCst) => continue,
                        Err(_) => return Ok(()),
                    }
                }
            };
            for line in chunk {
                if stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                let record = self.solve_line(&mut pipeline, tutor.as_mut(), line);
                summary.add(&record);
                if write(Event::Record(&record)).is_break() {
                    stop.store(true, Ordering::SeqCst);
                    return Ok(());
                }
            }
        }
    }
}

/// The reader of a batch solved in the caller's thread: hands the puzzle
/// lines over in chunks, each as soon as it is full or the next line would
/// have to wait for the input (a terminal or a pipe must not hold back the
/// lines already read).
fn read_chunks(
    mut lines: Lines<BufReader<Box<dyn Read + Send>>>,
    chunks: &Sender<Vec<PuzzleLine>>,
    stop: &AtomicBool,
) {
    let mut chunk = Vec::with_capacity(LINES_PER_CHUNK);
    while let Some(line) = lines.next() {
        chunk.push(line);
        if chunk.len() == LINES_PER_CHUNK || lines.reader().buffer().is_empty() {
            let full = std::mem::replace(&mut chunk, Vec::with_capacity(LINES_PER_CHUNK));
            if stop.load(Ordering::SeqCst) || chunks.send(full).is_err() {
                return;
            }
        }
    }
    if !chunk.is_empty() && !stop.load(Ordering::SeqCst) {
        let _ = chunks.send(chunk);
    }
}

/// The writer: hands records to `write` in input order, each as soon as it
/// and all before it are done, giving back a slot to the reader for each.
/// Whenever no result has come for [`GROW_AFTER`], it calls `grow(true)`
/// (which starts another worker if a line is waiting), until `grow` says
/// no more can be started; `grow(false)`, called before each wait, only
/// asks that, so that the wait for the last results ends with the last
/// worker rather than at a timeout.
fn write_in_order(
    results: &Receiver<(u64, Record)>,
    slots: &Receiver<()>,
    summary: &mut Summary,
    write: &mut impl FnMut(Event<'_>) -> ControlFlow<()>,
    stop: &AtomicBool,
    grow: &mut impl FnMut(bool) -> bool,
) {
    // At most a window's worth of records wait here for an earlier one.
    let mut pending = BTreeMap::new();
    let mut next = 0;
    let mut growing = true;
    loop {
        let (seq, record) = match results.try_recv() {
            Ok(result) => result,
            Err(_) => {
                if write(Event::Waiting).is_break() {
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                growing = growing && grow(false);
                let received = loop {
                    if !growing {
                        break results.recv().ok();
                    }
                    match results.recv_timeout(GROW_AFTER) {
                        Ok(result) => break Some(result),
                        Err(RecvTimeoutError::Timeout) => growing = grow(true),
                        Err(RecvTimeoutError::Disconnected) => break None,
                    }
                };
                match received {
                    Some(result) => result,
                    None => return,
                }
            }
        };
        pending.insert(seq, record);
        while let Some(record) = pending.remove(&next) {
            next += 1;
            let _ = slots.try_recv();
            summary.add(&record);
            if write(Event::Record(&record)).is_break() {
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

    /// One job with the native engine: solved in the caller's thread.
    fn native_alone() -> Batch {
        Batch {
            request: Request {
                settings: crate::engine::Settings {
                    engine: EngineKind::Native,
                    ..crate::engine::Settings::default()
                },
                unique: true,
                ..Request::default()
            },
            jobs: NonZeroUsize::MIN,
            ..Batch::default()
        }
    }

    #[test]
    fn one_native_job_keeps_order_over_many_chunks() {
        let batch = native_alone();
        assert!(!batch.needs_z3());
        let clash = format!("11{}", &NOTEBOOK[2..]);
        let lines: Vec<String> = (0..3 * LINES_PER_CHUNK + 5)
            .map(|i| match i % 3 {
                0 => NOTEBOOK.to_string(),
                1 => clash.clone(),
                _ => format!("bad {i}"),
            })
            .collect();
        let (records, summary) = run(&batch, lines.join("\n"));
        let numbers: Vec<usize> = records.iter().map(|r| r.line).collect();
        assert_eq!(numbers, (1..=lines.len()).collect::<Vec<_>>());
        for record in &records {
            let want = [Status::Unique, Status::None, Status::Error][(record.line - 1) % 3];
            assert_eq!(record.status(), want, "line {}", record.line);
        }
        assert_eq!(summary.total(), lines.len());
        assert!(!summary.interrupted);
    }

    #[test]
    fn one_native_job_stops_on_a_closed_output() {
        let input = vec![NOTEBOOK; 50].join("\n");
        let (mut written, mut waits) = (0, 0);
        let summary = native_alone()
            .run_streaming(
                Box::new(std::io::Cursor::new(input)),
                Arc::new(AtomicBool::new(false)),
                |event| match event {
                    Event::Waiting => {
                        waits += 1;
                        ControlFlow::Continue(())
                    }
                    Event::Record(_) => {
                        written += 1;
                        if written == 3 {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    }
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(written, 3);
        // The reader may or may not be ahead: at most one wait per chunk.
        assert!(waits <= 1, "{waits} waits");
        assert_eq!(summary.total(), 3);
        assert!(summary.interrupted);
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
    fn sigh_strings_are_lines_too() {
        // The more_kinds.txt full rank puzzle as sigh writes it, the same
        // as a `?q=` link, and a constraint sigh does not have.
        let string = ".~R1C3_4~R2C1_1~R2C3_6~R2C8_3~R3C1_7~R3C8_5~R4C1_9~R4C6_8~R4C8_2~R5C4_2\
                      ~R5C6_5~R6C2_4~R6C4_6~R7C2_2~R7C9_4~R8C7_9~R9C5_7\
                      .FullRank~R1~6~.FullRank~C9~~29.FullRank~C4~17~";
        let link = format!("https://sigh.sudoku.example/?q={string}");
        let unique = Batch {
            request: Request {
                unique: true,
                ..Request::default()
            },
            ..Batch::default()
        };
        let input = [string, &link, ".~R1C1_5.Bogus~1"].join("\n");
        let (records, _) = run(&unique, input);
        let got: Vec<Status> = records.iter().map(Record::status).collect();
        assert_eq!(got, [Status::Unique, Status::Unique, Status::Error]);
        assert!(matches!(
            records[2].result,
            Err(LineError::Sigh { line: 3, .. })
        ));
        // Without the clues the givens alone are not unique.
        let givens = string
            .split(".FullRank")
            .next()
            .unwrap_or_default()
            .to_string();
        let (records, _) = run(&unique, givens);
        assert_eq!(records[0].status(), Status::Multiple);
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
