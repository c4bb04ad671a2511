//! Reading the formula of a `formula` or `smt` rule line into the typed
//! tree of [`expr`](super::expr), with errors that point at the character:
//! `column 18: expected a cell, a number or '('`.
//!
//! A `formula` line, loosest first:
//!
//! ```text
//! implies  := or [ '=>' implies ]             (groups to the right)
//! or       := and { 'or' and }
//! and      := not { 'and' not }
//! not      := 'not' not | compare
//! compare  := sum [ ( = | != | < | <= | > | >= ) sum ]   (no chains)
//! sum      := product { ( + | - ) product }
//! product  := unary { ( * | / | % ) unary }
//! unary    := '-' unary | atom
//! atom     := number | r<row>c<column> | true | false | '(' implies ')'
//!           | if implies then implies else implies
//!           | abs(x) | min(x, …) | max(x, …) | sum(x, …) | count(d, x, …) | distinct(x, …)
//! ```
//!
//! Commas between the arguments of a call may be left out (`sum(r1c1
//! r1c2)`), as between the cells of other rule lines. `==` is read as `=`
//! and `<>` as `!=`. Names are read in any case.
//!
//! An `smt` line is one or more `(assert TERM)` in SMT-LIB 2 over the
//! cells `c_R_C`, with the same operators in SMT-LIB's words: `+ - * div
//! mod abs`, `= distinct < <= > >=`, `and or not => ite` and the literals
//! `true`, `false`, numerals and `(- n)`. (SMT-LIB has no `min`, `max` or
//! `count`; they are written with `ite`.) Anything else is an error
//! naming it.

use super::expr::{Compare, Num, Test};
use super::grid::{Cell, Size};

/// Where a formula goes wrong: the column (counted in characters from 1
/// in the whole line) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The column, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// How deep brackets, calls and `not`s may nest: enough for any formula
/// a person writes, and far inside the stack of any thread.
const MAX_DEPTH: usize = 64;

/// How many words and symbols a formula may have, which bounds the depth
/// of a chain (`a - b - c - …`) as well.
const MAX_TOKENS: usize = 2000;

/// A word or symbol and where it is: `start..end` in characters.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    text: String,
    start: usize,
    end: usize,
}

/// A number or a condition, as read so far.
enum Any {
    Num(Num<Cell>),
    Test(Test<Cell>),
}

/// What was read and where it stands in the line.
struct Typed {
    value: Any,
    start: usize,
    end: usize,
}

fn fail<T>(column: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        column: column + 1,
        message: message.into(),
    })
}

/// The words and symbols of `chars[from..]`.
fn tokens(chars: &[char], from: usize, smt: bool) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::new();
    let mut k = from;
    while k < chars.len() {
        let c = chars[k];
        if c.is_whitespace() {
            k += 1;
            continue;
        }
        let start = k;
        if c == '(' || c == ')' || (!smt && c == ',') {
            k += 1;
        } else if smt {
            // An SMT-LIB symbol or numeral runs to a space or a bracket.
            while k < chars.len() && !chars[k].is_whitespace() && chars[k] != '(' && chars[k] != ')'
            {
                k += 1;
            }
        } else if c.is_ascii_alphanumeric() || c == '_' {
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '_') {
                k += 1;
            }
        } else {
            let two: String = chars[k..chars.len().min(k + 2)].iter().collect();
            let symbol = match two.as_str() {
                "<=" | ">=" | "!=" | "==" | "=>" | "<>" => 2,
                _ if "+-*/%=<>".contains(c) => 1,
                _ => return fail(k, format!("unexpected character {c:?}")),
            };
            k += symbol;
        }
        out.push(Token {
            text: chars[start..k].iter().collect::<String>().to_lowercase(),
            start,
            end: k,
        });
        if out.len() > MAX_TOKENS {
            return fail(
                start,
                format!("the formula is too long (over {MAX_TOKENS} words and symbols)"),
            );
        }
    }
    Ok(out)
}

/// A cell `r{row}c{col}` (or `c_{row}_{col}` in an smt line) on the board,
/// or one outside the grid, `v{n}` (`v_{n}`).
fn cell_of(token: &Token, size: Size, smt: bool) -> Option<Result<Cell, ParseError>> {
    let word = token.text.as_str();
    let extra = word.strip_prefix(if smt { "v_" } else { "v" });
    if let Some(found) = extra.and_then(|n| size.extra_numbered(n)) {
        return Some(found.or_else(|e| fail(token.start, format!("{word} is not a cell: {e}"))));
    }
    let (row, col) = if smt {
        let (r, c) = word.strip_prefix("c_")?.split_once('_')?;
        (r, c)
    } else {
        word.strip_prefix('r')?.split_once('c')?
    };
    if row.is_empty()
        || col.is_empty()
        || !row.bytes().all(|b| b.is_ascii_digit())
        || !col.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let side = size.side();
    let on = |n: &str| n.parse::<usize>().ok().filter(|n| (1..=side).contains(n));
    Some(match (on(row), on(col)) {
        (Some(r), Some(c)) => Ok(size.cell(r - 1, c - 1)),
        _ => fail(
            token.start,
            format!("{word} is not a cell on the {size} board"),
        ),
    })
}

/// A whole number, if `token` is one.
fn number_of(token: &Token) -> Option<Result<i64, ParseError>> {
    if !token.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        token
            .text
            .parse::<i64>()
            .or_else(|_| fail(token.start, format!("{} is too large a number", token.text))),
    )
}

struct Parser<'a> {
    chars: &'a [char],
    tokens: Vec<Token>,
    next: usize,
    depth: usize,
    size: Size,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn peek_is(&self, text: &str) -> bool {
        self.peek().is_some_and(|t| t.text == text)
    }

    /// Where the next token starts, or the end of the line.
    fn here(&self) -> usize {
        self.peek().map_or(self.chars.len(), |t| t.start)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("found {:?}", t.text),
            None => "found the end of the line".to_string(),
        }
    }

    fn take(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.next).cloned();
        self.next += 1;
        token
    }

    fn expect(&mut self, text: &str) -> Result<Token, ParseError> {
        if self.peek_is(text)
            && let Some(token) = self.take()
        {
            return Ok(token);
        }
        fail(self.here(), format!("expected '{text}', {}", self.found()))
    }

    /// The text of the line from `start` to `end`, for messages.
    fn text(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().collect()
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fail(
                self.here(),
                format!("the formula nests more than {MAX_DEPTH} deep"),
            );
        }
        Ok(())
    }

    fn num(&self, typed: Typed, needs: &str) -> Result<Num<Cell>, ParseError> {
        match typed.value {
            Any::Num(n) => Ok(n),
            Any::Test(_) => fail(
                typed.start,
                format!(
                    "{needs} needs a number, and {} is a condition",
                    self.text(typed.start, typed.end)
                ),
            ),
        }
    }

    fn test(&self, typed: Typed, needs: &str) -> Result<Test<Cell>, ParseError> {
        match typed.value {
            Any::Test(t) => Ok(t),
            Any::Num(_) => fail(
                typed.start,
                format!(
                    "{needs} needs a condition (a comparison, distinct(…), true or false), \
                     and {} is a number",
                    self.text(typed.start, typed.end)
                ),
            ),
        }
    }
}

fn typed(value: Any, start: usize, end: usize) -> Typed {
    Typed { value, start, end }
}

/// Reads the formula of a `formula` line: `chars[from..]` is the text
/// after the line's first word. Cells must lie on a board of `size`.
pub fn infix(chars: &[char], from: usize, size: Size) -> Result<Test<Cell>, ParseError> {
    let mut parser = Parser {
        chars,
        tokens: tokens(chars, from, false)?,
        next: 0,
        depth: 0,
        size,
    };
    if parser.peek().is_none() {
        return fail(chars.len(), "expected a formula after 'formula'");
    }
    let whole = parser.implies()?;
    if parser.peek().is_some() {
        let message = match parser.peek().map(|t| t.text.as_str()) {
            Some("=" | "!=" | "<" | "<=" | ">" | ">=" | "==" | "<>") => {
                "comparisons do not chain: join them with 'and'".to_string()
            }
            _ => format!(
                "expected an operator or the end of the line, {}",
                parser.found()
            ),
        };
        return fail(parser.here(), message);
    }
    parser.test(whole, "a formula")
}

impl Parser<'_> {
    fn implies(&mut self) -> Result<Typed, ParseError> {
        let left = self.or()?;
        if !self.peek_is("=>") {
            return Ok(left);
        }
        self.take();
        self.enter()?;
        let right = self.implies()?;
        self.depth -= 1;
        let (start, end) = (left.start, right.end);
        let a = self.test(left, "'=>'")?;
        let b = self.test(right, "'=>'")?;
        Ok(typed(
            Any::Test(Test::Implies(Box::new(a), Box::new(b))),
            start,
            end,
        ))
    }

    /// `first word second word …` as one node of conditions.
    fn joined(
        &mut self,
        word: &str,
        part: fn(&mut Self) -> Result<Typed, ParseError>,
        make: fn(Vec<Test<Cell>>) -> Test<Cell>,
    ) -> Result<Typed, ParseError> {
        let first = part(self)?;
        if !self.peek_is(word) {
            return Ok(first);
        }
        let (start, mut end) = (first.start, first.end);
        let needs = format!("'{word}'");
        let mut all = vec![self.test(first, &needs)?];
        while self.peek_is(word) {
            self.take();
            let next = part(self)?;
            end = next.end;
            all.push(self.test(next, &needs)?);
        }
        Ok(typed(Any::Test(make(all)), start, end))
    }

    fn or(&mut self) -> Result<Typed, ParseError> {
        self.joined("or", Self::and, Test::Or)
    }

    fn and(&mut self) -> Result<Typed, ParseError> {
        self.joined("and", Self::not, Test::And)
    }

    fn not(&mut self) -> Result<Typed, ParseError> {
        if !self.peek_is("not") {
            return self.compare();
        }
        let start = self.here();
        self.take();
        self.enter()?;
        let inner = self.not()?;
        self.depth -= 1;
        let end = inner.end;
        let t = self.test(inner, "'not'")?;
        Ok(typed(Any::Test(Test::Not(Box::new(t))), start, end))
    }

    fn compare(&mut self) -> Result<Typed, ParseError> {
        let left = self.sum()?;
        let op = match self.peek().map(|t| t.text.as_str()) {
            Some("=" | "==") => Compare::Eq,
            Some("!=" | "<>") => Compare::Ne,
            Some("<") => Compare::Lt,
            Some("<=") => Compare::Le,
            Some(">") => Compare::Gt,
            Some(">=") => Compare::Ge,
            _ => return Ok(left),
        };
        let symbol = format!("'{}'", op.symbol());
        self.take();
        let right = self.sum()?;
        let (start, end) = (left.start, right.end);
        let a = self.num(left, &symbol)?;
        let b = self.num(right, &symbol)?;
        Ok(typed(
            Any::Test(Test::Compare(op, Box::new(a), Box::new(b))),
            start,
            end,
        ))
    }

    fn sum(&mut self) -> Result<Typed, ParseError> {
        let first = self.product()?;
        if !self.peek_is("+") && !self.peek_is("-") {
            return Ok(first);
        }
        let (start, mut end) = (first.start, first.end);
        let mut acc = self.num(first, "'+' or '-'")?;
        while let Some(op) = self.peek().map(|t| t.text.clone()) {
            if op != "+" && op != "-" {
                break;
            }
            self.take();
            let next = self.product()?;
            end = next.end;
            let b = self.num(next, &format!("'{op}'"))?;
            acc = match (op.as_str(), acc) {
                ("+", Num::Add(mut xs)) => {
                    xs.push(b);
                    Num::Add(xs)
                }
                ("+", a) => Num::Add(vec![a, b]),
                (_, a) => Num::Sub(Box::new(a), Box::new(b)),
            };
        }
        Ok(typed(Any::Num(acc), start, end))
    }

    fn product(&mut self) -> Result<Typed, ParseError> {
        let first = self.unary()?;
        if !["*", "/", "%"].iter().any(|op| self.peek_is(op)) {
            return Ok(first);
        }
        let (start, mut end) = (first.start, first.end);
        let mut acc = self.num(first, "'*', '/' or '%'")?;
        while let Some(op) = self.peek().map(|t| t.text.clone()) {
            if op != "*" && op != "/" && op != "%" {
                break;
            }
            self.take();
            let next = self.unary()?;
            let at = next.start;
            end = next.end;
            let b = self.num(next, &format!("'{op}'"))?;
            if op != "*" && b == Num::Literal(0) {
                return fail(at, "division by zero");
            }
            acc = match (op.as_str(), acc) {
                ("*", Num::Mul(mut xs)) => {
                    xs.push(b);
                    Num::Mul(xs)
                }
                ("*", a) => Num::Mul(vec![a, b]),
                ("/", a) => Num::Div(Box::new(a), Box::new(b)),
                (_, a) => Num::Mod(Box::new(a), Box::new(b)),
            };
        }
        Ok(typed(Any::Num(acc), start, end))
    }

    fn unary(&mut self) -> Result<Typed, ParseError> {
        if !self.peek_is("-") {
            return self.atom();
        }
        let start = self.here();
        self.take();
        self.enter()?;
        let inner = self.unary()?;
        self.depth -= 1;
        let end = inner.end;
        let n = match self.num(inner, "'-'")? {
            Num::Literal(n) => Num::Literal(-n),
            other => Num::Neg(Box::new(other)),
        };
        Ok(typed(Any::Num(n), start, end))
    }

    fn atom(&mut self) -> Result<Typed, ParseError> {
        let Some(token) = self.peek().cloned() else {
            return fail(
                self.here(),
                "expected a cell, a number or '(', found the end of the line",
            );
        };
        let (start, end) = (token.start, token.end);
        if let Some(n) = number_of(&token) {
            self.take();
            return Ok(typed(Any::Num(Num::Literal(n?)), start, end));
        }
        if let Some(cell) = cell_of(&token, self.size, false) {
            self.take();
            return Ok(typed(Any::Num(Num::Cell(cell?)), start, end));
        }
        match token.text.as_str() {
            "true" | "false" => {
                self.take();
                Ok(typed(
                    Any::Test(Test::Literal(token.text == "true")),
                    start,
                    end,
                ))
            }
            "(" => {
                self.take();
                self.enter()?;
                let inner = self.implies()?;
                self.depth -= 1;
                let close = self.expect(")")?;
                Ok(typed(inner.value, start, close.end))
            }
            "if" => self.conditional(),
            "abs" | "min" | "max" | "sum" | "count" | "distinct" => self.call(),
            _ => fail(
                start,
                format!("expected a cell, a number or '(', {}", self.found()),
            ),
        }
    }

    /// `if c then a else b`, of numbers or of conditions.
    fn conditional(&mut self) -> Result<Typed, ParseError> {
        let start = self.here();
        self.take();
        self.enter()?;
        let condition = self.implies()?;
        let condition = self.test(condition, "'if'")?;
        self.expect("then")?;
        let yes = self.implies()?;
        self.expect("else")?;
        let no = self.implies()?;
        self.depth -= 1;
        let end = no.end;
        let value = match (yes.value, no.value) {
            (Any::Num(a), Any::Num(b)) => {
                Any::Num(Num::If(Box::new(condition), Box::new(a), Box::new(b)))
            }
            (Any::Test(a), Any::Test(b)) => {
                Any::Test(Test::If(Box::new(condition), Box::new(a), Box::new(b)))
            }
            (Any::Num(_), Any::Test(_)) => {
                return fail(
                    no.start,
                    "'then' gave a number, so 'else' needs one too, and this is a condition",
                );
            }
            (Any::Test(_), Any::Num(_)) => {
                return fail(
                    no.start,
                    "'then' gave a condition, so 'else' needs one too, and this is a number",
                );
            }
        };
        Ok(typed(value, start, end))
    }

    /// `abs(x)`, `min(…)`, `max(…)`, `sum(…)`, `count(d, …)`, `distinct(…)`.
    fn call(&mut self) -> Result<Typed, ParseError> {
        let Some(name) = self.take() else {
            return fail(self.here(), "expected a name");
        };
        self.expect("(")?;
        self.enter()?;
        let mut args = Vec::new();
        while !self.peek_is(")") {
            if self.peek().is_none() {
                return fail(self.here(), format!("expected ')' to close {}(", name.text));
            }
            let arg = self.implies()?;
            args.push(self.num(arg, &format!("{}(…)", name.text))?);
            if self.peek_is(",") {
                self.take();
            }
        }
        self.depth -= 1;
        let close = self.expect(")")?;
        let (start, end) = (name.start, close.end);
        let count = args.len();
        let need = |least: usize, what: &str| -> Result<(), ParseError> {
            if count < least {
                return fail(start, format!("{}(…) takes {what}", name.text));
            }
            Ok(())
        };
        let value = match name.text.as_str() {
            "abs" => {
                if count != 1 {
                    return fail(start, "abs(…) takes one number");
                }
                Any::Num(Num::Abs(Box::new(args.remove(0))))
            }
            "min" => {
                need(1, "one number or more")?;
                Any::Num(Num::Min(args))
            }
            "max" => {
                need(1, "one number or more")?;
                Any::Num(Num::Max(args))
            }
            "sum" => {
                need(1, "one cell or more")?;
                Any::Num(Num::Sum(args))
            }
            "count" => {
                need(2, "a digit and one cell or more: count(5, r1c1, r1c2)")?;
                let digit = args.remove(0);
                Any::Num(Num::Count(Box::new(digit), args))
            }
            _ => {
                need(2, "two cells or more")?;
                Any::Test(Test::Distinct(args))
            }
        };
        Ok(typed(value, start, end))
    }
}

/// The operators an `smt` line reads, for messages.
const SMT_OPERATORS: &str = "+ - * div mod abs = distinct < <= > >= and or not => ite";

/// Reads the assertions of an `smt` line: `chars[from..]` is the text
/// after the line's first word. Several assertions are joined by `and`.
pub fn smt(chars: &[char], from: usize, size: Size) -> Result<Test<Cell>, ParseError> {
    let mut parser = Parser {
        chars,
        tokens: tokens(chars, from, true)?,
        next: 0,
        depth: 0,
        size,
    };
    let mut asserted = Vec::new();
    while parser.peek().is_some() {
        parser.expect("(")?;
        let word = parser.here();
        match parser.take() {
            Some(t) if t.text == "assert" => {}
            Some(t) => {
                return fail(
                    word,
                    format!(
                        "an smt line holds (assert …) only, found {:?} (every cell c_R_C is \
                         declared already)",
                        t.text
                    ),
                );
            }
            None => return fail(word, "expected 'assert', found the end of the line"),
        }
        let term = parser.term()?;
        let t = parser.test(term, "assert")?;
        parser.expect(")")?;
        asserted.push(t);
    }
    match asserted.len() {
        0 => fail(chars.len(), "expected (assert …) after 'smt'"),
        1 => Ok(asserted.remove(0)),
        _ => Ok(Test::And(asserted)),
    }
}

impl Parser<'_> {
    fn term(&mut self) -> Result<Typed, ParseError> {
        let Some(token) = self.take() else {
            return fail(self.here(), "expected a term, found the end of the line");
        };
        let (start, end) = (token.start, token.end);
        if let Some(n) = number_of(&token) {
            return Ok(typed(Any::Num(Num::Literal(n?)), start, end));
        }
        if let Some(cell) = cell_of(&token, self.size, true) {
            return Ok(typed(Any::Num(Num::Cell(cell?)), start, end));
        }
        match token.text.as_str() {
            "true" | "false" => {
                return Ok(typed(
                    Any::Test(Test::Literal(token.text == "true")),
                    start,
                    end,
                ));
            }
            "(" => {}
            ")" => return fail(start, "expected a term, found ')'"),
            word if word.starts_with('-') && word[1..].bytes().all(|b| b.is_ascii_digit()) => {
                return fail(
                    start,
                    format!("SMT-LIB writes {word} as (- {})", &word[1..]),
                );
            }
            word => {
                return fail(
                    start,
                    format!("unknown name {word:?}: the cells are c_R_C, as --model names them"),
                );
            }
        }
        self.enter()?;
        let op_at = self.here();
        let Some(op) = self.take() else {
            return fail(op_at, "expected an operator, found the end of the line");
        };
        let mut args = Vec::new();
        while !self.peek_is(")") {
            if self.peek().is_none() {
                return fail(self.here(), format!("expected ')' to close ({}", op.text));
            }
            args.push(self.term()?);
        }
        let close = self.expect(")")?;
        self.depth -= 1;
        let end = close.end;
        let needs = format!("({} …)", op.text);
        let count = args.len();
        let arity = |least: usize, most: usize| -> Result<(), ParseError> {
            if count < least || count > most {
                let what = match (least, most) {
                    (l, m) if l == m => format!("{l}"),
                    (l, usize::MAX) => format!("{l} or more"),
                    (l, m) => format!("{l} to {m}"),
                };
                return fail(
                    op_at,
                    format!("{} takes {what} arguments, not {count}", op.text),
                );
            }
            Ok(())
        };
        let nums = |this: &Self, args: Vec<Typed>| -> Result<Vec<Num<Cell>>, ParseError> {
            args.into_iter().map(|a| this.num(a, &needs)).collect()
        };
        let tests = |this: &Self, args: Vec<Typed>| -> Result<Vec<Test<Cell>>, ParseError> {
            args.into_iter().map(|a| this.test(a, &needs)).collect()
        };
        let value = match op.text.as_str() {
            "+" | "*" => {
                arity(2, usize::MAX)?;
                let xs = nums(self, args)?;
                Any::Num(if op.text == "+" {
                    Num::Add(xs)
                } else {
                    Num::Mul(xs)
                })
            }
            "-" => {
                arity(1, usize::MAX)?;
                let mut xs = nums(self, args)?.into_iter();
                let first = xs.next().unwrap_or(Num::Literal(0));
                if count == 1 {
                    Any::Num(match first {
                        Num::Literal(n) => Num::Literal(-n),
                        other => Num::Neg(Box::new(other)),
                    })
                } else {
                    Any::Num(xs.fold(first, |a, b| Num::Sub(Box::new(a), Box::new(b))))
                }
            }
            "div" | "mod" => {
                arity(2, if op.text == "div" { usize::MAX } else { 2 })?;
                let starts: Vec<usize> = args.iter().map(|a| a.start).collect();
                let xs = nums(self, args)?;
                if let Some(k) = xs.iter().skip(1).position(|x| *x == Num::Literal(0)) {
                    return fail(starts[k + 1], "division by zero");
                }
                let mut xs = xs.into_iter();
                let first = xs.next().unwrap_or(Num::Literal(0));
                let div = op.text == "div";
                Any::Num(xs.fold(first, |a, b| {
                    if div {
                        Num::Div(Box::new(a), Box::new(b))
                    } else {
                        Num::Mod(Box::new(a), Box::new(b))
                    }
                }))
            }
            "abs" => {
                arity(1, 1)?;
                Any::Num(Num::Abs(Box::new(nums(self, args)?.remove(0))))
            }
            "=" | "<" | "<=" | ">" | ">=" => {
                arity(2, usize::MAX)?;
                let compare = match op.text.as_str() {
                    "=" => Compare::Eq,
                    "<" => Compare::Lt,
                    "<=" => Compare::Le,
                    ">" => Compare::Gt,
                    _ => Compare::Ge,
                };
                let xs = nums(self, args)?;
                // Chained, as SMT-LIB reads them: (< a b c) is a < b and b < c.
                let mut pairs: Vec<Test<Cell>> = xs
                    .windows(2)
                    .map(|w| Test::Compare(compare, Box::new(w[0].clone()), Box::new(w[1].clone())))
                    .collect();
                Any::Test(if pairs.len() == 1 {
                    pairs.remove(0)
                } else {
                    Test::And(pairs)
                })
            }
            "distinct" => {
                arity(2, usize::MAX)?;
                Any::Test(Test::Distinct(nums(self, args)?))
            }
            "and" | "or" => {
                arity(1, usize::MAX)?;
                let mut ts = tests(self, args)?;
                Any::Test(match (ts.len(), op.text.as_str()) {
                    (1, _) => ts.remove(0),
                    (_, "and") => Test::And(ts),
                    _ => Test::Or(ts),
                })
            }
            "not" => {
                arity(1, 1)?;
                Any::Test(Test::Not(Box::new(tests(self, args)?.remove(0))))
            }
            "=>" => {
                arity(2, usize::MAX)?;
                let mut ts = tests(self, args)?;
                let last = ts.pop().unwrap_or(Test::Literal(true));
                // Grouped to the right: (=> a b c) is a => (b => c).
                Any::Test(
                    ts.into_iter()
                        .rev()
                        .fold(last, |b, a| Test::Implies(Box::new(a), Box::new(b))),
                )
            }
            "ite" => {
                arity(3, 3)?;
                let mut args = args.into_iter();
                let (Some(c), Some(a), Some(b)) = (args.next(), args.next(), args.next()) else {
                    return fail(op_at, "ite takes 3 arguments");
                };
                let c = self.test(c, "(ite …)")?;
                match (a.value, b.value) {
                    (Any::Num(a), Any::Num(b)) => {
                        Any::Num(Num::If(Box::new(c), Box::new(a), Box::new(b)))
                    }
                    (Any::Test(a), Any::Test(b)) => {
                        Any::Test(Test::If(Box::new(c), Box::new(a), Box::new(b)))
                    }
                    _ => {
                        return fail(
                            b.start,
                            "(ite …) needs two numbers or two conditions after its condition",
                        );
                    }
                }
            }
            other => {
                return fail(
                    op_at,
                    format!(
                        "{other:?} is not an operator z3doku reads in an smt line (it reads \
                         {SMT_OPERATORS})"
                    ),
                );
            }
        };
        Ok(typed(value, start, end))
    }
}
