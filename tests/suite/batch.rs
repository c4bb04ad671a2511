//! `z3doku batch`: order, statuses, summaries, bad lines, Ctrl-C and the
//! closed pipe, through the binary.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, z3doku};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::parse::parse_line;

/// The first puzzle of magictour's top1465.
const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// The notebook's puzzle less one clue: two solutions.
const MULTIPLE: &str =
    "....9..3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
/// Hard puzzles from the forum's hardest list, for timeouts.
const HARD: [&str; 3] = [
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........",
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2",
];

fn spawn(args: &[&str]) -> Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("z3doku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("z3doku-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// The summary table's rows as (name, value).
fn summary(stderr: &str) -> Vec<(String, String)> {
    stderr
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('│').map(str::trim).collect();
            match cells.as_slice() {
                ["", name, value, ""] => Some((name.to_string(), value.to_string())),
                _ => None,
            }
        })
        .collect()
}

fn count(rows: &[(String, String)], name: &str) -> usize {
    rows.iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("no count for {name} in {rows:?}"))
}

/// Sends SIGINT, as Ctrl-C on a terminal does.
fn interrupt(child: &Child) {
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Solution,
    Word(&'static str),
}

#[test]
fn order_and_statuses_are_kept_with_four_jobs() {
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let clash = format!("11{}", &NOTEBOOK[2..]);
    let bad_char = NOTEBOOK.replacen('9', "x", 1);
    let kinds: [(&str, Want); 7] = [
        (NOTEBOOK, Want::Solution),
        (TOP1, Want::Solution),
        (MULTIPLE, Want::Word("multiple")),
        (&no_solution, Want::Word("none")),
        (&clash, Want::Word("none")),
        (&bad_char, Want::Word("error")),
        (&NOTEBOOK[..80], Want::Word("error")),
    ];
    // 42 lines, six of each kind, in a scrambled order; comments and blank
    // lines between them print nothing.
    let mut text = String::from("# a mix\n");
    let mut wanted = Vec::new();
    for i in 0..42 {
        let (puzzle, want) = kinds[(i * 5 + i / 7) % 7];
        if i % 9 == 4 {
            text += "\n   # indented comment\n";
        }
        text += &format!("  {puzzle}  \n");
        wanted.push((text.lines().count(), puzzle, want));
    }
    let path = temp_file("mix.txt", text.as_bytes());
    let path = path.to_str().unwrap_or_default();

    let out = z3doku()
        .args(["batch", path, "--unique", "--jobs", "4"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), wanted.len(), "{stdout}");
    for (got, (number, puzzle, want)) in lines.iter().zip(&wanted) {
        match want {
            Want::Word(word) => assert_eq!(got, word, "line {number}"),
            Want::Solution => {
                let puzzle = common::puzzle(puzzle);
                let solution = parse_line(got, 1, None).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(verify_solution(&puzzle, &solution), Ok(()), "line {number}");
            }
        }
    }
    // Bad lines are named on stderr by their line numbers.
    for (number, _, _) in wanted.iter().filter(|w| w.1 == bad_char) {
        let message = format!("mix.txt: line {number}, column 5: unexpected character 'x'");
        assert!(stderr.contains(&message), "{message} in {stderr}");
    }
    let rows = summary(&stderr);
    let total: usize = ["solved", "unique", "multiple", "none", "gave-up", "error"]
        .iter()
        .map(|s| count(&rows, s))
        .sum();
    assert_eq!(total, 42);
    assert_eq!(count(&rows, "total"), 42);
    assert_eq!(count(&rows, "unique"), 12);
    assert_eq!(count(&rows, "multiple"), 6);
    assert_eq!(count(&rows, "none"), 12);
    assert_eq!(count(&rows, "error"), 12);
    assert_eq!(count(&rows, "solved"), 0);

    // The same run as JSON Lines, on standard input.
    let out = z3doku()
        .args(["batch", "-", "--unique", "-j", "4", "-o", "json", "--quiet"])
        .write_stdin(text.clone())
        .assert()
        .code(3)
        .get_output()
        .clone();
    assert!(out.stderr.is_empty(), "quiet, and JSON carries the errors");
    let objects: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(objects.len(), wanted.len());
    for (object, (number, puzzle, want)) in objects.iter().zip(&wanted) {
        assert_eq!(object["line"], *number);
        assert_eq!(object["puzzle"], *puzzle);
        match want {
            Want::Solution => {
                assert_eq!(object["status"], "unique");
                assert_eq!(object["solutions"][0].as_str().map(str::len), Some(81));
                assert!(object["time_ms"].as_f64().is_some());
            }
            Want::Word("error") => {
                assert_eq!(object["status"], "error");
                let error = object["error"].as_str().unwrap_or_default();
                assert!(error.starts_with(&format!("line {number}")), "{error}");
            }
            Want::Word(word) => assert_eq!(object["status"], *word),
        }
    }
}

#[test]
fn all_solved_is_status_0_and_one_line_each() {
    let text = format!("{NOTEBOOK}\n# x\n{TOP1}\n{NOTEBOOK}");
    z3doku()
        .args(["batch", "-", "--jobs", "2", "--quiet"])
        .write_stdin(text)
        .assert()
        .code(0)
        .stderr("")
        .stdout(predicates::str::starts_with(format!(
            "{NOTEBOOK_SOLUTION}\n4"
        )))
        .stdout(predicates::str::ends_with(format!(
            "\n{NOTEBOOK_SOLUTION}\n"
        )));
    // Nothing but comments: no output, nothing wrong.
    z3doku()
        .args(["batch", "-", "-q"])
        .write_stdin("# only\n\n")
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn a_huge_line_and_bytes_not_utf8_are_error_lines() {
    let mut bytes = vec![b'1'; 3 << 20];
    bytes.push(b'\n');
    bytes.extend_from_slice(b"....94.3..\xe9.51...7\n");
    bytes.extend_from_slice(NOTEBOOK.as_bytes());
    let path = temp_file("huge.txt", &bytes);
    let out = z3doku()
        .args(["batch", path.to_str().unwrap_or_default(), "--quiet"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("error\nerror\n{NOTEBOOK_SOLUTION}\n")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("huge.txt: line 1: longer than 64 KiB"),
        "{stderr}"
    );
    assert!(
        stderr.contains("huge.txt: line 2, column 11: bytes that are not UTF-8"),
        "{stderr}"
    );
}

/// Puzzles that time out one after another on Z3's kept solver leave no
/// half-made solver behind: a check stopped by its deadline while Z3 took
/// the houses into its SAT solver once left the next puzzle answered
/// without some of them (a wrong grid, caught by the checker, status
/// `error`), in about one run of 14 on a loaded machine.
#[test]
fn timeouts_in_a_row_leave_the_next_puzzle_its_houses() {
    let text = format!("{}\n{NOTEBOOK}\n{}\n{}\n", HARD[0], HARD[1], HARD[2]);
    for _ in 0..20 {
        let out = z3doku()
            .args(["batch", "-", "--timeout", "1", "-o", "json", "-q"])
            .write_stdin(text.clone())
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!stdout.contains("\"status\":\"error\""), "{stdout}");
    }
}

#[test]
fn a_timeout_gives_up_on_that_puzzle_only() {
    let text = format!("{}\n{NOTEBOOK}\n{}\n{}\n", HARD[0], HARD[1], HARD[2]);
    let out = z3doku()
        .args(["batch", "-", "--timeout", "1", "-o", "json", "-q"])
        .write_stdin(text)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let statuses: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}"));
            v["status"].as_str().unwrap_or_default().to_string()
        })
        .collect();
    assert_eq!(statuses.len(), 4);
    // A millisecond is far too little for these, but a fast machine might
    // still finish one: each is solved or gave up, and any gave-up decides
    // the status.
    assert!(
        statuses.iter().all(|s| s == "solved" || s == "gave-up"),
        "{statuses:?}"
    );
    let gave_up = statuses.iter().any(|s| s == "gave-up");
    assert!(gave_up, "{statuses:?}");
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn bad_arguments_are_usage_errors() {
    for (args, message) in [
        (
            vec!["batch", "x.txt", "-o", "pretty"],
            "invalid value 'pretty'",
        ),
        (vec!["batch", "x.txt", "--jobs", "0"], "invalid value '0'"),
        (
            vec!["batch", "/no/such.txt"],
            "/no/such.txt: cannot read it",
        ),
        (vec!["batch", "/"], "/: is a directory"),
    ] {
        z3doku()
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(message));
    }
}

#[test]
fn ctrl_c_flushes_finished_lines_in_order() {
    // A file far too long to finish before the interrupt.
    let text = format!("{TOP1}\n{NOTEBOOK}\n").repeat(2_000);
    let path = temp_file("long.txt", text.as_bytes());
    let mut child = spawn(&["batch", path.to_str().unwrap_or_default(), "--jobs", "2"]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    interrupt(&child);
    let mut rest = String::new();
    stdout
        .read_to_string(&mut rest)
        .unwrap_or_else(|e| panic!("{e}"));
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut stderr)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(status.code(), Some(130), "{stderr}");
    let lines: Vec<&str> = first.lines().chain(rest.lines()).collect();
    assert!(lines.len() < 4_000, "stopped early");
    let puzzles: Vec<&str> = text.lines().collect();
    for (i, (line, puzzle)) in lines.iter().zip(&puzzles).enumerate() {
        let puzzle = common::puzzle(puzzle);
        let solution = parse_line(line, 1, None).unwrap_or_else(|e| panic!("line {i}: {e}"));
        assert_eq!(
            verify_solution(&puzzle, &solution),
            Ok(()),
            "line {}",
            i + 1
        );
    }
    assert!(stderr.contains("stopped early"), "{stderr}");
    let rows = summary(&stderr);
    assert_eq!(count(&rows, "total"), lines.len());
    assert_eq!(count(&rows, "solved"), lines.len());
}

#[test]
fn ctrl_c_stops_while_waiting_for_input() {
    waits_for_input_then_stops(&["batch", "-", "--jobs", "2"]);
}

#[test]
fn one_native_job_streams_and_stops_while_waiting_for_input() {
    waits_for_input_then_stops(&["batch", "-", "--jobs", "1", "--engine", "native"]);
}

/// Two puzzles are answered while the input stays open, and Ctrl-C then
/// ends the run.
fn waits_for_input_then_stops(args: &[&str]) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    writeln!(stdin, "{NOTEBOOK}\n{TOP1}").unwrap_or_else(|e| panic!("{e}"));
    stdin.flush().unwrap_or_else(|e| panic!("{e}"));
    let mut stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
    let mut lines = String::new();
    for _ in 0..2 {
        stdout
            .read_line(&mut lines)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // Both answered while the input stays open: the output streams.
    assert_eq!(lines.lines().count(), 2);
    assert!(lines.starts_with(NOTEBOOK_SOLUTION));
    interrupt(&child);
    let started = Instant::now();
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(status.code(), Some(130), "{status:?}");
    drop(stdin);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let text = format!("{NOTEBOOK}\n").repeat(500);
    let path = temp_file("pipe.txt", text.as_bytes());
    let mut child = spawn(&["batch", path.to_str().unwrap_or_default()]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.trim(), NOTEBOOK_SOLUTION);
    drop(stdout);
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut stderr)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

/// Peak resident memory of a running process, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmHWM in /proc/{pid}/status"))
}

/// Peak resident memory with real puzzles stays within what the README
/// promises ("Memory"): each Z3 worker holds a context, whose two abstract
/// syntax tables Z3 4.8.12 makes at 512 Ki slots each (16.3 MiB before any
/// formula), and its kept solver; the native engine needs no context. The
/// peak is read while the process still waits for input, after every
/// answer is in, so that both workers have been at their largest.
#[test]
fn peak_memory_stays_within_the_documented_bounds() {
    const LINES: usize = 300;
    let cases: [(&[&str], u64); 3] = [
        (&["--jobs", "2"], 72),
        (&["--jobs", "1"], 48),
        (&["--jobs", "2", "--engine", "native"], 16),
    ];
    for (args, bound_mib) in cases {
        let mut child = spawn(&[&["batch", "-", "-o", "json", "--quiet"][..], args].concat());
        let pid = child.id();
        let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        for i in 0..LINES {
            let line = if i % 2 == 0 { NOTEBOOK } else { TOP1 };
            writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("{e}"));
        }
        stdin.flush().unwrap_or_else(|e| panic!("{e}"));
        let answered = BufReader::new(stdout)
            .lines()
            .take(LINES)
            .filter(|l| {
                l.as_ref().is_ok_and(|l| {
                    l.contains("\"status\":\"unique\"") || l.contains("\"status\":\"solved\"")
                })
            })
            .count();
        let peak = peak_rss_kib(pid);
        drop(stdin);
        let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answered, LINES, "{args:?}: every line solved");
        assert_eq!(status.code(), Some(0), "{args:?}");
        eprintln!("{args:?}: peak RSS {peak} KiB");
        assert!(
            peak <= bound_mib * 1024,
            "{args:?}: peak {peak} KiB, over {bound_mib} MiB"
        );
    }
}

/// Two million lines through standard input: peak memory after the first
/// tenth and at the end are the same to within a few MiB. The input starts
/// with real puzzles, so that both workers' Z3 contexts have been at their
/// largest at once before the first measure; after that most lines are
/// cheap (clue clashes and bad lines, answered without Z3) so it runs in
/// about a minute, and every 5,000th is a real puzzle.
#[test]
#[ignore = "a minute or more; run with --ignored (see build.md)"]
fn memory_stays_flat_on_a_large_input() {
    const LINES: usize = 2_000_000;
    const WARM_UP: usize = 400;
    let clash = format!("11{}", &NOTEBOOK[2..]);
    let mut child = spawn(&["batch", "-", "--jobs", "2", "-o", "json", "--quiet"]);
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    let mut stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let counter = std::thread::spawn(move || {
        let mut bytes = 0u64;
        let mut buffer = vec![0; 1 << 16];
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            bytes += n as u64;
        }
        bytes
    });
    let mut early = 0;
    let mut writer = std::io::BufWriter::new(&mut stdin);
    for i in 0..LINES {
        let line = match i % 5000 {
            _ if i < WARM_UP => NOTEBOOK,
            0 => NOTEBOOK,
            1 => "not a puzzle",
            _ => &clash,
        };
        writeln!(writer, "{line}").unwrap_or_else(|e| panic!("{e}"));
        if i == LINES / 10 {
            writer.flush().unwrap_or_else(|e| panic!("{e}"));
            early = peak_rss_kib(pid);
        }
    }
    writer.flush().unwrap_or_else(|e| panic!("{e}"));
    drop(writer);
    let late = peak_rss_kib(pid);
    drop(stdin);
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let bytes = counter.join().unwrap_or_else(|_| panic!("counter"));
    assert_eq!(status.code(), Some(2), "bad lines make status 2");
    assert!(bytes > 100 * LINES as u64, "{bytes} bytes of output");
    eprintln!("peak RSS: {early} KiB after a tenth, {late} KiB at the end");
    assert!(late <= 72 * 1024, "peak {late} KiB");
    assert!(late <= early + 4 * 1024, "grew from {early} to {late} KiB");
}

/// The threads of a running process.
fn threads(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no Threads in /proc/{pid}/status"))
}

/// `--jobs` far above the cores once started every worker it allowed (8
/// per core, each a thread or two and a Z3 context: 339 MiB for 20 lines on
/// 2 cores). Quick lines need no more workers than cores: the others start
/// only when every started worker is held up.
#[test]
fn many_jobs_start_workers_only_as_lines_need_them() {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let started = std::time::Instant::now();
    let mut child = spawn(&["batch", "-", "--jobs", "10000", "--quiet"]);
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    writeln!(stdin, "{}", format!("{NOTEBOOK}\n").repeat(20).trim_end())
        .unwrap_or_else(|e| panic!("{e}"));
    stdin.flush().unwrap_or_else(|e| panic!("{e}"));
    let mut stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
    let mut lines = String::new();
    for _ in 0..20 {
        stdout
            .read_line(&mut lines)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(lines.lines().all(|l| l == NOTEBOOK_SOLUTION), "{lines}");
    // Measured while the input is still open, so every worker started is
    // still there.
    let (threads, peak) = (threads(pid), peak_rss_kib(pid));
    let elapsed = started.elapsed();
    drop(stdin);
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(0));
    eprintln!("{threads} threads, peak RSS {peak} KiB on {cores} cores in {elapsed:?}");
    // A worker per core from the start, and at most one more for every
    // 200 ms without a result (batch's growth delay): on a loaded machine
    // the first Z3 context can take that long, and then growing is right.
    let grown = usize::try_from(elapsed.as_millis() / 200).unwrap_or(usize::MAX);
    let workers = (cores + grown).min(20);
    // Two threads a worker (it and the generation it runs), the reader, the
    // main thread and Ctrl-C's.
    assert!(
        threads <= 2 * workers + 3,
        "{threads} threads on {cores} cores in {elapsed:?}"
    );
}
