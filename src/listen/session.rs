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

use super::cache::{Cache, Question};
use super::protocol::{ListenCommand, LogicalCell, Reply, Response, parse_request};
use crate::engine::{Budget, Cancel, EngineKind, GiveUp, Settings};
use crate::logic::pencil::digits;
use crate::logic::technique::Technique;
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
    /// The answers given so far, by question.
    cache: Cache,
    /// How many requests were worked out rather than taken from the
    /// cache.
    worked_out: u64,
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
            cache: Cache::new(),
            worked_out: 0,
        }
    }

    /// How many requests were worked out so far, rather than answered
    /// from the cache (a request that could not be read is neither).
    pub fn worked_out(&self) -> u64 {
        self.worked_out
    }

    /// How many requests were answered from the cache so far.
    pub fn cache_hits(&self) -> u64 {
        self.cache.hits()
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
        let (puzzle, options) = match read_puzzle(data, only_givens) {
            Ok(read) => read,
            Err(message) => return invalid(message),
        };
        // The setter's `disabledlogic` says which logic is off, for the
        // answers that reason.
        let reasons = match command {
            ListenCommand::Step | ListenCommand::SolvePath => true,
            ListenCommand::TrueCandidates => options.logical,
            _ => false,
        };
        let logic = match reasons {
            true => match crate::logic::select::disabled_from_data(data) {
                Ok(chosen) => Some(chosen),
                Err(message) => return invalid(message),
            },
            false => None,
        };
        let cap = match command {
            ListenCommand::TrueCandidates => options.cap,
            _ => 0,
        };
        // An estimate is drawn afresh at every press, as the button asks.
        let question = (command != ListenCommand::Estimate)
            .then(|| Question::new(command, &puzzle, cap, logic.clone()));
        if let Some(reply) = question.as_ref().and_then(|q| self.cache.get(q)) {
            return reply;
        }
        self.worked_out += 1;
        let timeout = match command {
            ListenCommand::Step | ListenCommand::SolvePath => {
                Some(self.answering.timeout.unwrap_or(DEFAULT_TIMEOUT))
            }
            _ => self.answering.timeout,
        };
        let budget = Budget::within(timeout).cancelled_by(cancel.clone());
        if let Some(chosen) = &logic {
            self.tutor
                .set_techniques(&chosen.techniques, chosen.reasoned);
        }
        // Whether the answer holds whatever the time it had: a path or
        // logical candidates cut short by the clock do not.
        let mut lasting = true;
        let pipeline = &mut self.pipeline;
        let jobs = self.answering.jobs;
        // True candidates are split with the native engine only: a race
        // on each thread runs Z3 beside every native search, and on the
        // two cores measured it made them slower, not faster (a killer
        // with 332 solutions and a cap of 8: 223 ms on two threads, 124
        // ms on one; native: 50 and 74 ms).
        let candidate_jobs = match self.answering.settings.engine {
            EngineKind::Native => jobs,
            _ => 1,
        };
        let answered = match command {
            ListenCommand::TrueCandidates => {
                let logic_budget =
                    Budget::within(Some(self.answering.timeout.unwrap_or(DEFAULT_TIMEOUT)))
                        .cancelled_by(cancel.clone());
                let logical =
                    options
                        .logical
                        .then_some((&mut self.tutor, &logic_budget, &mut lasting));
                true_candidates(
                    pipeline,
                    &puzzle,
                    options.cap,
                    &budget,
                    candidate_jobs,
                    logical,
                )
            }
            ListenCommand::Solve => solve(pipeline, &puzzle, &budget),
            ListenCommand::Check => check(pipeline, &puzzle, &budget),
            ListenCommand::Count => count(pipeline, &puzzle, &budget, counted, jobs),
            ListenCommand::Step | ListenCommand::SolvePath => {
                let whole = command == ListenCommand::SolvePath;
                logical(
                    &mut self.tutor,
                    pipeline,
                    &puzzle,
                    &budget,
                    whole,
                    &mut lasting,
                )
            }
            ListenCommand::Estimate => estimate(pipeline, &puzzle, &budget, progress.latest),
            ListenCommand::Cancel => Err("`cancel` takes no puzzle".into()),
        };
        let reply = answered.unwrap_or_else(invalid);
        // No solution is not kept: its explanation had a budget of its own.
        if let Some(question) = question
            && lasting
            && !matches!(reply, Reply::Invalid { .. })
        {
            self.cache.put(question, reply.clone());
        }
        reply
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

/// What the userscript's `truecandidatesoptions` ask of true candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CandidateOptions {
    /// Counts stop at this many solutions: `truecandidatesnumsolutions=N`
    /// (the Solution Cap setting), or 8 for the older `colored`; 1 without
    /// either. The userscript colours a candidate by its count when this
    /// is over 1: green for exactly one solution (placing it leaves the
    /// puzzle unique), blue shades up to the cap.
    pub cap: usize,
    /// `logical` (Include Logical Candidates): the digits no solution has
    /// but the logic cannot rule out are answered −1, drawn red.
    pub logical: bool,
}

impl Default for CandidateOptions {
    fn default() -> CandidateOptions {
        CandidateOptions {
            cap: 1,
            logical: false,
        }
    }
}

/// The puzzle in a request's data (lz-string base64 of the f-puzzles JSON,
/// or the JSON itself) and what its `truecandidatesoptions` ask of true
/// candidates. With `only_givens`, the digits and
/// centre pencil marks that the solver (or the userscript, from an earlier
/// answer) wrote on the board are left out, as the userscript's own solver
/// does: true candidates shown on the board must not constrain the next
/// request's. Digits marked `given` and `givenPencilMarks` stay.
pub fn read_puzzle(data: &str, only_givens: bool) -> Result<(Puzzle, CandidateOptions), String> {
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
    let options = candidate_options(value.get("truecandidatesoptions"))
        .map_err(|e| format!("truecandidatesoptions: {e}"))?;
    let puzzle = if only_givens && strip_solver_marks(&mut value) {
        parsed(&value.to_string())?
    } else {
        parsed(&json)?
    };
    Ok((puzzle, options))
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

/// The true candidates' options (see [`CandidateOptions`]): a list of
/// words, or one word. `truecandidatesnumsolutions=N` wins over
/// `colored`, as in dclamage's solver; a word z3doku does not know is
/// refused by name rather than ignored.
fn candidate_options(options: Option<&Value>) -> Result<CandidateOptions, String> {
    let words: Vec<&str> = match options {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(word)) => word.split([';', ',']).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .ok_or_else(|| format!("{item} is not an option's name"))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("expected a list of options".into()),
    };
    let mut chosen = CandidateOptions::default();
    let mut numbered = None;
    for word in words.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
        let lower = word.to_lowercase();
        if let Some(n) = lower.strip_prefix("truecandidatesnumsolutions=") {
            let n = n
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    format!("`{word}`: the number of solutions is a whole number from 1")
                })?;
            numbered = Some(n);
        } else if lower == "colored" {
            chosen.cap = 8;
        } else if lower == "logical" {
            chosen.logical = true;
        } else {
            return Err(format!(
                "the option `{word}` is not understood; z3doku reads \
                 `truecandidatesnumsolutions=N`, `colored` and `logical`"
            ));
        }
    }
    if let Some(n) = numbered {
        chosen.cap = n;
    }
    Ok(chosen)
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

/// What true candidates with the `logical` option need besides the
/// search: the tutor, the logic's budget, and where to say that the logic
/// was cut short by it.
type LogicalSide<'a> = Option<(&'a mut Tutor, &'a Budget, &'a mut bool)>;

fn true_candidates(
    pipeline: &mut Pipeline,
    puzzle: &Puzzle,
    cap: usize,
    budget: &Budget,
    jobs: usize,
    logical: LogicalSide<'_>,
) -> Result<Reply, String> {
    let found = match jobs {
        0 | 1 => pipeline.candidates_within(puzzle, cap, budget),
        _ => pipeline.candidates_split_within(puzzle, cap, jobs, budget),
    }
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
    let capped = |n: usize| i64::try_from(n.min(cap)).unwrap_or(i64::MAX);
    // Every solution has a given's digit: its count is the number of
    // solutions (exact below the cap the search used, and that is at least
    // this cap).
    let everywhere = capped(found.solutions_seen);
    let mut counts = Vec::with_capacity(givens.size().cells() * side);
    for index in 0..givens.size().cells() {
        let given = givens.get(index);
        for digit in 1..=side as u8 {
            counts.push(match given {
                0 => capped(found.count(index, digit)),
                _ if given == digit => everywhere,
                _ => 0,
            });
        }
    }
    if let Some((tutor, logic_budget, lasting)) = logical {
        let board = logical_board(tutor, puzzle, logic_budget, lasting)?;
        for index in (0..givens.size().cells()).filter(|&i| givens.get(i) == 0) {
            let left = match board.value(index) {
                0 => board.candidates(index),
                placed => 1 << (placed - 1),
            };
            for digit in 1..=side as u8 {
                let at = index * side + usize::from(digit) - 1;
                if counts[at] == 0 && left & (1 << (digit - 1)) != 0 {
                    counts[at] = -1;
                }
            }
        }
    }
    Ok(Reply::TrueCandidates {
        solutions_per_candidate: counts,
    })
}

/// The board as the logic leaves it: every step the tutor's techniques
/// (less those `disabledlogic` switched off) find from the givens, without
/// the search that finishes a path where they run out, so each open cell
/// keeps the digits the logic cannot rule out. Where the budget runs out
/// first, the board after the steps found (and `lasting` is cleared).
fn logical_board(
    tutor: &mut Tutor,
    puzzle: &Puzzle,
    budget: &Budget,
    lasting: &mut bool,
) -> Result<Pencil, String> {
    let mut pencil = Pencil::new(puzzle).ok_or("the givens clash")?;
    match tutor.walk(puzzle, budget, &mut |_| {}) {
        Ok(walk) => {
            if walk.gave_up.is_some() {
                *lasting = false;
            }
            for step in walk
                .path
                .steps
                .iter()
                .filter(|s| s.technique != Technique::Search)
            {
                pencil.apply(&step.placements, &step.eliminations);
            }
        }
        // No time even to solve it: no logic was done.
        Err(PathError::GaveUp(_)) => *lasting = false,
        Err(e) => return Err(e.to_string()),
    }
    Ok(pencil)
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
    lasting: &mut bool,
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
    *lasting = !stopped;
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
        let cap = |options: Option<&Value>| candidate_options(options).map(|o| o.cap);
        assert_eq!(cap(None), Ok(1));
        assert_eq!(cap(Some(&json!([]))), Ok(1));
        let listed = json!(["logical", "truecandidatesnumsolutions=8"]);
        assert_eq!(
            candidate_options(Some(&listed)),
            Ok(CandidateOptions {
                cap: 8,
                logical: true
            })
        );
        assert_eq!(cap(Some(&json!("colored"))), Ok(8));
        // The number wins over the older `colored`, in either order.
        assert_eq!(
            cap(Some(&json!(["truecandidatesnumsolutions=3", "colored"]))),
            Ok(3)
        );
        assert_eq!(
            cap(Some(&json!(["colored", "truecandidatesnumsolutions=3"]))),
            Ok(3)
        );
        assert!(cap(Some(&json!(["truecandidatesnumsolutions=x"]))).is_err());
        assert!(cap(Some(&json!(["truecandidatesnumsolutions=0"]))).is_err());
        let unknown = candidate_options(Some(&json!(["telepathic"])));
        assert!(
            unknown.as_ref().is_err_and(|e| e.contains("`telepathic`")),
            "{unknown:?}"
        );
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
            &include_str!("../../examples/puzzles/contradiction.txt")
                .lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<String>(),
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

    const MULTIPLE: &str =
        "....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

    fn ask(responder: &mut Responder, command: ListenCommand, data: &str) -> Reply {
        responder.answer(command, data, &Cancel::new(), &AtomicU64::new(0))
    }

    #[test]
    fn a_cosmetic_change_is_answered_from_the_cache() {
        let mut responder = Responder::new(native());
        let options = r#","truecandidatesoptions":["truecandidatesnumsolutions=8"]"#;
        let plain = fpuzzles_json(MULTIPLE, options);
        let first = ask(&mut responder, ListenCommand::TrueCandidates, &plain);
        assert!(matches!(first, Reply::TrueCandidates { .. }), "{first:?}");
        assert_eq!((responder.worked_out(), responder.cache_hits()), (1, 0));
        // Title, author, rules text, a drawn line, text, a cell's colour
        // and highlight, corner marks and the logic switches (which true
        // candidates without `logical` do not use): the same question.
        let dressed = fpuzzles_json(
            MULTIPLE,
            &format!(
                r##"{options},"title":"Mine","author":"Me","ruleset":"Normal rules.",
                "disabledlogic":["tuples"],
                "line":[{{"lines":[["R1C1","R2C2","R3C3"]],"outlineC":"#FF0000","width":0.1}}],
                "text":[{{"cells":["R5C5"],"value":"hi","fontC":"#000000","size":0.5}}]"##
            ),
        )
        .replacen(
            "[{}",
            r##"[{"c":"#00FF00","highlight":"#CCCCCC","cornerPencilMarks":[1]}"##,
            1,
        );
        assert_ne!(dressed, plain);
        assert_eq!(
            ask(&mut responder, ListenCommand::TrueCandidates, &dressed),
            first
        );
        // Compressed, as the userscript sends it.
        let packed = lz_str::compress_to_base64(&dressed);
        assert_eq!(
            ask(&mut responder, ListenCommand::TrueCandidates, &packed),
            first
        );
        assert_eq!((responder.worked_out(), responder.cache_hits()), (1, 2));

        // What changes the answer is worked out: another cap, a given,
        // a rule, another command.
        let capped = fpuzzles_json(MULTIPLE, r#","truecandidatesoptions":[]"#);
        ask(&mut responder, ListenCommand::TrueCandidates, &capped);
        let given = fpuzzles_json(&format!("1{}", &MULTIPLE[1..]), options);
        ask(&mut responder, ListenCommand::TrueCandidates, &given);
        let ruled = fpuzzles_json(MULTIPLE, &format!(r#"{options},"antiking":true"#));
        ask(&mut responder, ListenCommand::TrueCandidates, &ruled);
        assert_eq!(responder.worked_out(), 4);
        for command in [
            ListenCommand::Solve,
            ListenCommand::Check,
            ListenCommand::Count,
        ] {
            let answer = ask(&mut responder, command, &plain);
            assert!(!matches!(answer, Reply::Invalid { .. }), "{answer:?}");
            assert_eq!(ask(&mut responder, command, &dressed), answer);
        }
        assert_eq!((responder.worked_out(), responder.cache_hits()), (7, 5));

        // A step reasons: the logic switched off is part of the question.
        let step = ask(&mut responder, ListenCommand::Step, &plain);
        assert_eq!(ask(&mut responder, ListenCommand::Step, &plain), step);
        assert_eq!(responder.worked_out(), 8);
        ask(&mut responder, ListenCommand::Step, &dressed);
        assert_eq!(responder.worked_out(), 9);
        // An estimate is drawn afresh every time.
        ask(&mut responder, ListenCommand::Estimate, &plain);
        ask(&mut responder, ListenCommand::Estimate, &plain);
        assert_eq!(responder.worked_out(), 11);
        // A puzzle with no solution is not kept (its explanation had a
        // budget of its own), nor what cannot be read.
        let clash = fpuzzles_json(&format!("55{}", ".".repeat(79)), "");
        ask(&mut responder, ListenCommand::Check, &clash);
        ask(&mut responder, ListenCommand::Check, &clash);
        assert_eq!(responder.worked_out(), 13);
    }

    /// The true candidates of `data`, with the `logical` option and the
    /// logic of `disabled` switched off.
    fn logical_candidates(puzzle: &str, disabled: &str) -> Vec<i64> {
        let data = fpuzzles_json(
            puzzle,
            &format!(r#","truecandidatesoptions":["logical"],"disabledlogic":[{disabled}]"#),
        );
        match answer(ListenCommand::TrueCandidates, &data) {
            Reply::TrueCandidates {
                solutions_per_candidate,
            } => solutions_per_candidate,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn logical_candidates_are_the_ones_the_logic_cannot_rule_out() {
        let plain = match answer(ListenCommand::TrueCandidates, &fpuzzles_json(MULTIPLE, "")) {
            Reply::TrueCandidates {
                solutions_per_candidate,
            } => solutions_per_candidate,
            other => panic!("{other:?}"),
        };
        assert!(plain.iter().all(|&n| n == 0 || n == 1));
        let every = r#""tuples","pointing","fishes","wings","aic","contradictions""#;
        let singles = logical_candidates(MULTIPLE, every);
        let all = logical_candidates(MULTIPLE, "");
        for answer in [&singles, &all] {
            // The true candidates are as they were; the others are 0 or
            // −1, nothing else.
            for (n, &p) in answer.iter().zip(&plain) {
                match p {
                    1 => assert_eq!(*n, 1),
                    _ => assert!(*n == 0 || *n == -1),
                }
            }
        }
        // Singles alone leave digits no solution has; more logic rules
        // out at least as many.
        let red = |a: &[i64]| a.iter().filter(|&&n| n == -1).count();
        assert!(red(&singles) > 0);
        assert!(red(&all) <= red(&singles));
        assert!(all.iter().zip(&singles).all(|(&a, &s)| a != -1 || s == -1));
        // The board singles leave, by the tutor on its own: its candidates
        // are the answer's non-zero ones.
        let puzzle = Puzzle::classic(
            crate::puzzle::parse::parse_puzzle(MULTIPLE, None).unwrap_or_else(|e| panic!("{e}")),
        );
        let singles_only = crate::logic::select::select(&["singles".into()], &[])
            .unwrap_or_else(|e| panic!("{e}"));
        let mut tutor = Tutor::with_prover(&native().settings, None)
            .with_techniques(&singles_only.techniques, false);
        let walk = tutor
            .walk(&puzzle, &Budget::unbounded(), &mut |_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        let mut board = Pencil::new(&puzzle).unwrap_or_else(|| panic!("clash"));
        for step in &walk.path.steps {
            board.apply(&step.placements, &step.eliminations);
        }
        for cell in (0..81).filter(|&c| puzzle.givens().get(c) == 0) {
            for digit in 1..=9u8 {
                let left = board.value(cell) == digit || board.has(cell, digit);
                assert_eq!(singles[cell * 9 + usize::from(digit) - 1] != 0, left);
            }
        }
        // A puzzle the logic solves has no digit left to draw red.
        assert_eq!(red(&logical_candidates(NOTEBOOK, "")), 0);
        // A logic switch z3doku does not know is refused by name.
        let data = fpuzzles_json(
            MULTIPLE,
            r#","truecandidatesoptions":["logical"],"disabledlogic":["telepathy"]"#,
        );
        match answer(ListenCommand::TrueCandidates, &data) {
            Reply::Invalid { message } => assert!(message.contains("telepathy"), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_count_of_one_is_a_candidate_that_leaves_one_solution() {
        // The userscript colours a count of 1 green when the cap is over 1:
        // placed, that digit leaves the puzzle unique.
        let data = fpuzzles_json(MULTIPLE, r#","truecandidatesoptions":["colored"]"#);
        let counts = match answer(ListenCommand::TrueCandidates, &data) {
            Reply::TrueCandidates {
                solutions_per_candidate,
            } => solutions_per_candidate,
            other => panic!("{other:?}"),
        };
        let mut greens = 0;
        for cell in (0..81).filter(|&c| MULTIPLE.as_bytes()[c] == b'.') {
            for digit in 1..=9u8 {
                let n = counts[cell * 9 + usize::from(digit) - 1];
                assert!((0..=8).contains(&n));
                if n == 0 {
                    continue;
                }
                let mut placed = MULTIPLE.as_bytes().to_vec();
                placed[cell] = b'0' + digit;
                let placed = String::from_utf8(placed).unwrap_or_default();
                let check = answer(ListenCommand::Check, &fpuzzles_json(&placed, ""));
                let expected = if n == 1 { 1 } else { 2 };
                assert_eq!(
                    check,
                    Reply::Count {
                        count: expected,
                        in_progress: false
                    },
                    "r{}c{}={digit}",
                    cell / 9 + 1,
                    cell % 9 + 1
                );
                greens += usize::from(n == 1);
            }
        }
        assert!(greens > 0);
    }
}
