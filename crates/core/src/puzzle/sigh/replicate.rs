//! sigh's `Replicate` and `Container` composites, expanded into plain items
//! before the reader sees them.
//!
//! `.Replicate~BITSET[~ORIGIN]` then child items then `.End` makes the
//! children a template: for each target cell, every child is shifted so
//! that the origin (R1C1 unless given) lands on the target, and the
//! shifted copies are ordinary rules. The targets are the bits of BITSET,
//! six to a character of URL-safe base64 (`A`-`Z`, `a`-`z`, `0`-`9`, `-`,
//! `_` for 0 to 63), lowest bit first: bit `i` set targets the cell `i`
//! places after the origin in reading order, so bit 0 is the origin
//! itself. The template is applied only at the targets: at the origin
//! only when bit 0 is set (sigh's `Replicate.decodeTargetCells` and its
//! builder).
//!
//! The shift is done here, on the items' text, and the copies are then
//! read as any item is. That keeps every kind's reader as it is, and it is
//! sigh's shift exactly because the positions shifted are those sigh's
//! `makeShifted` shifts, type by type ([`Shift`]): by default the
//! arguments after the type's leading ones (its `ARGUMENT_CONFIG.numArgs`,
//! 1 when it has such a config, else none), and for the types that say
//! otherwise their own (a given's cell, a quad's corner, the cells of a
//! pair's or a state machine's groups but not the names and separators
//! between them). A word sigh would shift that is not a cell (a sum line's
//! `LOOP`) fails there in sigh, and here. A nested `Replicate` is a child
//! like any other: its children are shifted and its header kept, and it
//! is expanded afterwards, so each cell is shifted by the outer copy
//! first, as sigh does, and a copy that leaves the board on the way fails
//! as in sigh.
//!
//! sigh allows in a `Replicate` only lines and sets, givens, pairs, state
//! machines and composites (`Or`, `And`, `Replicate`); anything else, an
//! outside clue among them, is an error naming it, as in sigh. Inside an
//! `Or`, a `Replicate` is one branch, so its copies are wrapped in an
//! `And` there.
//!
//! `Container` is sigh's plain grouping (its whole puzzle is one): its
//! items count as if written without it, and it may not stand inside an
//! `Or`, `And` or `Replicate`.

use super::SighError;
use super::read::Item;
use crate::puzzle::grid::Size;

/// The types that open a composite, closed by an `End`.
const OPENERS: [&str; 4] = ["Or", "And", "Replicate", "Container"];

/// Which arguments of an item sigh's `makeShifted` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shift {
    /// Every argument is a cell.
    All,
    /// Every argument after the first (a sum, a key, a pattern).
    AfterFirst,
    /// The cell before `_` of each given (`R1C1_5`).
    Givens,
    /// The first argument alone (a quad's top-left cell).
    First,
    /// After the first, all but the group names (`_name`) and the empty
    /// separators between groups (sigh's `Pair`, `PairX`).
    Groups,
    /// As [`Shift::Groups`], and the `-` between segments (sigh's `NFA`).
    GroupSegments,
    /// All but the `-` between segments (sigh's `EqualSum`).
    Segments,
    /// After the first, all but the empty separators between lines
    /// (sigh's `Regex`).
    Lines,
    /// A composite: its header stays, its children are shifted.
    Composite,
}

/// The types sigh allows in a `Replicate`, and how it shifts each.
const SHIFTS: &[(&str, Shift)] = &[
    ("Or", Shift::Composite),
    ("And", Shift::Composite),
    ("Replicate", Shift::Composite),
    ("Given", Shift::Givens),
    ("Thermo", Shift::All),
    ("Renban", Shift::All),
    ("Entropic", Shift::All),
    ("RegionSumLine", Shift::All),
    ("Between", Shift::All),
    ("Palindrome", Shift::All),
    ("Zipper", Shift::All),
    ("WhiteDot", Shift::All),
    ("BlackDot", Shift::All),
    ("GreaterThan", Shift::All),
    ("X", Shift::All),
    ("V", Shift::All),
    ("ValueIndexing", Shift::All),
    ("Arrow", Shift::All),
    ("DoubleArrow", Shift::All),
    ("EqualityCage", Shift::All),
    ("AllDifferent", Shift::All),
    ("CountingCircles", Shift::All),
    ("CountDistinct", Shift::All),
    ("Whisper", Shift::AfterFirst),
    ("Modular", Shift::AfterFirst),
    ("Lockout", Shift::AfterFirst),
    ("SumLine", Shift::AfterFirst),
    ("PillArrow", Shift::AfterFirst),
    ("Cage", Shift::AfterFirst),
    ("RellikCage", Shift::AfterFirst),
    ("Sum", Shift::AfterFirst),
    ("Lunchbox", Shift::AfterFirst),
    ("ContainAtLeast", Shift::AfterFirst),
    ("ContainExact", Shift::AfterFirst),
    ("LookAndSay", Shift::AfterFirst),
    ("SameValues", Shift::AfterFirst),
    ("Indexing", Shift::AfterFirst),
    ("Quad", Shift::First),
    ("Pair", Shift::Groups),
    ("PairX", Shift::Groups),
    ("NFA", Shift::GroupSegments),
    ("EqualSum", Shift::Segments),
    ("Regex", Shift::Lines),
];

/// sigh's base64 digits, worth 0 to 63 in this order.
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The items with every `Replicate` expanded into its copies and every
/// `Container` opened.
pub(super) fn expand(items: Vec<Item>, size: Size) -> Result<Vec<Item>, SighError> {
    let mut out = Vec::with_capacity(items.len());
    // The composites open at this level, innermost last.
    let mut open: Vec<&str> = Vec::new();
    let mut at = 0;
    while at < items.len() {
        let item = &items[at];
        match item.kind.as_str() {
            "Replicate" => {
                let end = closing(&items, at)?;
                let copies = copies(item, &items[at + 1..end], size)?;
                let copies = expand(copies, size)?;
                // Inside an `Or` the copies are one branch.
                let branch = open.last() == Some(&"Or");
                if branch {
                    out.push(Item::new("And", Vec::new()));
                }
                out.extend(copies);
                if branch {
                    out.push(Item::new("End", Vec::new()));
                }
                at = end + 1;
                continue;
            }
            "Container" => {
                if let Some(parent) = open.iter().rev().find(|&&k| k != "Container") {
                    return Err(
                        item.invalid(format!("sigh allows no Container inside an {parent}"))
                    );
                }
                open.push("Container");
            }
            "Or" | "And" => {
                open.push(if item.kind == "Or" { "Or" } else { "And" });
                out.push(item.clone());
            }
            "End" => match open.pop() {
                Some("Container") => {}
                // An unmatched `End` is the reader's to refuse.
                _ => out.push(item.clone()),
            },
            _ => out.push(item.clone()),
        }
        at += 1;
    }
    Ok(out)
}

/// The index of the `End` that closes the composite opened at `at`.
fn closing(items: &[Item], at: usize) -> Result<usize, SighError> {
    let mut depth = 0usize;
    for (k, item) in items.iter().enumerate().skip(at + 1) {
        if OPENERS.contains(&item.kind.as_str()) {
            depth += 1;
        } else if item.kind == "End" {
            if depth == 0 {
                return Ok(k);
            }
            depth -= 1;
        }
    }
    Err(items[at].invalid("no End closes it"))
}

/// A `Replicate`'s copies of its children, target by target.
fn copies(header: &Item, children: &[Item], size: Size) -> Result<Vec<Item>, SighError> {
    // sigh checks each direct child's type as it reads the string, before
    // any target.
    let mut depth = 0usize;
    for child in children {
        if depth == 0 && shift_of(&child.kind).is_none() {
            return Err(header.differs(format!(
                "sigh allows no {} inside a Replicate (only lines and sets, givens, pairs, \
                 state machines, Or, And and Replicate)",
                child.kind
            )));
        }
        if OPENERS.contains(&child.kind.as_str()) {
            depth += 1;
        } else if child.kind == "End" {
            depth = depth.saturating_sub(1);
        }
    }
    if header.args.len() > 2 {
        return Err(header.invalid("a Replicate takes a bitset of targets and an origin"));
    }
    let origin = match header.args.get(1).map(String::as_str) {
        None | Some("") => (0, 0),
        Some(word) => {
            let cell = super::cell(word, size).ok_or_else(|| {
                header.invalid(format!(
                    "the origin `{word}` is not a cell of the {size} board"
                ))
            })?;
            (cell.row(), cell.col())
        }
    };
    let targets = targets(header, origin, size)?;
    let mut out = Vec::new();
    if children.is_empty() {
        return Ok(out);
    }
    for target in targets {
        let by = (
            target.0 as isize - origin.0 as isize,
            target.1 as isize - origin.1 as isize,
        );
        for child in children {
            out.push(shifted(header, child, by, size)?);
        }
    }
    Ok(out)
}

/// The target cells of a `Replicate`'s bitset, as (row, column): bit `i`
/// is the cell `i` places after the origin in reading order.
fn targets(
    header: &Item,
    origin: (usize, usize),
    size: Size,
) -> Result<Vec<(usize, usize)>, SighError> {
    let bits = header.args.first().map_or("", String::as_str);
    let first = origin.0 * size.cols() + origin.1;
    let mut out = Vec::new();
    for (k, byte) in bits.bytes().enumerate() {
        // sigh reads a character outside its alphabet as 0; it never
        // writes one, so here it is a slip and refused.
        let value = BASE64.iter().position(|&b| b == byte).ok_or_else(|| {
            header.invalid(format!(
                "`{}` is not a base64 digit of a target bitset",
                char::from(byte)
            ))
        })?;
        for bit in 0..6 {
            if value & (1 << bit) == 0 {
                continue;
            }
            let index = first + 6 * k + bit;
            if index >= size.cells() {
                return Err(header.invalid(format!(
                    "target {} of the bitset lies past the last cell of the {size} board",
                    6 * k + bit
                )));
            }
            out.push((index / size.cols(), index % size.cols()));
        }
    }
    Ok(out)
}

/// Which arguments of a type sigh shifts; `None` for a type sigh allows in
/// no `Replicate`.
fn shift_of(kind: &str) -> Option<Shift> {
    SHIFTS.iter().find(|(k, _)| *k == kind).map(|&(_, s)| s)
}

/// Whether sigh's `makeShifted` leaves argument `k`, `word`, of a type
/// shifted as `shift` says as it is.
fn keeps(shift: Shift, k: usize, word: &str) -> bool {
    match shift {
        Shift::Composite => true,
        Shift::All | Shift::Givens => false,
        Shift::First => k != 0,
        Shift::AfterFirst => k == 0,
        Shift::Groups => k == 0 || word.is_empty() || word.starts_with('_'),
        Shift::GroupSegments => k == 0 || word.is_empty() || word.starts_with('_') || word == "-",
        Shift::Segments => word == "-",
        Shift::Lines => k == 0 || word.is_empty(),
    }
}

/// One child moved by `by` (rows, columns), as sigh's `makeShifted` moves
/// it.
fn shifted(header: &Item, child: &Item, by: (isize, isize), size: Size) -> Result<Item, SighError> {
    let kind = child.kind.as_str();
    // Inside a nested composite, a type sigh would not shift (an outside
    // clue in an `Or`) fails as its shift does in sigh.
    let shift = match kind {
        "End" => return Ok(child.clone()),
        _ => shift_of(kind).ok_or_else(|| {
            header.differs(format!(
                "sigh cannot shift a {kind} in a Replicate's copies (its arguments are not cells)"
            ))
        })?,
    };
    let mov = |word: &str| -> Result<String, SighError> {
        let cell = super::cell(word, size).ok_or_else(|| {
            header.invalid(format!(
                "`{word}` of its `.{}` is not a cell of the {size} board, and sigh shifts it as one",
                child.text
            ))
        })?;
        let row = cell.row() as isize + by.0;
        let col = cell.col() as isize + by.1;
        if !(0..size.rows() as isize).contains(&row) || !(0..size.cols() as isize).contains(&col) {
            return Err(header.invalid(format!(
                "{word} of its `.{}` shifted {} rows and {} columns leaves the board (sigh: \
                 shifted cell is out of bounds)",
                child.text, by.0, by.1
            )));
        }
        Ok(super::id(size.cell(row as usize, col as usize)))
    };
    let args = child
        .args
        .iter()
        .enumerate()
        .map(|(k, word)| match shift {
            _ if keeps(shift, k, word) => Ok(word.clone()),
            Shift::Givens => match word.split_once('_') {
                Some((cell, values)) => Ok(format!("{}_{values}", mov(cell)?)),
                None => mov(word),
            },
            _ => mov(word),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Item::new(kind, args))
}
