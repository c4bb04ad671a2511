//! Promises that once broke: unbounded input, limits that did not limit,
//! output that broke its own format, options that did nothing, and names
//! that disturbed a one-line message. Each test here failed before its fix.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, example, output_of, z3doku};
use predicates::prelude::*;
use std::time::{Duration, Instant};

fn path(name: &str) -> String {
    example(name).to_str().unwrap_or_default().to_string()
}

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).unwrap_or_else(|e| {
        panic!(
            "not one JSON value: {e}\n{}",
            String::from_utf8_lossy(bytes)
        )
    })
}

#[test]
fn bench_refuses_an_endless_file_at_once() {
    let start = Instant::now();
    z3doku()
        .args(["bench", "/dev/zero"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 1: no end of line within 16 MiB",
        ));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn batch_reports_an_endless_line_and_stops_reading() {
    for args in [["batch", "/dev/zero", "-q"], ["batch", "-", "-q"]] {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("z3doku"))
            .args(args)
            .stdin(zero)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "error\n", "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("no end of line within 16 MiB"), "{stderr}");
    }
}

#[test]
fn batch_caps_its_workers() {
    let input = format!("{NOTEBOOK}\n").repeat(20);
    z3doku()
        .args(["batch", "-", "--jobs", "10000", "-o", "line"])
        .write_stdin(input)
        .assert()
        .code(0)
        .stdout(format!("{NOTEBOOK_SOLUTION}\n").repeat(20))
        .stderr(predicate::str::contains("per core; using "));
}

#[test]
fn count_timeouts_bound_every_encoding() {
    let empty = ".".repeat(81);
    for encoding in ["int", "bool", "pb"] {
        let start = Instant::now();
        let out = z3doku()
            .args(["count", &empty, "--encoding", encoding])
            .args(["--limit", "100000000", "--timeout", "300"])
            .timeout(Duration::from_secs(60))
            .assert()
            .code(4)
            .get_output()
            .stdout
            .clone();
        // `at least N solutions (gave up: timeout)`, or with none found
        // yet, `gave up before finding a solution: timeout`.
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("timeout"), "{encoding}: {text}");
        // The whole command, not each check: well under a few seconds.
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{encoding}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_queens_count_out_of_time_prints_its_lower_bound() {
    let out = output_of(["queens", "12", "--count", "--timeout", "50"], 4);
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.starts_with("at least ") && text.ends_with(" (gave up: timeout)\n"),
        "{text}"
    );
    let report = json(&output_of(
        ["queens", "12", "--count", "--timeout", "50", "-o", "json"],
        4,
    ));
    assert_eq!(report["status"], "gave-up");
    assert_eq!(report["reason"], "timeout");
    assert!(report["count"].is_u64());
}

#[test]
fn a_verification_that_could_not_finish_says_so() {
    // The native engine solves the 25x25 in milliseconds; Z3 cannot confirm
    // it within 50.
    let out = z3doku()
        .args([
            "solve",
            &path("25x25.txt"),
            "--engine",
            "native",
            "--verify",
        ])
        .args(["--timeout", "50", "-o", "json"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("not verified"))
        .get_output()
        .stdout
        .clone();
    let report = json(&out);
    assert_eq!(report["verified"], false);
    assert!(report.get("verified_by").is_none());
    let verified = json(&output_of(["solve", NOTEBOOK, "--verify", "-o", "json"], 0));
    assert_eq!(verified["verified"], true);
    assert_eq!(verified["verified_by"], "native");
}

#[test]
fn json_output_is_json_only() {
    let report = json(&output_of(["queens", "4", "--model", "-o", "json"], 0));
    assert_eq!(report["queens"].as_array().map(Vec::len), Some(4));
    assert!(
        report["models"][0]
            .as_str()
            .unwrap_or_default()
            .contains("q_1_1 -> ")
    );
    let solved = json(&output_of(["solve", NOTEBOOK, "--model", "-o", "json"], 0));
    assert!(
        solved["models"][0]
            .as_str()
            .unwrap_or_default()
            .contains("c_1_1 -> 7")
    );
    let counted = json(&output_of(
        ["count", &path("multiple.txt"), "--print", "-o", "json"],
        0,
    ));
    assert_eq!(counted["count"], 16);
    assert_eq!(counted["solutions"].as_array().map(Vec::len), Some(16));
}

#[test]
fn one_time_unit_and_one_reason_word_everywhere() {
    let solve = json(&output_of(["solve", NOTEBOOK, "-o", "json"], 0));
    let count = json(&output_of(["count", NOTEBOOK, "-o", "json"], 0));
    let queens = json(&output_of(["queens", "5", "-o", "json"], 0));
    let batch = json(
        &z3doku()
            .args(["batch", "-", "-o", "json", "-q"])
            .write_stdin(format!("{NOTEBOOK}\n"))
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone(),
    );
    for report in [&solve, &count, &queens, &batch] {
        assert!(report["time_ms"].is_f64(), "{report}");
        assert!(report.get("time_us").is_none());
    }
    let gave_up = json(&output_of(
        ["solve", &path("25x25.txt"), "--timeout", "1", "-o", "json"],
        4,
    ));
    assert_eq!(gave_up["reason"], "timeout");
}

/// `bench` called a file of nothing an input error (status 2) where
/// `batch` takes it as nothing to do (status 0): both do the latter now,
/// `bench` saying so as it has no table to print.
#[test]
fn a_bench_of_nothing_is_nothing_to_do_as_in_batch() {
    z3doku()
        .args(["bench", "/dev/null"])
        .assert()
        .code(0)
        .stdout("")
        .stderr(
            "z3doku: /dev/null: no puzzles in the file (only blank or comment lines): nothing to measure\n",
        );
    z3doku()
        .args(["batch", "/dev/null", "--quiet"])
        .assert()
        .code(0)
        .stdout("")
        .stderr("");
}

#[test]
fn a_bench_row_that_measured_nothing_shows_no_ratio() {
    let text = std::fs::read_to_string(path("25x25.txt")).unwrap();
    let line = z3doku::puzzle::parse::parse_puzzle(&text, None)
        .unwrap()
        .to_line();
    let dir = std::env::temp_dir().join(format!("z3doku-nothing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("25x25-line.txt");
    std::fs::write(&file, line).unwrap();
    let out = output_of(
        [
            "bench",
            file.to_str().unwrap_or_default(),
            "--encoding",
            "int",
            "--timeout",
            "1",
        ],
        0,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let table = String::from_utf8_lossy(&out);
    let row = table
        .lines()
        .find(|l| l.starts_with("| z3 "))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[5], "1", "one puzzle, given up: {row}");
    assert_eq!(cells[cells.len() - 2], "-", "{row}");
    assert!(!row.contains("inf"), "{row}");
}

#[test]
fn options_without_effect_are_refused() {
    z3doku()
        .args(["emit", NOTEBOOK, "--format", "dimacs", "--encoding", "pb"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--encoding applies to smt2 only"));
    z3doku()
        .args([
            "bench",
            &path("notebook.txt"),
            "--engine",
            "native",
            "--encoding",
            "bool",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "does not apply to --engine native",
        ));
    z3doku()
        .args(["solve", NOTEBOOK, "--engine", "native", "--memory", "100"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--memory caps Z3's memory"));
    // batch does not offer --stats at all.
    z3doku()
        .args(["batch", "-", "--stats"])
        .write_stdin(NOTEBOOK)
        .assert()
        .code(2);
}

#[test]
fn names_in_messages_are_quoted_and_escaped() {
    z3doku()
        .args(["solve", ""])
        .assert()
        .code(2)
        .stderr("z3doku: \"\": cannot read it: No such file or directory\n");
    let out = z3doku()
        .args(["solve", "no\u{1b}[31mfile\nhere.txt"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains(r#""no\u{1b}[31mfile\nhere.txt""#), "{text}");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = std::env::temp_dir().join(format!("z3doku-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bom.txt");
    std::fs::write(&file, format!("\u{feff}{NOTEBOOK}\r\n")).unwrap();
    let file = file.to_str().unwrap_or_default();
    let solved = output_of(["solve", file, "-o", "line"], 0);
    assert_eq!(
        String::from_utf8_lossy(&solved),
        format!("{NOTEBOOK_SOLUTION}\n")
    );
    let batch = output_of(["batch", file, "-q"], 0);
    assert_eq!(
        String::from_utf8_lossy(&batch),
        format!("{NOTEBOOK_SOLUTION}\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mistyped file name without a dot, long enough to be a puzzle line,
/// was read as a puzzle (`unexpected character 't'`) with no word that no
/// such file exists; so in every command that takes a puzzle.
#[test]
fn a_mistyped_name_without_a_dot_says_no_such_file_exists() {
    for command in [
        "solve",
        "check",
        "count",
        "emit",
        "candidates",
        "minimize",
        "hint",
        "steps",
        "rate",
    ] {
        z3doku()
            .args([command, "notebookxxxxxxxxtxtx"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "(and no file named \"notebookxxxxxxxxtxtx\" exists)",
            ));
    }
    // `generate --rules` reads its rules the same way.
    z3doku()
        .args(["generate", "--rules", "notebookxxxxxxxxtxtx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no file named"));
}

/// The `solution` an f-puzzles link holds, as a line; `None` without one.
fn link_solution(link: &str) -> Option<String> {
    let json = z3doku::puzzle::fpuzzles::decompress(link.trim()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["solution"]
        .as_array()
        .map(|digits| digits.iter().map(|d| d.to_string()).collect())
}

/// `check -o line|matrix|fpuzzles` printed the verdict alone: the format
/// was ignored without `--grid`. It now draws what it names.
#[test]
fn check_writes_the_format_it_is_asked_for() {
    let notebook = path("notebook.txt");
    let line = output_of(["check", &notebook, "-o", "line"], 0);
    let line = String::from_utf8_lossy(&line).into_owned();
    assert_eq!(line.lines().nth(1), Some(NOTEBOOK_SOLUTION), "{line}");
    let matrix = output_of(["check", &notebook, "-o", "matrix"], 0);
    let matrix = String::from_utf8_lossy(&matrix).into_owned();
    assert!(matrix.contains("[7, 1, 5, 8, 9, 4, 6, 3, 2]"), "{matrix}");
    let out = z3doku()
        .args(["check", &notebook, "-o", "fpuzzles"])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8_lossy(&out).into_owned();
    let link = out.lines().nth(1).unwrap_or_default();
    assert!(link.starts_with("https://f-puzzles.com/?load="), "{out}");
    assert_eq!(link_solution(link).as_deref(), Some(NOTEBOOK_SOLUTION));
}

/// `solve -o fpuzzles` on a puzzle with several solutions embedded one as
/// the solution, silently. A link now holds a solution only when it is
/// proven the only one, and standard error says why it holds none.
#[test]
fn an_fpuzzles_link_holds_a_solution_only_when_it_is_proven_unique() {
    let multiple = path("multiple.txt");
    for command in [
        vec!["solve", &multiple, "-o", "fpuzzles", "--unique"],
        vec!["check", &multiple, "-o", "fpuzzles"],
    ] {
        let out = z3doku()
            .args(&command)
            .assert()
            .code(3)
            .stderr(predicate::str::contains(
                "the link holds no solution, as the puzzle has more than one",
            ))
            .get_output()
            .stdout
            .clone();
        let out = String::from_utf8_lossy(&out).into_owned();
        let links: Vec<&str> = out.lines().filter(|l| l.starts_with("https://")).collect();
        assert_eq!(links.len(), 1, "{command:?}: {out}");
        assert_eq!(link_solution(links[0]), None, "{command:?}");
    }
    // Uniqueness not asked: the link holds no solution, and says how to
    // get one.
    let out = z3doku()
        .args(["solve", NOTEBOOK, "-o", "fpuzzles"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("add --unique"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(link_solution(&String::from_utf8_lossy(&out)), None);
    let out = z3doku()
        .args(["solve", NOTEBOOK, "-o", "fpuzzles", "--unique"])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8_lossy(&out).into_owned();
    assert_eq!(
        link_solution(out.lines().next().unwrap_or_default()).as_deref(),
        Some(NOTEBOOK_SOLUTION)
    );
}
