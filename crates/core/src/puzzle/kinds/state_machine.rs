//! A line given as a state machine (sigh's `NFA`): the digits along the
//! line, read in order, must be accepted by a nondeterministic finite
//! automaton, which sigh's strings carry in its own packed form (base64 of
//! a bit stream: a header with the format, the widths and the start and
//! accepting states' counts, then each state's moves). The machine is kept
//! as written, so it goes back to sigh unchanged.
//!
//! sigh lets one machine read several runs of cells with a break symbol
//! between them; z3doku reads one run of cells, and a machine over several
//! is refused, naming why. f-puzzles has no key for it. A rule line is
//! `state machine ENCODED CELLS`, read from the line's own text (see
//! [`read_line`]) since the encoding is case-sensitive and the words of
//! other rule lines are lower-cased.

use super::FromZero;
use super::{Added, Read, Rule, no_key, one};
use crate::puzzle::automaton::Automaton;
use crate::puzzle::check::Board;
use crate::puzzle::constraint::{Context, index, list, listed_once};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::fpuzzles::write::Item;
use crate::puzzle::grid::{Cell, Size};
use crate::puzzle::primitive::Primitive;
use crate::puzzle::rule_text as text;
use crate::puzzle::sigh;
use crate::puzzle::sketch::{LineColour, Mark};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// The most states a machine may have here (sigh's state numbers are up
/// to 16 bits wide; this bounds what a line's encoding unrolls).
const MOST_STATES: usize = 4096;

/// A line whose digits a state machine accepts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateMachine {
    /// The machine, as sigh encodes it.
    pub encoded: String,
    /// The cells in order.
    pub cells: Vec<Cell>,
}

/// A machine as sigh's serializer states it: its states, the start states,
/// the accepting states, and each state's `(symbol, target)` moves, the
/// symbol being the digit read.
#[derive(Debug, PartialEq, Eq)]
struct Table {
    states: usize,
    start: Vec<usize>,
    accept: Vec<usize>,
    moves: Vec<Vec<(u32, usize)>>,
}

/// sigh's `BitReader`: most significant bit first.
struct Bits<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn remaining(&self) -> usize {
        self.bytes.len() * 8 - self.at
    }

    fn read(&mut self, count: usize) -> Result<u32, String> {
        if count > self.remaining() {
            return Err("the machine's bits end early".into());
        }
        let mut value = 0u32;
        for _ in 0..count {
            let bit = self.bytes[self.at >> 3] >> (7 - (self.at & 7)) & 1;
            value = value << 1 | u32::from(bit);
            self.at += 1;
        }
        Ok(value)
    }
}

/// The number of bits that hold `n` (0 for 0), as sigh's `requiredBits`.
fn required_bits(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// Reads sigh's packed form of a machine.
fn decode(encoded: &str) -> Result<Table, String> {
    if encoded.is_empty() {
        // sigh's empty machine: no states, nothing accepted.
        return Ok(Table {
            states: 0,
            start: Vec::new(),
            accept: Vec::new(),
            moves: Vec::new(),
        });
    }
    let bytes = sigh::base64_decode(encoded).ok_or("the machine is not base64")?;
    if bytes.is_empty() {
        return Err("the machine is empty".into());
    }
    let mut bits = Bits {
        bytes: &bytes,
        at: 0,
    };
    let format = bits.read(2)?;
    if format > 1 {
        return Err("the machine uses an unknown format".into());
    }
    let state_bits = bits.read(4)? as usize + 1;
    let symbols = bits.read(4)? as usize + 1;
    let start_count = bits.read(state_bits)? as usize;
    let accept_count = bits.read(state_bits)? as usize;
    let start_is_accept = bits.read(start_count.min(32))?;
    if start_count > 32 {
        bits.read(start_count - 32)?;
    }
    let mut moves: Vec<Vec<(u32, usize)>> = Vec::new();
    if format == 0 {
        let count_bits = bits.read(4)? as usize;
        let symbol_bits = required_bits(symbols - 1);
        if count_bits > 0 {
            while bits.remaining() >= count_bits {
                let count = bits.read(count_bits)?;
                let mut state = Vec::new();
                for _ in 0..count {
                    if bits.remaining() < symbol_bits + state_bits {
                        return Err("the machine's moves end early".into());
                    }
                    let symbol = bits.read(symbol_bits)? + 1;
                    let target = bits.read(state_bits)? as usize;
                    state.push((symbol, target));
                }
                moves.push(state);
            }
        }
    } else {
        while bits.remaining() >= symbols {
            let active = bits.read(symbols)?;
            let mut state = Vec::new();
            // The first symbol's bit is the lowest of the mask.
            for value in 1..=symbols as u32 {
                if active >> (value - 1) & 1 == 1 {
                    if bits.remaining() < state_bits {
                        return Err("the machine's moves end early".into());
                    }
                    state.push((value, bits.read(state_bits)? as usize));
                }
            }
            moves.push(state);
        }
    }
    while bits.remaining() > 0 {
        if bits.read(bits.remaining().min(32))? != 0 {
            return Err("the machine has unexpected trailing data".into());
        }
    }
    let highest = moves
        .iter()
        .flatten()
        .map(|&(_, t)| t + 1)
        .chain([moves.len(), start_count + accept_count])
        .max()
        .unwrap_or(0);
    if highest > MOST_STATES {
        return Err(format!("the machine has more than {MOST_STATES} states"));
    }
    moves.resize(highest, Vec::new());
    let accept = (0..start_count)
        .filter(|&s| s < 32 && start_is_accept >> s & 1 == 1)
        .chain(start_count..start_count + accept_count)
        .collect();
    Ok(Table {
        states: highest,
        start: (0..start_count).collect(),
        accept,
        moves,
    })
}

impl Table {
    /// Whether the machine accepts `digits`, run move by move: the
    /// checker's reading, which builds no [`Automaton`].
    fn accepts(&self, digits: &[u8]) -> bool {
        let mut now: Vec<usize> = self.start.clone();
        for &d in digits {
            let mut next: Vec<usize> = now
                .iter()
                .flat_map(|&s| &self.moves[s])
                .filter(|&&(symbol, _)| symbol == u32::from(d))
                .map(|&(_, t)| t)
                .collect();
            next.sort_unstable();
            next.dedup();
            now = next;
        }
        now.iter().any(|s| self.accept.contains(s))
    }

    /// The machine as an automaton over digits up to `side` (a move on a
    /// symbol above the board's digits is never taken).
    fn automaton(&self, side: usize) -> Automaton {
        let mut edges: Vec<(usize, usize, u32)> = Vec::new();
        for (from, moves) in self.moves.iter().enumerate() {
            for &(symbol, to) in moves.iter().filter(|&&(s, _)| s as usize <= side) {
                let bit = 1u32 << (symbol - 1);
                match edges.iter_mut().find(|e| e.0 == from && e.1 == to) {
                    Some(edge) => edge.2 |= bit,
                    None => edges.push((from, to, bit)),
                }
            }
        }
        Automaton {
            states: self.states,
            start: self.start.clone(),
            accept: self.accept.clone(),
            edges,
        }
    }
}

/// Reads `line` when it is a `state machine` line (`None` otherwise): the
/// words `state machine`, the encoding as written, then the cells.
pub fn read_line(line: &str, size: Size) -> Option<Result<StateMachine, String>> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let second = words.next()?;
    if !first.eq_ignore_ascii_case("state") || !second.eq_ignore_ascii_case("machine") {
        return None;
    }
    let Some(encoded) = words.next() else {
        return Some(Err("expected the machine as sigh encodes it".into()));
    };
    let cells: Vec<String> = words
        .flat_map(|w| w.split(['(', ')', ',', '→', ';', '>']))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    Some(text::cells(&cells, size).map(|cells| StateMachine {
        encoded: encoded.to_string(),
        cells,
    }))
}

impl Read for StateMachine {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["state machine"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// The words of a rule line have lost the encoding's case, so a `state
    /// machine` line is read from its own text before it is split into
    /// words (see [`read_line`]); reaching here means it was not.
    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err("a state machine line is read from the line's own text".into())
    }
    const SIGH: &'static [&'static str] = &["NFA"];
    /// The machine, then groups of cells (each after an empty argument or
    /// a `_name`), each a line of its own.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let encoded = item.args.first().map_or("", String::as_str);
        let mut out = Vec::new();
        for group in item.args[1..].split(|a| a.is_empty() || a.starts_with('_')) {
            if group.is_empty() {
                continue;
            }
            if group.iter().any(|a| a == "-") {
                return Err(item.differs(
                    "a machine over several runs of cells (z3doku's state machine reads one run)",
                ));
            }
            out.extend(one(StateMachine {
                encoded: encoded.to_string(),
                cells: item.cells(group)?,
            }));
        }
        if out.is_empty() {
            return Err(item.invalid("no cells"));
        }
        Ok(out)
    }
}

impl fmt::Display for StateMachine {
    /// `state machine ENCODED r1c1→r1c2`, which reads back as the same
    /// line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "state machine {} {}",
            self.encoded,
            list(&self.cells, "→")
        )
    }
}

impl Rule for StateMachine {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, _: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        decode(&self.encoded)
            .map(|_| ())
            .map_err(|e| format!("state machine {}: {e}", self.encoded))
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        // `validate` has read it already; one that does not read accepts
        // nothing.
        let automaton = decode(&self.encoded)
            .map(|t| t.automaton(context.size.side()))
            .unwrap_or(Automaton {
                states: 0,
                start: Vec::new(),
                accept: Vec::new(),
                edges: Vec::new(),
            });
        vec![Primitive::Automaton {
            cells: index(context.size, &self.cells),
            automaton: Arc::new(automaton),
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let digits: Vec<u8> = self.cells.iter().map(|&c| board.digit(c)).collect();
        let accepted = decode(&self.encoded).is_ok_and(|t| t.accepts(&digits));
        (!accepted).then(|| {
            let word: String = digits
                .iter()
                .map(|&d| crate::puzzle::grid::digit_char(d))
                .collect();
            format!("the machine does not accept the line's {word}")
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        vec![
            Mark::Line {
                cells: self.cells.clone(),
                colour: LineColour::Grey,
            },
            Mark::Note(format!(
                "{self}: sigh's state machine accepts the digits along the line"
            )),
        ]
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(".NFA~{}{}", self.encoded, sigh::ids(&self.cells)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::regex;

    /// Machines sigh's serializer wrote (`NFASerializer.serialize` of
    /// `regexToNFA(pattern, 9)`), with the patterns they came from.
    const FROM_SIGH: [(&str, &str); 7] = [
        ("1[2-4]*9", "RhQBgBDqkA"),
        ("(12|3)+", "RJVmykA"),
        (".{2,3}", "Rhn_____9VVQA_6qqoA"),
        ("[^13]?5{1,}", "RhX6pqgghBA"),
        ("(1|2)*3(4|5)*", "QTHOMA"),
        ("([13579][2468])*[13579]?", "BhaUCESUiky1DECCGKOA"),
        ("9{0,2}8?", "Bh5T8M_EvgA"),
    ];

    /// Every word of up to four digits from 1 to 9.
    fn words() -> impl Iterator<Item = Vec<u8>> {
        (0..=4u32).flat_map(|length| {
            (0..9usize.pow(length)).map(move |n| {
                (0..length)
                    .map(|k| (n / 9usize.pow(k) % 9) as u8 + 1)
                    .collect()
            })
        })
    }

    #[test]
    fn sighs_machines_accept_what_their_patterns_match() {
        for (pattern, encoded) in FROM_SIGH {
            let table = decode(encoded).unwrap_or_else(|e| panic!("{encoded}: {e}"));
            let automaton = table.automaton(9);
            let compiled = regex::compile(pattern, 9).unwrap_or_else(|e| panic!("{e}"));
            for word in words() {
                let want = compiled.accepts(&word);
                assert_eq!(table.accepts(&word), want, "{pattern} {word:?}");
                assert_eq!(automaton.accepts(&word), want, "{pattern} {word:?}");
            }
        }
    }

    #[test]
    fn a_machine_from_sighs_javascript_form_reads() {
        // The running sum stays at most 10 and ends at 10, from sigh's
        // `javascriptSpecToNFA`.
        let encoded = "TgRf8jRWeJoAf80VniaF_orPE0J_VniaEfs8TQh94mhB8TQgeaEB0IBE";
        let table = decode(encoded).unwrap_or_else(|e| panic!("{e}"));
        for word in words() {
            let sum: u32 = word.iter().map(|&d| u32::from(d)).sum();
            assert_eq!(table.accepts(&word), sum == 10, "{word:?}");
        }
        assert!(decode("-hQBgBDqkA").is_err_and(|e| e.contains("unknown format")));
        assert!(decode("!").is_err());
        assert_eq!(decode("").map(|t| t.accepts(&[1])), Ok(false));
    }

    #[test]
    fn lines_read_from_their_text() {
        let read = read_line("State Machine RJVmykA r1c1 r1c2→r1c3", Size::NINE);
        let line = read
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("not read"));
        assert_eq!(line.to_string(), "state machine RJVmykA r1c1→r1c2→r1c3");
        assert!(read_line("stately r1c1", Size::NINE).is_none());
    }
}
