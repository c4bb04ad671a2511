//! How a batch run prints each line: the solution or a status word, or a
//! JSON object.

use super::{LineStatus, Record};
use serde::Serialize;

/// The output formats of `z3doku batch`, one line per puzzle line in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BatchFormat {
    /// The solution as one line, a character per cell; for a puzzle
    /// without one, its status word: `multiple`, `none`, `gave-up` or
    /// `error`.
    #[default]
    Line,
    /// JSON Lines: an object per puzzle.
    Json,
}

impl BatchFormat {
    /// The output line for `record`, with its newline.
    pub fn render(self, record: &Record) -> String {
        match self {
            BatchFormat::Line => line(record),
            BatchFormat::Json => json(record),
        }
    }
}

fn line(record: &Record) -> String {
    let mut text = match (record.status(), record.solution()) {
        (LineStatus::Solved | LineStatus::Unique, Some(solution)) => solution,
        (status, _) => status.name().to_string(),
    };
    text.push('\n');
    text
}

/// A JSON Lines object; fields that do not apply are left out.
#[derive(Serialize)]
struct JsonLine<'a> {
    line: usize,
    puzzle: Option<&'a str>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    solutions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verified_by: Option<&'static str>,
}

fn json(record: &Record) -> String {
    let status = record.status();
    let mut value = JsonLine {
        line: record.line,
        puzzle: record.puzzle.as_deref(),
        status: status.name(),
        solution: None,
        solutions: Vec::new(),
        reason: None,
        error: None,
        time_us: None,
        verified_by: None,
    };
    match &record.result {
        Ok(outcome) => {
            if status == LineStatus::Multiple {
                value.solutions = outcome.solutions.iter().map(|s| s.grid.to_line()).collect();
            } else {
                value.solution = record.solution();
            }
            value.reason = outcome
                .gave_up
                .clone()
                .or_else(|| outcome.clash.as_ref().map(ToString::to_string));
            value.time_us = Some(u64::try_from(record.time.as_micros()).unwrap_or(u64::MAX));
            value.verified_by = outcome.verified_by.map(|kind| kind.name());
        }
        Err(error) => value.error = Some(error.to_string()),
    }
    // A struct of strings and numbers always serializes; the fallback
    // keeps one line per puzzle regardless.
    let text = serde_json::to_string(&value);
    text.unwrap_or_else(|_| format!(r#"{{"line":{},"status":"error"}}"#, record.line)) + "\n"
}

#[cfg(test)]
mod tests {
    use super::super::LineError;
    use super::*;
    use crate::parse::parse_line;
    use crate::verdict::{Outcome, Solution, Status};
    use std::time::Duration;

    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    fn record(status: Status, solutions: usize) -> Record {
        let grid = parse_line(SOLUTION, 1, None).unwrap_or_else(|e| panic!("{e}"));
        Record {
            line: 7,
            puzzle: Some("1...".into()),
            result: Ok(Outcome {
                status,
                solutions: vec![
                    Solution {
                        grid: grid.clone(),
                        model: None
                    };
                    solutions
                ],
                gave_up: (status == Status::GaveUp).then(|| "timeout".to_string()),
                ..Outcome::new(&grid)
            }),
            time: Duration::from_micros(1234),
        }
    }

    #[test]
    fn line_format_is_the_solution_or_a_word() {
        let line = |r: &Record| BatchFormat::Line.render(r);
        assert_eq!(line(&record(Status::Solved, 1)), format!("{SOLUTION}\n"));
        assert_eq!(line(&record(Status::Unique, 1)), format!("{SOLUTION}\n"));
        assert_eq!(line(&record(Status::Multiple, 2)), "multiple\n");
        assert_eq!(line(&record(Status::None, 0)), "none\n");
        assert_eq!(line(&record(Status::GaveUp, 0)), "gave-up\n");
        let bad = Record {
            line: 3,
            puzzle: None,
            result: Err(LineError::TooLong { line: 3 }),
            time: Duration::ZERO,
        };
        assert_eq!(line(&bad), "error\n");
    }

    #[test]
    fn json_lines() {
        let json = |r: &Record| -> serde_json::Value {
            let text = BatchFormat::Json.render(r);
            assert_eq!(text.matches('\n').count(), 1);
            assert!(text.starts_with(r#"{"line":"#), "{text}");
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
        };
        let solved = json(&record(Status::Solved, 1));
        assert_eq!(solved["line"], 7);
        assert_eq!(solved["puzzle"], "1...");
        assert_eq!(solved["status"], "solved");
        assert_eq!(solved["solution"], SOLUTION);
        assert_eq!(solved["time_us"], 1234);
        let multiple = json(&record(Status::Multiple, 2));
        assert_eq!(multiple["solutions"][1], SOLUTION);
        assert!(multiple.get("solution").is_none());
        assert_eq!(json(&record(Status::GaveUp, 0))["reason"], "timeout");
        let bad = json(&Record {
            line: 3,
            puzzle: None,
            result: Err(LineError::NotUtf8 { line: 3, column: 2 }),
            time: Duration::ZERO,
        });
        assert_eq!(bad["status"], "error");
        assert_eq!(bad["puzzle"], serde_json::Value::Null);
        assert_eq!(
            bad["error"],
            "line 3, column 2: bytes that are not UTF-8 text"
        );
        assert!(bad.get("time_us").is_none());
    }
}
