//! The messages of the f-puzzles solver protocol: a request is one JSON
//! object (`{"nonce", "command", "dataType", "data"}`), and every response
//! carries the request's nonce and a `type`.

use serde::Serialize;
use serde_json::{Map, Value};

/// The commands f-puzzles' buttons send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListenCommand {
    /// Each cell's true candidates, with how many solutions have each.
    TrueCandidates,
    /// One solution.
    Solve,
    /// Whether the puzzle has no, one or several solutions (a count capped
    /// at 2).
    Check,
    /// Every solution counted, with progress while counting.
    Count,
    /// One human-style step.
    Step,
    /// The whole human-style path.
    SolvePath,
    /// An estimate of the number of solutions, refined until cancelled.
    Estimate,
    /// Stop the work in hand.
    Cancel,
}

impl ListenCommand {
    /// Every command, in the order the protocol lists them.
    pub const ALL: [ListenCommand; 8] = [
        ListenCommand::TrueCandidates,
        ListenCommand::Solve,
        ListenCommand::Check,
        ListenCommand::Count,
        ListenCommand::Step,
        ListenCommand::SolvePath,
        ListenCommand::Estimate,
        ListenCommand::Cancel,
    ];

    /// The command's word in a request.
    pub fn name(self) -> &'static str {
        match self {
            ListenCommand::TrueCandidates => "truecandidates",
            ListenCommand::Solve => "solve",
            ListenCommand::Check => "check",
            ListenCommand::Count => "count",
            ListenCommand::Step => "step",
            ListenCommand::SolvePath => "solvepath",
            ListenCommand::Estimate => "estimate",
            ListenCommand::Cancel => "cancel",
        }
    }

    /// The command a request's word names.
    pub fn from_name(word: &str) -> Option<ListenCommand> {
        ListenCommand::ALL.into_iter().find(|c| c.name() == word)
    }
}

/// One request, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The client's tag for the request, echoed in every response to it
    /// (any JSON value; `null` when absent).
    pub nonce: Value,
    /// What to do.
    pub command: ListenCommand,
    /// The puzzle: lz-string base64 of the f-puzzles JSON (or the JSON
    /// itself); empty for `cancel`.
    pub data: String,
}

/// A response's body: its `type` and fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Reply {
    /// `truecandidates`: for each cell and digit, at index
    /// `(row·N + col)·N + digit − 1`, how many solutions have it, up to the
    /// requested cap (1 for every candidate with a solution when the cap is
    /// 1); with the `logical` option, −1 for a digit no solution has that
    /// the logic cannot rule out (the userscript draws it red).
    TrueCandidates {
        /// The counts, N·N·N of them.
        #[serde(rename = "solutionsPerCandidate")]
        solutions_per_candidate: Vec<i64>,
    },
    /// `solve`: a solution, row by row.
    Solved {
        /// N·N digits.
        solution: Vec<u8>,
    },
    /// `check` and `count`: the solutions counted so far, or in all.
    Count {
        /// Solutions counted.
        count: u64,
        /// Whether counting goes on (a progress message).
        #[serde(rename = "inProgress")]
        in_progress: bool,
    },
    /// `step` and `solvepath`: the board after a human-style step (or the
    /// whole path), and its explanation.
    Logical {
        /// Every cell, row by row.
        cells: Vec<LogicalCell>,
        /// The step's explanation, or the path's steps one a line.
        message: String,
        /// Whether the board is still consistent (always, for z3doku's
        /// steps are checked against the solution).
        #[serde(rename = "isValid")]
        is_valid: bool,
    },
    /// `estimate`: the estimated number of solutions so far, sent again
    /// as it narrows (the fields dclamage's solver sends, which the
    /// userscript prints: `estimate`, `stderr`, `iterations`, `ci95_lower`,
    /// `ci95_upper`, `relErrPercent`).
    Estimate {
        /// The estimated number of solutions.
        estimate: f64,
        /// Its standard error.
        stderr: f64,
        /// Samples taken.
        iterations: u64,
        /// The 95% interval's lower end.
        ci95_lower: f64,
        /// Its upper end.
        ci95_upper: f64,
        /// The interval's half-width as a per cent of the estimate.
        #[serde(rename = "relErrPercent")]
        rel_err_percent: f64,
    },
    /// `cancel`: the work in hand stopped.
    Canceled,
    /// No answer: the puzzle has no solution, or the request or a rule is
    /// not understood, and why.
    Invalid {
        /// Why, naming the conflicting clues and rules or the key not
        /// understood.
        message: String,
    },
}

/// A cell of a `logical` reply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogicalCell {
    /// Its digit, 0 when open.
    pub value: u8,
    /// Its candidates when open (empty when placed).
    pub candidates: Vec<u8>,
}

/// One response: a reply and the nonce of the request it answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Response {
    /// The request's nonce.
    pub nonce: Value,
    /// The reply.
    #[serde(flatten)]
    pub reply: Reply,
}

impl Response {
    /// An `invalid` response to the request tagged `nonce`.
    pub fn invalid(nonce: Value, message: impl Into<String>) -> Response {
        Response {
            nonce,
            reply: Reply::Invalid {
                message: message.into(),
            },
        }
    }

    /// The response as one JSON text message.
    pub fn to_json(&self) -> String {
        // A map of strings, numbers and arrays always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Reads one request message; a message that is not a request is answered
/// with an `invalid` response (with the message's nonce when it has one).
pub fn parse_request(text: &str) -> Result<Request, Response> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Response::invalid(
            Value::Null,
            format!("the message is not JSON: {e}; a request is an object with `nonce`, `command`, `dataType` and `data`"),
        )
    })?;
    let Value::Object(object) = value else {
        return Err(Response::invalid(
            Value::Null,
            "the message is not a JSON object; a request is an object with `nonce`, `command`, \
             `dataType` and `data`",
        ));
    };
    let nonce = object.get("nonce").cloned().unwrap_or(Value::Null);
    let fail = |message: String| Response::invalid(nonce.clone(), message);
    let word = string_field(&object, "command").map_err(fail)?;
    let Some(word) = word else {
        return Err(fail("the request has no `command`".into()));
    };
    let Some(command) = ListenCommand::from_name(word) else {
        let known: Vec<&str> = ListenCommand::ALL.iter().map(|c| c.name()).collect();
        return Err(fail(format!(
            "the command `{word}` is not understood; z3doku answers {}",
            known.join(", ")
        )));
    };
    if command == ListenCommand::Cancel {
        return Ok(Request {
            nonce,
            command,
            data: String::new(),
        });
    }
    match string_field(&object, "dataType").map_err(fail)? {
        None | Some("fpuzzles") => {}
        Some(other) => {
            return Err(fail(format!(
                "the dataType `{other}` is not understood; z3doku reads `fpuzzles`"
            )));
        }
    }
    let Some(data) = string_field(&object, "data").map_err(fail)? else {
        return Err(fail(format!(
            "the `{}` request has no `data` (the f-puzzles puzzle)",
            command.name()
        )));
    };
    Ok(Request {
        nonce: nonce.clone(),
        command,
        data: data.to_string(),
    })
}

/// The string under `key`, if any; an error when it is something else.
fn string_field<'a>(object: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, String> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(format!("`{key}` is not a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_reads_and_a_response_carries_its_nonce() {
        let request =
            parse_request(r#"{"nonce":7,"command":"check","dataType":"fpuzzles","data":"N4Ig"}"#);
        assert_eq!(
            request,
            Ok(Request {
                nonce: json!(7),
                command: ListenCommand::Check,
                data: "N4Ig".into()
            })
        );
        let response = Response {
            nonce: json!(7),
            reply: Reply::Count {
                count: 2,
                in_progress: false,
            },
        };
        assert_eq!(
            serde_json::from_str::<Value>(&response.to_json()).ok(),
            Some(json!({"nonce": 7, "type": "count", "count": 2, "inProgress": false}))
        );
        let candidates = Response {
            nonce: json!("a"),
            reply: Reply::TrueCandidates {
                solutions_per_candidate: vec![1, 0],
            },
        };
        assert_eq!(
            candidates.to_json(),
            r#"{"nonce":"a","type":"truecandidates","solutionsPerCandidate":[1,0]}"#
        );
        let canceled = Response {
            nonce: json!(1),
            reply: Reply::Canceled,
        };
        assert_eq!(canceled.to_json(), r#"{"nonce":1,"type":"canceled"}"#);
    }

    #[test]
    fn what_is_not_a_request_is_answered_invalid_with_its_nonce() {
        let invalid = |text: &str| match parse_request(text) {
            Err(Response {
                nonce,
                reply: Reply::Invalid { message },
            }) => (nonce, message),
            other => panic!("{other:?}"),
        };
        assert!(invalid("{not json").1.contains("not JSON"));
        assert!(invalid("[1]").1.contains("not a JSON object"));
        let (nonce, message) = invalid(r#"{"nonce":3,"command":"frobnicate","data":"x"}"#);
        assert_eq!(nonce, json!(3));
        assert!(
            message.contains("`frobnicate` is not understood"),
            "{message}"
        );
        assert!(
            invalid(r#"{"nonce":3,"command":"solve"}"#)
                .1
                .contains("no `data`")
        );
        assert!(
            invalid(r#"{"command":"solve","dataType":"sudokupad","data":"x"}"#)
                .1
                .contains("`sudokupad`")
        );
        assert!(
            invalid(r#"{"command":5}"#)
                .1
                .contains("`command` is not a string")
        );
        assert_eq!(
            parse_request(r#"{"nonce":9,"command":"cancel"}"#).map(|r| r.command),
            Ok(ListenCommand::Cancel)
        );
    }
}
