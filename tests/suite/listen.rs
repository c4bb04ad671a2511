//! `z3doku listen` as f-puzzles' userscript meets it: a real server
//! process, driven over real WebSockets.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, example, output_of};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};
use z3doku::engine::{EngineKind, Settings};
use z3doku::puzzle::fpuzzles;
use z3doku::solve::{Pipeline, Request};

/// A `z3doku listen` process on a free port, ended when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_z3doku"))
            .args(["listen", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("ws://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    fn connect(&self) -> Client {
        let stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (socket, _) = tungstenite::client(format!("ws://{}/", self.address), stream).unwrap();
        Client(socket)
    }

    /// The CPU time the server process has used so far.
    fn cpu(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // Fields after the command's closing parenthesis; utime and stime
        // are the 14th and 15th of the whole line, in clock ticks (100 a
        // second on Linux).
        let rest = stat.rsplit_once(')').unwrap().1;
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .map(|f| f.parse().unwrap())
            .collect();
        Duration::from_millis((fields[0] + fields[1]) * 10)
    }

    /// Asserts that the server stays (nearly) idle for half a second: no
    /// search goes on behind its answers.
    fn assert_idle(&self) {
        let before = self.cpu();
        std::thread::sleep(Duration::from_millis(500));
        let burnt = self.cpu() - before;
        assert!(
            burnt < Duration::from_millis(150),
            "the search went on: {burnt:?}"
        );
    }

    /// The server process's thread count.
    fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client(WebSocket<TcpStream>);

impl Client {
    fn send(&mut self, text: &str) {
        self.0.send(Message::text(text)).unwrap();
    }

    fn request(&mut self, nonce: u64, command: &str, puzzle: &str) {
        let data = lz_str::compress_to_base64(puzzle);
        self.send(
            &json!({"nonce": nonce, "command": command, "dataType": "fpuzzles", "data": data})
                .to_string(),
        );
    }

    /// The next text message, as JSON.
    fn next(&mut self) -> Value {
        loop {
            match self.0.read().unwrap() {
                Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => {}
            }
        }
    }

    /// The next message that is not a count's progress.
    fn answer(&mut self) -> Value {
        loop {
            let message = self.next();
            if message["inProgress"] != json!(true) {
                return message;
            }
        }
    }

    fn ask(&mut self, nonce: u64, command: &str, puzzle: &str) -> Value {
        self.request(nonce, command, puzzle);
        let answer = self.answer();
        assert_eq!(answer["nonce"], json!(nonce), "{answer}");
        answer
    }

    fn set_timeout(&mut self, timeout: Duration) {
        self.0.get_ref().set_read_timeout(Some(timeout)).unwrap();
    }
}

/// Classic f-puzzles JSON with the givens of `line`, and `extra` keys.
fn fpuzzles_json(line: &str, extra: &str) -> String {
    let rows: Vec<Value> = line
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    b'1'..=b'9' => json!({"value": c - b'0', "given": true}),
                    _ => json!({}),
                })
                .collect()
        })
        .collect();
    let mut puzzle = json!({"size": 9, "grid": rows});
    let extra: Value = serde_json::from_str(&format!("{{{extra}}}")).unwrap();
    for (key, value) in extra.as_object().unwrap() {
        puzzle[key] = value.clone();
    }
    puzzle.to_string()
}

const MULTIPLE: &str =
    "....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

fn killer() -> String {
    std::fs::read_to_string(example("killer.json")).unwrap()
}

/// The puzzle with several solutions and a killer cage that leaves 7 of
/// them, or with sum `4`, none.
fn caged(sum: u32) -> String {
    fpuzzles_json(
        MULTIPLE,
        &format!(r#""killercage":[{{"cells":["R1C1","R1C2"],"value":"{sum}"}}]"#),
    )
}

/// An open 12x12 board under anti-knight, anti-king and non-consecutive
/// rules: one search for a first solution runs for longer than any test
/// waits (over 30 s native, over 4 s with Z3) without a solution on the
/// way, so only a cancel that reaches into the search stops it soon.
fn endless() -> String {
    let rows = vec![vec![json!({}); 12]; 12];
    json!({"size": 12, "grid": rows, "antiknight": true, "antiking": true, "nonconsecutive": true})
        .to_string()
}

/// Promptly, on a loaded 2-core machine.
const PROMPTLY: Duration = Duration::from_millis(1500);

/// The killer puzzle with only its first 18 cages: 164 solutions.
fn loose_killer() -> String {
    let mut puzzle: Value = serde_json::from_str(&killer()).unwrap();
    puzzle["killercage"].as_array_mut().unwrap().truncate(18);
    puzzle.to_string()
}

fn native() -> Pipeline {
    Pipeline::new(Request {
        settings: Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        },
        ..Request::default()
    })
}

/// The library's true candidates, in the protocol's layout.
fn library_candidates(puzzle: &str, cap: usize) -> Vec<usize> {
    let puzzle = fpuzzles::parse(puzzle).unwrap();
    let found = native().candidates(&puzzle, cap).unwrap();
    let givens = puzzle.givens();
    let mut counts = Vec::new();
    for i in 0..81 {
        for d in 1..=9u8 {
            counts.push(match givens.get(i) {
                0 => found.count(i, d).min(cap),
                g if g == d => found.solutions_seen.min(cap),
                _ => 0,
            });
        }
    }
    counts
}

fn library_count(puzzle: &str) -> u64 {
    let puzzle = fpuzzles::parse(puzzle).unwrap();
    let count = native().count(&puzzle, usize::MAX, &mut |_| {}).unwrap();
    count.solutions as u64
}

fn cli_solution(puzzle_file: &std::path::Path) -> Vec<u64> {
    let out = output_of(["solve", puzzle_file.to_str().unwrap(), "-o", "line"], 0);
    String::from_utf8(out)
        .unwrap()
        .trim()
        .bytes()
        .map(|b| u64::from(b - b'0'))
        .collect()
}

#[test]
fn every_command_on_a_classic_and_a_variant_puzzle() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let notebook = fpuzzles_json(NOTEBOOK, "");
    let multiple = fpuzzles_json(
        MULTIPLE,
        r#""truecandidatesoptions":["truecandidatesnumsolutions=8"]"#,
    );
    let (killer, loose) = (killer(), loose_killer());

    // solve: the CLI's solution.
    let solved = client.ask(1, "solve", &notebook);
    assert_eq!(solved["type"], "solved");
    let digits: Vec<u64> = NOTEBOOK_SOLUTION
        .bytes()
        .map(|b| u64::from(b - b'0'))
        .collect();
    assert_eq!(solved["solution"], json!(digits));
    let solved = client.ask(2, "solve", &killer);
    assert_eq!(
        solved["solution"],
        json!(cli_solution(&example("killer.json")))
    );

    // check: 1 for a unique puzzle, 2 (the cap) for more.
    for (nonce, puzzle, count) in [
        (3, &notebook, 1),
        (4, &multiple, 2),
        (5, &killer, 1),
        (6, &loose, 2),
    ] {
        assert_eq!(
            client.ask(nonce, "check", puzzle),
            json!({"nonce": nonce, "type": "count", "count": count, "inProgress": false})
        );
    }

    // count: the library's count.
    for (nonce, puzzle) in [(7, &multiple), (8, &loose), (17, &caged(8))] {
        let count = client.ask(nonce, "count", puzzle);
        assert_eq!(count["count"], json!(library_count(puzzle)), "{count}");
        assert_eq!(count["inProgress"], json!(false));
    }
    assert_eq!(library_count(&loose), 164);
    assert_eq!(library_count(&caged(8)), 7);

    // truecandidates: the library's counts, capped as the options ask (1
    // by default, 8 for the multiple puzzle).
    let caged = caged(8);
    let caged_capped = caged.replacen(
        '{',
        r#"{"truecandidatesoptions":["truecandidatesnumsolutions=8"],"#,
        1,
    );
    for (nonce, puzzle, cap) in [
        (9, &notebook, 1),
        (10, &multiple, 8),
        (11, &killer, 1),
        (12, &caged, 1),
        (13, &caged_capped, 8),
    ] {
        let answer = client.ask(nonce, "truecandidates", puzzle);
        assert_eq!(answer["type"], "truecandidates");
        let counts: Vec<usize> =
            serde_json::from_value(answer["solutionsPerCandidate"].clone()).unwrap();
        assert_eq!(counts.len(), 729);
        assert_eq!(counts, library_candidates(puzzle, cap), "nonce {nonce}");
        assert!(counts.iter().all(|&n| n <= cap));
        if cap == 8 {
            assert!(counts.iter().any(|&n| n > 1 && n < 8));
        }
    }

    // step: one checked step from the givens, with its explanation;
    // solvepath: the whole path, every cell placed as the solution has it.
    let killer_solution = cli_solution(&example("killer.json"));
    for (nonce, puzzle, solution) in [(14, &notebook, &digits), (15, &killer, &killer_solution)] {
        let step = client.ask(nonce, "step", puzzle);
        assert_eq!(step["type"], "logical", "{step}");
        assert_eq!(step["isValid"], true);
        assert!(!step["message"].as_str().unwrap().is_empty());
        let cells = step["cells"].as_array().unwrap();
        assert!(cells.iter().any(|c| c["value"] == 0));
        assert_eq!(cells.len(), 81);
        for (cell, &digit) in cells.iter().zip(solution.iter()) {
            match cell["value"].as_u64().unwrap() {
                0 => assert!(
                    cell["candidates"]
                        .as_array()
                        .unwrap()
                        .contains(&json!(digit))
                ),
                value => assert_eq!(value, digit),
            }
        }
        let path = client.ask(nonce + 100, "solvepath", puzzle);
        assert_eq!(path["type"], "logical", "{path}");
        let values: Vec<u64> = path["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_u64().unwrap())
            .collect();
        assert_eq!(&values, solution);
        assert!(path["message"].as_str().unwrap().lines().count() > 1);
    }
    // A puzzle with several solutions gets the steps that hold in every
    // one, and says so.
    let answer = client.ask(16, "step", &multiple);
    assert_eq!(answer["type"], "logical", "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("more than one solution"),
        "{answer}"
    );
}

#[test]
fn no_solution_and_unknown_rules_are_invalid_with_their_reason() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    // Box 1 has no room for a 5 (examples/puzzles/contradiction.txt).
    let contradiction = fpuzzles_json(&common::contradiction(), "");
    for (nonce, command) in [
        (1, "solve"),
        (2, "check"),
        (3, "truecandidates"),
        (4, "count"),
    ] {
        assert_eq!(
            client.ask(nonce, command, &contradiction)["message"],
            "no solution: these 5 clues conflict: r1c9=5 r2c3=1 r3c5=5 r5c1=5 r9c2=5"
        );
    }
    // A cage with no room for its sum beside a clue: both are named.
    let answer = client.ask(7, "solve", &caged(4));
    assert_eq!(
        answer["message"],
        "no solution: these conflict: r1c8=3, cage 4 (r1c1 r1c2)"
    );
    let unknown = fpuzzles_json(NOTEBOOK, r#""frobnicate":true"#);
    let answer = client.ask(8, "check", &unknown);
    assert!(
        answer["message"].as_str().unwrap().contains("`frobnicate`"),
        "{answer}"
    );
}

#[test]
fn malformed_messages_are_invalid_and_the_server_goes_on() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    client.send("{this is not json");
    let answer = client.next();
    assert_eq!(answer["type"], "invalid");
    assert!(
        answer["message"].as_str().unwrap().contains("not JSON"),
        "{answer}"
    );

    client
        .send(r#"{"nonce":2,"command":"solve","dataType":"fpuzzles","data":"@@not a payload@@"}"#);
    let answer = client.next();
    assert_eq!(answer["nonce"], 2);
    assert!(
        answer["message"].as_str().unwrap().contains("payload"),
        "{answer}"
    );

    client.send(r#"{"nonce":3,"command":"frobnicate","dataType":"fpuzzles","data":"x"}"#);
    let answer = client.next();
    assert_eq!(answer["nonce"], 3);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("`frobnicate` is not understood"),
        "{answer}"
    );

    // Still serving the same client...
    let notebook = fpuzzles_json(NOTEBOOK, "");
    assert_eq!(client.ask(4, "check", &notebook)["count"], 1);

    // ...and an oversized message is refused, and its connection closed,
    // while others go on.
    // The server refuses it from its header, and may close before the
    // client has sent it all.
    let _ = client.0.send(Message::text("x".repeat(17 * 1024 * 1024)));
    loop {
        match client.0.read() {
            Ok(Message::Text(text)) => {
                let answer: Value = serde_json::from_str(text.as_str()).unwrap();
                assert_eq!(answer["type"], "invalid");
                assert!(
                    answer["message"]
                        .as_str()
                        .unwrap()
                        .contains("refused: over 16 MiB"),
                    "{answer}"
                );
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    let mut other = server.connect();
    assert_eq!(other.ask(5, "check", &notebook)["count"], 1);
}

#[test]
fn cancel_stops_a_count_and_a_new_request_replaces_the_one_in_hand() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let open = fpuzzles_json(&".".repeat(81), "");

    // An open board counts for ever, with progress at least every second.
    client.request(1, "count", &open);
    let mut last = 0;
    for _ in 0..3 {
        let started = Instant::now();
        let progress = client.next();
        assert!(started.elapsed() < Duration::from_millis(1100));
        assert_eq!(progress["nonce"], 1);
        assert_eq!(progress["inProgress"], true);
        let count = progress["count"].as_u64().unwrap();
        assert!(count >= last);
        last = count;
    }
    assert!(last > 0);
    client.send(r#"{"nonce":2,"command":"cancel"}"#);
    // Progress may have been on its way; then only the cancellation.
    let answer = client.answer();
    assert_eq!(answer, json!({"nonce": 2, "type": "canceled"}));
    client.set_timeout(Duration::from_millis(1500));
    assert!(client.0.read().is_err(), "a message after the cancellation");
    client.set_timeout(Duration::from_secs(30));

    // A new request replaces a count in hand: only its answer comes.
    client.request(3, "count", &open);
    assert_eq!(client.next()["nonce"], 3);
    let notebook = fpuzzles_json(NOTEBOOK, "");
    client.request(4, "check", &notebook);
    let answer = client.answer();
    assert_eq!(
        answer,
        json!({"nonce": 4, "type": "count", "count": 1, "inProgress": false})
    );
    client.set_timeout(Duration::from_millis(1500));
    assert!(client.0.read().is_err(), "the replaced count went on");
}

#[test]
fn cancel_and_a_new_request_stop_a_search_in_the_middle() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let (endless, notebook) = (endless(), fpuzzles_json(NOTEBOOK, ""));

    // `cancel` stops the search in the middle.
    client.request(1, "solve", &endless);
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    client.send(r#"{"nonce":2,"command":"cancel"}"#);
    assert_eq!(client.next(), json!({"nonce": 2, "type": "canceled"}));
    assert_eq!(client.ask(3, "check", &notebook)["count"], 1);
    assert!(start.elapsed() < PROMPTLY, "{:?}", start.elapsed());
    server.assert_idle();

    // So does a new request, which alone is answered.
    client.request(4, "solve", &endless);
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    assert_eq!(client.ask(5, "check", &notebook)["count"], 1);
    assert!(start.elapsed() < PROMPTLY, "{:?}", start.elapsed());
    server.assert_idle();
    client.set_timeout(Duration::from_millis(200));
    assert!(
        client.0.read().is_err(),
        "the replaced request was answered"
    );
    client.set_timeout(Duration::from_secs(30));

    // The worker serves on, with its engine: a variant after the cancels.
    assert_eq!(client.ask(6, "count", &loose_killer())["count"], 164);
}

#[test]
fn two_clients_at_once() {
    let server = Server::start(&[]);
    let mut counting = server.connect();
    let mut checking = server.connect();
    let open = fpuzzles_json(&".".repeat(81), "");
    counting.request(1, "count", &open);
    assert_eq!(counting.next()["inProgress"], true);
    // The other client is answered while the first one's count goes on.
    let loose = loose_killer();
    assert_eq!(checking.ask(1, "count", &loose)["count"], 164);
    assert_eq!(counting.next()["nonce"], 1);
    counting.send(r#"{"nonce":2,"command":"cancel"}"#);
    assert_eq!(counting.answer()["type"], "canceled");
}

#[test]
fn a_client_that_leaves_mid_search_has_its_work_stopped() {
    let server = Server::start(&[]);
    // The server's own threads, before anyone connects.
    std::thread::sleep(Duration::from_millis(200));
    let idle = server.threads();
    let mut client = server.connect();
    client.request(1, "solve", &endless());
    std::thread::sleep(Duration::from_millis(300));
    // The connection's thread and its worker.
    assert!(server.threads() >= idle + 2);
    drop(client);
    let start = Instant::now();
    while server.threads() > idle {
        assert!(start.elapsed() < PROMPTLY, "the search went on");
        std::thread::sleep(Duration::from_millis(10));
    }
    server.assert_idle();
    let mut next = server.connect();
    assert_eq!(
        next.ask(2, "check", &fpuzzles_json(NOTEBOOK, ""))["count"],
        1
    );
}

#[test]
fn z3_answers_too() {
    let server = Server::start(&["--engine", "z3"]);
    let mut client = server.connect();
    assert_eq!(client.ask(1, "check", &killer())["count"], 1);
    let solved = client.ask(2, "solve", &killer());
    assert_eq!(
        solved["solution"],
        json!(cli_solution(&example("killer.json")))
    );
    // Z3's checks are interrupted in the middle too.
    client.request(3, "solve", &endless());
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    client.send(r#"{"nonce":4,"command":"cancel"}"#);
    assert_eq!(client.next(), json!({"nonce": 4, "type": "canceled"}));
    assert_eq!(client.ask(5, "check", &killer())["count"], 1);
    assert!(start.elapsed() < PROMPTLY, "{:?}", start.elapsed());
    server.assert_idle();
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&[]);
    let mut client = server.connect();
    client.request(1, "count", &fpuzzles_json(&".".repeat(81), ""));
    assert_eq!(client.next()["inProgress"], true);
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = server.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let mut rest = String::new();
    std::io::Read::read_to_string(server.child.stderr.as_mut().unwrap(), &mut rest).unwrap();
    assert!(rest.contains("stopped listening"), "{rest}");
    // The client was told goodbye, or found the connection gone.
    loop {
        match client.0.read() {
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

#[test]
fn a_taken_port_is_an_input_error() {
    let server = Server::start(&[]);
    let port = server.address.rsplit(':').next().unwrap();
    common::z3doku()
        .args(["listen", "--port", port])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot listen on 127.0.0.1:"));
}

/// An empty board of `side` as f-puzzles JSON.
fn empty_board(side: usize) -> String {
    let row: Vec<Value> = (0..side).map(|_| json!({})).collect();
    let rows: Vec<Value> = (0..side).map(|_| Value::Array(row.clone())).collect();
    json!({"size": side, "grid": rows}).to_string()
}

#[test]
fn estimate_streams_its_narrowing_interval_until_cancelled() {
    let server = Server::start(&["--engine", "native"]);
    let mut client = server.connect();
    // 28,200,960 solutions: far too many to count at a button's press.
    client.request(1, "estimate", &empty_board(6));
    let mut last: Option<Value> = None;
    for _ in 0..3 {
        let message = client.next();
        // The fields dclamage's solver sends and the userscript prints.
        assert_eq!(message["type"], "estimate", "{message}");
        assert_eq!(message["nonce"], 1);
        for field in [
            "estimate",
            "stderr",
            "ci95_lower",
            "ci95_upper",
            "relErrPercent",
        ] {
            assert!(message[field].is_f64(), "{field}: {message}");
        }
        let iterations = message["iterations"].as_u64().unwrap();
        if let Some(before) = &last {
            assert!(iterations >= before["iterations"].as_u64().unwrap());
        }
        last = Some(message);
    }
    let last = last.unwrap();
    let (estimate, stderr) = (
        last["estimate"].as_f64().unwrap(),
        last["stderr"].as_f64().unwrap(),
    );
    assert!(
        (estimate - 28_200_960.0).abs() < 5.0 * stderr,
        "{last}: 5 standard errors from the count"
    );
    assert!(last["ci95_lower"].as_f64().unwrap() < estimate);
    assert!(estimate < last["ci95_upper"].as_f64().unwrap());
    client.send(r#"{"nonce":2,"command":"cancel"}"#);
    loop {
        let message = client.next();
        if message["type"] == "canceled" {
            assert_eq!(message["nonce"], 2);
            break;
        }
        // Progress already under way when the cancel came.
        assert_eq!(message["nonce"], 1, "{message}");
    }
    server.assert_idle();

    // A puzzle with few solutions is counted: the estimate is exact.
    let notebook = fpuzzles_json(NOTEBOOK, "");
    let exact = client.ask(3, "estimate", &notebook);
    assert_eq!(exact["type"], "estimate", "{exact}");
    assert_eq!(exact["estimate"], 1.0);
    assert_eq!(exact["iterations"], 0);
    assert_eq!(exact["relErrPercent"], 0.0);
    // One with none is invalid, with the clues to blame.
    let clash = fpuzzles_json(&format!("11{}", ".".repeat(79)), "");
    let none = client.ask(4, "estimate", &clash);
    assert_eq!(none["type"], "invalid", "{none}");
}

#[test]
fn large_puzzles_are_read_and_larger_ones_refused_naming_the_limit() {
    let server = Server::start(&["--engine", "native"]);
    let mut client = server.connect();
    // The notebook with 40,000 drawn lines: its JSON is some 2.6 MiB and
    // its payload hundreds of KiB, over the old limits of 1 MiB a message
    // and 16 KiB a payload.
    let mut puzzle: Value = serde_json::from_str(&fpuzzles_json(NOTEBOOK, "")).unwrap();
    let lines: Vec<Value> = (0..40_000)
        .map(|k| {
            json!({"lines": [[format!("R{}C{}", k % 9 + 1, k / 9 % 9 + 1), format!("R{}C{}", k / 81 % 9 + 1, k % 7 + 1)]],
                   "outlineC": format!("#{:06X}", k * 97 % 0xFFFFFF), "width": 0.1})
        })
        .collect();
    puzzle["line"] = Value::Array(lines);
    let text = puzzle.to_string();
    assert!(text.len() > 2 * 1024 * 1024, "{}", text.len());
    assert!(lz_str::compress_to_base64(&text).len() > 16 * 1024);
    assert_eq!(client.ask(1, "check", &text)["count"], 1);
    // The JSON itself as the data, as well as compressed.
    client.send(
        &json!({"nonce": 2, "command": "check", "dataType": "fpuzzles", "data": text}).to_string(),
    );
    assert_eq!(client.answer()["count"], 1);
    // A small payload that would decompress to 17 MiB is refused, naming
    // the limit, and the server goes on. The payload is a file (lz-string
    // takes some 20 s to compress 17 MiB of one letter); what it holds is
    // checked here.
    let bomb = include_str!("../data/title_of_17_mib.lz").trim();
    assert!(bomb.len() < 16 * 1024, "{}", bomb.len());
    let title = "x".repeat(17 * 1024 * 1024);
    assert_eq!(
        lz_str::decompress_from_base64(bomb).and_then(|wide| String::from_utf16(&wide).ok()),
        Some(format!("{{\"size\":9,\"title\":\"{title}\"}}"))
    );
    client.send(
        &json!({"nonce": 3, "command": "check", "dataType": "fpuzzles", "data": bomb}).to_string(),
    );
    let answer = client.answer();
    assert_eq!(answer["nonce"], 3, "{answer}");
    assert_eq!(answer["type"], "invalid", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("more than 16 MiB"), "{message}");
    assert_eq!(
        client.ask(4, "solve", &fpuzzles_json(NOTEBOOK, ""))["type"],
        "solved"
    );
}

/// The `data` the userscript sends (`exportPuzzleForSolving` in
/// `Fpuzzles-SudokuSolver.user.js`): the page's f-puzzles JSON with the
/// solver settings added, `disabledlogic` (the logic switched off) and
/// `truecandidatesoptions` (`truecandidatesnumsolutions=N` when the
/// Solution Cap is over 1, `logical` for Include Logical Candidates),
/// both always present, compressed with lz-string's base 64.
fn userscript_data(puzzle: &str, disabled: &[&str], options: &[&str]) -> String {
    let mut puzzle: Value = serde_json::from_str(puzzle).unwrap();
    puzzle["disabledlogic"] = json!(disabled);
    puzzle["truecandidatesoptions"] = json!(options);
    lz_str::compress_to_base64(&puzzle.to_string())
}

/// f-puzzles JSON of a board of `side` with the givens of `line`.
fn sized_json(line: &str, side: usize, extra: &str) -> String {
    let rows: Vec<Value> = line
        .as_bytes()
        .chunks(side)
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    b'1'..=b'9' => json!({"value": c - b'0', "given": true}),
                    _ => json!({}),
                })
                .collect()
        })
        .collect();
    let mut puzzle = json!({"size": side, "grid": rows});
    let extra: Value = serde_json::from_str(&format!("{{{extra}}}")).unwrap();
    for (key, value) in extra.as_object().unwrap() {
        puzzle[key] = value.clone();
    }
    puzzle.to_string()
}

/// The logic the userscript can switch off (its `EnableLogic…`
/// settings, lower case without the prefix), and the names of the steps
/// each one stands for in z3doku's paths.
const LOGIC_SWITCHES: [(&str, &[&str]); 6] = [
    (
        "tuples",
        &[
            "naked pair",
            "naked triple",
            "naked quad",
            "hidden pair",
            "hidden triple",
            "hidden quad",
            "direct hidden pair",
            "direct hidden triple",
        ],
    ),
    (
        "pointing",
        &[
            "pointing",
            "claiming",
            "direct pointing",
            "direct claiming",
            "rule pointing",
        ],
    ),
    ("fishes", &["X-wing", "swordfish", "jellyfish"]),
    ("wings", &["XY-wing", "XYZ-wing"]),
    (
        "aic",
        &[
            "X-chain",
            "XY-chain",
            "forcing X-chain",
            "XY forcing chain",
            "bidirectional X-cycle",
            "bidirectional Y-cycle",
            "bidirectional cycle",
            "rule X-chain",
            "rule XY-chain",
            "rule AIC",
        ],
    ),
    (
        "contradictions",
        &[
            "forcing chain",
            "dynamic forcing chain",
            "Nishio forcing chain",
            "multiple forcing chain",
            "rule forcing chain",
            "rule dynamic forcing chain",
            "reasoned",
        ],
    ),
];

/// The technique of each line of a logical answer's message: the words
/// before its first colon.
fn techniques_named(message: &str) -> Vec<String> {
    message
        .lines()
        .filter_map(|line| {
            line.split_once(':')
                .map(|(name, _)| name.trim().to_string())
        })
        .collect()
}

/// What the userscript reads of each answer, as its handlers read it
/// (`importCandidates`, `importGivens`, `handleCheck`, `handleCount`,
/// `handlePath`, `handleStep`, `handleEstimate`, `handleInvalid`): the
/// type its command is answered with, and each field with its type and
/// range. `cap` is the Solution Cap, `logical` whether −1 may come.
fn assert_userscript_shape(
    answer: &Value,
    command: &str,
    nonce: u64,
    side: usize,
    cap: i64,
    logical: bool,
) {
    let what = format!("{command} {answer}");
    assert_eq!(answer["nonce"], json!(nonce), "{what}");
    let fields: Vec<&str> = answer
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let has_only = |expected: &[&str]| {
        let mut expected: Vec<&str> = expected.to_vec();
        expected.extend(["nonce", "type"]);
        let mut got = fields.clone();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(got, expected, "{what}");
    };
    let digit = |v: &Value| {
        let d = v.as_i64().unwrap_or_else(|| panic!("{what}: {v}"));
        assert!((1..=side as i64).contains(&d), "{what}: {d}");
    };
    match (command, answer["type"].as_str().unwrap()) {
        ("truecandidates", "truecandidates") => {
            has_only(&["solutionsPerCandidate"]);
            let counts = answer["solutionsPerCandidate"].as_array().unwrap();
            assert_eq!(counts.len(), side * side * side, "{what}");
            for n in counts {
                let n = n.as_i64().unwrap_or_else(|| panic!("{what}: {n}"));
                let least = if logical { -1 } else { 0 };
                assert!((least..=cap).contains(&n), "{what}: {n}");
            }
        }
        ("solve", "solved") => {
            has_only(&["solution"]);
            let solution = answer["solution"].as_array().unwrap();
            assert_eq!(solution.len(), side * side, "{what}");
            solution.iter().for_each(digit);
        }
        ("check" | "count", "count") => {
            has_only(&["count", "inProgress"]);
            let count = answer["count"].as_u64().unwrap();
            assert!(count >= 1, "{what}");
            if command == "check" {
                assert!(count <= 2, "{what}");
            }
            assert_eq!(answer["inProgress"], false, "{what}");
        }
        ("step" | "solvepath", "logical") => {
            has_only(&["cells", "message", "isValid"]);
            let cells = answer["cells"].as_array().unwrap();
            assert_eq!(cells.len(), side * side, "{what}");
            for cell in cells {
                let value = cell["value"].as_i64().unwrap();
                let candidates = cell["candidates"].as_array().unwrap();
                if value == 0 {
                    assert!(!candidates.is_empty(), "{what}");
                    candidates.iter().for_each(digit);
                } else {
                    digit(&cell["value"]);
                }
            }
            assert!(answer["message"].is_string(), "{what}");
            assert_eq!(answer["isValid"], true, "{what}");
        }
        ("estimate", "estimate") => {
            has_only(&[
                "estimate",
                "stderr",
                "iterations",
                "ci95_lower",
                "ci95_upper",
                "relErrPercent",
            ]);
            for field in [
                "estimate",
                "stderr",
                "ci95_lower",
                "ci95_upper",
                "relErrPercent",
            ] {
                assert!(answer[field].is_number(), "{what}");
            }
            assert!(answer["iterations"].is_u64(), "{what}");
        }
        ("cancel", "canceled") => has_only(&[]),
        (_, "invalid") => {
            has_only(&["message"]);
            assert!(!answer["message"].as_str().unwrap().is_empty(), "{what}");
        }
        _ => panic!("the userscript cannot read {what}"),
    }
}

/// The library's true candidates of `puzzle` (JSON, board of `side`), in
/// the protocol's layout.
fn library_candidates_of(puzzle: &str, side: usize, cap: usize) -> Vec<i64> {
    let puzzle = fpuzzles::parse(puzzle).unwrap();
    let found = native().candidates(&puzzle, cap).unwrap();
    let givens = puzzle.givens();
    let mut counts = Vec::new();
    for i in 0..side * side {
        for d in 1..=side as u8 {
            counts.push(match givens.get(i) {
                0 => found.count(i, d).min(cap) as i64,
                g if g == d => found.solutions_seen.min(cap) as i64,
                _ => 0,
            });
        }
    }
    counts
}

#[test]
fn every_command_and_option_the_userscript_sends_is_answered_in_its_shape() {
    let server = Server::start(&["--engine", "native"]);
    let mut client = server.connect();
    let puzzles = [
        // Several solutions, classic.
        (fpuzzles_json(MULTIPLE, ""), 9),
        // A killer cage leaving 7 solutions.
        (caged(8), 9),
        // A 6x6 board with several solutions: the layout is N³.
        (sized_json("..3.2.....14..4...1..5.....16.......", 6, ""), 6),
    ];
    let mut disabled_sets: Vec<Vec<&str>> = vec![vec![]];
    disabled_sets.extend(LOGIC_SWITCHES.iter().map(|(word, _)| vec![*word]));
    disabled_sets.push(LOGIC_SWITCHES.iter().map(|(word, _)| *word).collect());
    let option_sets: [(&[&str], i64, bool); 6] = [
        (&[], 1, false),
        (&["truecandidatesnumsolutions=2"], 2, false),
        (&["truecandidatesnumsolutions=8"], 8, false),
        (&["logical"], 1, true),
        (&["truecandidatesnumsolutions=8", "logical"], 8, true),
        // The older option the cap replaced.
        (&["colored"], 8, false),
    ];
    let commands = [
        "truecandidates",
        "solve",
        "check",
        "count",
        "step",
        "solvepath",
        "estimate",
    ];
    let mut nonce = 0;
    // Digits answered −1 (no solution, the logic leaves them), with the
    // logic all on and all off.
    let (mut red_all_on, mut red_all_off) = (0, 0);
    for (puzzle, side) in &puzzles {
        let count = library_count(puzzle);
        assert!(count > 1, "{puzzle}");
        let parsed = fpuzzles::parse(puzzle).unwrap();
        for disabled in &disabled_sets {
            for &(options, cap, logical) in &option_sets {
                let data = userscript_data(puzzle, disabled, options);
                for command in commands {
                    nonce += 1;
                    let message = json!({"nonce": nonce, "command": command,
                                         "dataType": "fpuzzles", "data": data});
                    client.send(&message.to_string());
                    let answer = client.answer();
                    let what = format!("{command} {disabled:?} {options:?} {answer}");
                    assert_userscript_shape(&answer, command, nonce, *side, cap, logical);
                    assert_ne!(answer["type"], "invalid", "{what}");
                    match command {
                        "truecandidates" => {
                            let got: Vec<i64> =
                                serde_json::from_value(answer["solutionsPerCandidate"].clone())
                                    .unwrap();
                            let library = library_candidates_of(puzzle, *side, cap as usize);
                            let red = got.iter().filter(|&&n| n == -1).count();
                            match disabled.len() {
                                0 => red_all_on += red,
                                1 => {}
                                _ => red_all_off += red,
                            }
                            for (g, l) in got.iter().zip(&library) {
                                match (l, logical) {
                                    (0, true) => assert!(*g == 0 || *g == -1, "{what}"),
                                    _ => assert_eq!(g, l, "{what}"),
                                }
                            }
                        }
                        "solve" => {
                            let digits: Vec<u8> =
                                serde_json::from_value(answer["solution"].clone()).unwrap();
                            let line: String =
                                digits.iter().map(|&d| char::from(b'0' + d)).collect();
                            let grid = z3doku::puzzle::parse::parse_puzzle(&line, None).unwrap();
                            z3doku::puzzle::check::verify_solution(&parsed, &grid)
                                .unwrap_or_else(|e| panic!("{what}: {e}"));
                        }
                        "check" => assert_eq!(answer["count"], 2, "{what}"),
                        "count" => assert_eq!(answer["count"], count, "{what}"),
                        "estimate" => {
                            // Few solutions: counted, exactly.
                            assert_eq!(answer["estimate"], count as f64, "{what}");
                            assert_eq!(answer["iterations"], 0, "{what}");
                        }
                        _ => {
                            // No step of the logic switched off.
                            let named = techniques_named(answer["message"].as_str().unwrap());
                            for (word, names) in LOGIC_SWITCHES {
                                if disabled.contains(&word) {
                                    assert!(
                                        named.iter().all(|n| !names.contains(&n.as_str())),
                                        "{what}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // Singles alone leave more digits than all the logic does.
    assert!(red_all_off > red_all_on, "{red_all_off} {red_all_on}");
    // `cancel`, as the userscript sends it: a nonce and the command alone.
    nonce += 1;
    client.send(&json!({"nonce": nonce, "command": "cancel"}).to_string());
    assert_userscript_shape(&client.next(), "cancel", nonce, 9, 1, false);
    // An answer with no solution is `invalid` with its reason.
    let clash = userscript_data(
        &fpuzzles_json(&format!("55{}", ".".repeat(79)), ""),
        &[],
        &[],
    );
    for command in commands {
        nonce += 1;
        let message =
            json!({"nonce": nonce, "command": command, "dataType": "fpuzzles", "data": clash});
        client.send(&message.to_string());
        let answer = client.answer();
        assert_eq!(answer["type"], "invalid", "{command} {answer}");
        assert_userscript_shape(&answer, command, nonce, 9, 1, false);
    }
}

#[test]
fn disabled_logic_keeps_its_steps_out_of_the_path() {
    let server = Server::start(&["--engine", "native"]);
    let mut client = server.connect();
    // A path that takes a step of every kind the userscript can switch
    // off (top1465's 46th puzzle).
    let puzzle = fpuzzles_json(
        ".5.1.8.7.4..3.....2.........1.7...8.9.....4............3.....1.....4.2......5.6..",
        "",
    );
    let path = |client: &mut Client, nonce: u64, disabled: &[&str]| {
        let data = userscript_data(&puzzle, disabled, &[]);
        client.send(
            &json!({"nonce": nonce, "command": "solvepath", "dataType": "fpuzzles", "data": data})
                .to_string(),
        );
        let answer = client.answer();
        assert_userscript_shape(&answer, "solvepath", nonce, 9, 1, false);
        techniques_named(answer["message"].as_str().unwrap())
    };
    let all = path(&mut client, 1, &[]);
    for (k, (word, names)) in LOGIC_SWITCHES.iter().enumerate() {
        assert!(
            all.iter().any(|n| names.contains(&n.as_str())),
            "no {word} step with all the logic on: {all:?}"
        );
        let without = path(&mut client, 2 + k as u64, &[word]);
        assert!(
            without.iter().all(|n| !names.contains(&n.as_str())),
            "{word} off: {without:?}"
        );
    }
    // Everything off: singles, and search where they run out.
    let every: Vec<&str> = LOGIC_SWITCHES.iter().map(|(w, _)| *w).collect();
    let singles = path(&mut client, 10, &every);
    let last = singles.last().unwrap();
    assert_eq!(last, "search", "{singles:?}");
    assert!(
        singles[..singles.len() - 1].iter().all(|n| [
            "full house",
            "hidden single",
            "naked single"
        ]
        .contains(&n.as_str())),
        "{singles:?}"
    );
    // A logic switch z3doku does not know is refused by name.
    let data = userscript_data(&puzzle, &["telepathy"], &[]);
    client.send(
        &json!({"nonce": 11, "command": "step", "dataType": "fpuzzles", "data": data}).to_string(),
    );
    let answer = client.answer();
    assert_eq!(answer["type"], "invalid");
    assert!(
        answer["message"].as_str().unwrap().contains("telepathy"),
        "{answer}"
    );
}

#[test]
fn a_cosmetic_change_is_answered_without_solving_again() {
    let server = Server::start(&["--engine", "native", "--jobs", "1"]);
    let mut client = server.connect();
    // 235,008 solutions: a count of some hundreds of milliseconds.
    let line = format!("123{}", ".".repeat(33));
    let puzzle = sized_json(&line, 6, "");
    let before = server.cpu();
    let first = client.ask(1, "count", &puzzle);
    assert_eq!(first["count"], 235_008, "{first}");
    let counted = server.cpu() - before;
    // The same puzzle as the setter dresses it: a title, a line, text, a
    // cell's colour; and other logic switched off, which a count does not
    // use.
    let dressed = sized_json(
        &line,
        6,
        r##""title":"Draft","author":"Me","ruleset":"Normal rules.",
            "line":[{"lines":[["R1C1","R2C2"]],"outlineC":"#FF0000","width":0.1}],
            "text":[{"cells":["R3C3"],"value":"?","fontC":"#000000","size":0.5}],
            "disabledlogic":["tuples"]"##,
    )
    .replacen("[{}", r##"[{"c":"#00FF00"}"##, 1);
    let before = server.cpu();
    let again = client.ask(2, "count", &dressed);
    let answered = server.cpu() - before;
    assert_eq!(again["count"], 235_008, "{again}");
    assert!(
        answered * 4 < counted,
        "counted in {counted:?} of CPU, and again in {answered:?}"
    );
    // Another client has a cache of its own.
    let mut other = server.connect();
    let before = server.cpu();
    assert_eq!(other.ask(3, "count", &dressed)["count"], 235_008);
    assert!(server.cpu() - before > answered);
}
