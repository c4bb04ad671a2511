//! Solves the SAT lesson's `difficult_puzzle` (rows of digits and `*`)
//! through the library, proves the solution unique, and prints it a row per
//! line as the lesson does.
//!
//! Run with `cargo run --example lesson5`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use z3doku::puzzle::Puzzle;
use z3doku::puzzle::parse::parse_puzzle;
use z3doku::solve::{Request, Status, solve};

const DIFFICULT_PUZZLE: [&str; 9] = [
    "8********",
    "**36*****",
    "*7**9*2**",
    "*5***7***",
    "****457**",
    "***1***3*",
    "**1****68",
    "**85***1*",
    "*9****4**",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let puzzle = Puzzle::classic(parse_puzzle(&DIFFICULT_PUZZLE.join("\n"), None)?);
    let request = Request {
        unique: true,
        ..Request::default()
    };
    let outcome = solve(&puzzle, &request)?;
    let Some(solution) = outcome.solutions.first() else {
        println!("No solution");
        return Ok(());
    };
    for row in solution.grid.rows() {
        let digits: String = row.iter().map(u8::to_string).collect();
        println!("{digits}");
    }
    let verdict = if outcome.status == Status::Unique {
        "unique"
    } else {
        "not unique"
    };
    println!("{verdict}");
    Ok(())
}
