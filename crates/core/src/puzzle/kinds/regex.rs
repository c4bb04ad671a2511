//! The regular-expression line (sigh's `Regex`): the digits along the
//! line, read in order as a word, match the pattern as a whole. The
//! pattern is sigh's: digits `0`-`9` and letters (`a` is 10, `g` 16) stand
//! for themselves, `.` for any digit, `[…]` a class (ranges `[1-4]`,
//! negated `[^13]`), `(…)` a group, `|` a choice, and the quantifiers `*`,
//! `+`, `?`, `{n}`, `{n,}` and `{n,m}`. A character that names no digit of
//! the board is an error, as in sigh, and so is a pattern whose automaton
//! would pass sigh's 4,096 states.
//!
//! Lowering builds the automaton as sigh's compiler does (Thompson's
//! construction, then the empty moves folded into the others) and states
//! it as one [`Primitive::Automaton`]. The checker does not: it matches
//! the pattern's tree against the digits directly, position sets through
//! each part, so a slip in the construction shows as a checker error.
//!
//! f-puzzles has no key for it. A rule line is `regex PATTERN CELLS`, read
//! from the line's own text (see [`read_line`]) since the words other rule
//! lines are read from drop `,`; in sigh strings the pattern is base64, as
//! sigh writes it.

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
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// sigh's limit on an automaton's states while it is built.
const MOST_STATES: usize = 4096;

/// A line whose digits match a regular expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Regex {
    /// The pattern, without blanks.
    pub pattern: String,
    /// The cells in order.
    pub cells: Vec<Cell>,
}

/// A pattern's tree, as sigh's parser makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// One character of a set (`negated`: any character but those).
    Set { chars: Vec<char>, negated: bool },
    /// The parts one after another (none: the empty word).
    Concat(Vec<Node>),
    /// One of the options.
    Alternate(Vec<Node>),
    /// The part `min` to `max` times (`None`: no limit).
    Repeat(Box<Node>, usize, Option<usize>),
}

/// sigh's parser: a pattern to its tree, or what is wrong where.
struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn parse(pattern: &str) -> Result<Node, String> {
        let mut parser = Parser {
            chars: pattern.chars().collect(),
            at: 0,
        };
        let node = parser.expression()?;
        if parser.at < parser.chars.len() {
            return Err(format!("unexpected token at position {}", parser.at));
        }
        Ok(node)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    fn expect(&mut self, want: char) -> Result<(), String> {
        match self.next() {
            Some(c) if c == want => Ok(()),
            _ => Err(format!("expected '{want}' at position {}", self.at - 1)),
        }
    }

    fn expression(&mut self) -> Result<Node, String> {
        let mut options = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.next();
            options.push(self.sequence()?);
        }
        Ok(match options.len() {
            1 => options.remove(0),
            _ => Node::Alternate(options),
        })
    }

    fn sequence(&mut self) -> Result<Node, String> {
        let mut parts = Vec::new();
        while let Some(c) = self.peek()
            && c != '|'
            && c != ')'
        {
            parts.push(self.quantified()?);
        }
        Ok(match parts.len() {
            1 => parts.remove(0),
            _ => Node::Concat(parts),
        })
    }

    fn quantified(&mut self) -> Result<Node, String> {
        let mut node = self.primary()?;
        loop {
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => {
                    let start = self.at;
                    self.next();
                    let min = self.number().ok_or_else(|| {
                        format!("expected a number after '{{' at position {start}")
                    })?;
                    let mut max = Some(min);
                    if self.peek() == Some(',') {
                        self.next();
                        max = self.number();
                        if let Some(max) = max
                            && max < min
                        {
                            return Err(format!(
                                "a quantifier's max ({max}) is below its min ({min}) at \
                                 position {start}"
                            ));
                        }
                    }
                    self.expect('}')?;
                    node = Node::Repeat(Box::new(node), min, max);
                    continue;
                }
                _ => break,
            };
            self.next();
            node = Node::Repeat(Box::new(node), min, max);
        }
        Ok(node)
    }

    fn number(&mut self) -> Option<usize> {
        let mut digits = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            digits.push(c);
            self.next();
        }
        // Past `usize`, as past sigh's state limit: too many states.
        digits
            .parse()
            .ok()
            .or((!digits.is_empty()).then_some(usize::MAX))
    }

    fn primary(&mut self) -> Result<Node, String> {
        match self.peek() {
            Some('(') => {
                self.next();
                let node = self.expression()?;
                if self.peek() != Some(')') {
                    return Err(format!("unclosed group at position {}", self.at));
                }
                self.next();
                Ok(node)
            }
            Some('[') => self.class(),
            Some('.') => {
                self.next();
                Ok(Node::Set {
                    chars: Vec::new(),
                    negated: true,
                })
            }
            None => Err("unexpected end of pattern".into()),
            Some(c) if "*+?{|)".contains(c) => {
                Err(format!("unexpected token '{c}' at position {}", self.at))
            }
            Some(c) => {
                self.next();
                Ok(Node::Set {
                    chars: vec![c],
                    negated: false,
                })
            }
        }
    }

    fn class(&mut self) -> Result<Node, String> {
        self.expect('[')?;
        let negated = self.peek() == Some('^');
        if negated {
            self.next();
        }
        let mut chars = BTreeSet::new();
        while let Some(c) = self.peek()
            && c != ']'
        {
            self.next();
            if self.peek() == Some('-') {
                self.next();
                let end = self.next().ok_or("unexpected end of pattern")?;
                if end < c {
                    return Err("a class's range runs backwards".into());
                }
                chars.extend(c..=end);
            } else {
                chars.insert(c);
            }
        }
        self.expect(']')?;
        if chars.is_empty() {
            return Err("an empty character class".into());
        }
        Ok(Node::Set {
            chars: chars.into_iter().collect(),
            negated,
        })
    }
}

/// The digit a pattern character stands for on a board of `side`, as sigh
/// reads it.
fn digit_of(c: char, side: usize) -> Result<u8, String> {
    let value = match c {
        '0'..='9' => c as u32 - '0' as u32,
        'a'..='z' => c as u32 - 'a' as u32 + 10,
        'A'..='Z' => c as u32 - 'A' as u32 + 10,
        _ => return Err(format!("'{c}' stands for no digit")),
    };
    if value < 1 || value as usize > side {
        return Err(format!("'{c}' is not a digit from 1 to {side}"));
    }
    Ok(value as u8)
}

/// The digits a set stands for on a board of `side`, as a mask.
fn set_digits(chars: &[char], negated: bool, side: usize) -> Result<u32, String> {
    let mut mask = 0u32;
    for &c in chars {
        mask |= 1 << (digit_of(c, side)? - 1);
    }
    let all = u32::MAX >> (32 - side);
    Ok(if negated { all & !mask } else { mask })
}

/// An automaton with empty moves, built as sigh's compiler builds it.
struct Builder {
    side: usize,
    /// Per state: its empty moves and its `(digits, to)` moves.
    empty: Vec<Vec<usize>>,
    moves: Vec<Vec<(u32, usize)>>,
}

impl Builder {
    fn state(&mut self) -> Result<usize, String> {
        if self.empty.len() >= MOST_STATES {
            return Err(format!(
                "the pattern needs more than sigh's {MOST_STATES} states"
            ));
        }
        self.empty.push(Vec::new());
        self.moves.push(Vec::new());
        Ok(self.empty.len() - 1)
    }

    /// `(start, accept)` of the fragment for `node`.
    fn build(&mut self, node: &Node) -> Result<(usize, usize), String> {
        match node {
            Node::Set { chars, negated } => {
                let digits = set_digits(chars, *negated, self.side)?;
                let (start, accept) = (self.state()?, self.state()?);
                self.moves[start].push((digits, accept));
                Ok((start, accept))
            }
            Node::Concat(parts) => {
                let Some((first, rest)) = parts.split_first() else {
                    let state = self.state()?;
                    return Ok((state, state));
                };
                let (start, mut accept) = self.build(first)?;
                for part in rest {
                    let (next_start, next_accept) = self.build(part)?;
                    self.empty[accept].push(next_start);
                    accept = next_accept;
                }
                Ok((start, accept))
            }
            Node::Alternate(options) => {
                let (start, accept) = (self.state()?, self.state()?);
                for option in options {
                    let (s, a) = self.build(option)?;
                    self.empty[start].push(s);
                    self.empty[a].push(accept);
                }
                Ok((start, accept))
            }
            Node::Repeat(child, min, max) => {
                let (start, mut accept) = match min {
                    0 => {
                        let state = self.state()?;
                        (state, state)
                    }
                    _ => self.build(child)?,
                };
                for _ in 1..*min {
                    let (s, a) = self.build(child)?;
                    self.empty[accept].push(s);
                    accept = a;
                }
                match max {
                    None => {
                        let (s, a) = self.build(child)?;
                        self.empty[accept].push(s);
                        self.empty[a].push(s);
                        self.empty[a].push(accept);
                    }
                    Some(max) => {
                        for _ in *min..*max {
                            let (s, a) = self.build(child)?;
                            self.empty[accept].push(s);
                            self.empty[accept].push(a);
                            accept = a;
                        }
                    }
                }
                Ok((start, accept))
            }
        }
    }

    /// The states reachable from `state` by empty moves, itself included.
    fn closure(&self, state: usize) -> Vec<usize> {
        let mut seen = vec![false; self.empty.len()];
        let mut stack = vec![state];
        seen[state] = true;
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            out.push(s);
            for &t in &self.empty[s] {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        out
    }
}

/// The pattern's automaton on a board of `side`, without empty moves and
/// with only the states a run can use (from a start, to an accepting
/// state), or why sigh would refuse the pattern.
pub fn compile(pattern: &str, side: usize) -> Result<Automaton, String> {
    let tree = Parser::parse(pattern)?;
    let mut builder = Builder {
        side,
        empty: Vec::new(),
        moves: Vec::new(),
    };
    let (start, accept) = builder.build(&tree)?;
    let n = builder.empty.len();
    // Being in a state means being anywhere in its closure: a move from
    // the closure is the state's move, and the closure holding the accept
    // state makes it accepting.
    let mut edges: Vec<(usize, usize, u32)> = Vec::new();
    let mut accepting = vec![false; n];
    for (q, accepts) in accepting.iter_mut().enumerate() {
        for p in builder.closure(q) {
            *accepts |= p == accept;
            for &(digits, to) in &builder.moves[p] {
                match edges.iter_mut().find(|e| e.0 == q && e.1 == to) {
                    Some(edge) => edge.2 |= digits,
                    None => edges.push((q, to, digits)),
                }
            }
        }
    }
    edges.retain(|e| e.2 != 0);
    // Keep the states on some run from the start to an accepting state.
    let reach = |from: Vec<usize>, forward: bool| {
        let mut seen = vec![false; n];
        let mut stack = from;
        for &s in &stack {
            seen[s] = true;
        }
        while let Some(s) = stack.pop() {
            for &(a, b, _) in &edges {
                let (x, y) = if forward { (a, b) } else { (b, a) };
                if x == s && !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        seen
    };
    let ahead = reach(vec![start], true);
    let behind = reach((0..n).filter(|&q| accepting[q]).collect(), false);
    let mut number = vec![usize::MAX; n];
    let mut states = 0;
    for q in 0..n {
        if ahead[q] && behind[q] {
            number[q] = states;
            states += 1;
        }
    }
    let kept = |q: usize| number[q] != usize::MAX;
    Ok(Automaton {
        states,
        start: [start]
            .into_iter()
            .filter(|&q| kept(q))
            .map(|q| number[q])
            .collect(),
        accept: (0..n)
            .filter(|&q| accepting[q] && kept(q))
            .map(|q| number[q])
            .collect(),
        edges: edges
            .into_iter()
            .filter(|&(a, b, _)| kept(a) && kept(b))
            .map(|(a, b, m)| (number[a], number[b], m))
            .collect(),
    })
}

/// The positions a word can be at after `node`, from each of `from`,
/// reading `digits`: the checker's matcher, which reads the tree and
/// builds no automaton.
fn ends(node: &Node, digits: &[u8], from: &BTreeSet<usize>, side: usize) -> BTreeSet<usize> {
    match node {
        Node::Set { chars, negated } => {
            let mask = set_digits(chars, *negated, side).unwrap_or(0);
            from.iter()
                .filter(|&&p| {
                    p < digits.len() && digits[p] != 0 && mask >> (digits[p] - 1) & 1 == 1
                })
                .map(|&p| p + 1)
                .collect()
        }
        Node::Concat(parts) => parts
            .iter()
            .fold(from.clone(), |at, part| ends(part, digits, &at, side)),
        Node::Alternate(options) => options
            .iter()
            .flat_map(|o| ends(o, digits, from, side))
            .collect(),
        Node::Repeat(child, min, max) => {
            let mut at = from.clone();
            for _ in 0..*min {
                if at.is_empty() {
                    break;
                }
                at = ends(child, digits, &at, side);
            }
            // Each further repetition, from everywhere reached so far,
            // until the limit or until nothing new is reached.
            let mut more = max.map_or(usize::MAX, |max| max - min);
            while more > 0 {
                let next = ends(child, digits, &at, side);
                if next.is_subset(&at) {
                    break;
                }
                at.extend(next);
                more -= 1;
            }
            at
        }
    }
}

/// Whether `digits`, as a whole, match `pattern` on a board of `side`.
fn matches(pattern: &str, digits: &[u8], side: usize) -> bool {
    Parser::parse(pattern)
        .is_ok_and(|tree| ends(&tree, digits, &BTreeSet::from([0]), side).contains(&digits.len()))
}

/// Reads `line` when it is a `regex` line (`None` otherwise): `regex`,
/// the pattern (blanks inside it are dropped, as sigh drops them, up to
/// the first cell), then the cells.
pub fn read_line(line: &str, size: Size) -> Option<Result<Regex, String>> {
    let rest = line.trim_start();
    let word = rest.split_whitespace().next()?;
    if !word.eq_ignore_ascii_case("regex") {
        return None;
    }
    let words: Vec<&str> = rest[word.len()..].split_whitespace().collect();
    // The cells, parted by blanks, arrows, commas or brackets; a pattern
    // never starts with a cell's name (`r` stands for no digit).
    const APART: [char; 6] = ['(', ')', ',', '→', ';', '>'];
    let first_cell = words
        .iter()
        .position(|w| {
            w.split(APART)
                .find(|piece| !piece.is_empty())
                .is_some_and(|piece| text::cell_word(&piece.to_lowercase()).is_some())
        })
        .unwrap_or(words.len());
    if first_cell == 0 {
        return Some(Err("expected a pattern before the cells".into()));
    }
    let pattern: String = words[..first_cell].concat();
    let cells: Vec<String> = words[first_cell..]
        .iter()
        .flat_map(|w| w.split(APART))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    Some(text::cells(&cells, size).map(|cells| Regex { pattern, cells }))
}

/// sigh's encoding of a pattern: base64 (URL-safe, no padding) of its
/// bytes.
fn encode(pattern: &str) -> String {
    sigh::base64_encode(pattern.as_bytes())
}

/// A pattern as sigh writes it: base64 (URL-safe), or, in sigh's older
/// strings, `%`-escaped text.
fn decode(token: &str) -> Option<String> {
    let bytes = if token.contains('%') || token.contains('.') {
        let bytes = token.as_bytes();
        let mut out = Vec::new();
        let mut k = 0;
        while k < bytes.len() {
            if bytes[k] == b'%' {
                let hex = std::str::from_utf8(bytes.get(k + 1..k + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                k += 3;
            } else {
                out.push(bytes[k]);
                k += 1;
            }
        }
        out
    } else {
        sigh::base64_decode(token)?
    };
    String::from_utf8(bytes).ok()
}

impl Read for Regex {
    const KEYS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["regex"];

    fn from_fpuzzles(key: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        no_key(key)
    }

    /// The words of a rule line have lost the pattern's commas and case,
    /// so a `regex` line is read from its own text before it is split
    /// into words (see [`read_line`]); reaching here means it was not.
    fn from_text(_: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err("a regex line is read from the line's own text".into())
    }
    const SIGH: &'static [&'static str] = &["Regex"];
    /// The pattern, then groups of cells parted by empty arguments, each
    /// group a line of its own.
    fn from_sigh(item: &sigh::SighItem<'_>) -> Result<Vec<Added>, sigh::SighError> {
        let token = item.args.first().map_or("", String::as_str);
        let pattern: String = decode(token)
            .ok_or_else(|| item.invalid("the pattern is neither base64 nor %-escaped"))?
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let mut out = Vec::new();
        for group in item.args[1..].split(|a| a.is_empty()) {
            if !group.is_empty() {
                out.extend(one(Regex {
                    pattern: pattern.clone(),
                    cells: item.cells(group)?,
                }));
            }
        }
        if out.is_empty() {
            return Err(item.invalid("no cells"));
        }
        Ok(out)
    }
}

impl fmt::Display for Regex {
    /// `regex 1[2-4]*9 r1c1→r1c2→r1c3`, which reads back as the same line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "regex {} {}", self.pattern, list(&self.cells, "→"))
    }
}

impl Rule for Regex {
    fn on_values_from_zero(&self) -> FromZero {
        FromZero::Cannot
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn validate(&self, size: Size) -> Result<(), String> {
        listed_once(&self.cells)?;
        compile(&self.pattern, size.side())
            .map(|_| ())
            .map_err(|e| format!("the pattern {:?}: {e}", self.pattern))
    }

    fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        let size = context.size;
        // `validate` has compiled it already; a pattern that does not
        // compile matches nothing.
        let automaton = compile(&self.pattern, size.side()).unwrap_or(Automaton {
            states: 0,
            start: Vec::new(),
            accept: Vec::new(),
            edges: Vec::new(),
        });
        vec![Primitive::Automaton {
            cells: index(size, &self.cells),
            automaton: Arc::new(automaton),
        }]
    }

    fn broken(&self, board: &Board<'_>) -> Option<String> {
        let digits: Vec<u8> = self.cells.iter().map(|&c| board.digit(c)).collect();
        (!matches(&self.pattern, &digits, board.size().side())).then(|| {
            let word: String = digits
                .iter()
                .map(|&d| crate::puzzle::grid::digit_char(d))
                .collect();
            format!(
                "the line reads {word}, which does not match {}",
                self.pattern
            )
        })
    }

    fn sketch(&self, _size: Size) -> Vec<Mark> {
        let mut marks = vec![Mark::Line {
            cells: self.cells.clone(),
            colour: LineColour::Grey,
        }];
        if let Some(&cell) = self.cells.first() {
            marks.push(Mark::CornerText {
                cell,
                text: self.pattern.clone(),
            });
        }
        marks.push(Mark::Note(format!(
            "{self}: the digits along the line match the pattern"
        )));
        marks
    }

    fn to_fpuzzles(&self, _: Size) -> Option<(&'static str, Item)> {
        None
    }
    fn to_sigh(&self, _: &sigh::SighBoard<'_>) -> sigh::ToSigh {
        sigh::ToSigh::Item(format!(
            ".Regex~{}{}",
            encode(&self.pattern),
            sigh::ids(&self.cells)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(digits: &str) -> Vec<u8> {
        digits.bytes().map(|b| b - b'0').collect()
    }

    #[test]
    fn the_automaton_and_the_matcher_agree() {
        let patterns = [
            "1[2-4]*9",
            "(12|3)+",
            ".{2,3}",
            "[^13]?5{1,}",
            "()|7",
            "(1|2)*3(4|5)*",
            "9{0,2}8?",
            "",
        ];
        let mut seen = 0;
        for pattern in patterns {
            let automaton = compile(pattern, 9).unwrap_or_else(|e| panic!("{pattern}: {e}"));
            // Every word of up to four digits from 1 to 9.
            for length in 0..=4u32 {
                for n in 0..9usize.pow(length) {
                    let digits: Vec<u8> = (0..length)
                        .map(|k| (n / 9usize.pow(k) % 9) as u8 + 1)
                        .collect();
                    let a = automaton.accepts(&digits);
                    assert_eq!(a, matches(pattern, &digits, 9), "{pattern} {digits:?}");
                    seen += usize::from(a);
                }
            }
        }
        assert!(seen > 100);
        assert!(matches("1[2-4]*9", &word("1239"), 9));
        assert!(!matches("1[2-4]*9", &word("1259"), 9));
    }

    #[test]
    fn sigh_refuses_what_it_refuses() {
        assert!(compile("0", 9).is_err_and(|e| e.contains("not a digit from 1 to 9")));
        assert!(compile("a", 9).is_err());
        assert!(compile("a", 10).is_ok());
        assert!(compile("1{3,2}", 9).is_err_and(|e| e.contains("below its min")));
        assert!(compile("(1", 9).is_err_and(|e| e.contains("unclosed")));
        assert!(compile("*", 9).is_err());
        assert!(compile("[]", 9).is_err());
        assert!(compile("1{5000}", 9).is_err_and(|e| e.contains("4096")));
    }

    #[test]
    fn patterns_travel_as_sigh_writes_them() {
        for pattern in ["1[2-4]*9", "(12|3)+", ".{2,3}", "a", "ab"] {
            assert_eq!(decode(&encode(pattern)).as_deref(), Some(pattern));
        }
        // btoa("1[2-4]*9") with sigh's URL-safe letters.
        assert_eq!(encode("1[2-4]*9"), "MVsyLTRdKjk");
        assert_eq!(decode("1%5B2-4%5D").as_deref(), Some("1[2-4]"));
    }

    #[test]
    fn lines_read_from_their_text() {
        let read = read_line("regex 1{1,2}[2-4] r1c1→r1c2 r1c3", Size::NINE);
        let regex = read
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("not read"));
        assert_eq!(regex.pattern, "1{1,2}[2-4]");
        assert_eq!(regex.to_string(), "regex 1{1,2}[2-4] r1c1→r1c2→r1c3");
        assert!(read_line("renban r1c1 r1c2", Size::NINE).is_none());
    }
}
