//! One client's requests, answered without any socket: a [`Session`] takes
//! each message as text and hands back the responses to send. Each request
//! runs as a [`Job`] in its own thread, so that a new request, a `cancel`
//! or a disconnect can stop it; a count reports its progress while it runs.

use super::protocol::{Command, LogicalCell, Reply, Request, Response, parse_request};
use crate::engine::contract::Conflict;
use crate::engine::{Engine, EngineError, Found, GiveUp, Limits, Settings, new_engine};
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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
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

/// One client's conversation: at most one job in hand, which a new request
/// replaces and a `cancel` or the session's end stops.
pub struct Session {
    answering: Answering,
    job: Option<Job>,
}

impl Session {
    /// A session that answers with `answering`.
    pub fn new(answering: Answering) -> Session {
        Session {
            answering,
            job: None,
        }
    }

    /// Takes one message from the client. A request starts its job (and
    /// stops the one in hand) and answers later, through
    /// [`Session::poll`]; what is answered at once (`cancel`, a message
    /// that is not a request) comes back here.
    pub fn receive(&mut self, text: &str) -> Option<Response> {
        let request = match parse_request(text) {
            Ok(request) => request,
            Err(response) => return Some(response),
        };
        // Dropping the job in hand stops it.
        self.job = None;
        if request.command == Command::Cancel {
            return Some(Response {
                nonce: request.nonce,
                reply: Reply::Canceled,
            });
        }
        self.job = Some(Job::start(request, self.answering.clone()));
        None
    }

    /// Whether a job is in hand.
    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Waits up to `wait` for the job in hand: its answer (which ends it),
    /// or a count's progress when one is due; `None` when neither came.
    pub fn poll(&mut self, wait: Duration) -> Option<Response> {
        let job = self.job.as_mut()?;
        let response = job.poll(wait)?;
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

    /// Stops the job in hand, if any, without an answer (the client left).
    pub fn cancel(&mut self) {
        self.job = None;
    }
}

/// One request at work in its own thread. Dropping it stops the work: the
/// engine gives up at its next solution or search.
pub struct Job {
    nonce: Value,
    command: Command,
    stop: Arc<AtomicBool>,
    counted: Arc<AtomicU64>,
    answer: Receiver<Reply>,
    last_word: Instant,
}

impl Job {
    /// Starts answering `request` in a new thread.
    pub fn start(request: Request, answering: Answering) -> Job {
        let stop = Arc::new(AtomicBool::new(false));
        let counted = Arc::new(AtomicU64::new(0));
        let (send, answer) = channel();
        let (worker_stop, worker_counted) = (Arc::clone(&stop), Arc::clone(&counted));
        let (command, data) = (request.command, request.data);
        std::thread::spawn(move || {
            let reply = answer_request(command, &data, &answering, &worker_stop, &worker_counted);
            // Nobody listens when the job was dropped: the reply is moot.
            let _ = send.send(reply);
        });
        Job {
            nonce: request.nonce,
            command,
            stop,
            counted,
            answer,
            last_word: Instant::now(),
        }
    }

    /// Waits up to `wait` for the answer, or for a count's next progress
    /// message to be due.
    pub fn poll(&mut self, wait: Duration) -> Option<Response> {
        let now = Instant::now();
        let mut until = now + wait;
        if self.command == Command::Count {
            until = until.min(self.last_word + PROGRESS_EVERY);
        }
        let reply = match self
            .answer
            .recv_timeout(until.saturating_duration_since(now))
        {
            Ok(reply) => reply,
            Err(RecvTimeoutError::Timeout) => {
                if self.command != Command::Count || self.last_word.elapsed() < PROGRESS_EVERY {
                    return None;
                }
                Reply::Count {
                    count: self.counted.load(Ordering::Relaxed),
                    in_progress: true,
                }
            }
            Err(RecvTimeoutError::Disconnected) => Reply::Invalid {
                message: "internal error: the request's work ended without an answer (this is a \
                          bug in z3doku)"
                    .into(),
            },
        };
        self.last_word = Instant::now();
        Some(Response {
            nonce: self.nonce.clone(),
            reply,
        })
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Answers one command about the puzzle in `data`, giving up when `stop`
/// is set; a count adds each solution to `counted` as it goes.
pub fn answer_request(
    command: Command,
    data: &str,
    answering: &Answering,
    stop: &AtomicBool,
    counted: &AtomicU64,
) -> Reply {
    let invalid = |message: String| Reply::Invalid { message };
    let (puzzle, cap) = match read_puzzle(data) {
        Ok(read) => read,
        Err(message) => return invalid(message),
    };
    let mut engine = Interruptible {
        engine: new_engine(&answering.settings),
        stop,
    };
    let deadline = answering.timeout.map(|t| Instant::now() + t);
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

/// The puzzle in a request's data (lz-string base64 of the f-puzzles JSON,
/// or the JSON itself) and the cap on true candidates' counts that its
/// `truecandidatesoptions` ask for.
pub fn read_puzzle(data: &str) -> Result<(Puzzle, usize), String> {
    let data = data.trim();
    let json = if data.starts_with('{') {
        data.to_string()
    } else {
        fpuzzles::decompress(data).map_err(|e| format!("the puzzle: {e}"))?
    };
    let puzzle = fpuzzles::parse_json(&json).map_err(|e| format!("the puzzle: {e}"))?;
    let options = serde_json::from_str::<Value>(&json)
        .ok()
        .and_then(|v| v.get("truecandidatesoptions").cloned());
    let cap = solutions_cap(options.as_ref()).map_err(|e| format!("truecandidatesoptions: {e}"))?;
    Ok((puzzle, cap))
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

/// An engine that gives up ([`GiveUp::Interrupted`]) once `stop` is set:
/// at its next solution, or before its next search. The engines know only
/// deadlines, so a stopped job ends at the next point where it hands back
/// control.
struct Interruptible<'a> {
    engine: Box<dyn Engine>,
    stop: &'a AtomicBool,
}

impl Interruptible<'_> {
    fn stopped(&self) -> Result<(), EngineError> {
        match self.stop.load(Ordering::Relaxed) {
            true => Err(EngineError::GaveUp(GiveUp::Interrupted)),
            false => Ok(()),
        }
    }
}

impl Engine for Interruptible<'_> {
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.stopped()?;
        let stop = self.stop;
        let searched =
            self.engine.solutions(
                puzzle,
                limits,
                &mut |found| match stop.load(Ordering::Relaxed) {
                    true => ControlFlow::Break(()),
                    false => visit(found),
                },
            );
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
        let stop = self.stop;
        let searched = self
            .engine
            .solutions_excluding(puzzle, excluded, limits, &mut |found| match stop
                .load(Ordering::Relaxed)
            {
                true => ControlFlow::Break(()),
                false => visit(found),
            });
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
        answer_request(
            command,
            data,
            &native(),
            &AtomicBool::new(false),
            &AtomicU64::new(0),
        )
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
        let stop = AtomicBool::new(true);
        let reply = answer_request(Command::Count, &open, &native(), &stop, &AtomicU64::new(0));
        assert_eq!(
            reply,
            Reply::Invalid {
                message: "gave up: interrupted".into()
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
