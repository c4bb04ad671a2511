//! Limits that limit: every command that reasons or counts ends within its
//! budget, stops the same way when interrupted, and says clearly what is
//! wrong with a limit it cannot take. Each test here failed before its fix.

use crate::common;

use common::{NOTEBOOK, example, z3doku};
use predicates::prelude::*;
use std::io::{BufRead, BufReader};
use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

fn path(name: &str) -> String {
    example(name).to_str().unwrap_or_default().to_string()
}

/// Runs z3doku with `args`, killed after `limit`: its exit status, standard
/// output and standard error, and how long it ran.
fn run(args: &[&str], limit: Duration) -> (Option<i32>, String, String, Duration) {
    let start = Instant::now();
    let out = z3doku()
        .args(args)
        .timeout(limit)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
    )
}

#[test]
fn steps_on_the_killer_example_ends_within_its_default_budget_and_streams() {
    // The shipped example printed nothing for over 12 minutes.
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let start = Instant::now();
    let mut child = Std::new(&bin)
        .args(["steps", &path("killer.json")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    // The first step comes while the path goes on: each step is printed
    // as it is found.
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let first_at = start.elapsed();
    let running = child.try_wait().unwrap_or_else(|e| panic!("{e}")).is_none();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(25), "{took:?}");
    assert!(!first.is_empty(), "no step before the end");
    assert!(
        running || rest.is_empty(),
        "the first step came only at the end ({first_at:?} of {took:?})"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert!(stderr.is_empty(), "{stderr}"),
        Some(4) => assert_eq!(
            stderr,
            format!(
                "z3doku: gave up: timeout (10000 ms) after {} steps; --timeout MS gives more \
                 time\n",
                rest.len() + 1
            )
        ),
        other => panic!("{other:?}: {stderr}"),
    }
}

#[test]
fn hint_rate_and_steps_stop_at_their_timeout_with_one_line() {
    let killer = path("killer.json");
    for command in ["hint", "rate", "steps"] {
        let (code, stdout, stderr, took) = run(
            &[command, &killer, "--timeout", "1000"],
            Duration::from_secs(60),
        );
        assert!(took < Duration::from_secs(8), "{command}: {took:?}");
        match code {
            Some(0) => {}
            Some(4) => {
                assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
                assert!(
                    stderr.starts_with("z3doku: gave up: timeout (1000 ms)"),
                    "{command}: {stderr}"
                );
                // Past the budget the steps found stay, and no search
                // finishes the puzzle in their place.
                assert!(!stdout.contains("search finishes"), "{command}: {stdout}");
            }
            other => panic!("{command}: {other:?}: {stderr}"),
        }
    }
    // JSON says it too, with the steps found.
    let (code, stdout, _, _) = run(
        &["steps", &killer, "--timeout", "300", "-o", "json"],
        Duration::from_secs(60),
    );
    if code == Some(4) {
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["status"], "gave-up");
        assert_eq!(json["reason"], "timeout");
        assert!(json["steps"].is_array());
    }
}

#[test]
fn native_candidates_stop_at_the_timeout() {
    let dots = |n: usize| ".".repeat(n);
    for (puzzle, extra, timeout) in [
        (dots(625), vec![], "1000"),
        (dots(256), vec![], "1000"),
        (dots(81), vec!["--cap", "100000"], "2000"),
    ] {
        let mut args = vec![
            "candidates",
            &puzzle,
            "--engine",
            "native",
            "--timeout",
            timeout,
        ];
        args.extend(extra.iter().copied());
        let (code, _, stderr, took) = run(&args, Duration::from_secs(60));
        let ms: u64 = timeout.parse().unwrap();
        assert!(
            took < Duration::from_millis(ms + 2500),
            "{} cells: {took:?}",
            puzzle.len()
        );
        assert_eq!(code, Some(4), "{} cells: {stderr}", puzzle.len());
        assert!(stderr.contains("gave up: timeout"), "{stderr}");
    }
}

/// The most memory the process `pid` has held so far, in KiB (Linux).
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[cfg(target_os = "linux")]
#[test]
fn native_candidates_with_a_high_cap_keep_their_memory_bounded() {
    // 1.8 GB in 10 s before, and growing.
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let empty = ".".repeat(81);
    let mut child = Std::new(&bin)
        .args([
            "candidates",
            &empty,
            "--engine",
            "native",
            "--cap",
            "100000",
            "--timeout",
            "6000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut peak = 0;
    let start = Instant::now();
    while child.try_wait().unwrap_or_else(|e| panic!("{e}")).is_none() {
        peak = peak.max(peak_kib(child.id()).unwrap_or(0));
        assert!(peak < 200 * 1024, "{peak} KiB after {:?}", start.elapsed());
        assert!(start.elapsed() < Duration::from_secs(30), "still running");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(peak > 0, "the process was never seen");
}

#[test]
fn ctrl_c_stops_generate_with_one_line_and_status_130() {
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let child = Std::new(&bin)
        .args(["generate", "-n", "100000000", "-q", "--seed", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(Duration::from_millis(700));
    let sent = Std::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(sent.success());
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "z3doku: interrupted\n"
    );
}

#[test]
fn ctrl_c_stops_batch_with_one_line_after_the_lines_in_hand() {
    let dir = std::env::temp_dir().join(format!("z3doku-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many.txt");
    // Many puzzles, each a Z3 proof that it is not unique: far more than
    // fit in the time before the interrupt.
    std::fs::write(&file, format!("{}\n", ".".repeat(81)).repeat(200_000)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let child = Std::new(&bin)
        .args(["batch", file.to_str().unwrap(), "--unique", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(Duration::from_millis(1000));
    let sent = Std::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(sent.success());
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "z3doku: interrupted\n"
    );
}

#[test]
fn counts_and_times_that_cannot_be_are_said_plainly() {
    for (args, said) in [
        (vec!["batch", "-", "--jobs", "0"], "at least 1"),
        (vec!["generate", "--tries", "0"], "at least 1"),
        (vec!["generate", "--jobs", "0"], "at least 1"),
        (vec!["solve", NOTEBOOK, "--timeout", "-5"], "not a time"),
        (vec!["solve", NOTEBOOK, "--timeout", "0"], "not a time"),
        (
            vec!["steps", NOTEBOOK, "--timeout", "soon"],
            "not a whole number",
        ),
        (vec!["check", NOTEBOOK, "--unique"], "always says whether"),
    ] {
        let out = z3doku().args(&args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("non-zero type"), "{args:?}: {stderr}");
        assert!(!stderr.contains("tip: to pass"), "{args:?}: {stderr}");
    }
    // A flag that exists nowhere is still named, without the tip.
    z3doku()
        .args(["solve", NOTEBOOK, "--frobnicate"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unexpected argument '--frobnicate'")
                .and(predicate::str::contains("tip: to pass").not()),
        );
}

#[test]
fn every_command_checks_its_engine_options_alike() {
    // `listen` took the pair that `solve` refuses.
    let solve = z3doku()
        .args([
            "solve",
            NOTEBOOK,
            "--engine",
            "native",
            "--encoding",
            "bool",
        ])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    for args in [
        vec![
            "listen",
            "--port",
            "0",
            "--engine",
            "native",
            "--encoding",
            "bool",
        ],
        vec!["hint", NOTEBOOK, "--engine", "native", "--encoding", "bool"],
        vec![
            "steps",
            NOTEBOOK,
            "--engine",
            "native",
            "--encoding",
            "bool",
        ],
        vec!["rate", NOTEBOOK, "--engine", "native", "--encoding", "bool"],
    ] {
        z3doku()
            .args(&args)
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(String::from_utf8_lossy(&solve).into_owned());
    }
    // listen's default engine, the race, takes no encoding either.
    z3doku()
        .args(["listen", "--port", "0", "--encoding", "bool"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--encoding does not apply to --engine race",
        ));
    z3doku()
        .args(["listen", "--port", "0", "--verify"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--verify"));
}

#[test]
fn help_says_what_the_timeout_bounds() {
    let help = |command: &str| {
        let out = z3doku().args([command, "--help"]).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).replace(char::is_whitespace, " ")
    };
    let squeeze = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(squeeze(help("batch")).contains("Give up on each puzzle after this many milliseconds"));
    assert!(squeeze(help("solve")).contains("It bounds the whole command"));
    assert!(squeeze(help("listen")).contains("Give up on each request"));
    assert!(squeeze(help("listen")).contains("[default: race]"));
    for command in ["hint", "steps", "rate"] {
        let text = squeeze(help(command));
        assert!(text.contains("[default: 10000]"), "{command}: {text}");
        assert!(text.contains("proves reasoned steps"), "{command}: {text}");
    }
}
