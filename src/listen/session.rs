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

use super::protocol::{Command, LogicalCell, Reply, Response, parse_request};
use crate::engine::contract::Conflict;
use crate::engine::{Cancel, Engine, EngineError, Found, GiveUp, Limits, Settings, new_engine};
use crate::logic::pencil::digits;
use crate::logic::{Logic, Path, PathError, Pencil, hint, unique_solution};
use crate::puzzle::Puzzle;
use crate::puzzle::fpuzzles;
use crate::puzzle::grid::Grid;
use crate::solve::candidates::candidates_with;
use crate::solve::{EXPLAIN_BUDGET, Outcome, Status, count_with, explain, solve_with};
use serde_json::Value;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SendError, Sender, channel};
use std::time::{Duration, Instant};

/// How often a count in progress reports, at the most: the protocol asks
/// for a message at least every second.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// How the requests are answered: the engine and a time limit per request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answering {
    /// The engine that searches.
    pub settings: Settings,
    /// Each request gives up after this long.
    pub timeout: Option<Duration>,
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
        if request.command == Command::Cancel {
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
            last_word: Instant::now(),
        };
        let task = Task {
            id: job.id,
            command: request.command,
            data: request.data,
            cancel: job.cancel.clone(),
            counted: Arc::clone(&job.counted),
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
        if job.command == Command::Count {
            until = until.min(job.last_word + PROGRESS_EVERY);
        }
        let reply = loop {
            match worker
                .answers
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(answer) if answer.id == job.id => break answer.reply,
                // A replaced request's answer: nobody waits for it.
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if job.command != Command::Count || job.last_word.elapsed() < PROGRESS_EVERY {
                        return None;
                    }
                    break Reply::Count {
                        count: job.counted.load(Ordering::Relaxed),
                        in_progress: true,
                    };
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.worker = None;
                    break Reply::Invalid {
                        message: "internal error: the request's work ended without an answer \
                                  (this is a bug in z3doku)"
                            .into(),
                    };
                }
            }
        };
        job.last_word = Instant::now();
        let response = Response {
            nonce: job.nonce.clone(),
            reply,
        };
        if !matches!(
            response.reply,
            Reply::Count {
                in_progress: true,
                ..
            }
        ) {
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
    command: Command,
    cancel: Cancel,
    /// A count's solutions so far.
    counted: Arc<AtomicU64>,
    /// When the client last heard about it.
    last_word: Instant,
}

/// A request handed to the worker.
struct Task {
    id: u64,
    command: Command,
    data: String,
    cancel: Cancel,
    counted: Arc<AtomicU64>,
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
                let reply = responder.answer(task.command, &task.data, &task.cancel, &task.counted);
                // Nobody listens once the session is gone: the reply is moot.
                if outbox.send(Answer { id: task.id, reply }).is_err() {
                    break;
                }
            }
        });
        Worker { tasks, answers }
    }
}

/// Answers requests one after another with one engine, kept from one
/// request to the next.
pub struct Responder {
    answering: Answering,
    engine: Box<dyn Engine>,
}

impl Responder {
    /// A responder with a new engine for `answering`.
    pub fn new(answering: Answering) -> Responder {
        let engine = new_engine(&answering.settings);
        Responder { answering, engine }
    }

    /// Answers one command about the puzzle in `data`, giving up when
    /// `cancel` is cancelled; a count adds each solution to `counted` as
    /// it goes.
    pub fn answer(
        &mut self,
        command: Command,
        data: &str,
        cancel: &Cancel,
        counted: &AtomicU64,
    ) -> Reply {
        let invalid = |message: String| Reply::Invalid { message };
        // The buttons that ask about the puzzle itself read only its
        // givens; a step goes on from the board as the solver left it.
        let only_givens = !matches!(command, Command::Step | Command::SolvePath);
        let (puzzle, cap) = match read_puzzle(data, only_givens) {
            Ok(read) => read,
            Err(message) => return invalid(message),
        };
        let mut engine = Cancellable {
            engine: self.engine.as_mut(),
            cancel,
        };
        let deadline = self.answering.timeout.map(|t| Instant::now() + t);
        let answered = match command {
            Command::TrueCandidates => true_candidates(&mut engine, &puzzle, cap, deadline),
            Command::Solve => solve(&mut engine, &puzzle, deadline),
            Command::Check => check(&mut engine, &puzzle, deadline),
            Command::Count => count(&mut engine, &puzzle, deadline, counted),
            Command::Step => logical(&mut engine, &puzzle, deadline, false),
            Command::SolvePath => logical(&mut engine, &puzzle, deadline, true),
            Command::Cancel => Err("`cancel` takes no puzzle".into()),
        };
        answered.unwrap_or_else(invalid)
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

/// Why an outcome without a solution has none, with the clues and rules
/// to blame (explained with `engine` within the deadline).
fn no_solution(
    engine: &mut dyn Engine,
    mut outcome: Outcome,
    deadline: Option<Instant>,
) -> Result<Reply, String> {
    let budget = deadline.unwrap_or_else(|| Instant::now() + EXPLAIN_BUDGET);
    explain(engine, &mut outcome, budget).map_err(|e| e.to_string())?;
    Ok(Reply::Invalid {
        message: outcome.summary(),
    })
}

fn true_candidates(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Reply, String> {
    let found = candidates_with(engine, puzzle, cap, deadline).map_err(|e| e.to_string())?;
    match found.outcome.status {
        Status::None => return no_solution(engine, found.outcome, deadline),
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
/// cell's candidates.
fn logical(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    deadline: Option<Instant>,
    whole: bool,
) -> Result<Reply, String> {
    let solution = match unique_solution(engine, puzzle, deadline) {
        Ok(solution) => solution,
        Err(PathError::NotUnique(Status::None)) => {
            let outcome = solve_with(engine, puzzle, false, deadline).map_err(|e| e.to_string())?;
            return no_solution(engine, outcome, deadline);
        }
        Err(e) => return Err(e.to_string()),
    };
    let logic = Logic {
        deadline,
        ..Logic::default()
    };
    let steps = if whole {
        Path::find(puzzle, &solution, logic, engine)
            .map_err(|e| e.to_string())?
            .steps
    } else {
        hint(puzzle, &solution, logic, engine)
            .map_err(|e| e.to_string())?
            .into_iter()
            .collect()
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
    let message = match steps.as_slice() {
        [] => "solved: no step is left".to_string(),
        steps => steps
            .iter()
            .map(|s| s.explanation.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    Ok(Reply::Logical {
        cells,
        message,
        is_valid: true,
    })
}

fn solve(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    deadline: Option<Instant>,
) -> Result<Reply, String> {
    let outcome = solve_with(engine, puzzle, false, deadline).map_err(|e| e.to_string())?;
    match (outcome.status, outcome.solutions.first()) {
        (Status::None, _) => no_solution(engine, outcome, deadline),
        (_, Some(solution)) => Ok(Reply::Solved {
            solution: solution_digits(&solution.grid),
        }),
        (_, None) => Err(outcome.summary()),
    }
}

fn solution_digits(grid: &Grid) -> Vec<u8> {
    (0..grid.size().cells()).map(|i| grid.get(i)).collect()
}

fn check(
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    deadline: Option<Instant>,
) -> Result<Reply, String> {
    let outcome = solve_with(engine, puzzle, true, deadline).map_err(|e| e.to_string())?;
    let count = match outcome.status {
        Status::None => return no_solution(engine, outcome, deadline),
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
    engine: &mut dyn Engine,
    puzzle: &Puzzle,
    deadline: Option<Instant>,
    counted: &AtomicU64,
) -> Result<Reply, String> {
    let count = count_with(engine, puzzle, usize::MAX, deadline, &mut |_| {
        counted.fetch_add(1, Ordering::Relaxed);
    })
    .map_err(|e| e.to_string())?;
    if let Some(reason) = &count.gave_up {
        return Err(match count.solutions {
            0 => gave_up(reason),
            n => format!("gave up: {reason}, after {n} solutions"),
        });
    }
    if count.solutions == 0 {
        let outcome = solve_with(engine, puzzle, false, deadline).map_err(|e| e.to_string())?;
        return no_solution(engine, outcome, deadline);
    }
    Ok(Reply::Count {
        count: u64::try_from(count.solutions).unwrap_or(u64::MAX),
        in_progress: false,
    })
}

/// The session's engine with the request's [`Cancel`] token put in every
/// search's limits, so that a cancelled request gives up in the middle of
/// a search; between searches (an explanation runs many) it gives up
/// before each next one.
struct Cancellable<'a> {
    engine: &'a mut dyn Engine,
    cancel: &'a Cancel,
}

impl Cancellable<'_> {
    fn stopped(&self) -> Result<(), EngineError> {
        match self.cancel.is_cancelled() {
            true => Err(EngineError::GaveUp(GiveUp::Cancelled)),
            false => Ok(()),
        }
    }

    fn limits(&self, limits: Limits) -> Limits {
        Limits {
            cancel: Some(self.cancel.clone()),
            ..limits
        }
    }
}

impl Engine for Cancellable<'_> {
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.stopped()?;
        let limits = self.limits(limits);
        let searched = self.engine.solutions(puzzle, limits, visit);
        // A search whose visitor stopped it may have ended well.
        self.stopped()?;
        searched
    }

    fn solutions_excluding(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.stopped()?;
        let limits = self.limits(limits);
        let searched = self
            .engine
            .solutions_excluding(puzzle, excluded, limits, visit);
        self.stopped()?;
        searched
    }

    fn conflict(
        &mut self,
        puzzle: &Puzzle,
        deadline: Option<Instant>,
    ) -> Result<Option<Conflict>, EngineError> {
        self.stopped()?;
        self.engine.conflict(puzzle, deadline)
    }

    fn statistics(&self) -> Vec<(String, String)> {
        self.engine.statistics()
    }
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
        }
    }

    fn answer(command: Command, data: &str) -> Reply {
        Responder::new(native()).answer(command, data, &Cancel::new(), &AtomicU64::new(0))
    }

    #[test]
    fn check_caps_the_count_at_two() {
        let unique = fpuzzles_json(NOTEBOOK, "");
        assert_eq!(
            answer(Command::Check, &unique),
            Reply::Count {
                count: 1,
                in_progress: false
            }
        );
        let open = fpuzzles_json(&".".repeat(81), "");
        assert_eq!(
            answer(Command::Check, &open),
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
        match answer(Command::TrueCandidates, &open) {
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
        match answer(Command::Solve, &clash) {
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
            Command::TrueCandidates,
            Command::Solve,
            Command::Check,
            Command::Count,
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
        match answer(Command::TrueCandidates, &marked) {
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
    fn a_rule_not_understood_is_named() {
        let unknown = fpuzzles_json(NOTEBOOK, r#","frobnicate":true"#);
        match answer(Command::Solve, &unknown) {
            Reply::Invalid { message } => assert!(message.contains("frobnicate"), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_stopped_engine_gives_up_and_a_new_request_replaces_the_one_in_hand() {
        let open = fpuzzles_json(&".".repeat(81), "");
        let cancel = Cancel::new();
        cancel.cancel();
        let reply =
            Responder::new(native()).answer(Command::Count, &open, &cancel, &AtomicU64::new(0));
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
