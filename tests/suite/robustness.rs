//! Limits and verification: timeouts, the memory cap, oversized input,
//! options that do not fit together, and `--verify`.

use crate::common;

use common::{NOTEBOOK, example, output_of, z3doku};
use predicates::prelude::*;
use std::io::Write;
use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

fn path(name: &str) -> String {
    example(name).to_str().unwrap_or_default().to_string()
}

#[test]
fn timeouts_give_up_with_status_4() {
    // Counting every 9x9 grid cannot finish in a millisecond, on either engine.
    let empty = ".".repeat(81);
    for engine in ["z3", "native"] {
        z3doku()
            .args([
                "count",
                &empty,
                "--limit",
                "1000000000",
                "--timeout",
                "1",
                "--engine",
                engine,
            ])
            .assert()
            .code(4)
            .stdout(predicate::str::contains("gave up"));
    }
    // A 25x25 solve in a millisecond: Z3 gives up, and says why.
    z3doku()
        .args(["solve", &path("25x25.txt"), "--timeout", "1"])
        .assert()
        .code(4)
        .stderr(predicate::str::starts_with("gave up: "));
    let out = output_of(
        ["check", &path("25x25.txt"), "--timeout", "1", "-o", "json"],
        4,
    );
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["status"], "gave-up");
    assert!(json["reason"].is_string());
}

#[test]
fn memory_cap_gives_up_and_has_a_floor() {
    let empty = ".".repeat(625);
    z3doku()
        .args([
            "count",
            &empty,
            "--limit",
            "5",
            "--memory",
            "64",
            "--timeout",
            "60000",
        ])
        .assert()
        .code(4)
        .stdout(predicate::str::starts_with(
            "gave up before finding a solution",
        ));
    z3doku()
        .args(["solve", NOTEBOOK, "--memory", "64", "-o", "line"])
        .assert()
        .code(0);
    z3doku()
        .args(["solve", NOTEBOOK, "--memory", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("10 is not in 64.."));
}

#[test]
fn a_huge_line_is_refused_quickly_without_reading_it_all() {
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let mut child = Std::new(bin)
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let chunk = vec![b'.'; 1 << 16];
    let mut written: u64 = 0;
    if let Some(mut stdin) = child.stdin.take() {
        // Up to 1 GiB with no newline; z3doku stops reading long before.
        while written < 1 << 30 && stdin.write_all(&chunk).is_ok() {
            written += chunk.len() as u64;
        }
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than 1 MiB of input"));
    assert!(written < 64 << 20, "read {written} bytes");
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn options_that_do_not_fit_are_usage_errors() {
    z3doku()
        .args(["solve", NOTEBOOK, "--engine", "native", "--model"])
        .assert()
        .code(2)
        .stderr("z3doku: --model prints Z3's model; the native engine has none\n");
    z3doku()
        .args(["check", NOTEBOOK, "--engine", "native", "--encoding", "int"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "does not apply to --engine native",
        ));
    for args in [
        vec!["solve"],
        vec!["count", NOTEBOOK, "--limit", "0"],
        vec!["solve", NOTEBOOK, "--timeout", "0"],
        vec!["frobnicate"],
    ] {
        let out = z3doku()
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(
            !String::from_utf8_lossy(&out).contains("panicked"),
            "{args:?}"
        );
    }
}

#[test]
fn verify_confirms_with_the_other_engine() {
    for (engine, referee) in [("z3", "native"), ("native", "z3")] {
        z3doku()
            .args([
                "solve", NOTEBOOK, "--verify", "--unique", "-o", "line", "--engine", engine,
            ])
            .assert()
            .code(0)
            .stderr(format!("verified: the {referee} engine agrees (unique)\n"));
        z3doku()
            .args([
                "check",
                &path("multiple.txt"),
                "--verify",
                "--engine",
                engine,
            ])
            .assert()
            .code(3)
            .stderr(format!(
                "verified: the {referee} engine agrees (multiple)\n"
            ));
        z3doku()
            .args([
                "check",
                &path("contradiction.txt"),
                "--verify",
                "--engine",
                engine,
            ])
            .assert()
            .code(1)
            .stderr(format!("verified: the {referee} engine agrees (none)\n"));
        z3doku()
            .args([
                "count",
                &path("multiple.txt"),
                "--verify",
                "--engine",
                engine,
            ])
            .assert()
            .code(0)
            .stdout("16 solutions\n")
            .stderr(format!(
                "verified: the {referee} engine agrees (16 solutions)\n"
            ));
    }
    let out = output_of(["check", NOTEBOOK, "--verify", "-o", "json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["verified_by"], "native");
}

/// Found by fuzzing the native engine: a 16x16 puzzle without a solution
/// whose conflicting clues took the deletion loop minutes to shrink. The
/// explanation now keeps to its budget and says when it stopped short.
#[test]
fn explaining_a_large_contradiction_keeps_to_its_budget() {
    let puzzle = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/unsat-16x16.txt");
    let start = Instant::now();
    let out = output_of(
        [
            "check",
            puzzle,
            "--engine",
            "native",
            "--timeout",
            "500",
            "-o",
            "json",
        ],
        1,
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["status"], "none");
    let named = json["conflicting_clues"].as_array().map_or(0, Vec::len);
    assert!(named > 0);
    // The summary is the line the text form prints; read from the same
    // run, so that it cannot meet another run's timing (a second run
    // under load stopped short where the first had not).
    let summary = json["summary"].as_str().unwrap_or_default();
    assert_eq!(
        json["conflict_is_minimal"] == false,
        summary.contains("perhaps not all of them"),
        "{summary}"
    );
}

#[test]
fn ctrl_c_ends_a_search_with_one_line_and_status_130() {
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let empty = ".".repeat(81);
    for engine in ["z3", "native"] {
        let child = Std::new(&bin)
            .args(["count", &empty, "--limit", "1000000000", "--engine", engine])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_millis(500));
        let sent = Std::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(sent.success());
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(130), "{engine}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "z3doku: interrupted\n",
            "{engine}"
        );
    }
}
