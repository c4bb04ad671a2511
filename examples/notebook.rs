//! Solves the Z3 notebook's puzzle through the library and prints it the
//! way the notebook's `print_matrix` does.
//!
//! Run with `cargo run --example notebook`.

use z3doku::engine::Settings;
use z3doku::grid::{Grid, Size};
use z3doku::render::{Matrix, Render};
use z3doku::verdict::solve;

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
    let puzzle = Grid::from_cells(Size::NINE, &cells).ok_or("the puzzle is not a 9x9 board")?;
    let outcome = solve(&puzzle, &Settings::default(), false)?;
    match outcome.solutions.first() {
        Some(solution) => print!("{}", Matrix.grid(&solution.grid, &puzzle, &[], false)),
        None => println!("Unsatisfiable"),
    }
    Ok(())
}
