//! Rules over the whole board: cells a knight's or king's move apart,
//! neighbours that are not consecutive or not in a ratio or sum, and the
//! rules that are houses rather than constraints (diagonals, disjoint
//! groups, drawn regions).

use super::FromZero;
use super::{Added, Read, Rule, one};
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Constraint, Context, marked, orthogonal_pairs, pair, steps_pairs};
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::fpuzzles::{self as fp, FpuzzlesError};
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::{Primitive, Relation};
use crate::puzzle::rules::Diagonal;
use crate::puzzle::sigh;
use crate::puzzle::sketch::Mark;
use serde_json::{Value, json};
use std::fmt;

/// Whether an f-puzzles flag (`"antiknight": true`) is set.
fn flag(key: &str, value: &Value) -> Result<bool, FpuzzlesError> {
    value
        .as_bool()
        .ok_or_else(|| fp::invalid(format!("`{key}`"), "not true or false"))
}

/// A whole-board rule that is a flag in f-puzzles and a bare name in text.
macro_rules! flag_rule {
    (
        $(#[$doc:meta])* $kind:ident, $key:literal, [$($name:literal),*], $shown:literal
        $(, sigh $sigh:literal)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $kind;

        impl Read for $kind {
            const KEYS: &'static [&'static str] = &[$key];
            const NAMES: &'static [&'static str] = &[$($name),*];

            fn from_fpuzzles(
                key: &str,
                value: &Value,
                _: Size,
            ) -> Result<Vec<Added>, FpuzzlesError> {
                Ok(if flag(key, value)? { one($kind) } else { Vec::new() })
            }

            /// Words after the name say nothing more.
            fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
                Ok(one($kind))
            }
            const SIGH: &'static [&'static str] = &[$($sigh)?];
            fn from_sigh(_: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
                Ok(one($kind))
            }
        }

        impl fmt::Display for $kind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($shown)
            }
        }
    };
}

/// Cells one of `steps` apart that hold the same digit, named.
fn apart_broken(board: &Board<'_>, steps: &[(isize, isize)]) -> Option<String> {
    let size = board.size();
    let cols = size.cols();
    // Every pair of cells, tested by its distance, rather than the steps
    // lowering walks.
    let mut pairs = Vec::new();
    for a in 0..size.cells() {
        for b in a + 1..size.cells() {
            let (dr, dc) = (
                (b / cols) as isize - (a / cols) as isize,
                (b % cols) as isize - (a % cols) as isize,
            );
            if steps
                .iter()
                .any(|&(r, c)| (r, c) == (dr, dc) || (-r, -c) == (dr, dc))
            {
                pairs.push((a, b));
            }
        }
    }
    board.pairs_where(pairs, &|x, y| x == y)
}

flag_rule!(
    /// Cells a chess knight's move apart hold different digits.
    AntiKnight,
    "antiknight",
    ["anti-knight", "antiknight"],
    "anti-knight",
    sigh "AntiKnight"
);

/// A knight's moves, each once up to sign.
const KNIGHT: [(isize, isize); 4] = [(1, 2), (2, 1), (1, -2), (2, -1)];

/// A king's diagonal moves, each once up to sign (a king's other moves
/// stay in a row or column).
const KING: [(isize, isize); 2] = [(1, 1), (1, -1)];

impl Rule for AntiKnight {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        steps_pairs(context.size, &KNIGHT)
            .into_iter()
            .map(|(a, b)| pair(a, b, Relation::Differ))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        apart_broken(board, &KNIGHT)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("antiknight", Item::Flag))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".AntiKnight".into())
    }
}

flag_rule!(
    /// Cells a chess king's move apart hold different digits.
    AntiKing,
    "antiking",
    ["anti-king", "antiking"],
    "anti-king",
    sigh "AntiKing"
);

impl Rule for AntiKing {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        steps_pairs(context.size, &KING)
            .into_iter()
            .map(|(a, b)| pair(a, b, Relation::Differ))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        // A king's move along a row or column is a house's business, but
        // the rule says every move: test them all.
        apart_broken(board, &[(0, 1), (1, 0), (1, 1), (1, -1)])
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("antiking", Item::Flag))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".AntiKing".into())
    }
}

/// Whether `c` is a white or black dot, which exempts its pair from the
/// nonconsecutive and negative ratio rules.
fn is_dot(c: &Constraint) -> bool {
    matches!(c, Constraint::Difference(_) | Constraint::Ratio(_))
}

/// Orthogonal pairs not joined by a mark `pick` accepts.
fn unmarked(
    size: Size,
    all: &[Constraint],
    pick: impl Fn(&Constraint) -> bool,
) -> Vec<(usize, usize)> {
    let exempt = marked(size, all, pick);
    orthogonal_pairs(size)
        .into_iter()
        .filter(|p| !exempt.contains(p))
        .collect()
}

flag_rule!(
    /// Orthogonally neighbouring cells do not hold consecutive digits,
    /// unless a white or black dot joins them.
    NonConsecutive,
    "nonconsecutive",
    ["nonconsecutive"],
    "nonconsecutive"
);

/// sigh's `AntiConsecutive` and `StrictKropki`, which the sigh reader
/// reads as flags (their meaning depends on the dots beside them), as the
/// nonconsecutive and negative ratio rules of `board` write: both beside
/// plain dots are strict Kropki, nonconsecutive alone and without dots is
/// anti-consecutive.
fn strict_kropki(board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
    let has = |pick: fn(&Constraint) -> bool| board.constraints.iter().any(pick);
    let nonconsecutive = has(|c| matches!(c, Constraint::NonConsecutive(_)));
    let negative_ratio = has(|c| matches!(c, Constraint::NegativeRatio(_)));
    let any_dot = has(|c| matches!(c, Constraint::Difference(_) | Constraint::Ratio(_)));
    let plain_dots = !has(|c| match c {
        Constraint::Difference(d) => d.value != 1,
        Constraint::Ratio(r) => r.value != 2,
        _ => false,
    });
    if nonconsecutive && negative_ratio && plain_dots {
        // sigh's strict Kropki says both, exempting its white and black
        // dots, as z3doku exempts every dot.
        sigh::ToSigh::Item(".StrictKropki".into())
    } else if nonconsecutive && !negative_ratio && !any_dot {
        sigh::ToSigh::Item(".AntiConsecutive".into())
    } else {
        sigh::ToSigh::Cannot(
            "sigh's anti-consecutive exempts no dot, and its strict Kropki is nonconsecutive \
             and negative ratio 2 together beside plain dots",
        )
    }
}

impl Rule for NonConsecutive {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Same
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        unmarked(context.size, context.all, is_dot)
            .into_iter()
            .map(|(a, b)| pair(a, b, Relation::DifferenceIsNot(1)))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let pairs = unmarked(board.size(), board.rules.constraints(), is_dot);
        board.pairs_where(pairs, &|x, y| x.abs_diff(y) == 1)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("nonconsecutive", Item::Flag))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        strict_kropki(board)
    }
}

/// The items of f-puzzles' `negative` list, each `ratio` or `xv`; another
/// item is a rule z3doku does not know.
fn negative_items<'a>(key: &str, value: &'a Value) -> Result<Vec<&'a str>, FpuzzlesError> {
    fp::items(key, value)?
        .iter()
        .map(|item| match item.as_str() {
            Some(word @ ("ratio" | "xv")) => Ok(word),
            _ => Err(FpuzzlesError::Unsupported {
                key: format!("negative {item}"),
                place: String::new(),
            }),
        })
        .collect()
}

/// No two orthogonal neighbours without a black or white dot stand in the
/// ratio of any black dot on the board (2 when there is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NegativeRatio;

/// The black dots' ratios on the board, or 2 when there is none.
fn ratios(all: &[Constraint]) -> Vec<u8> {
    let mut ratios: Vec<u8> = all
        .iter()
        .filter_map(|c| match c {
            Constraint::Ratio(dot) => Some(dot.value),
            _ => None,
        })
        .collect();
    if ratios.is_empty() {
        ratios.push(2);
    }
    ratios.sort_unstable();
    ratios.dedup();
    ratios
}

impl Read for NegativeRatio {
    const KEYS: &'static [&'static str] = &["negative"];
    const NAMES: &'static [&'static str] = &["negative ratio"];

    fn from_fpuzzles(key: &str, value: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let items = negative_items(key, value)?;
        Ok(if items.contains(&"ratio") {
            one(NegativeRatio)
        } else {
            Vec::new()
        })
    }

    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Ok(one(NegativeRatio))
    }
    const SIGH: &'static [&'static str] = &[];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // Read by the sigh reader as `StrictKropki` (see [`strict_kropki`]).
        Err(item.unknown())
    }
}

impl fmt::Display for NegativeRatio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("negative ratio")
    }
}

impl Rule for NegativeRatio {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let ratios = ratios(context.all);
        unmarked(context.size, context.all, is_dot)
            .into_iter()
            .flat_map(|(a, b)| {
                ratios
                    .iter()
                    .map(move |&r| pair(a, b, Relation::RatioIsNot(r)))
            })
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let all = board.rules.constraints();
        let ratios = ratios(all);
        let is_ratio = |x: u8, y: u8, r: u8| {
            u32::from(x) == u32::from(r) * u32::from(y)
                || u32::from(y) == u32::from(r) * u32::from(x)
        };
        board.pairs_where(unmarked(board.size(), all, is_dot), &|x, y| {
            ratios.iter().any(|&r| is_ratio(x, y, r))
        })
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("negative", Item::Entry(json!("ratio"))))
    }
    fn to_sigh(&self, board: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        strict_kropki(board)
    }
}

/// No two orthogonal neighbours without an X or a V add up to 5 or 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NegativeXv;

/// Whether `c` is an X or a V, which exempts its pair.
fn is_xv(c: &Constraint) -> bool {
    matches!(c, Constraint::Xv(_))
}

impl Read for NegativeXv {
    const KEYS: &'static [&'static str] = &["negative"];
    const NAMES: &'static [&'static str] = &["negative xv"];

    fn from_fpuzzles(key: &str, value: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        let items = negative_items(key, value)?;
        Ok(if items.contains(&"xv") {
            one(NegativeXv)
        } else {
            Vec::new()
        })
    }

    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Ok(one(NegativeXv))
    }
    const SIGH: &'static [&'static str] = &["StrictXV"];
    fn from_sigh(_: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        // sigh exempts the X and V pairs, as z3doku's negative XV does.
        Ok(one(NegativeXv))
    }
}

impl fmt::Display for NegativeXv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("negative XV")
    }
}

impl Rule for NegativeXv {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        Ok(())
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        unmarked(context.size, context.all, is_xv)
            .into_iter()
            .flat_map(|(a, b)| [5, 10].map(|s| pair(a, b, Relation::SumIsNot(s))))
            .collect()
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let pairs = unmarked(board.size(), board.rules.constraints(), is_xv);
        board.pairs_where(pairs, &|x, y| x + y == 5 || x + y == 10)
    }
    fn sketch(&self, _size: Size) -> Vec<Mark> {
        Vec::new()
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        Some(("negative", Item::Entry(json!("xv"))))
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(".StrictXV".into())
    }
}

/// The rules that are houses: the diagonals (`diagonal+` rises from the
/// bottom left corner, `diagonal-` falls from the top left), the disjoint
/// groups, and regions drawn as a rule line. f-puzzles draws regions cell
/// by cell in the grid, which [`fpuzzles`](crate::puzzle::fpuzzles) reads,
/// and they are written back from the houses.
pub struct Houses;

impl Read for Houses {
    const KEYS: &'static [&'static str] = &["diagonal+", "diagonal-", "disjointgroups"];
    const NAMES: &'static [&'static str] = &[
        "diagonal+",
        "diagonal-",
        "disjoint groups",
        "disjointgroups",
        "regions",
    ];

    fn from_fpuzzles(key: &str, value: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        if !flag(key, value)? {
            return Ok(Vec::new());
        }
        Ok(vec![match key {
            "diagonal+" => Added::Diagonal(Diagonal::Rising),
            "diagonal-" => Added::Diagonal(Diagonal::Falling),
            _ => Added::DisjointGroups,
        }])
    }

    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String> {
        match name {
            "diagonal+" | "diagonal-" | "disjoint groups" | "disjointgroups" => {
                Ok(vec![match name {
                    "diagonal+" => Added::Diagonal(Diagonal::Rising),
                    "diagonal-" => Added::Diagonal(Diagonal::Falling),
                    _ => Added::DisjointGroups,
                }])
            }
            _ => {
                // One label per cell, in reading order; `.` for a cell in
                // no region.
                let labels: Vec<char> = words.iter().flat_map(|w| w.chars()).collect();
                if labels.len() != size.cells() {
                    return Err(format!(
                        "{} region labels, but the board has {} cells",
                        labels.len(),
                        size.cells()
                    ));
                }
                let mut seen: Vec<char> = Vec::new();
                let regions = labels
                    .into_iter()
                    .map(|label| {
                        (label != '.').then(|| match seen.iter().position(|&l| l == label) {
                            Some(k) => k,
                            None => {
                                seen.push(label);
                                seen.len() - 1
                            }
                        })
                    })
                    .collect();
                Ok(vec![Added::Regions(regions)])
            }
        }
    }
    const SIGH: &'static [&'static str] = &["Diagonal"];
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        match item.args.first().map(String::as_str) {
            Some("1") => Ok(vec![Added::Diagonal(Diagonal::Rising)]),
            Some("-1") => Ok(vec![Added::Diagonal(Diagonal::Falling)]),
            _ => Err(item.invalid("the direction must be 1 or -1")),
        }
    }
}
