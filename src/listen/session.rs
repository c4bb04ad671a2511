//! One client's requests, answered without any socket: a [`Session`] takes
//! each message as text and hands back the responses to send.
//!
//! A session answers in one worker thread of its own, which keeps its
//! engine (and, for Z3, its context and the encoding of the last rules)
//! from one request to the next: setters press the buttons again and again
//! on one puzzle while they change its givens, and the rules built for the
//! last request serve the next. The request in hand runs under a
//! [`Cancel`] token that a new request, a `cancel` or the session's end
//! cancels; the engines hear it in the middle of a search, so the worker is
//! free for the next request within milliseconds. A count reports its
//! progress while it runs.

use super::protocol::{ListenCommand, LogicalCell, Reply, Response, parse_request};
use crate::engine::{Budget, Cancel, GiveUp, Settings};
use crate::logic::pencil::digits;
use crate::logic::{DEFAULT_TIMEOUT, PathError, Pencil, Tutor};
use crate::puzzle::Puzzle;
use crate::puzzle::fpuzzles;
use crate::puzzle::grid::Grid;
use crate::solve::{Outcome, Pipeline, Request, Status};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SendError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a count in progress reports, at the most: the protocol asks
/// for a message at least every second.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// How the requests are answered: the engine and a time limit per request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answering {
    /// The engine that searches.
    pub settings: Settings,
    /// Each request gives up after this long; a step or a path, which can
    /// reason for minutes on a variant puzzle, after
    /// [`DEFAULT_TIMEOUT`] when this is `None`.
    pub timeout: Option<Duration>,
    /// Threads a count is split across (one counts the whole puzzle with
    /// the responder's own engine).
    pub jobs: usize,
}

/// One client's conversation: at most one request in hand, which a new
/// request replaces and a `cancel` or the session's end stops.
///
/// A replaced request is dropped without an answer: the userscript only
/// reads responses that carry its latest nonce, so an answer to an older
/// one would be read by nobody. An explicit `cancel` is answered
/// `{"type":"canceled"}` with the cancel's own nonce, which is the one the
/// userscript waits for.
pub struct Session {
    answering: Answering,
    worker: Option<Worker>,
    job: Option<Job>,
    /// The number of the last request handed to the worker.
    last_id: u64,
}

impl Session {
    /// A session that answers with `answering`; its worker thread starts
    /// with the first request.
    pub fn new(answering: Answering) -> Session {
        Session {
            answering,
            worker: None,
            job: None,
            last_id: 0,
        }
    }

    /// Takes one message from the client. A request is handed to the
    /// worker (and the one in hand is cancelled) and answered later,
    /// through [`Session::poll`]; what is answered at once (`cancel`, a
    /// message that is not a request) comes back here.
    pub fn receive(&mut self, text: &str) -> Option<Response> {
        let request = match parse_request(text) {
            Ok(request) => request,
            Err(response) => return Some(response),
        };
        self.cancel();
        if request.command == ListenCommand::Cancel {
            return Some(Response {
                nonce: request.nonce,
                reply: Reply::Canceled,
            });
        }
        self.last_id += 1;
        let job = Job {
            id: self.last_id,
            nonce: request.nonce,
            command: request.command,
            cancel: Cancel::new(),
            counted: Arc::new(AtomicU64::new(0)),
            latest: Arc::new(Mutex::new(None)),
            last_word: Instant::now(),
        };
        let task = Task {
            id: job.id,
            command: request.command,
            data: request.data,
            cancel: job.cancel.clone(),
            counted: Arc::clone(&job.counted),
            latest: Arc::clone(&job.latest),
        };
        let sent = match &self.worker {
            Some(worker) => worker.tasks.send(task),
            None => Err(SendError(task)),
        };
        if let Err(SendError(task)) = sent {
            // No worker yet, or it is gone (it panicked): a new one.
            let worker = Worker::start(self.answering.clone());
            if worker.tasks.send(task).is_err() {
                return Some(Response::invalid(
                    job.nonce,
                    "internal error: the request's worker could not start (this is a bug in \
                     z3doku)",
                ));
            }
            self.worker = Some(worker);
        }
        self.job = Some(job);
        None
    }

    /// Whether a request is in hand.
    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Waits up to `wait` for the request in hand: its answer (which ends
    /// it), or a count's progress when one is due; `None` when neither
    /// came. Answers to requests replaced since are passed over.
    pub fn poll(&mut self, wait: Duration) -> Option<Response> {
        let job = self.job.as_mut()?;
        let worker = self.worker.as_ref()?;
        let now = Instant::now();
        let mut until = now + wait;
        let streams = matches!(job.command, ListenCommand::Count | ListenCommand::Estimate);
        if streams {
            until = until.min(job.last_word + PROGRESS_EVERY);
        }
        let (reply, from_worker) = loop {
            match worker
                .answers
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(answer) if answer.id == job.id => break (answer.reply, true),
                // A replaced request's answer: nobody waits for it.
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if !streams || job.last_word.elapsed() < PROGRESS_EVERY {
                        return None;
                    }
                    if job.command == ListenCommand::Count {
                        break (
                            Reply::Count {
                                count: job.counted.load(Ordering::Relaxed),
                                in_progress: true,
                            },
                            false,
                        );
                    }
                    let latest = job
                        .latest
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .take();
                    match latest {
                        Some(reply) => break (reply, false),
                        // No sample finished yet: nothing new to say.
                        None => return None,
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.worker = None;
                    break (
                        Reply::Invalid {
                            message: "internal error: the request's work ended without an \
                                      answer (this is a bug in z3doku)"
                                .into(),
                        },
                        true,
                    );
                }
            }
        };
        job.last_word = Instant::now();
        let response = Response {
            nonce: job.nonce.clone(),
            reply,
        };
        let in_progress = match &response.reply {
            Reply::Count { in_progress, .. } => *in_progress,
            // An estimate's progress is the same reply as its last word:
            // it is the last only when it came from the worker.
            Reply::Estimate { .. } => !from_worker,
            _ => false,
        };
        if !in_progress {
            self.job = None;
        }
        Some(response)
    }

    /// Stops the request in hand, if any, without an answer (the client
    /// left, or a new request replaces it).
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.cancel();
        }
    }
}

impl Drop for Session {
    /// The worker ends once its request in hand, cancelled here, gives up.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The request in hand, as the session sees it.
struct Job {
    /// Which task the worker's answer must carry.
    id: u64,
    nonce: Value,
    command: ListenCommand,
    cancel: Cancel,
    /// A count's solutions so far.
    counted: Arc<AtomicU64>,
    /// An estimate's reply so far.
    latest: Arc<Mutex<Option<Reply>>>,
    /// When the client last heard about it.
    last_word: Instant,
}

/// A request handed to the worker.
struct Task {
    id: u64,
    command: ListenCommand,
    data: String,
    cancel: Cancel,
    counted: Arc<AtomicU64>,
    latest: Arc<Mutex<Option<Reply>>>,
}

/// A worker's answer to the task numbered `id`.
struct Answer {
    id: u64,
    reply: Reply,
}

/// A session's worker thread: it answers tasks in turn until the session
/// drops its end of the channel.
struct Worker {
    tasks: Sender<Task>,
    answers: Receiver<Answer>,
}

impl Worker {
    fn start(answering: Answering) -> Worker {
        let (tasks, inbox) = channel::<Task>();
        let (outbox, answers) = channel();
        std::thread::spawn(move || {
            let mut responder = Responder::new(answering);
            for task in inbox {
                // Replaced before its turn came: nobody waits for it.
                if task.cancel.is_cancelled() {
                    continue;
                }
                let progress = Progress {
                    counted: &task.counted,
                    latest: &task.latest,
                };
                let reply = responder.answer_with(task.command, &task.data, &task.cancel, progress);
                // Nobody listens once the session is gone: the reply is moot.
                if outbox.send(Answer { id: task.id, reply }).is_err() {
                    break;
                }
            }
        });
        Worker { tasks, answers }
    }
}

/// Answers requests one after another through the solve pipeline every
/// front end uses, and the tutor for steps and paths, both kept from one
/// request to the next.
pub struct Responder {
    answering: Answering,
    /// The verdicts, with the clues to blame when there is no solution.
    pipeline: Pipeline,
    /// Steps and paths, their reasoned steps proved by the same kind of
    /// engine.
    tutor: Tutor,
}

impl Responder {
    /// A responder with a new engine for `answering`.
    pub fn new(answering: Answering) -> Responder {
        let pipeline = Pipeline::new(Request {
            settings: answering.settings.clone(),
            explain: true,
            timeout: answering.timeout,
            ..Request::default()
        });
        let tutor = Tutor::with_prover(&answering.settings, answering.timeout);
        Responder {
            answering,
            pipeline,
            tutor,
        }
    }

    /// Answers one command about the puzzle in `data`, giving up when
    /// `cancel` is cancelled; a count adds each solution to `counted` as
    /// it goes.
    pub fn answer(
        &mut self,
        command: ListenCommand,
        data: &str,
        cancel: &Cancel,
        counted: &AtomicU64,
    ) -> Reply {
        let latest = Mutex::new(None);
        self.answer_with(
            command,
            data,
            cancel,
            Progress {
                counted,
                latest: &latest,
            },
        )
    }

    /// [`Responder::answer`], telling `progress` how a count or an
    /// estimate goes.
    pub fn answer_with(
        &mut self,
        command: ListenCommand,
        data: &str,
        cancel: &Cancel,
        progress: Progress<'_>,
    ) -> Reply {
        let counted = progress.counted;
        let invalid = |message: String| Reply::Invalid { message };
        // The buttons that ask about the puzzle itself read only its
        // givens; a step goes on from the board as the solver left it.
        let only_givens = !matches!(command, ListenCommand::Step | ListenCommand::SolvePath);
        let (puzzle, cap) = match read_puzzle(data, only_givens) {
            Ok(read) => read,
            Err(message) => return invalid(message),
        };
        let timeout = match command {
            ListenCommand::Step | ListenCommand::SolvePath => {
                Some(self.answering.timeout.unwrap_or(DEFAULT_TIMEOUT))
            }
            _ => self.answering.timeout,
        };
        let budget = Budget::within(timeout).cancelled_by(cancel.clone());
        let pipeline = &mut self.pipeline;
        let answered = match command {
            ListenCommand::TrueCandidates => true_candidates(pipeline, &puzzle, cap, &budget),
            ListenCommand::Solve => solve(pipeline, &puzzle, &budget),
            ListenCommand::Check => check(pipeline, &puzzle, &budget),
            ListenCommand::Count => count(pipeline, &puzzle, &budget, counted, self.answering.jobs),
            ListenCommand::Step | ListenCommand::SolvePath => {
                // The setter's `disabledlogic` says which logic is off.
                match crate::logic::select::disabled_from_data(data) {
                    Ok(chosen) => {
                        self.tutor
                            .set_techniques(&chosen.techniques, chosen.reasoned);
                        let whole = command == ListenCommand::SolvePath;
                        logical(&mut self.tutor, pipeline, &puzzle, &budget, whole)
                    }
                    Err(message) => Err(message),
                }
            }
            ListenCommand::Estimate => estimate(pipeline, &puzzle, &budget, progress.latest),
            ListenCommand::Cancel => Err("`cancel` takes no puzzle".into()),
        };
        answered.unwrap_or_else(invalid)
    }
}

/// Where a request in hand tells how it goes: a count's solutions so
/// far, an estimate's latest reply.
#[derive(Clone, Copy)]
pub struct Progress<'a> {
    /// A count's solutions so far.
    pub counted: &'a AtomicU64,
    /// An estimate's reply so far (taken by the session when sent).
    pub latest: &'a Mutex<Option<Reply>>,
}

/// The samples one `estimate` request takes at the most: the userscript
/// asks until its Cancel button is pressed, as dclamage's solver samples
/// until cancelled; the interval is narrow long before this.
const LISTEN_SAMPLES: usize = 10_000_000;

/// Below this relative half-width of the 95% interval, an estimate is as
/// good as the userscript can print (it shows three figures): it stops.
const LISTEN_PRECISION: f64 = 0.0005;

/// An estimate's reply.
fn estimate_reply(estimate: &crate::solve::estimate::Estimate) -> Reply {
    let half = (estimate.high - estimate.estimate).max(0.0);
    Reply::Estimate {
        estimate: estimate.estimate,
        stderr: if estimate.stderr.is_finite() {
            estimate.stderr
        } else {
            0.0
        },
        iterations: estimate.samples as u64,
        ci95_lower: estimate.low,
        ci95_upper: if estimate.high.is_finite() {
            estimate.high
        } else {
            estimate.estimate
        },
        rel_err_percent: match estimate.estimate {
            e if e > 0.0 && half.is_finite() => 100.0 * half / e,
            _ => 0.0,
        },
    }
}

/// `estimate`: samples until cancelled (the request's budget), the
/// interval is as narrow as three figures, or [`LISTEN_SAMPLES`]; each
/// estimate so far goes to `latest` for the session to send.
fn estimate(
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    budget: &Budget,
    latest: &Mutex<Option<Reply>>,
) -> Result<Reply, String> {
    // The seed need not be chosen: every press of the button is a new
    // estimate, and the clock gives each its own samples.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let found = pipeline
        .estimate_within(puzzle, LISTEN_SAMPLES, seed, budget, &mut |so_far| {
            *latest
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(estimate_reply(so_far));
            let half = so_far.high - so_far.estimate;
            match so_far.samples >= 100 && half <= LISTEN_PRECISION * so_far.estimate {
                true => std::ops::ControlFlow::Break(()),
                false => std::ops::ControlFlow::Continue(()),
            }
        })
        .map_err(|e| e.to_string())?;
    if found.estimate == 0.0 && found.exact {
        return no_solution(&verdict(pipeline, puzzle, false, budget)?);
    }
    match &found.gave_up {
        Some(reason) if found.samples == 0 && !found.exact => Err(gave_up(reason)),
        _ => Ok(estimate_reply(&found)),
    }
}

/// The puzzle in a request's data (lz-string base64 of the f-puzzles JSON,
/// or the JSON itself) and the cap on true candidates' counts that its
/// `truecandidatesoptions` ask for. With `only_givens`, the digits and
/// centre pencil marks that the solver (or the userscript, from an earlier
/// answer) wrote on the board are left out, as the userscript's own solver
/// does: true candidates shown on the board must not constrain the next
/// request's. Digits marked `given` and `givenPencilMarks` stay.
pub fn read_puzzle(data: &str, only_givens: bool) -> Result<(Puzzle, usize), String> {
    let data = data.trim();
    let json = if data.starts_with('{') {
        data.to_string()
    } else {
        fpuzzles::decompress(data).map_err(|e| format!("the puzzle: {e}"))?
    };
    let parsed = |json: &str| fpuzzles::parse_json(json).map_err(|e| format!("the puzzle: {e}"));
    let Ok(mut value) = serde_json::from_str::<Value>(&json) else {
        // Not JSON: the f-puzzles reader says where.
        return Err(parsed(&json)
            .err()
            .unwrap_or_else(|| "the puzzle is not JSON".into()));
    };
    let cap = solutions_cap(value.get("truecandidatesoptions"))
        .map_err(|e| format!("truecandidatesoptions: {e}"))?;
    let puzzle = if only_givens && strip_solver_marks(&mut value) {
        parsed(&value.to_string())?
    } else {
        parsed(&json)?
    };
    Ok((puzzle, cap))
}

/// Takes the digits not marked `given` and the centre pencil marks off the
/// grid of f-puzzles JSON `puzzle`; whether there were any.
fn strip_solver_marks(puzzle: &mut Value) -> bool {
    let mut stripped = false;
    let Some(rows) = puzzle.get_mut("grid").and_then(Value::as_array_mut) else {
        return false;
    };
    for cell in rows
        .iter_mut()
        .filter_map(Value::as_array_mut)
        .flatten()
        .filter_map(Value::as_object_mut)
    {
        if cell.get("given") != Some(&Value::Bool(true)) {
            stripped |= cell.remove("value").is_some();
        }
        stripped |= cell.remove("centerPencilMarks").is_some();
    }
    stripped
}

/// The cap on true candidates' counts: `truecandidatesnumsolutions=N`
/// among the options (a list of words, or one word), or 8 for the older
/// `colored`; 1 without either.
fn solutions_cap(options: Option<&Value>) -> Result<usize, String> {
    let words: Vec<&str> = match options {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(word)) => word.split([';', ',']).collect(),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        Some(_) => return Err("expected a list of options".into()),
    };
    let mut cap = 1;
    for word in words.iter().map(|w| w.trim()) {
        if let Some(n) = word.strip_prefix("truecandidatesnumsolutions=") {
            return n
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    format!("`{word}`: the number of solutions is a whole number from 1")
                });
        }
        if word == "colored" {
            cap = 8;
        }
    }
    Ok(cap)
}

fn gave_up(reason: &GiveUp) -> String {
    format!("gave up: {reason}")
}

/// Why a step or a path stopped early, for its last line.
fn gave_up_words(reason: &GiveUp) -> String {
    match reason {
        GiveUp::Timeout => "the time ran out (z3doku listen --timeout gives more)".into(),
        other => other.to_string(),
    }
}

/// Why an outcome without a solution has none: the pipeline has named
/// the clues and rules to blame.
fn no_solution(outcome: &Outcome) -> Result<Reply, String> {
    Ok(Reply::Invalid {
        message: outcome.summary(),
    })
}

/// The outcome of solving `puzzle` (with `unique`, proving it unique or
/// finding a second solution) within `budget`, explained when it has none.
fn verdict(
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    unique: bool,
    budget: &Budget,
) -> Result<Outcome, String> {
    pipeline
        .solve_within(puzzle, unique, budget)
        .map_err(|e| e.to_string())
}

fn true_candidates(
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    cap: usize,
    budget: &Budget,
) -> Result<Reply, String> {
    let found = pipeline
        .candidates_within(puzzle, cap, budget)
        .map_err(|e| e.to_string())?;
    match found.outcome.status {
        Status::None => return no_solution(&found.outcome),
        Status::GaveUp | Status::Error => {
            return Err(found.outcome.summary());
        }
        Status::Solved | Status::Unique | Status::Multiple => {}
    }
    let givens = puzzle.givens();
    let side = puzzle.size().side();
    // Every solution has a given's digit: its count is the number of
    // solutions (exact below the cap the search used, and that is at least
    // this cap).
    let everywhere = found.solutions_seen.min(cap);
    let mut counts = Vec::with_capacity(givens.size().cells() * side);
    for index in 0..givens.size().cells() {
        let given = givens.get(index);
        for digit in 1..=side as u8 {
            counts.push(match given {
                0 => found.count(index, digit).min(cap),
                _ if given == digit => everywhere,
                _ => 0,
            });
        }
    }
    Ok(Reply::TrueCandidates {
        solutions_per_candidate: counts,
    })
}

/// One human-style step (the easiest that applies), or with `whole`, the
/// whole path, from the puzzle's givens; the board after it, with each open
/// cell's candidates. Where the budget runs out first, the path stops with
/// the steps found and a last line that says so.
fn logical(
    tutor: &mut Tutor,
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    budget: &Budget,
    whole: bool,
) -> Result<Reply, String> {
    let found = if whole {
        tutor
            .walk(puzzle, budget, &mut |_| {})
            .map(|walk| (walk.path.steps, walk.gave_up, walk.unique))
    } else {
        tutor
            .hint_open(puzzle, budget)
            .map(|(step, unique)| (step.into_iter().collect(), None, unique))
    };
    let (steps, gave_up, unique) = match found {
        Ok(found) => found,
        Err(PathError::NotUnique(Status::None)) => {
            return no_solution(&verdict(pipeline, puzzle, false, budget)?);
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut pencil = Pencil::new(puzzle).ok_or("the givens clash")?;
    for step in &steps {
        pencil.apply(&step.placements, &step.eliminations);
    }
    let cells = (0..puzzle.size().cells())
        .map(|c| match pencil.value(c) {
            0 => LogicalCell {
                value: 0,
                candidates: digits(pencil.candidates(c)).collect(),
            },
            value => LogicalCell {
                value,
                candidates: Vec::new(),
            },
        })
        .collect();
    let mut message = match steps.as_slice() {
        [] if !unique => String::new(),
        [] if gave_up.is_none() => "solved: no step is left".to_string(),
        steps => steps
            .iter()
            .map(|s| s.explanation.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let stopped = gave_up.is_some();
    if let Some(reason) = gave_up {
        if !message.is_empty() {
            message.push('\n');
        }
        message += &format!(
            "stopped after {} steps: {}",
            steps.len(),
            gave_up_words(&reason)
        );
    }
    if !unique && !stopped {
        if !message.is_empty() {
            message.push('\n');
        }
        message +=
            "the puzzle has more than one solution: the steps that hold in every one stop here";
    }
    Ok(Reply::Logical {
        cells,
        message,
        is_valid: true,
    })
}

fn solve(pipeline: &mut Pipeline, puzzle: &Puzzle, budget: &Budget) -> Result<Reply, String> {
    let outcome = verdict(pipeline, puzzle, false, budget)?;
    match (outcome.status, outcome.solutions.first()) {
        (Status::None, _) => no_solution(&outcome),
        (_, Some(solution)) => Ok(Reply::Solved {
            solution: solution_digits(&solution.grid),
        }),
        (_, None) => Err(outcome.summary()),
    }
}

fn solution_digits(grid: &Grid) -> Vec<u8> {
    (0..grid.size().cells()).map(|i| grid.get(i)).collect()
}

fn check(pipeline: &mut Pipeline, puzzle: &Puzzle, budget: &Budget) -> Result<Reply, String> {
    let outcome = verdict(pipeline, puzzle, true, budget)?;
    let count = match outcome.status {
        Status::None => return no_solution(&outcome),
        Status::Unique | Status::Solved => 1,
        Status::Multiple => 2,
        Status::GaveUp | Status::Error => return Err(outcome.summary()),
    };
    Ok(Reply::Count {
        count,
        in_progress: false,
    })
}

fn count(
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    budget: &Budget,
    counted: &AtomicU64,
    jobs: usize,
) -> Result<Reply, String> {
    let count = if jobs > 1 {
        let found = || {
            counted.fetch_add(1, Ordering::Relaxed);
        };
        pipeline
            .count_split_within(puzzle, usize::MAX, jobs, false, budget, &found)
            .map(|(count, _)| count)
    } else {
        pipeline.count_within(puzzle, usize::MAX, budget, &mut |_| {
            counted.fetch_add(1, Ordering::Relaxed);
        })
    }
    .map_err(|e| e.to_string())?;
    if let Some(reason) = &count.gave_up {
        return Err(match count.solutions {
            0 => gave_up(reason),
            n => format!("gave up: {reason}, after {n} solutions"),
        });
    }
    if count.solutions == 0 {
        return no_solution(&verdict(pipeline, puzzle, false, budget)?);
    }
    Ok(Reply::Count {
        count: u64::try_from(count.solutions).unwrap_or(u64::MAX),
        in_progress: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineKind;
    use serde_json::json;

    const NOTEBOOK: &str =
        "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    fn fpuzzles_json(line: &str, extra: &str) -> String {
        let rows: Vec<String> = line
            .as_bytes()
            .chunks(9)
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&c| match c {
                        b'1'..=b'9' => format!("{{\"value\":{},\"given\":true}}", c - b'0'),
                        _ => "{}".to_string(),
                    })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!("{{\"size\":9,\"grid\":[{}]{extra}}}", rows.join(","))
    }

    fn native() -> Answering {
        Answering {
            settings: Settings {
                engine: EngineKind::Native,
                ..Settings::default()
            },
            timeout: None,
            jobs: 1,
        }
    }

    fn answer(command: ListenCommand, data: &str) -> Reply {
        Responder::new(native()).answer(command, data, &Cancel::new(), &AtomicU64::new(0))
    }

    #[test]
    fn check_caps_the_count_at_two() {
        let unique = fpuzzles_json(NOTEBOOK, "");
        assert_eq!(
            answer(ListenCommand::Check, &unique),
            Reply::Count {
                count: 1,
                in_progress: false
            }
        );
        let open = fpuzzles_json(&".".repeat(81), "");
        assert_eq!(
            answer(ListenCommand::Check, &open),
            Reply::Count {
                count: 2,
                in_progress: false
            }
        );
    }

    #[test]
    fn the_options_set_the_cap_on_candidate_counts() {
        assert_eq!(solutions_cap(None), Ok(1));
        let listed = json!(["logical", "truecandidatesnumsolutions=8"]);
        assert_eq!(solutions_cap(Some(&listed)), Ok(8));
        assert_eq!(solutions_cap(Some(&json!("colored"))), Ok(8));
        assert!(solutions_cap(Some(&json!(["truecandidatesnumsolutions=x"]))).is_err());
        // An open board: every candidate in at least 8 solutions.
        let open = fpuzzles_json(
            &".".repeat(81),
            r#","truecandidatesoptions":["truecandidatesnumsolutions=8"]"#,
        );
        match answer(ListenCommand::TrueCandidates, &open) {
            Reply::TrueCandidates {
                solutions_per_candidate,
            } => {
                assert_eq!(solutions_per_candidate.len(), 729);
                assert!(solutions_per_candidate.iter().all(|&n| n == 8));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn no_solution_names_the_clues_to_blame() {
        // Two 5s in the first row.
        let clash = fpuzzles_json(&format!("55{}", ".".repeat(79)), "");
        match answer(ListenCommand::Solve, &clash) {
            Reply::Invalid { message } => {
                assert!(
                    message.contains("r1c1") && message.contains("r1c2"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        // No clash, yet box 1 has no room for a 5 (examples/puzzles/contradiction.txt).
        let contradiction = fpuzzles_json(
            &[
                "........5",
                "..1......",
                "....5....",
                ".........",
                "5...3....",
                ".........",
                ".........",
                ".........",
                ".5......9",
            ]
            .concat(),
            "",
        );
        for command in [
            ListenCommand::TrueCandidates,
            ListenCommand::Solve,
            ListenCommand::Check,
            ListenCommand::Count,
        ] {
            assert_eq!(
                answer(command, &contradiction),
                Reply::Invalid {
                    message: "no solution: these 5 clues conflict: r1c9=5 r2c3=1 r3c5=5 r5c1=5 \
                              r9c2=5"
                        .into()
                },
                "{command:?}"
            );
        }
    }

    #[test]
    fn digits_and_marks_not_given_are_left_out_of_the_puzzle_but_not_of_a_step() {
        // r1c1 holds a 5 and r1c2 a lone centre mark 1, neither given: the
        // marks an earlier answer left on the board.
        let marked = fpuzzles_json(&".".repeat(81), "").replacen(
            "[{},{}",
            r#"[{"value":5},{"centerPencilMarks":[1]}"#,
            1,
        );
        match answer(ListenCommand::TrueCandidates, &marked) {
            Reply::TrueCandidates {
                solutions_per_candidate,
            } => assert!(solutions_per_candidate.iter().all(|&n| n == 1)),
            other => panic!("{other:?}"),
        }
        let (puzzle, _) = read_puzzle(&marked, true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(puzzle.givens().get(0), 0);
        assert_eq!(
            puzzle.rules(),
            Puzzle::classic(puzzle.givens().clone()).rules()
        );
        // A step goes on from the board as it stands.
        let (board, _) = read_puzzle(&marked, false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(board.givens().get(0), 5);
        // A digit marked given stays.
        let (given, _) =
            read_puzzle(&fpuzzles_json(NOTEBOOK, ""), true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(given.givens().get(4), 9);
    }

    #[test]
    fn a_path_without_a_timeout_stops_at_the_default_budget_with_the_steps_found() {
        // It gave no answer at all on the shipped killer example.
        let killer = include_str!("../../examples/puzzles/killer.json");
        let start = Instant::now();
        let reply = answer(ListenCommand::SolvePath, killer);
        let took = start.elapsed();
        assert!(took < DEFAULT_TIMEOUT + Duration::from_secs(10), "{took:?}");
        match reply {
            Reply::Logical {
                message, is_valid, ..
            } => {
                assert!(is_valid);
                let last = message.lines().last().unwrap_or_default();
                assert!(
                    last.starts_with("stopped after ")
                        && last.ends_with("the time ran out (z3doku listen --timeout gives more)")
                        || !message.contains("stopped"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_rule_not_understood_is_named() {
        let unknown = fpuzzles_json(NOTEBOOK, r#","frobnicate":true"#);
        match answer(ListenCommand::Solve, &unknown) {
            Reply::Invalid { message } => assert!(message.contains("frobnicate"), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_stopped_engine_gives_up_and_a_new_request_replaces_the_one_in_hand() {
        let open = fpuzzles_json(&".".repeat(81), "");
        let cancel = Cancel::new();
        cancel.cancel();
        let reply = Responder::new(native()).answer(
            ListenCommand::Count,
            &open,
            &cancel,
            &AtomicU64::new(0),
        );
        assert_eq!(
            reply,
            Reply::Invalid {
                message: "gave up: cancelled".into()
            }
        );
        let mut session = Session::new(native());
        let count = json!({"nonce": 1, "command": "count", "data": open}).to_string();
        assert_eq!(session.receive(&count), None);
        // The open board never finishes counting: progress comes instead.
        let progress = session.poll(Duration::from_secs(2));
        assert!(
            matches!(
                progress,
                Some(Response {
                    reply: Reply::Count {
                        in_progress: true,
                        ..
                    },
                    ..
                })
            ),
            "{progress:?}"
        );
        let check = json!({"nonce": 2, "command": "check", "data": fpuzzles_json(NOTEBOOK, "")});
        assert_eq!(session.receive(&check.to_string()), None);
        let answer = session.poll(Duration::from_secs(5));
        assert_eq!(
            answer,
            Some(Response {
                nonce: json!(2),
                reply: Reply::Count {
                    count: 1,
                    in_progress: false
                }
            })
        );
        assert!(!session.is_busy());
    }
}
