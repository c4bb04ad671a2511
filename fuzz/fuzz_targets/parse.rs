//! Any bytes through the puzzle parser (line and grid forms, every size):
//! it must never panic, and whatever it accepts must print and read back
//! as the same grid in every output form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use z3doku::puzzle::parse::{parse_line, parse_puzzle};
use z3doku::render::OutputFormat;
use z3doku::solve::{Outcome, Solution, Status};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_line(text, 1, None);
    let Ok(grid) = parse_puzzle(text, None) else {
        return;
    };
    // Print the grid as a "solution" in each grid form and read it back.
    let outcome = Outcome {
        status: Status::Solved,
        solutions: vec![Solution { grid: grid.clone(), model: None }],
        ..Outcome::new(&grid)
    };
    for format in [OutputFormat::Pretty, OutputFormat::Line, OutputFormat::Matrix] {
        let show = z3doku::render::Show { grids: true, ..Default::default() };
        let printed = format.renderer().outcome(&outcome, show);
        let again = parse_puzzle(&printed, Some(grid.size()));
        assert_eq!(again.as_ref(), Ok(&grid), "{format:?}:\n{printed}");
    }
        ..Outcome::new(&grid)
    });
