//! The README's promises: every ```console block in README.md runs as
//! written, and the formats `--help` quotes are the ones the program prints.

use crate::common;

use common::{example, output_of};

/// Runs each `$ z3doku ...` line of the README's ```console blocks from the
/// repository's root and compares what it prints (standard output and
/// error together) and its exit status (`? N`, 0 when not given) with the
/// block. ```sh blocks are not run: they need data the repository does not
/// ship, pipes, or minutes.
#[test]
fn readme_examples_run_as_written() {
    trycmd::TestCases::new()
        .register_bin("z3doku", trycmd::cargo::cargo_bin("z3doku"))
        .case("README.md");
}

/// The model's line forms as `--help` quotes them.
const INT_FORM: &str = "c_R_C -> digit";
const LITERAL_FORM: &str = "x_R_C_D -> true";
const QUEEN_FORM: &str = "q_R_C -> true|false";

/// Whether `line` has the form `form` on a board of side `side`: in the
/// name, each part after the first is a number from 1 to `side` (R, C, D);
/// the value `digit` is such a number, and words split by `|` are the
/// values allowed.
fn fits(form: &str, line: &str, side: usize) -> bool {
    let in_range = |text: &str| text.parse::<usize>().is_ok_and(|n| (1..=side).contains(&n));
    let (Some((form_name, form_value)), Some((name, value))) =
        (form.split_once(" -> "), line.split_once(" -> "))
    else {
        return false;
    };
    let form_parts: Vec<&str> = form_name.split('_').collect();
    let parts: Vec<&str> = name.split('_').collect();
    let name_fits = form_parts.len() == parts.len()
        && form_parts[0] == parts[0]
        && parts[1..].iter().all(|part| in_range(part));
    let value_fits = if form_value == "digit" {
        in_range(value)
    } else {
        form_value.split('|').any(|word| word == value)
    };
    name_fits && value_fits
}

/// The help text of `args` with its lines rewrapped into one, so a quoted
/// form that clap wrapped still reads as one phrase.
fn help_of(args: &[&str]) -> String {
    let out = output_of(args, 0);
    String::from_utf8(out)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The model lines (those with ` -> `) `args` prints.
fn model_lines(args: &[&str]) -> Vec<String> {
    let out = String::from_utf8(output_of(args, 0)).unwrap();
    out.lines()
        .filter(|line| line.contains(" -> "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn solve_help_quotes_the_model_forms_solve_prints() {
    let help = help_of(&["solve", "--help"]);
    for form in [INT_FORM, LITERAL_FORM] {
        assert!(
            help.contains(&format!("`{form}`")),
            "{form:?} not in {help}"
        );
    }

    let four = example("4x4.txt");
    let four = four.to_str().unwrap();
    for (encoding, form, lines) in [
        ("int", INT_FORM, 16),
        ("bool", LITERAL_FORM, 16),
        ("pb", LITERAL_FORM, 16),
    ] {
        let model = model_lines(&[
            "solve",
            four,
            "--model",
            "--encoding",
            encoding,
            "-o",
            "line",
        ]);
        assert_eq!(model.len(), lines, "{encoding}: {model:?}");
        for line in &model {
            assert!(fits(form, line, 4), "{encoding}: {line:?} is not {form:?}");
        }
    }
}

#[test]
fn queens_help_quotes_the_model_form_queens_prints() {
    let help = help_of(&["queens", "--help"]);
    assert!(help.contains(&format!("`{QUEEN_FORM}`")), "{help}");

    let model = model_lines(&["queens", "5", "--model"]);
    assert_eq!(model.len(), 25, "{model:?}");
    for line in &model {
        assert!(fits(QUEEN_FORM, line, 5), "{line:?} is not {QUEEN_FORM:?}");
    }
    assert_eq!(model.iter().filter(|l| l.ends_with("true")).count(), 5);
}

#[test]
fn the_form_matcher_tells_forms_apart() {
    assert!(fits(INT_FORM, "c_4_1 -> 3", 4));
    assert!(!fits(INT_FORM, "c_5_1 -> 3", 4));
    assert!(!fits(INT_FORM, "c_1_1 -> true", 4));
    assert!(!fits(LITERAL_FORM, "x_1_1 -> true", 4));
    assert!(!fits(LITERAL_FORM, "x_1_1_1 -> false", 4));
    assert!(fits(QUEEN_FORM, "q_2_3 -> false", 4));
    assert!(!fits(QUEEN_FORM, "c_2_3 -> false", 4));
}
