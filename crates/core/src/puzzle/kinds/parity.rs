//! The parity line: neighbours on the line alternate odd and even. sigh
//! has no type of that name; its strings say it as a `Pair` whose relation
//! allows exactly the pairs of unlike parity, which is read back as this
//! rule and written so.
//!
//! f-puzzles has no key for it: it is read from rule lines and sigh
//! strings.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once, pair};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Classes, Primitive, Relation};
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;

/// Remainders mod 2.
const PARITY: Classes = Classes::Mod(2);

/// A parity line: each two neighbours on it, one odd and one even.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParityLine(pub Vec<Cell>);

impl Read for ParityLine {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["parity line", "parityline"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    fn from_text(_: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        Ok(one(ParityLine(text::cells(words, size)?)))
    }
    const SIGH: &'static [&'static str] = &["Pair"];
    /// A `Pair` group whose relation is "unlike parity".
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        if !item.relation_is(Relation::ClassesDiffer(PARITY)) {
            return Ok(Vec::new());
        }
        Ok(one(ParityLine(item.cells(&item.args[1..])?)))
    }
}

impl fmt::Display for ParityLine {
    /// `parity line r1c1→r1c2→r1c3`, which reads back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parity line {}", list(&self.0, "→"))
    }
}

impl Rule for ParityLine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        self.0.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.0)
    }

    /// Every two cells, not only neighbours, so that propagation sees
    /// through open cells: an odd distance apart, unlike parity; an even
    /// one, alike.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let cells = index(context.size, &self.0);
        let mut out = Vec::new();
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                let relation = if (j - i) % 2 == 1 {
                    Relation::ClassesDiffer(PARITY)
                } else {
                    Relation::ClassesSame(PARITY)
                };
                out.push(pair(cells[i], cells[j], relation));
            }
        }
        out
    }

    /// As the rule is stated: two neighbours on the line both odd or both
    /// even.
    fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.0.windows(2).find_map(|w| {
            (board.digit(w[0]) % 2 == board.digit(w[1]) % 2)
                .then(|| format!("{}, both of one parity", board.holds(w)))
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::Line {
                cells: self.0.clone(),
                colour: LineColour::Grey,
            },
            Mark::Note("parity lines (grey): neighbours alternate odd and even".into()),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        let key = sigh::relation_key(board.size.side(), |a, b| {
            Relation::ClassesDiffer(PARITY).allows(a, b)
        });
        sigh::ToSigh::Item(format!(".Pair~{key}{}", sigh::ids(&self.0)))
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kinds::notebook_solution_under as check;

    #[test]
    fn neighbours_alternate() {
        // r1c3 r1c4 r1c5 hold 5 8 9.
        assert!(check("parity line r1c3 r1c4 r1c5").is_ok());
        // r1c1 r1c2 hold 7 1, both odd.
        let error = check("parity line r1c1 r1c2").err().unwrap_or_default();
        assert!(error.contains("both of one parity"), "{error}");
    }
}
