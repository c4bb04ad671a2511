//! Encodings: how a puzzle is put to Z3. Each one declares its variables,
//! states the [rules](crate::puzzle::rules) as formulas, turns a clue into
//! an instance constraint, and reads the board back from a model.

mod automaton;
mod boolean;
mod cage;
mod chaos;
mod connected;
mod expr;
mod int;
mod onehot;
mod onehot_formula;
mod pb;

pub use boolean::{bool_encoding, house_clauses};
pub use int::IntEncoding;
pub use onehot::{
    Clause, OneHotEncoding, Sums, constraint_clauses, exactly_one_sets, name, primitive_clauses,
    primitive_formula, variable,
};
pub use pb::pb_encoding;

use crate::engine::contract::EncodingKind;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::rules::Rules;
use z3::Model;
use z3::ast::Bool;

/// The encoding of `kind` for puzzles under `rules`.
pub fn build(kind: EncodingKind, rules: &Rules) -> Box<dyn Encoding> {
    match kind {
        EncodingKind::Int => Box::new(IntEncoding::new(rules)),
        EncodingKind::Bool => Box::new(bool_encoding(rules)),
        EncodingKind::Pb => Box::new(pb_encoding(rules)),
    }
}

/// A way to state a set of rules to Z3.
pub trait Encoding {
    /// The board size it encodes.
    fn size(&self) -> Size;

    /// The houses (and each cell's range), as formulas that hold for every
    /// puzzle under the rules.
    fn rules(&self) -> &[Bool];

    /// Each of the rules' [constraints](crate::puzzle::rules::Rules::constraints)
    /// as formulas, in the same order, so that an explanation can switch
    /// them on one by one.
    fn constraints(&self) -> &[Vec<Bool>];

    /// The same encoding for `rules`, which have the same size and houses
    /// as the rules it was built for: its variables and house formulas are
    /// shared (building them again costs more than many a search; see
    /// build.md, "Killer cages in the Z3 encodings"), and only the
    /// constraints are stated anew.
    fn with_constraints(&self, rules: &Rules) -> Box<dyn Encoding>;

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

    /// Constraints that follow from the rules' constraints taken together
    /// (the sums killer cages imply with the houses; see
    /// [`crate::puzzle::implied`]). The engine asserts them when every
    /// constraint is on, never under an explanation's switches, where a
    /// sum would outlive the cages it comes from; exported formulas leave
    /// them out.
    fn implied_by_constraints(&self) -> &[Bool] {
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

    /// What a kept solver states besides the rules: facts that help a
    /// search Z3 cannot simplify with the clues first, but cost a new
    /// solver more than they save.
    fn kept_formulas(&self) -> Vec<Bool> {
        Vec::new()
    }

    /// Whether a count, from its second solution on, states the [kept
    /// formulas](Self::kept_formulas) on a solver of its own and blocks
    /// its solutions over a Boolean named for each [clue](Self::clue)
    /// formula (see `block`): for an encoding whose clues are formulas over
    /// integers rather than variables of its own.
    fn counts_over_names(&self) -> bool {
        false
    }

    /// How many searches a kept solver serves before a new one takes
    /// over, if it slows down as it serves; `None` for as many as come.
    fn kept_searches(&self) -> Option<usize> {
        None
    }

    /// Whether a kept solver takes the clues as assumptions; else they are
    /// asserted in the puzzle's own `push`/`pop` scope.
    fn clues_as_assumptions(&self) -> bool {
        true
    }
}
