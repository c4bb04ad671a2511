//! A small SVG writer: elements with escaped attributes, numbers written
//! short, path data. It writes what the drawers ask for and nothing more,
//! which a general SVG crate would not make shorter.

use std::fmt::{self, Write};

/// A number as SVG wants it: at most two decimals, no trailing zeros,
/// `-0` as `0`.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rounded = (self.0 * 100.0).round() / 100.0;
        if rounded == 0.0 || !rounded.is_finite() {
            return f.write_str("0");
        }
        let text = format!("{rounded:.2}");
        f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// Writes `text` with `&`, `<`, `>` and `"` escaped.
fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// One attribute's value.
pub enum Value<'a> {
    /// A number.
    Num(f64),
    /// Text, escaped when written.
    Text(&'a str),
}

impl From<f64> for Value<'_> {
    fn from(n: f64) -> Self {
        Value::Num(n)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(text: &'a str) -> Self {
        Value::Text(text)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(text: &'a String) -> Self {
        Value::Text(text)
    }
}

/// Attributes, in the order written.
pub type Attrs<'a> = [(&'a str, Value<'a>)];

/// A fragment of SVG: a run of elements, written in order.
#[derive(Clone, Debug, Default)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// An empty fragment.
    pub fn new() -> Svg {
        Svg::default()
    }

    fn start(&mut self, name: &str, attrs: &Attrs<'_>) {
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attrs {
            self.out.push(' ');
            self.out.push_str(key);
            self.out.push_str("=\"");
            match value {
                Value::Num(n) => {
                    let _ = write!(self.out, "{}", Num(*n));
                }
                Value::Text(text) => escape(&mut self.out, text),
            }
            self.out.push('"');
        }
    }

    /// An empty element: `<name a="v"/>`.
    pub fn element(&mut self, name: &str, attrs: &Attrs<'_>) {
        self.start(name, attrs);
        self.out.push_str("/>\n");
    }

    /// An element holding `text`, escaped.
    pub fn text_element(&mut self, name: &str, attrs: &Attrs<'_>, text: &str) {
        self.start(name, attrs);
        self.out.push('>');
        escape(&mut self.out, text);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    /// Opens a group with `attrs`; [`Svg::close`] ends it.
    pub fn open(&mut self, name: &str, attrs: &Attrs<'_>) {
        self.start(name, attrs);
        self.out.push_str(">\n");
    }

    /// Ends the element `name`.
    pub fn close(&mut self, name: &str) {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    /// Appends another fragment.
    pub fn append(&mut self, other: &Svg) {
        self.out.push_str(&other.out);
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The text written.
    pub fn as_str(&self) -> &str {
        &self.out
    }
}

/// Path data (`d`), built a command at a time.
#[derive(Clone, Debug, Default)]
pub struct Path {
    d: String,
}

impl Path {
    /// An empty path.
    pub fn new() -> Path {
        Path::default()
    }

    /// Moves to `(x, y)`.
    pub fn move_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.d, "M{} {}", Num(x), Num(y));
        self
    }

    /// A straight line to `(x, y)`.
    pub fn line_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.d, "L{} {}", Num(x), Num(y));
        self
    }

    /// Closes the current shape.
    pub fn close(&mut self) -> &mut Self {
        self.d.push('Z');
        self
    }

    /// Whether no command was written.
    pub fn is_empty(&self) -> bool {
        self.d.is_empty()
    }

    /// The data.
    pub fn as_str(&self) -> &str {
        &self.d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(Num(3.0).to_string(), "3");
        assert_eq!(Num(3.5).to_string(), "3.5");
        assert_eq!(Num(12.3456).to_string(), "12.35");
        assert_eq!(Num(-0.001).to_string(), "0");
        assert_eq!(Num(-2.25).to_string(), "-2.25");
        assert_eq!(Num(f64::NAN).to_string(), "0");
    }

    #[test]
    fn attributes_and_text_are_escaped() {
        let mut svg = Svg::new();
        svg.text_element(
            "text",
            &[("x", 1.5.into()), ("class", "a\"b<".into())],
            "sum < 10 & more",
        );
        assert_eq!(
            svg.as_str(),
            "<text x=\"1.5\" class=\"a&quot;b&lt;\">sum &lt; 10 &amp; more</text>\n"
        );
    }

    #[test]
    fn paths_read_as_commands() {
        let mut path = Path::new();
        path.move_to(0.0, 1.0).line_to(2.5, 3.0).close();
        assert_eq!(path.as_str(), "M0 1L2.5 3Z");
    }
}
