//! Variant rules written by hand: a grid in any text form, then one rule
//! per line.
//!
//! ```text
//! ....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....
//! killer 15 r1c1 r1c2 r2c1
//! thermo r3c1 r3c2 r3c3
//! diagonal+
//! antiknight
//! ```
//!
//! Each rule line starts with the rule's name, in the words z3doku uses
//! when it names the rule in a message (`cage 15 (r1c1 r1c2 r2c1)`,
//! `thermo r3c1→r3c4`, `white dot 1 (r1c4 r1c5)`, `sandwich 13 (row 1)`)
//! or as the f-puzzles key (`killercage`, `thermometer`, `difference`,
//! `sandwichsum`), so that whatever z3doku prints of a rule reads back as
//! that rule. Arrows, commas and brackets between cells are optional. The
//! full list is in the README.

use super::constraint::{Constraint, Indexer, Outside};
use super::grid::{Cell, Size, char_digit};
use super::rules::{Diagonal, RuleError, RulesBuilder};
use thiserror::Error;

/// Why a rule line could not be read. Prints as `line 3: …`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct RuleTextError {
    /// The line, counted from 1 in the whole input.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Rule names, longest first, each with the kind it names.
const NAMES: &[(&str, Kind)] = &[
    ("region sum line", Kind::RegionSum),
    ("between line", Kind::Between),
    ("entropic line", Kind::Entropic),
    ("modular line", Kind::Modular),
    ("zipper line", Kind::Zipper),
    ("row indexer", Kind::Indexer(Indexer::Row)),
    ("column indexer", Kind::Indexer(Indexer::Column)),
    ("box indexer", Kind::Indexer(Indexer::Box)),
    ("slow thermo", Kind::SlowThermo),
    ("little killer", Kind::LittleKiller),
    ("double arrow", Kind::DoubleArrow),
    ("white dot", Kind::White),
    ("black dot", Kind::Black),
    ("extra region", Kind::ExtraRegion),
    ("negative ratio", Kind::NegativeRatio),
    ("negative xv", Kind::NegativeXv),
    ("disjoint groups", Kind::DisjointGroups),
    ("killercage", Kind::Cage),
    ("killer", Kind::Cage),
    ("cage", Kind::Cage),
    ("thermometer", Kind::Thermo),
    ("thermo", Kind::Thermo),
    ("slowthermometer", Kind::SlowThermo),
    ("slowthermo", Kind::SlowThermo),
    ("anti-knight", Kind::AntiKnight),
    ("antiknight", Kind::AntiKnight),
    ("anti-king", Kind::AntiKing),
    ("antiking", Kind::AntiKing),
    ("nonconsecutive", Kind::NonConsecutive),
    ("diagonal+", Kind::Diagonal(Diagonal::Rising)),
    ("diagonal-", Kind::Diagonal(Diagonal::Falling)),
    ("disjointgroups", Kind::DisjointGroups),
    ("littlekillersum", Kind::LittleKiller),
    ("littlekiller", Kind::LittleKiller),
    ("sandwichsum", Kind::Sandwich),
    ("sandwich", Kind::Sandwich),
    ("xsum", Kind::XSum),
    ("x-sum", Kind::XSum),
    ("skyscraper", Kind::Skyscraper),
    ("arrow", Kind::Arrow),
    ("palindrome", Kind::Palindrome),
    ("renban", Kind::Renban),
    ("whispers", Kind::Whispers),
    ("regionsumline", Kind::RegionSum),
    ("betweenline", Kind::Between),
    ("entropicline", Kind::Entropic),
    ("modularline", Kind::Modular),
    ("zipperline", Kind::Zipper),
    ("doublearrow", Kind::DoubleArrow),
    ("difference", Kind::White),
    ("ratio", Kind::Black),
    ("xv", Kind::Xv),
    ("x", Kind::X),
    ("v", Kind::V),
    ("clone", Kind::Clone),
    ("quadruple", Kind::Quadruple),
    ("rowindexer", Kind::Indexer(Indexer::Row)),
    ("columnindexer", Kind::Indexer(Indexer::Column)),
    ("boxindexer", Kind::Indexer(Indexer::Box)),
    ("extraregion", Kind::ExtraRegion),
    ("odd", Kind::Odd),
    ("even", Kind::Even),
    ("minimum", Kind::Minimum),
    ("maximum", Kind::Maximum),
    ("allowed", Kind::Allowed),
    ("regions", Kind::Regions),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Cage,
    Thermo,
    SlowThermo,
    AntiKnight,
    AntiKing,
    NonConsecutive,
    NegativeRatio,
    NegativeXv,
    Diagonal(Diagonal),
    DisjointGroups,
    LittleKiller,
    Sandwich,
    XSum,
    Skyscraper,
    Arrow,
    Palindrome,
    Renban,
    Whispers,
    RegionSum,
    Between,
    Entropic,
    Modular,
    Zipper,
    DoubleArrow,
    White,
    Black,
    Xv,
    X,
    V,
    Clone,
    Quadruple,
    Indexer(Indexer),
    ExtraRegion,
    Odd,
    Even,
    Minimum,
    Maximum,
    Allowed,
    Regions,
}

/// The words of a line: lower case, with arrows, commas and brackets
/// between cells turned into spaces, and `(`, `)` and `=` kept as words of
/// their own.
fn words(line: &str) -> Vec<String> {
    let spaced: String = line
        .to_lowercase()
        .chars()
        .flat_map(|c| match c {
            '→' | ',' | ';' | '>' => vec![' '],
            '(' | ')' | '=' => vec![' ', c, ' '],
            c => vec![c],
        })
        .collect();
    spaced.split_whitespace().map(str::to_string).collect()
}

/// The kind a line names and the words after the name, when it starts with
/// a rule's name.
fn kind_of(words: &[String]) -> Option<(Kind, &[String])> {
    // `r2c2 is one of 1 3 5`, `r1c1 is odd`: the cell comes first.
    if words.len() >= 3 && words[1] == "is" && cell_word(&words[0]).is_some() {
        return Some((Kind::Allowed, words));
    }
    NAMES.iter().find_map(|(name, kind)| {
        let name: Vec<&str> = name.split(' ').collect();
        let matches = words.len() >= name.len() && words.iter().zip(&name).all(|(w, n)| w == n);
        // `x` and `v` name a mark only when a cell follows.
        let single = matches!(kind, Kind::X | Kind::V);
        (matches
            && (!single
                || words
                    .get(1)
                    .is_some_and(|w| cell_word(w).is_some() || w == "(")))
        .then(|| (*kind, &words[name.len()..]))
    })
}

/// Whether `line` is a rule line rather than part of a grid.
pub fn is_rule_line(line: &str) -> bool {
    kind_of(&words(line)).is_some()
}

/// `(row, column)`, 0-based, of a word `r{row}c{col}`; the rim (row or
/// column 0 or side + 1) comes out as -1 or side.
fn cell_word(word: &str) -> Option<(isize, isize)> {
    let (r, c) = word.strip_prefix('r')?.split_once('c')?;
    Some((r.parse::<isize>().ok()? - 1, c.parse::<isize>().ok()? - 1))
}

/// Splits `text` into its grid and its rule lines: the rules start at the
/// first line that names a rule. Each rule line comes with its number.
pub fn split(text: &str) -> (String, Vec<(usize, &str)>) {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| is_rule_line(l))
        .unwrap_or(lines.len());
    let grid = lines[..first].join("\n");
    let rules = lines
        .iter()
        .enumerate()
        .skip(first)
        .map(|(k, l)| (k + 1, *l))
        .collect();
    (grid, rules)
}

/// Reads rule lines (`(line number, text)`) into `builder`'s rules for a
/// board of `size`. Blank lines and `#` comments are skipped; any other
/// line that does not name a rule is an error.
pub fn read_rules(
    lines: &[(usize, &str)],
    size: Size,
    builder: &mut RulesBuilder,
) -> Result<(), RuleTextError> {
    for &(line, text) in lines {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fail = |problem: String| RuleTextError { line, problem };
        let words = words(trimmed);
        let (kind, rest) = kind_of(&words).ok_or_else(|| {
            fail(format!(
                "{trimmed:?} is neither a grid line nor a rule z3doku knows"
            ))
        })?;
        let rule = |e: RuleError| fail(e.to_string());
        match rule_of(kind, rest, size).map_err(fail)? {
            Read::Constraint(constraint) => {
                builder.constraint(constraint).map_err(rule)?;
            }
            Read::Constraints(constraints) => {
                for constraint in constraints {
                    builder.constraint(constraint).map_err(rule)?;
                }
            }
            Read::Diagonal(diagonal) => {
                builder.diagonal(diagonal);
            }
            Read::DisjointGroups => {
                builder.disjoint_groups();
            }
            Read::Regions(regions) => {
                builder.regions(regions).map_err(rule)?;
            }
        }
    }
    Ok(())
}

/// What a rule line adds.
enum Read {
    Constraint(Constraint),
    Constraints(Vec<Constraint>),
    Diagonal(Diagonal),
    DisjointGroups,
    Regions(Vec<Option<usize>>),
}

/// The rule of `kind` from the words after its name.
fn rule_of(kind: Kind, rest: &[String], size: Size) -> Result<Read, String> {
    let side = size.side() as isize;
    let on_board = |(r, c): (isize, isize)| (0..side).contains(&r) && (0..side).contains(&c);
    let cell = |word: &String| -> Result<Cell, String> {
        cell_word(word)
            .filter(|&rc| on_board(rc))
            .map(|(r, c)| size.cell(r as usize, c as usize))
            .ok_or_else(|| format!("{word:?} is not a cell r<row>c<column> on the {size} board"))
    };
    let cells = |words: &[String]| -> Result<Vec<Cell>, String> {
        words
            .iter()
            .filter(|w| *w != "(" && *w != ")")
            .map(cell)
            .collect()
    };
    let number = |word: Option<&String>| -> Result<u32, String> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| {
            format!(
                "expected a number, found {:?}",
                word.map_or("nothing", |w| w)
            )
        })
    };
    // A leading number, if the first word is one.
    let leading = |words: &[String]| -> (Option<u32>, usize) {
        match words.first().and_then(|w| w.parse().ok()) {
            Some(n) => (Some(n), 1),
            None => (None, 0),
        }
    };
    let one = |constraint| Ok(Read::Constraint(constraint));
    let pair = |words: &[String]| -> Result<[Cell; 2], String> {
        match cells(words)?[..] {
            [a, b] => Ok([a, b]),
            _ => Err("a dot joins two cells".into()),
        }
    };
    match kind {
        Kind::Cage => {
            if let Some(root) = rest
                .first()
                .and_then(|w| w.strip_prefix("dr"))
                .and_then(|r| r.parse().ok())
            {
                return one(Constraint::DigitalRoot {
                    cells: cells(&rest[1..])?,
                    root,
                });
            }
            let (sum, skip) = leading(rest);
            one(Constraint::Cage {
                cells: cells(&rest[skip..])?,
                sum,
            })
        }
        Kind::Thermo => one(Constraint::Thermo {
            cells: cells(rest)?,
        }),
        Kind::SlowThermo => one(Constraint::SlowThermo {
            cells: cells(rest)?,
        }),
        Kind::AntiKnight => one(Constraint::AntiKnight),
        Kind::AntiKing => one(Constraint::AntiKing),
        Kind::NonConsecutive => one(Constraint::NonConsecutive),
        Kind::NegativeRatio => one(Constraint::NegativeRatio),
        Kind::NegativeXv => one(Constraint::NegativeXv),
        Kind::Diagonal(diagonal) => Ok(Read::Diagonal(diagonal)),
        Kind::DisjointGroups => Ok(Read::DisjointGroups),
        Kind::LittleKiller => {
            let sum = number(rest.first())?;
            let start = rest
                .iter()
                .skip(1)
                .find(|w| *w != "(")
                .and_then(|w| cell_word(w))
                .ok_or("a little killer needs the cell it starts from")?;
            let after: Vec<&String> = rest
                .iter()
                .skip(1)
                .filter(|w| *w != "(" && *w != ")")
                .skip(1)
                .collect();
            let (dr, dc) = match after.first().map(|w| w.as_str()) {
                Some("ur") => (-1, 1),
                Some("ul") => (-1, -1),
                Some("dr") => (1, 1),
                Some("dl") => (1, -1),
                Some(other) => {
                    let end = cell_word(other).ok_or_else(|| {
                        format!("{other:?} is neither a direction (ur, ul, dr, dl) nor a cell")
                    })?;
                    ((end.0 - start.0).signum(), (end.1 - start.1).signum())
                }
                None => return Err("a little killer needs a direction: ur, ul, dr or dl".into()),
            };
            if dr == 0 || dc == 0 {
                return Err("a little killer runs along a diagonal".into());
            }
            let (mut r, mut c) = start;
            if !on_board((r, c)) {
                (r, c) = (r + dr, c + dc);
            }
            let mut line = Vec::new();
            while on_board((r, c)) {
                line.push(size.cell(r as usize, c as usize));
                (r, c) = (r + dr, c + dc);
            }
            one(Constraint::LittleKiller { cells: line, sum })
        }
        Kind::Sandwich | Kind::XSum | Kind::Skyscraper => {
            let clue = number(rest.first())?;
            let line = outside(&rest[1..], side)?;
            one(match kind {
                Kind::Sandwich => Constraint::Sandwich { line, sum: clue },
                Kind::XSum => Constraint::XSum { line, sum: clue },
                _ => Constraint::Skyscraper {
                    line,
                    count: clue as usize,
                },
            })
        }
        Kind::Arrow => {
            // `arrow (circle…) line…`, or the first cell as the circle.
            let (circle, line) = match rest.iter().position(|w| w == ")") {
                Some(close) if rest.first().is_some_and(|w| w == "(") => {
                    (cells(&rest[1..close])?, cells(&rest[close + 1..])?)
                }
                _ => {
                    let all = cells(rest)?;
                    let (circle, line) = all.split_first().ok_or("an arrow needs cells")?;
                    (vec![*circle], line.to_vec())
                }
            };
            one(Constraint::Arrow { circle, line })
        }
        Kind::Palindrome => one(Constraint::Palindrome(cells(rest)?)),
        Kind::Renban => one(Constraint::Renban(cells(rest)?)),
        Kind::Whispers => {
            let (difference, skip) = leading(rest);
            let difference = difference.unwrap_or((size.side() as u32).div_ceil(2));
            one(Constraint::Whispers {
                cells: cells(&rest[skip..])?,
                difference: u8::try_from(difference).map_err(|_| "the difference is too large")?,
            })
        }
        Kind::RegionSum => one(Constraint::RegionSumLine(cells(rest)?)),
        Kind::Between => one(Constraint::BetweenLine(cells(rest)?)),
        Kind::Entropic => one(Constraint::EntropicLine(cells(rest)?)),
        Kind::Modular => one(Constraint::ModularLine(cells(rest)?)),
        Kind::Zipper => one(Constraint::ZipperLine(cells(rest)?)),
        Kind::DoubleArrow => one(Constraint::DoubleArrow(cells(rest)?)),
        Kind::White | Kind::Black => {
            let (value, skip) = leading(rest);
            let cells = pair(&rest[skip..])?;
            let too_large = |_| format!("{} is too large", value.unwrap_or(0));
            one(match kind {
                Kind::White => Constraint::Difference {
                    cells,
                    value: u8::try_from(value.unwrap_or(1)).map_err(too_large)?,
                },
                _ => Constraint::Ratio {
                    cells,
                    value: u8::try_from(value.unwrap_or(2)).map_err(too_large)?,
                },
            })
        }
        Kind::X | Kind::V => one(Constraint::Xv {
            cells: pair(rest)?,
            sum: if kind == Kind::X { 10 } else { 5 },
        }),
        Kind::Xv => {
            let sum = match rest.first().map(String::as_str) {
                Some("x") => 10,
                Some("v") => 5,
                _ => return Err("xv needs X or V before its cells".into()),
            };
            one(Constraint::Xv {
                cells: pair(&rest[1..])?,
                sum,
            })
        }
        Kind::Clone => {
            let equals = rest
                .iter()
                .position(|w| w == "=")
                .ok_or("a clone lists its cells, then `=`, then their clones")?;
            one(Constraint::Clone {
                cells: cells(&rest[..equals])?,
                clones: cells(&rest[equals + 1..])?,
            })
        }
        Kind::Quadruple => {
            let start = rest
                .iter()
                .position(|w| w == "(" || cell_word(w).is_some())
                .unwrap_or(rest.len());
            let mut digits = Vec::new();
            for word in &rest[..start] {
                for ch in word.chars() {
                    digits.push(
                        char_digit(ch)
                            .filter(|&d| d != 0)
                            .ok_or_else(|| format!("{ch:?} is not a digit"))?,
                    );
                }
            }
            one(Constraint::Quadruple {
                cells: cells(&rest[start..])?,
                digits,
            })
        }
        Kind::Indexer(kind) => Ok(Read::Constraints(
            cells(rest)?
                .into_iter()
                .map(|cell| Constraint::Indexer { kind, cell })
                .collect(),
        )),
        Kind::ExtraRegion => one(Constraint::ExtraRegion(cells(rest)?)),
        Kind::Odd | Kind::Even | Kind::Minimum | Kind::Maximum => Ok(Read::Constraints(
            cells(rest)?
                .into_iter()
                .map(|cell| match kind {
                    Kind::Odd => Constraint::Odd(cell),
                    Kind::Even => Constraint::Even(cell),
                    Kind::Minimum => Constraint::Minimum(cell),
                    _ => Constraint::Maximum(cell),
                })
                .collect(),
        )),
        Kind::Allowed => {
            // `r2c2 is one of 1 3 5`, `r1c1 is odd`, `r1c2 is a minimum`.
            let at = cell(&rest[0])?;
            let tail: Vec<&str> = rest[2..].iter().map(String::as_str).collect();
            match tail[..] {
                ["odd"] => one(Constraint::Odd(at)),
                ["even"] => one(Constraint::Even(at)),
                ["a", "minimum"] => one(Constraint::Minimum(at)),
                ["a", "maximum"] => one(Constraint::Maximum(at)),
                ["one", "of", ref digits @ ..] => {
                    let mut mask = 0u32;
                    for ch in digits.iter().flat_map(|w| w.chars()) {
                        let d = char_digit(ch)
                            .filter(|&d| d != 0)
                            .ok_or_else(|| format!("{ch:?} is not a digit"))?;
                        mask |= 1 << (d - 1);
                    }
                    one(Constraint::Allowed {
                        cell: at,
                        digits: mask,
                    })
                }
                _ => Err("expected `is one of <digits>`, `is odd`, `is even`, `is a minimum` or `is a maximum`".into()),
            }
        }
        Kind::Regions => {
            // One label per cell, in reading order; `.` for a cell in no
            // region.
            let labels: Vec<char> = rest.iter().flat_map(|w| w.chars()).collect();
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
            Ok(Read::Regions(regions))
        }
    }
}

/// A row or column named from outside the board: `row 3`, `row 3 from the
/// right`, `column 2 from the bottom`, or a rim cell like f-puzzles'
/// (`r3c0`, `r0c2`, `r10c2`).
fn outside(words: &[String], side: isize) -> Result<Outside, String> {
    let words: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "(" | ")" | "from" | "the"))
        .collect();
    let within = |n: isize| (0..side).contains(&n);
    let line = match words[..] {
        [line @ ("row" | "column"), number, ref end @ ..] => {
            let n: isize = number
                .parse::<isize>()
                .map_err(|_| format!("{number:?} is not a number"))?
                - 1;
            let reversed = match end {
                [] | ["left"] | ["top"] => false,
                ["right"] | ["bottom"] => true,
                _ => {
                    return Err(format!(
                        "expected `from the left/right/top/bottom`, found {:?}",
                        end.join(" ")
                    ));
                }
            };
            within(n).then_some(Outside {
                row: line == "row",
                number: n as usize,
                reversed,
            })
        }
        [word] => match cell_word(word) {
            Some((r, -1)) if within(r) => Some(Outside {
                row: true,
                number: r as usize,
                reversed: false,
            }),
            Some((r, c)) if c == side && within(r) => Some(Outside {
                row: true,
                number: r as usize,
                reversed: true,
            }),
            Some((-1, c)) if within(c) => Some(Outside {
                row: false,
                number: c as usize,
                reversed: false,
            }),
            Some((r, c)) if r == side && within(c) => Some(Outside {
                row: false,
                number: c as usize,
                reversed: true,
            }),
            _ => None,
        },
        _ => None,
    };
    line.ok_or_else(|| "expected a row or column: `row 3`, `column 2 from the bottom`, or a cell beside the board like r3c0".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::rules::Rules;

    fn read(text: &str) -> Result<Vec<String>, RuleTextError> {
        let mut builder = Rules::builder(Size::NINE);
        let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
        read_rules(&lines, Size::NINE, &mut builder)?;
        let rules = builder.build().map_err(|e| RuleTextError {
            line: 0,
            problem: e.to_string(),
        })?;
        Ok(rules.constraints().iter().map(|c| c.to_string()).collect())
    }

    #[test]
    fn what_z3doku_prints_reads_back() {
        let printed = [
            "cage 15 (r1c1 r1c2 r2c1)",
            "cage (r4c4 r4c5)",
            "cage DR5 (r6c6 r6c7)",
            "thermo r3c1→r3c2→r3c3",
            "slow thermo r5c1→r5c2",
            "anti-knight",
            "nonconsecutive",
            "negative ratio",
            "r2c2 is one of 1 3 5",
            "r7c7 is odd",
            "r8c8 is a maximum",
            "little killer 14 (r3c1→r1c3)",
            "sandwich 13 (row 1)",
            "x-sum 5 (row 1 from the right)",
            "skyscraper 3 (column 1 from the top)",
            "arrow (r1c2 r1c3) r1c1→r1c4",
            "whispers 5 r9c1→r9c2",
            "between line r2c5→r2c6→r2c7",
            "white dot 1 (r4c1 r4c2)",
            "black dot 2 (r5c8 r5c9)",
            "X (r6c1 r6c2)",
            "clone (r1c1 r1c2) = (r2c9 r2c5)",
            "quadruple 17 (r1c1 r1c2 r2c1 r2c2)",
            "row indexer r1c2",
            "extra region (r1c1 r5c5 r9c9)",
        ];
        let read = read(&printed.join("\n")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, printed);
    }

    #[test]
    fn hand_forms_read_as_expected() {
        let read = read(
            "killer 15 r1c1 r1c2 r2c1\nthermo r3c1 r3c2 r3c3\nlittlekiller 14 r4c0 ur\n\
             sandwich 13 r1c0\nxv v r2c1 r2c2\narrow r1c5 r1c2 r1c3\nodd r1c1 r1c3\n# note\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read,
            [
                "cage 15 (r1c1 r1c2 r2c1)",
                "thermo r3c1→r3c2→r3c3",
                "little killer 14 (r3c1→r1c3)",
                "sandwich 13 (row 1)",
                "V (r2c1 r2c2)",
                "arrow (r1c5) r1c2→r1c3",
                "r1c1 is odd",
                "r1c3 is odd",
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let error = read("antiknight\nthermo r1c1 r1c12")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("line 2: \"r1c12\" is not a cell r<row>c<column> on the 9x9 board")
        );
        let error = read("antiknight\nbananas r1c1")
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.starts_with("line 2: \"bananas r1c1\" is neither")));
    }

    #[test]
    fn grids_and_rules_split_where_the_rules_start() {
        let text = "1234\n3412\n....\n....\ndiagonal+\nx r1c1 r1c2\n";
        let (grid, rules) = split(text);
        assert_eq!(grid, "1234\n3412\n....\n....");
        assert_eq!(rules, [(5, "diagonal+"), (6, "x r1c1 r1c2")]);
    }
}
