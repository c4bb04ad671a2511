//! sigh's puzzle strings: the text its Interactive Sudoku Solver shares
//! puzzles in (`.~R1C1_5~R2C3_7.Arrow~R1C1~R1C2.Cage~10~R9C1~R9C2`) and the
//! `?q=` of its links, read as input ([`parse`]) and written back
//! ([`write::to_sigh`]).
//!
//! A string is a list of items, each `.` then a type, `~` and its
//! arguments; the empty type is a given (`R1C1_5`, or `R1C1_1_3_5` for a
//! cell's candidates). Cells are `R<row>C<col>` with row and column in base
//! 17 (`1`-`9`, then `a`-`g` for 10 to 16), so every cell is four
//! characters. Each type is read with sigh's meaning of it (its
//! `sudoku_constraint.js` and its solver's builder), into the z3doku rule
//! that means the same on every board; a sigh type z3doku has no rule for,
//! or one whose meaning differs from z3doku's in the puzzle at hand (an
//! anti-consecutive board with dots, which z3doku's nonconsecutive rule
//! exempts and sigh's does not), is an error that names it, never skipped.

pub mod write;

mod read;
mod replicate;

pub use read::parse;
pub use write::{to_link, to_sigh};

use super::grid::{Cell, Size};
use super::kinds::Constraint;
use super::kinds::extra_cells::ExtraCells;
use super::primitive::Relation;
use super::rules::RuleError;
use thiserror::Error;

/// Where sigh's page lives; links to it carry the puzzle under `q`.
pub const LINK_PREFIX: &str = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=";

/// The largest board sigh has: 16x16.
pub const MAX_SIDE: usize = 16;

/// The constraint types sigh's strings may name beyond those the rule
/// kinds read (each kind lists its own in `Read::SIGH`): the syntax read
/// here and the types z3doku has no rule for, so that a type sigh knows
/// and z3doku does not is told apart from a misspelling.
pub const SIGH_TYPES: &[&str] = &[
    "Container",
    "Or",
    "And",
    "Replicate",
    "End",
    "Jigsaw",
    "NoBoxes",
    "RegionSize",
    "StrictKropki",
    "Shape",
    "DisjointSets",
    "AntiConsecutive",
    "FullRankTies",
    "Binary",
    "BinaryX",
    "Pair",
    "PairX",
    "Given",
    "SearchPriority",
];

/// Why a sigh string is not a puzzle z3doku can solve, or a puzzle cannot
/// be written as one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SighError {
    /// A sigh constraint z3doku has no rule for.
    #[error("sigh's `{0}` is a rule z3doku does not know")]
    Unknown(String),
    /// A sigh constraint whose meaning in this puzzle z3doku cannot keep.
    #[error("sigh's `{kind}`: {why}")]
    Differs {
        /// The type.
        kind: String,
        /// Why z3doku's rule would mean something else.
        why: String,
    },
    /// An item of the wrong shape.
    #[error("`.{item}`: {problem}")]
    Invalid {
        /// The item as written (shortened when long).
        item: String,
        /// What is wrong.
        problem: String,
    },
    /// A rule that cannot hold on this board.
    #[error("{0}")]
    Rule(RuleError),
    /// A rule sigh's strings cannot say.
    #[error("{rule}: a sigh string cannot say it ({why})")]
    CannotWrite {
        /// The rule, as z3doku names it.
        rule: String,
        /// Why not.
        why: String,
    },
}

/// One sigh item as a kind reads it: its type, its arguments (split at
/// `~`) and the board. Kinds read their own items through it; what is
/// sigh's syntax (cells, numbers, relation keys) is read here.
pub struct SighItem<'a> {
    /// The type, as the kind lists it in [`Read::SIGH`](crate::puzzle::kinds::Read::SIGH).
    pub kind: &'a str,
    /// The arguments after the type.
    pub args: &'a [String],
    /// The board.
    pub size: Size,
    /// The board's groups of cells outside the grid, numbered.
    pub extras: &'a [ExtraCells],
    /// The item as written, for messages.
    pub text: &'a str,
}

impl SighItem<'_> {
    /// An error: the item is not of the shape its type needs.
    pub fn invalid(&self, problem: impl Into<String>) -> SighError {
        const MOST: usize = 40;
        let item = match self.text.char_indices().nth(MOST) {
            Some((at, _)) => format!("{}…", &self.text[..at]),
            None => self.text.to_string(),
        };
        SighError::Invalid {
            item,
            problem: problem.into(),
        }
    }

    /// An error: z3doku's rule would mean something else here.
    pub fn differs(&self, why: impl Into<String>) -> SighError {
        SighError::Differs {
            kind: self.kind.to_string(),
            why: why.into(),
        }
    }

    /// An error: z3doku has no rule for the type.
    pub fn unknown(&self) -> SighError {
        SighError::Unknown(self.kind.to_string())
    }

    /// A cell id of the board: one of the grid's, or of a group of cells
    /// outside it (`VA1`).
    pub fn cell(&self, word: &str) -> Result<Cell, SighError> {
        cell(word, self.size)
            .or_else(|| {
                self.extras
                    .iter()
                    .find_map(|group| group.number_of(word))
                    .map(|n| self.size.extra_cell(n))
            })
            .ok_or_else(|| {
                self.invalid(format!("`{word}` is not a cell of the {} board", self.size))
            })
    }

    /// Cell ids, at least one.
    pub fn cells(&self, words: &[String]) -> Result<Vec<Cell>, SighError> {
        let cells: Vec<Cell> = words
            .iter()
            .map(|w| self.cell(w))
            .collect::<Result<_, _>>()?;
        if cells.is_empty() {
            return Err(self.invalid("no cells"));
        }
        Ok(cells)
    }

    /// A whole number.
    pub fn number(&self, word: Option<&String>) -> Result<u32, SighError> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| {
            self.invalid(format!(
                "expected a number, found {:?}",
                word.map_or("nothing", |w| w)
            ))
        })
    }

    /// The orthogonally neighbouring pairs among the cells, as sigh's dots
    /// take them (each pair once, in the order the cells come); a cell
    /// with no neighbour among them is an error, as in sigh.
    pub fn neighbour_pairs(&self) -> Result<Vec<[Cell; 2]>, SighError> {
        let cells = self.cells(self.args)?;
        if cells.iter().any(|c| c.extra().is_some()) {
            // sigh lays a group out in rows and lets its dots join cells
            // side by side there.
            return Err(self.differs(
                "a dot on cells outside the grid, which sigh places side by side in rows and \
                 z3doku beside no cell",
            ));
        }
        if let Some(alone) = cells.iter().find(|&&a| !cells.iter().any(|&b| a.beside(b))) {
            return Err(self.invalid(format!("{alone} has no neighbour among the cells")));
        }
        let mut pairs = Vec::new();
        for (k, &a) in cells.iter().enumerate() {
            for &b in &cells[k + 1..] {
                if a.beside(b) {
                    pairs.push([a, b]);
                }
            }
        }
        Ok(pairs)
    }

    /// Whether a `Pair` or `PairX` group's key (its first argument) is
    /// exactly `relation` on this board.
    pub fn relation_is(&self, relation: Relation) -> bool {
        let side = self.size.values();
        let Some(table) = self.args.first().and_then(|key| key_table(key, side)) else {
            return false;
        };
        (1..=side as u8).all(|a| {
            (1..=side as u8).all(|b| {
                table[usize::from(a - 1) * side + usize::from(b - 1)] == relation.allows(a, b)
            })
        })
    }
}

/// What a rule is in a sigh string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToSigh {
    /// The item, `.Type~args`.
    Item(String),
    /// Written with the givens or the regions, not as an item of its own.
    Elsewhere,
    /// sigh's strings cannot say it with z3doku's meaning, because of this.
    Cannot(&'static str),
}

/// Why most rules are [`ToSigh::Cannot`].
pub const NO_SUCH_RULE: &str = "sigh has no such rule, or states it otherwise";

/// The puzzle a rule is written into: some rules' items depend on the
/// others (sigh's strict Kropki says two of them at once).
pub struct SighBoard<'a> {
    /// The board.
    pub size: Size,
    /// Every constraint of the puzzle.
    pub constraints: &'a [Constraint],
}

/// sigh's boxes of `cells` cells on a board of `size` (its
/// `boxDimsForSize`, as a `RegionSize` asks for them): each cell's box,
/// numbered across and then down, or `None` when no boxes of that many
/// cells tile the board. Boxes are `small` rows by `cells / small`
/// columns, or the other way up, for the largest `small` from the square
/// root down to 2 that fits.
pub fn boxes_of(size: Size, cells: usize) -> Option<Vec<usize>> {
    let (rows, cols) = (size.rows(), size.cols());
    let (height, width) = (2..=cells.isqrt()).rev().find_map(|small| {
        let large = cells / small;
        match cells % small {
            0 if rows % small == 0 && cols % large == 0 => Some((small, large)),
            0 if large != small && rows % large == 0 && cols % small == 0 => Some((large, small)),
            _ => None,
        }
    })?;
    let across = cols / width;
    Some(
        (0..size.cells())
            .map(|c| (c / cols) / height * across + (c % cols) / width)
            .collect(),
    )
}

/// A cell id: `R`, the row in base 17, `C`, the column in base 17.
pub fn cell(word: &str, size: Size) -> Option<Cell> {
    let bytes = word.as_bytes();
    if bytes.len() != 4 || !matches!(bytes[0], b'R' | b'r') || !matches!(bytes[2], b'C' | b'c') {
        return None;
    }
    let place = |b: u8, count: usize| {
        let n = char::from(b).to_digit(17)? as usize;
        (1..=count).contains(&n).then(|| n - 1)
    };
    Some(size.cell(place(bytes[1], size.rows())?, place(bytes[3], size.cols())?))
}

/// A cell as sigh names it: `R`, the row in base 17, `C`, the column. A
/// cell outside the grid is named by its group, which only the whole
/// puzzle knows: here it is a mark that [`write::to_sigh`] replaces
/// ([`EXTRA_MARK`] around its number).
pub fn id(cell: Cell) -> String {
    if let Some(n) = cell.extra() {
        return format!("{EXTRA_MARK}{n}{EXTRA_MARK}");
    }
    let place = |n: usize| char::from_digit(n as u32 + 1, 17).unwrap_or('?');
    format!("R{}C{}", place(cell.row()), place(cell.col()))
}

/// What stands around a cell outside the grid's number until the string
/// names it: a character no sigh string holds.
const EXTRA_MARK: char = '\u{1}';

/// Cells joined as sigh's arguments, each after a `~`.
pub fn ids(cells: &[Cell]) -> String {
    cells.iter().map(|&c| format!("~{}", id(c))).collect()
}

/// Whether `text` reads as sigh input rather than a grid: a link with a
/// `q=` query, or a string of `.Type~args` items. A grid line never holds
/// `~`, and its dots separate single characters, never sigh's type names,
/// so neither is mistaken for the other.
pub fn is_sigh(text: &str) -> bool {
    let text = text.trim();
    link_query(text).is_some() || looks_like_string(&compact(text))
}

/// The text without `#` comment lines and without blanks, which sigh
/// ignores.
fn compact(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(|line| line.chars().filter(|c| !c.is_whitespace()))
        .collect()
}

/// Whether compacted text is a sigh string.
fn looks_like_string(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('.') else {
        return false;
    };
    if text.contains('~') {
        return true;
    }
    let items: Vec<&str> = rest.split('.').collect();
    items.iter().any(|item| !item.is_empty())
        && items.iter().all(|item| item.is_empty() || is_type(item))
}

/// Whether sigh has a constraint type of this name.
fn is_type(kind: &str) -> bool {
    SIGH_TYPES.contains(&kind) || super::kinds::readers_of_sigh(kind).next().is_some()
}

/// The `q` parameter of an http(s) link, still escaped.
fn link_query(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let query = &rest[rest.find('?')? + 1..];
    let query = query.split('#').next().unwrap_or(query);
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("q="))
        // f-puzzles and SudokuPad links carry their own keys.
        .filter(|_| !rest.starts_with("f-puzzles.com") && !rest.starts_with("sudokupad.app"))
}

/// A query value unescaped: `%XX` to its byte, `+` to a blank (which sigh
/// ignores, as URLSearchParams reads it).
fn unescape(text: &str) -> Result<String, SighError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'%' => {
                let byte = bytes
                    .get(k + 1..k + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| SighError::Invalid {
                        item: "q".into(),
                        problem: format!("a bad %-escape at character {}", k + 1),
                    })?;
                out.push(byte);
                k += 3;
            }
            b'+' => {
                out.push(b' ');
                k += 1;
            }
            byte => {
                out.push(byte);
                k += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| SighError::Invalid {
        item: "q".into(),
        problem: "escapes that are not UTF-8".into(),
    })
}

/// The characters of sigh's 6-bit keys (URL-safe base64, RFC 4648 §5).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// sigh's key for a relation between two digits of `1..=side`: bit
/// `(a - 1) * side + (b - 1)` says whether `(a, b)` is allowed, six bits a
/// character, trailing empty characters left out.
pub fn relation_key(side: usize, allows: impl Fn(u8, u8) -> bool) -> String {
    let mut words = vec![0u8; (side * side).div_ceil(6)];
    for a in 1..=side {
        for b in 1..=side {
            if allows(a as u8, b as u8) {
                let k = (a - 1) * side + (b - 1);
                words[k / 6] |= 1 << (k % 6);
            }
        }
    }
    while words.last() == Some(&0) {
        words.pop();
    }
    words
        .iter()
        .map(|&w| char::from(BASE64[usize::from(w)]))
        .collect()
}

/// Bytes as sigh's `Base64Codec` writes them: base64 with the URL-safe
/// letters and no padding (how it writes a regular expression's pattern
/// and a state machine).
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let byte = |k: usize| u32::from(chunk.get(k).copied().unwrap_or(0));
        let n = byte(0) << 16 | byte(1) << 8 | byte(2);
        for k in 0..=chunk.len() {
            out.push(char::from(BASE64[(n >> (18 - 6 * k) & 63) as usize]));
        }
    }
    out
}

/// What [`base64_encode`] wrote (the standard letters `+` and `/`, and
/// padding, are taken too, as sigh's reader takes them); `None` for
/// another character.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let (mut bits, mut count) = (0u32, 0);
    let mut out = Vec::new();
    for c in text.bytes() {
        let value = match c {
            b'+' => 62,
            b'/' => 63,
            b'=' => continue,
            c => BASE64.iter().position(|&b| b == c)? as u32,
        };
        bits = (bits << 6 | value) & 0xffff;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count & 0xff) as u8);
        }
    }
    Some(out)
}

/// The allowed pairs a key says, as a `side`×`side` table, or `None` when
/// it holds a character that is not base64 or bits past the table.
fn key_table(key: &str, side: usize) -> Option<Vec<bool>> {
    let mut bits = vec![false; side * side];
    for (w, c) in key.bytes().enumerate() {
        let value = BASE64.iter().position(|&b| b == c)?;
        for bit in 0..6 {
            if value >> bit & 1 == 1 {
                *bits.get_mut(w * 6 + bit)? = true;
            }
        }
    }
    Some(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_links_are_told_from_grids() {
        assert!(is_sigh(".~R1C1_5.Thermo~R1C1~R1C2"));
        assert!(is_sigh(".AntiKnight.AntiKing"));
        assert!(is_sigh("  .Diagonal~1\n"));
        assert!(is_sigh(
            "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.AntiKnight"
        ));
        assert!(!is_sigh(&".".repeat(81)));
        assert!(!is_sigh(&format!(".AB{}", ".".repeat(253))));
        assert!(!is_sigh("https://f-puzzles.com/?load=N4IgzglgXgpiBcB2ANC"));
        assert!(!is_sigh(".2.4\n...."));
    }

    #[test]
    fn each_sigh_type_has_one_reader() {
        // `Pair` and `PairX` are split into groups here and offered to
        // every kind that lists them; any other type is one kind's.
        use crate::puzzle::kinds::READERS;
        for kind in READERS.iter().flat_map(|r| r.sigh.iter()) {
            if *kind == "Pair" || *kind == "PairX" {
                assert!(SIGH_TYPES.contains(kind));
                continue;
            }
            assert!(!SIGH_TYPES.contains(kind), "{kind} is read twice");
            assert_eq!(
                super::super::kinds::readers_of_sigh(kind).count(),
                1,
                "{kind}"
            );
        }
    }

    #[test]
    fn keys_follow_sighs_bit_order() {
        // sigh's AntiConsecutive key on 4x4 (from its fnToBinaryKey): a
        // and b not consecutive.
        let key = relation_key(4, |a, b| a.abs_diff(b) != 1);
        let table = key_table(&key, 4).unwrap_or_default();
        for a in 1..=4u8 {
            for b in 1..=4u8 {
                let k = usize::from(a - 1) * 4 + usize::from(b - 1);
                assert_eq!(table[k], a.abs_diff(b) != 1, "{a} {b}");
            }
        }
        assert_eq!(key, "tWL");
        // 9x9 a <= b (a slow thermometer), as sigh's fnToBinaryKey makes it.
        assert_eq!(relation_key(9, |a, b| a <= b), "_3_8H_wH8AHwAE");
        assert_eq!(key_table("!", 9), None);
    }

    fn rules_of(text: &str) -> Result<Vec<String>, String> {
        let puzzle = parse(text).map_err(|e| e.to_string())?;
        Ok(puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect())
    }

    #[test]
    fn givens_and_candidates_read_as_clues_and_cell_rules() {
        let puzzle = parse(".~R1C1_5~R1C2_1_3_5_7_9~R1C3_2_4~R1C4_2_4_6_8~R1C3_4_6")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(puzzle.givens().get(0), 5);
        // r1c3: {2, 4} ∩ {4, 6} is a given 4, as sigh merges them.
        assert_eq!(puzzle.givens().get(2), 4);
        let rules: Vec<String> = puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(rules, ["r1c2 is odd", "r1c4 is even"]);
    }

    #[test]
    fn cells_are_base_17_and_shapes_set_the_board() {
        let puzzle = parse(".Shape~16x16.~RgCg_16~RaC1_10").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(puzzle.size().side(), 16);
        assert_eq!(puzzle.givens().get(255), 16);
        assert_eq!(puzzle.givens().get(9 * 16), 10);
        assert_eq!(
            parse(".Shape~6x6.~R7C1_1")
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("`.~R7C1_1`: `R7C1` is not a cell of the 6x6 board")
        );
        let rectangle = parse(".Shape~6x9.~R6C9_3").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rectangle.size().to_string(), "6x9");
        assert_eq!(rectangle.givens().get(53), 3);
        assert!(parse(".Shape~6x9.~R7C1_1").is_err());
        assert!(parse(".Shape~9x6.~R7C1_1").is_ok());
        assert!(parse(".Shape~9x9~0-9").is_ok());
    }

    #[test]
    fn shapes_give_the_values_as_sigh_reads_them() {
        // sigh's forms of the usual range, and values from 0.
        for spec in ["9x9", "9x9~9", "9x9~1-9", "9x9~~Sudoku", "9x9~1-9~Sudoku"] {
            let puzzle = parse(&format!(".Shape~{spec}.~R1C1_9")).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(puzzle.rules().lowest_value(), 1, "{spec}");
            assert_eq!(puzzle.givens().get(0), 9, "{spec}");
        }
        let zero = parse(".Shape~6x6~0-5.~R1C1_0~R1C2_5").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(zero.rules().lowest_value(), 0);
        // Solved on 1 to N, written as the values.
        assert_eq!(&zero.givens().to_line()[..2], "16");
        assert_eq!(&zero.rules().value_line(zero.givens())[..3], "05.");
        assert_eq!(
            to_sigh(&zero).as_deref(),
            Ok(".Shape~6x6~0-5.~R1C1_0~R1C2_5")
        );
        // More values than a row has cells: read, and written back so.
        for spec in ["9x9~10", "9x9~0-9", "6x6~0-6", "4x4~16"] {
            let text = format!(".Shape~{spec}");
            let more = parse(&text).unwrap_or_else(|e| panic!("{e}"));
            assert!(!more.size().lines_full(), "{spec}");
            assert!(!more.rules().is_classic(), "{spec}");
            assert_eq!(to_sigh(&more).as_deref(), Ok(text.as_str()));
        }
        let nine = parse(".Shape~9x9~0-8").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(to_sigh(&nine).as_deref(), Ok(".Shape~9x9~0-8"));
        assert!(!nine.rules().is_classic());
        // What sigh has and z3doku does not, each refused by name.
        let refused = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused(".Shape~9x9~17").contains("values 17"));
        assert!(refused(".Shape~9x9~10.Entropic~R1C1~R1C2~R1C3").contains("has 10"));
        assert!(refused(".Shape~4x6.Diagonal~1").contains("diagonal+"));
        assert!(refused(".Shape~6x9.Windoku").contains("square boards, and this one is 6x9"));
        assert!(refused(".Shape~9x9~~Hex").contains("grid types are `Sudoku` and `Raw`"));
        assert!(refused(".Shape~9x9~0~Raw").contains("at least 1"));
        assert!(refused(".Shape~9x9~2-10").contains("values 2-10"));
        assert!(refused(".Shape~9x9~8").contains("values 8"));
        assert!(refused(".Shape~9x9~0-8.~R1C1_9").contains("values 0-8"));
        assert!(refused(".Shape~9x9~0-8.BlackDot~R1C1~R1C2").contains("reads what the values are"));
        // Rules that read what the values are, restated on the digits:
        // written back as stated.
        let cage = parse(".Shape~4x4~0-3.Cage~1~R1C1~R1C2").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            cage.rules().constraints()[0].to_string(),
            "cage 1 (r1c1 r1c2)"
        );
        assert_eq!(
            to_sigh(&cage).as_deref(),
            Ok(".Shape~4x4~0-3.Cage~1~R1C1~R1C2")
        );
        // Rules that read only how digits compare are kept, and mean the
        // same shifted.
        let kept = parse(".Shape~4x4~0-3.Thermo~R1C1~R1C2.Whisper~2~R2C1~R2C2.AntiKnight")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(kept.rules().constraints().len(), 3);
    }

    #[test]
    fn raw_grids_have_only_their_rules() {
        for (spec, values, lowest) in [
            ("9x9~~Raw", 9, 1),
            ("9x9~2~Raw", 2, 1),
            ("4x6~0-2~Raw", 3, 0),
            ("3x3~12~Raw", 12, 1),
        ] {
            let text = format!(".Shape~{spec}");
            let raw = parse(&text).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let size = raw.size();
            assert!(size.is_raw() && !raw.rules().is_classic(), "{spec}");
            assert_eq!(
                (size.values(), raw.rules().lowest_value()),
                (values, lowest)
            );
            assert!(raw.rules().houses().is_empty(), "{spec}");
            assert_eq!(to_sigh(&raw).as_deref(), Ok(text.as_str()));
        }
        let two = parse(".Shape~9x9~1-2~Raw.~R1C1_2.Thermo~R2C1~R2C2.Cage~3~R3C1~R3C2")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(two.rules().constraints().len(), 2);
        // Written as sigh writes a range from 1: by its count.
        assert_eq!(
            to_sigh(&two).as_deref(),
            Ok(".Shape~9x9~2~Raw.~R1C1_2.Thermo~R2C1~R2C2.Cage~3~R3C1~R3C2")
        );
        // sigh's kinds for Sudoku grids, refused as sigh refuses them, and
        // a value past the range.
        let refused = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
        for kind in [
            "AntiKnight",
            "NoBoxes",
            "Windoku",
            "Sandwich~10~R1",
            "DisjointSets",
        ] {
            let message = refused(&format!(".Shape~9x9~~Raw.{kind}"));
            assert!(
                message.contains("Sudoku grids only, and this is a Raw grid"),
                "{message}"
            );
        }
        assert!(refused(".Shape~9x9~1-2~Raw.~R1C1_3").contains("R1C1_3"));
        let dutch = refused(".Shape~9x9~~Raw.DutchFlatmates");
        assert!(dutch.contains("a Raw grid has none"), "{dutch}");
        let few = refused(".Shape~9x9~1-4~Raw.Lunchbox~3~R1C1~R1C2~R1C3~R1C4");
        assert!(
            few.contains("values run from 1 to the longer side (9)"),
            "{few}"
        );
    }

    #[test]
    fn links_carry_the_string_in_q() {
        let link = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.~R1C1_5.Thermo%7ER1C2~R1C3&mode=all";
        assert_eq!(
            rules_of(link).as_deref(),
            Ok(&["thermo r1c2→r1c3".to_string()][..])
        );
        let plain = format!(
            "https://sigh.github.io/Interactive-Sudoku-Solver/?q={}",
            "5".to_string() + &".".repeat(80)
        );
        assert_eq!(parse(&plain).map(|p| p.givens().get(0)), Ok(5));
    }

    #[test]
    fn what_z3doku_lacks_is_named_never_skipped() {
        let error = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
        // Connected values over a group of sigh's `Var` cells, or over
        // its chaos construction's region cells, which z3doku's rule does
        // not take.
        assert!(
            error(".ConnectedValues~CC~1_2")
                .starts_with("sigh's `ConnectedValues`: the cell group `CC`")
        );
        assert!(
            error(".Var~A~~4.ConnectedValues~VA~1_2")
                .starts_with("sigh's `ConnectedValues`: the cell group `VA`")
        );
        assert!(
            error(".Or.ConnectedValues~~1_2_3_4_5.X~R1C1~R1C2.End")
                .contains("connected values 1 2 3 4 5: a rule read along its line by an automaton, or one over connected regions, cannot be one branch")
        );
        assert_eq!(
            error(".Thermoo~R1C1~R1C2"),
            "`.Thermoo~R1C1~R1C2`: `Thermoo` is not a sigh constraint"
        );
        assert!(
            error(".AntiConsecutive.WhiteDot~R1C1~R1C2")
                .starts_with("sigh's `AntiConsecutive`: beside dots")
        );
        assert!(error(".Modular~0~R1C1~R1C2").contains("modulus is at least 1"));
        // sigh keeps whole-board rules out of its composites, and so does
        // z3doku.
        assert!(error(".Or.AntiKnight.AntiKing.End").starts_with("sigh's `AntiKnight`: inside"));
        assert!(error(".Or.Thermo~R1C1~R1C2").contains("no End"));
        assert!(error(".X~R1C1~R1C2.End").contains("an End with no Or"));
        // What sigh refuses in a `Replicate`, and copies it cannot make.
        assert!(
            error(".Replicate~B.Skyscraper~R1~3~.End")
                .contains("sigh allows no Skyscraper inside a Replicate")
        );
        assert!(error(".Replicate~C.Thermo~R1C8~R1C9.End").contains("leaves the board"));
        assert!(error(".Replicate~B.Thermo~R1C1~R1C2").contains("no End closes it"));
        assert!(
            error(".Replicate~B.SumLine~10~R1C1~R1C2~R2C2~R2C1~LOOP.End")
                .contains("`LOOP` of its `.SumLine")
        );
        assert!(error(".Replicate~B*.X~R1C1~R1C2.End").contains("not a base64 digit"));
        assert!(error(".Replicate~AAAAAAAAAAAAAI.X~R1C1~R1C2.End").contains("past the last cell"));
        assert!(
            error(".Or.Container.X~R1C1~R1C2.End.V~R1C1~R1C2.End")
                .contains("no Container inside an Or")
        );
        assert!(error(&".Or".repeat(100_000)).contains("at most 8 deep"));
        let sum_of_three = relation_key(9, |a, b| (a + b) % 3 == 0);
        assert!(
            error(&format!(".Pair~{sum_of_three}~R1C1~R1C2"))
                .starts_with("sigh's `Pair`: the relation")
        );
        assert!(error(".DisjointSets.NoBoxes").starts_with("sigh's `DisjointSets`"));
    }

    #[test]
    fn a_search_priority_changes_nothing_and_is_checked() {
        let plain = parse(".~R1C1_5.Thermo~R2C2~R2C3").unwrap();
        let hinted =
            parse(".SearchPriority~2~R1C1~R9C9.~R1C1_5.SearchPriority~-1.Thermo~R2C2~R2C3");
        assert_eq!(hinted, Ok(plain));
        let error = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error(".SearchPriority~x~R1C1").contains("a priority of \"x\""));
        assert!(error(".SearchPriority~2~R1CZ").contains("`R1CZ` is not a cell"));
        assert!(error(".SearchPriority").contains("expected a priority"));
    }

    #[test]
    fn composites_sum_lines_and_ranks_read_and_write_back() {
        let text = ".Or.Thermo~R1C1~R1C2.And.X~R3C3~R3C4.~R5C5_1_2.End.Or.V~R1C1~R1C2.~R2C2_3.End.End\
                    .And.SumLine~10~R4C1~R4C2~R4C3.End.SumLine~12~R6C1~R6C2~R7C2~R7C1~LOOP\
                    .FullRank~R1~5~.FullRank~C3~~30.FullRankTies~any.RegionSameValues";
        assert_eq!(
            rules_of(text).as_deref(),
            Ok(&[
                "either thermo r1c1→r1c2 || X (r3c3 r3c4) && r5c5 is one of 1 2 || \
                 [either V (r1c1 r1c2) || r2c2 is one of 3]"
                    .to_string(),
                "sum line 10 r4c1→r4c2→r4c3".to_string(),
                "sum line 12 loop r6c1→r6c2→r7c2→r7c1".to_string(),
                "full rank 5 with ties (row 1 from the left)".to_string(),
                "full rank 30 with ties (column 3 from the bottom)".to_string(),
            ][..])
        );
        let puzzle = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse(&written), Ok(puzzle), "{written}");
    }

    #[test]
    fn full_rank_without_ties_reads_and_writes_back() {
        assert_eq!(
            rules_of(".FullRankTies~none").as_deref(),
            Ok(&["full rank without ties".to_string()][..])
        );
        let text = ".FullRank~R1~5~.FullRankTies~none";
        assert_eq!(
            rules_of(text).as_deref(),
            Ok(&[
                "full rank 5 (row 1 from the left)".to_string(),
                "full rank without ties".to_string(),
            ][..])
        );
        let puzzle = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse(&written), Ok(puzzle), "{written}");
        // As in sigh, the last option says.
        assert_eq!(
            rules_of(".FullRank~R1~5~.FullRankTies~none.FullRankTies~any").as_deref(),
            Ok(&["full rank 5 with ties (row 1 from the left)".to_string()][..])
        );
        assert!(parse(".FullRankTies~some").is_err());
    }

    #[test]
    fn replicate_copies_its_children_onto_each_target() {
        // `C` is bit 1 (the cell after the origin), `Q` bit 4 of the
        // second six (10 after it): R1C2 and R2C2. The origin itself is
        // not a target unless its bit is set.
        let text = ".Replicate~CQ.Thermo~R1C1~R1C2~R1C3.~R1C1_5.End";
        assert_eq!(
            rules_of(text).as_deref(),
            Ok(&[
                "thermo r1c2→r1c3→r1c4".to_string(),
                "thermo r2c2→r2c3→r2c4".to_string(),
            ][..])
        );
        let puzzle = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(puzzle.givens().to_line().find('5'), Some(1));
        assert_eq!(puzzle.givens().clues().count(), 2);
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse(&written), Ok(puzzle), "{written}");
        // Bit 0 is the origin (R5C5 here): the cage stays; bit 7 is 7
        // cells on in reading order, R6C3, one row down and two left.
        assert_eq!(
            rules_of(".Replicate~BC~R5C5.Cage~10~R5C5~R5C6.End").as_deref(),
            Ok(&[
                "cage 10 (r5c5 r5c6)".to_string(),
                "cage 10 (r6c3 r6c4)".to_string(),
            ][..])
        );
        // A nested Replicate shifts what the outer one shifted; a key,
        // a sum and a group name stay as they are.
        assert_eq!(
            rules_of(".Replicate~C.Replicate~C.X~R1C1~R2C1.Whisper~5~R4C4~R4C5.End.End").as_deref(),
            Ok(&[
                "X (r1c3 r2c3)".to_string(),
                "whispers 5 r4c6→r4c7".to_string(),
            ][..])
        );
        // One item that makes several rules is one branch of an Or, as
        // sigh joins them in an And.
        assert_eq!(
            rules_of(".Or.~R1C1_1~R1C2_2.~R1C1_3.End").as_deref(),
            Ok(
                &["either r1c1 is one of 1 && r1c2 is one of 2 || r1c1 is one of 3".to_string()][..]
            )
        );
        // Inside an Or the copies are one branch.
        assert_eq!(
            rules_of(".Or.Replicate~D.~R1C1_1.End.~R1C1_3.End").as_deref(),
            Ok(
                &["either r1c1 is one of 1 && r1c2 is one of 1 || r1c1 is one of 3".to_string()][..]
            )
        );
        // No targets, or no children: nothing.
        assert_eq!(
            rules_of(".Replicate.End.Replicate~B.End").as_deref(),
            Ok(&[][..])
        );
        // A Container only groups.
        assert_eq!(
            rules_of(".Container.Thermo~R1C1~R1C2.Container.X~R3C3~R3C4.End.End").as_deref(),
            Ok(&["thermo r1c1→r1c2".to_string(), "X (r3c3 r3c4)".to_string()][..])
        );
    }

    #[test]
    fn pairs_that_are_z3doku_rules_read_as_them() {
        let at_most = relation_key(9, |a, b| a <= b);
        let apart = relation_key(9, |a, b| a.abs_diff(b) >= 2);
        let three = relation_key(9, |a, b| a.abs_diff(b) == 3);
        let parity = relation_key(9, |a, b| (a + b) % 2 == 1);
        let text = format!(
            ".Pair~{at_most}~R1C1~R1C2~R1C3.PairX~{apart}~_name~R2C1~R2C2.Pair~{three}~R3C1~R3C2~~R4C1~R4C2\
             .Pair~{parity}~R5C1~R5C2~R6C2.Modular~4~R7C1~R7C2"
        );
        assert_eq!(
            rules_of(&text).as_deref(),
            Ok(&[
                "slow thermo r1c1→r1c2→r1c3".to_string(),
                "nabner r2c1→r2c2".into(),
                "white dot 3 (r3c1 r3c2)".into(),
                "white dot 3 (r4c1 r4c2)".into(),
                "parity line r5c1→r5c2→r6c2".into(),
                "modular line 4 r7c1→r7c2".into(),
            ][..])
        );
    }

    #[test]
    fn what_sigh_cannot_say_is_refused_by_name() {
        use crate::puzzle::Puzzle;
        use crate::puzzle::grid::{Grid, Size};
        use crate::puzzle::rule_text::read_rules;
        use crate::puzzle::rules::Rules;
        let write = |size: Size, text: &str| {
            let mut builder = Rules::builder(size);
            let lines: Vec<(usize, &str)> =
                text.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
            read_rules(&lines, size, &mut builder).unwrap_or_else(|e| panic!("{e}"));
            let rules = builder.build().unwrap_or_else(|e| panic!("{e}"));
            to_sigh(&Puzzle::new(Grid::empty(size), rules)).map_err(|e| e.to_string())
        };
        assert_eq!(
            write(Size::NINE, "cage DR5 (r6c6 r6c7)").err().as_deref(),
            Some(
                "cage DR5 (r6c6 r6c7): a sigh string cannot say it (sigh has no such rule, or states it otherwise)"
            )
        );
        assert!(write(Size::NINE, "nonconsecutive\nwhite dot 1 (r1c1 r1c2)").is_err());
        assert_eq!(
            write(
                Size::NINE,
                "nonconsecutive\nnegative ratio\nwhite dot 1 (r1c1 r1c2)"
            )
            .as_deref(),
            Ok(".StrictKropki.WhiteDot~R1C1~R1C2")
        );
        assert!(write(Size::from_side(25).unwrap_or_default(), "anti-knight").is_err());
        assert_eq!(
            write(
                Size::from_side(16).unwrap_or_default(),
                "thermo r16c16 r15c16"
            )
            .as_deref(),
            Ok(".Shape~16x16.Thermo~RgCg~RfCg")
        );
    }
}
