//! Encodings: how a puzzle is put to Z3. Each one declares its variables,
//! states the rules, turns a clue into an instance constraint, and reads the
//! board back from a model.

mod int;

pub use int::IntEncoding;

use crate::grid::{Grid, Size};
use z3::Model;
use z3::ast::Bool;

/// Which encoding Z3 solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum EncodingKind {
    /// The notebook's: an Int per cell in 1..=n², Distinct over every group.
    #[default]
    Int,
}

impl EncodingKind {
    /// The encoding's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EncodingKind::Int => "int",
        }
    }

    /// The encoding of this kind for boards of `size`.
    pub fn build(self, size: Size) -> Box<dyn Encoding> {
        match self {
            EncodingKind::Int => Box::new(IntEncoding::new(size)),
        }
    }
}

/// A way to state Sudoku to Z3 for one board size.
pub trait Encoding {
    /// The board size it encodes.
    fn size(&self) -> Size;

    /// The rules that hold for every puzzle of this size.
    fn rules(&self) -> &[Bool];

    /// The instance constraint: cell `index` holds `digit`.
    fn clue(&self, index: usize, digit: u8) -> Bool;

    /// The literal "cell `index` does not hold `digit`". A blocking clause is
    /// the disjunction of these over a solution's blank cells.
    fn differs(&self, index: usize, digit: u8) -> Bool;

    /// The board a model describes; `None` if the model lacks a cell.
    fn decode(&self, model: &Model) -> Option<Grid>;

    /// The model's assignments, one `name -> value` per line, by the
    /// encoding's readable variable names.
    fn model_text(&self, model: &Model) -> String;

    /// The logic to ask Z3 for, when one suits the encoding better than
    /// Z3's default portfolio.
    fn logic(&self) -> Option<&'static str> {
        None
    }
}
