//! z3doku solves Sudoku with the Z3 SMT solver, proves a solution unique,
//! and explains itself.
//!
//! The library holds all of z3doku's logic; the `z3doku` binary only parses
//! arguments and prints. A puzzle is read with [`parse`] into a
//! [`grid::Grid`], solved by an [`engine::Engine`] (Z3 through an
//! [`encoding::Encoding`] by default), and every solution is confirmed by the
//! independent [`check`]er before [`verdict`] reports it.
//!
//! ```
//! use z3doku::{engine::Settings, parse::parse_puzzle, verdict::{solve, Status}};
//!
//! let puzzle = parse_puzzle(
//!     "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....",
//!     None,
//! )?;
//! let outcome = solve(&puzzle, &Settings::default(), false)?;
//! assert_eq!(outcome.status, Status::Solved);
//! assert_eq!(outcome.solutions[0].grid.to_line()[..9], *"715894632");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod batch;
pub mod bench;
pub mod check;
pub mod emit;
pub mod encoding;
pub mod engine;
pub mod grid;
pub mod input;
pub mod native;
pub mod parse;
pub mod queens;
pub mod render;
pub mod timing;
pub mod verdict;
pub mod z3_engine;
