//! The `z3doku` binary as a user runs it: output forms, errors and exit
//! statuses.

use crate::common;

use common::{NOTEBOOK, NOTEBOOK_SOLUTION, example, output_of, z3doku};
use predicates::prelude::*;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::parse::parse_puzzle;

fn stdout_of(args: &[&str]) -> String {
    let out = output_of(args, 0);
    String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn solves_the_notebook_in_every_output_form() {
    let file = example("notebook.txt");
    let file = file.to_str().unwrap_or_default();
    assert_eq!(
        stdout_of(&["solve", file, "--output", "line"]),
        format!("{NOTEBOOK_SOLUTION}\n")
    );

    let matrix = stdout_of(&["solve", file, "-o", "matrix"]);
    assert!(
        matrix.starts_with("[[7, 1, 5, 8, 9, 4, 6, 3, 2],\n [2, 3, 4,"),
        "{matrix}"
    );
    assert!(
        matrix.ends_with("[5, 4, 1, 9, 7, 2, 3, 8, 6]]\n"),
        "{matrix}"
    );
    assert_eq!(matrix.lines().count(), 9);

    let pretty = stdout_of(&["solve", file]);
    assert!(pretty.contains("│ 7 1 5 │ 8 9 4 │ 6 3 2 │"), "{pretty}");
    assert!(
        !pretty.contains('\u{1b}'),
        "no colour when stdout is not a terminal"
    );
    // Every form reads back as the same grid.
    for text in [&pretty, &matrix] {
        let grid = parse_puzzle(text, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(grid.to_line(), NOTEBOOK_SOLUTION);
    }

    let json: serde_json::Value = serde_json::from_str(&stdout_of(&["solve", file, "-o", "json"]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["status"], "solved");
    assert_eq!(json["solutions"][0], NOTEBOOK_SOLUTION);
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let colored = stdout_of(&["solve", NOTEBOOK, "--color", "always"]);
    assert!(colored.contains("\u{1b}[1m9"), "clues in bold: {colored}");
    let plain = output_of(["solve", NOTEBOOK, "--color", "never"], 0);
    assert!(!String::from_utf8_lossy(&plain).contains('\u{1b}'));
}

#[test]
fn model_lists_every_cell() {
    let out = stdout_of(&["solve", NOTEBOOK, "--model", "-o", "line"]);
    let model: Vec<&str> = out.lines().filter(|l| l.contains(" -> ")).collect();
    assert_eq!(model.len(), 81);
    assert_eq!(model[0], "c_1_1 -> 7");
    assert_eq!(model[80], "c_9_9 -> 6");
    assert!(out.ends_with(&format!("{NOTEBOOK_SOLUTION}\n")));
}

#[test]
fn reads_standard_input_and_every_example() {
    z3doku()
        .args(["solve", "-", "-o", "line"])
        .write_stdin(format!("# a comment\n{NOTEBOOK}\n"))
        .assert()
        .success()
        .stdout(format!("{NOTEBOOK_SOLUTION}\n"));
    for name in ["lesson5.txt", "line.txt", "decorated.txt", "notebook.txt"] {
        let path = example(name);
        let out = stdout_of(&["solve", path.to_str().unwrap_or_default(), "-o", "line"]);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let puzzle =
            common::classic(&parse_puzzle(&text, None).unwrap_or_else(|e| panic!("{name}: {e}")));
        let solution = parse_puzzle(out.trim(), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(verify_solution(&puzzle, &solution), Ok(()), "{name}");
    }
}

#[test]
fn uniqueness_verdicts_and_exit_statuses() {
    z3doku()
        .args(["solve", NOTEBOOK, "--unique", "-o", "line"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("unique\n"));
    let multiple = example("multiple.txt");
    z3doku()
        .args([
            "solve",
            multiple.to_str().unwrap_or_default(),
            "--unique",
            "-o",
            "line",
        ])
        .assert()
        .code(3)
        .stdout(
            predicate::str::is_match(r"(?m)^r\dc\d: \d / \d$")
                .unwrap_or_else(|e| panic!("{e}"))
                .and(predicate::str::ends_with("not unique\n")),
        );
}

#[test]
fn clashing_clues_name_both_cells() {
    let clash = example("clash.txt");
    z3doku()
        .args(["solve", clash.to_str().unwrap_or_default()])
        .assert()
        .code(1)
        .stdout("")
        .stderr("no solution: r1c3 and r1c7 both hold 5\n");
}

#[test]
fn no_solution_without_a_clash() {
    let mut cells: Vec<char> = ".23456789"
        .chars()
        .chain(std::iter::repeat_n('.', 72))
        .collect();
    cells[9] = '1';
    let puzzle: String = cells.into_iter().collect();
    z3doku()
        .args(["solve", &puzzle])
        .assert()
        .code(1)
        .stdout("")
        // Row 1 needs its 1 in r1c1-r1c3, but box 1 has it already at r2c1.
        .stderr(
            "no solution: these 7 clues conflict: r1c4=4 r1c5=5 r1c6=6 r1c7=7 r1c8=8 r1c9=9 \
             r2c1=1\n",
        );
}

/// Each bad input: its arguments, standard input, and what stderr must say.
#[test]
fn bad_input_gets_one_clear_line_and_status_2() {
    let dir = tempdir();
    let not_utf8 = dir.join("latin1.txt");
    std::fs::write(&not_utf8, b"....94.3..\xe9.51...7").unwrap_or_else(|e| panic!("{e}"));
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n\n").unwrap_or_else(|e| panic!("{e}"));
    let bad_char = NOTEBOOK.replacen('9', "x", 1);
    let short = &NOTEBOOK[..80];
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![bad_char], "line 1, column 5: unexpected character 'x'"),
        (
            vec![short.to_string()],
            "line 1: 80 cells, but a puzzle has a side from 1 to 16, or 25, squared",
        ),
        (vec![empty.display().to_string()], "no puzzle in the input"),
        (
            vec!["missing.txt".into()],
            "missing.txt: cannot read it: No such file or directory",
        ),
        (vec![dir.display().to_string()], "is a directory"),
        (
            vec![not_utf8.display().to_string()],
            "line 1, column 11: bytes that are not UTF-8",
        ),
        (
            vec![NOTEBOOK.into(), "--size".into(), "17".into()],
            "not a board side",
        ),
        (
            vec![NOTEBOOK.into(), "--output".into(), "xml".into()],
            "invalid value 'xml'",
        ),
    ];
    for (args, message) in cases {
        let out = z3doku()
            .arg("solve")
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // One line, naming the source.
    let out = z3doku()
        .args(["solve", "-"])
        .write_stdin("12x")
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "z3doku: standard input: line 1, column 3: unexpected character 'x' (a cell is a digit, a \
         letter for boards above 9x9, or one of . 0 * _ for a blank)\n"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("z3doku");
    let mut child = Std::new(bin)
        .args(["solve", NOTEBOOK, "--model"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    drop(child.stdout.take()); // the reader goes away at once
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    assert!(status.success(), "{status:?} {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn help_names_the_exit_statuses() {
    z3doku()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("3 not unique").and(predicate::str::contains("solve")));
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("z3doku-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

#[test]
fn fpuzzles_links_carry_the_puzzle_and_its_solution() {
    let path = example("killer.json");
    let killer = path.to_str().unwrap().to_string();
    // The link holds the solution once it is proven the only one.
    let out = stdout_of(&["solve", &killer, "--unique", "--output", "fpuzzles"]);
    let link = out.lines().next().unwrap_or_default().to_string();
    let solution = stdout_of(&["solve", &killer, "--output", "line"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzle = z3doku::puzzle::fpuzzles::parse(&text).unwrap();
    assert_eq!(
        z3doku::puzzle::fpuzzles::parse(link.trim()).as_ref(),
        Ok(&puzzle)
    );
    let json = z3doku::puzzle::fpuzzles::decompress(link.trim()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let written: String = value["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(written, solution.trim());
    // A variant puzzle's minimal givens print as a link by default, and
    // not as a bare line.
    let minimal = stdout_of(&["minimize", &killer]);
    assert!(
        minimal.starts_with("https://f-puzzles.com/?load="),
        "{minimal}"
    );
    z3doku()
        .args(["minimize", &killer, "-o", "line"])
        .assert()
        .code(2);
}

#[test]
fn an_fpuzzles_link_is_refused_for_a_rule_f_puzzles_cannot_say() {
    // A link without the rule would be another puzzle, with other
    // solutions: it is refused, naming the rule, rather than written.
    let puzzle = format!("{}\nwindoku\ngreater than (r1c1 r1c2)\n", ".".repeat(81));
    let out = z3doku()
        .args(["solve", &puzzle, "--output", "fpuzzles"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--output fpuzzles: f-puzzles has no rule for \"windoku\""),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    // Commands that print only links refuse such rules rather than lose
    // them (the puzzle would not be unique without them).
    let dir = tempdir();
    let file = dir.join("windoku.txt");
    std::fs::write(&file, &puzzle).unwrap();
    let file = file.to_str().unwrap();
    for args in [vec!["generate", "--rules", file], vec!["minimize", &puzzle]] {
        let out = z3doku().args(&args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("f-puzzles has no rule for \"windoku\""),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn every_drawn_board_shows_the_jigsaw_regions() {
    let path = example("jigsaw.txt");
    let jigsaw = path.to_str().unwrap();
    assert!(stdout_of(&["check", jigsaw]).starts_with("unique:"));
    let table = stdout_of(&["solve", jigsaw]);
    // r1c3 and r1c4 lie in different regions, r1c4 to r1c7 in one.
    assert!(
        table.contains("│ 4   2   8 │ 1   7   3   6 │ 5   9 │"),
        "{table}"
    );
    // The lines across the board, each reduced to its joints: the pencil
    // grid and the hint's grid have the table's.
    let joints = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| line.contains('─'))
            .map(|line| {
                line.chars()
                    .filter(|&c| ('\u{2500}'..='\u{257F}').contains(&c) && c != '─')
                    .collect()
            })
            .collect()
    };
    assert_eq!(joints(&table).len(), 10, "{table}");
    assert_eq!(joints(&table)[2], "├┐┌┤││", "{table}");
    let pencil = stdout_of(&["candidates", jigsaw, "--engine", "native"]);
    assert_eq!(joints(&pencil), joints(&table), "{pencil}");
    let hint = stdout_of(&["hint", jigsaw, "-o", "pretty"]);
    assert_eq!(joints(&hint), joints(&table), "{hint}");
}

#[test]
fn sigh_strings_and_links_go_in_and_come_out() {
    let killer = example("killer.json");
    let killer = killer.to_str().unwrap();
    let string = stdout_of(&["solve", killer, "--unique", "--output", "sigh"]);
    let mut lines = string.lines();
    let string = lines.next().unwrap().to_string();
    assert!(string.starts_with(".Cage~"), "{string}");
    assert_eq!(lines.next(), Some("unique"));
    // The string as the argument, and as a link, solve to the same board.
    let solution = stdout_of(&["solve", killer, "-o", "line"]);
    assert_eq!(stdout_of(&["solve", &string, "-o", "line"]), solution);
    let link = format!("https://sigh.github.io/Interactive-Sudoku-Solver/?q={string}");
    assert_eq!(stdout_of(&["solve", &link, "-o", "line"]), solution);
    // A short string is the puzzle too, not a file's name.
    // (24 solutions, as sigh counts them too.)
    let count = stdout_of(&["count", ".Shape~4x4.AntiKnight", "--limit", "1000"]);
    assert_eq!(count.trim(), "24 solutions");
    // What z3doku lacks, and what sigh cannot say, is an error naming it.
    z3doku()
        .args(["solve", ".Var~a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a group's prefix is upper-case letters A to Z, not \"a\"",
        ));
    z3doku()
        .args(["solve", ".ConnectedValues~CC~1_2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "sigh's `ConnectedValues`: the cell group `CC`",
        ));
    let dr = format!("{}\ncage DR5 (r6c6 r6c7)", ".".repeat(81));
    z3doku()
        .args(["solve", &dr, "-o", "sigh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--output sigh: cage DR5 (r6c6 r6c7): a sigh string cannot say it",
        ));
}
