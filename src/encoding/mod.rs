//! Encodings: how a puzzle is put to Z3. Each one declares its variables,
//! states the rules, turns a clue into an instance constraint, and reads the
//! board back from a model.

mod boolean;
mod int;
mod onehot;
mod pb;

pub use boolean::{Clause, bool_encoding, clauses};
pub use int::IntEncoding;
pub use onehot::{OneHotEncoding, exactly_one_sets, name, variable};
pub use pb::pb_encoding;

use crate::grid::{Grid, Size};
use z3::Model;
use z3::ast::Bool;

/// Which encoding Z3 solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum EncodingKind {
    /// The notebook's: an Int per cell in 1..=n², Distinct over every group.
    #[default]
    Int,
    /// The SAT lesson's: a Boolean `x_R_C_D` per cell and digit, "exactly
    /// one" as an at-least-one clause and pairwise at-most-one clauses.
    Bool,
    /// The pysat lesson's: the same Booleans, each "exactly one" a single
    /// pseudo-Boolean equation.
    Pb,
}

impl EncodingKind {
    /// Every encoding, in the order the command line lists them.
    pub const ALL: [EncodingKind; 3] = [EncodingKind::Int, EncodingKind::Bool, EncodingKind::Pb];

    /// The encoding's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EncodingKind::Int => "int",
            EncodingKind::Bool => "bool",
            EncodingKind::Pb => "pb",
        }
    }

    /// The encoding of this kind for boards of `size`.
    pub fn build(self, size: Size) -> Box<dyn Encoding> {
        match self {
            EncodingKind::Int => Box::new(IntEncoding::new(size)),
            EncodingKind::Bool => Box::new(bool_encoding(size)),
            EncodingKind::Pb => Box::new(pb_encoding(size)),
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

    /// Constraints that follow from the rules, stated as well because they
    /// help the solver (see build.md, "Encodings"). The engine asserts them;
    /// exported formulas leave them out.
    fn implied(&self) -> &[Bool] {
        &[]
    }

    /// The logic to ask Z3 for, when one suits the encoding better than
    /// Z3's default portfolio.
    fn logic(&self) -> Option<&'static str> {
        None
    }

    /// The tactics, applied in order, that make the solver for a puzzle's
    /// first solution, when they find it faster than the [logic](Self::logic)'s
    /// solver. Further solutions still come from the logic's solver, which
    /// is incremental; a tactic's solver starts over on each check.
    fn tactics(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// Whether one solver should serve every puzzle of the size, with the
    /// rules asserted once and each puzzle's clues passed as assumptions,
    /// rather than a new solver per puzzle. Which pays depends on the
    /// encoding (see build.md, "Encodings").
    fn keeps_solver(&self) -> bool {
        false
    }
}
