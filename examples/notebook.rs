//! Solves the Z3 notebook's puzzle through the library and prints it the
//! way the notebook's `print_matrix` does.
//!
//! Run with `cargo run --example notebook`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::solve::{Request, solve};

/// The notebook's `sudoku` tuple; 0 is a blank.
const SUDOKU: [[u8; 9]; 9] = [
    [0, 0, 0, 0, 9, 4, 0, 3, 0],
    [0, 0, 0, 5, 1, 0, 0, 0, 7],
    [0, 8, 9, 0, 0, 0, 0, 4, 0],
    [0, 0, 0, 0, 0, 0, 2, 0, 8],
    [0, 6, 0, 2, 0, 1, 0, 5, 0],
    [1, 0, 2, 0, 0, 0, 0, 0, 0],
    [0, 7, 0, 0, 0, 0, 5, 2, 0],
    [9, 0, 0, 0, 6, 5, 0, 0, 0],
    [0, 4, 0, 9, 7, 0, 0, 0, 0],
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cells: Vec<u8> = SUDOKU.iter().flatten().copied().collect();
    let givens = Grid::from_cells(Size::NINE, &cells).ok_or("the puzzle is not a 9x9 board")?;
    let outcome = solve(&Puzzle::classic(givens), &Request::default())?;
    match outcome.solutions.first() {
        Some(solution) => {
            // The notebook's print_matrix: a Python list of lists.
            let rows: Vec<String> = solution.grid.rows().map(|row| format!("{row:?}")).collect();
            println!("[{}]", rows.join(",\n "));
        }
        None => println!("Unsatisfiable"),
    }
    Ok(())
}
