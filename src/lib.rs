//! z3doku solves Sudoku with the Z3 SMT solver, proves a solution unique,
//! and explains itself.
//!
//! The library holds all of z3doku's logic; the `z3doku` binary only parses
//! arguments and prints. A [`puzzle::Puzzle`] is its givens and its
//! [rules](puzzle::rules); it is read from text by [`puzzle::input`],
//! answered by a [`solve::Pipeline`] with an [`engine::Engine`] (Z3 through
//! one of its encodings by default, or the native search), and every
//! solution is confirmed by the independent [`puzzle::check`]er before an
//! [`solve::Outcome`] reports it. [`report`] gives every result one JSON
//! shape.
//!
//! ```
//! use z3doku::puzzle::{Puzzle, parse::parse_puzzle};
//! use z3doku::solve::{Request, Status, solve};
//!
//! let givens = parse_puzzle(
//!     "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....",
//!     None,
//! )?;
//! let request = Request { unique: true, ..Request::default() };
//! let outcome = solve(&Puzzle::classic(givens), &request)?;
//! assert_eq!(outcome.status, Status::Unique);
//! assert_eq!(outcome.solutions[0].grid.to_line()[..9], *"715894632");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod batch;
pub mod bench;
pub mod draw;
pub mod engine;
pub mod generate;
pub mod listen;
pub mod logic;
pub use z3doku_core::puzzle;
pub mod queens;
pub mod report;
pub mod solve;
pub mod timing;

// The README's Rust example compiles and runs as a doctest, so the
// "Library" section cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
