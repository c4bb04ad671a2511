//! Where a puzzle comes from: a command-line argument that is the puzzle
//! itself, a file, or standard input; and reading it safely (bounded, UTF-8
//! checked, every failure named).

use super::Puzzle;
use super::fpuzzles::{self, FpuzzlesError};
use super::grid::{Grid, Size};
use super::parse::{ParseError, parse_puzzle};
use super::rule_text::{self, RuleTextError};
use super::rules::{RuleError, Rules};
use super::sigh::{self, SighError};
use std::fmt;
use std::io::Read;
use std::path::PathBuf;
use thiserror::Error;

/// The most a single-puzzle input may hold. The largest board in its most
/// decorated form is a few tens of KiB; anything past this is not a puzzle
/// and is refused before it fills memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// The shortest puzzle text that may hold letters (a 4x4 line): below it,
/// only digits and blanks make a puzzle.
const SHORTEST_PUZZLE: usize = 16;

/// Where to read a puzzle from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File(PathBuf),
    /// The puzzle text itself, given on the command line.
    Text(String),
}

impl Source {
    /// Interprets a command-line argument: `-` is standard input; a sigh
    /// string or link, an f-puzzles link, payload or JSON that names no
    /// file is the puzzle; a path
    /// that exists or contains a `/` names a file; so does anything too
    /// short to be a puzzle of 4x4 or more unless it is all cells (a 1x1 to
    /// 3x3 board such as `12.21....`); anything else is the puzzle itself.
    pub fn from_arg(arg: &str) -> Source {
        let cells: Vec<char> = arg.chars().filter(|c| !c.is_whitespace()).collect();
        let small_board = !cells.is_empty()
            && cells
                .iter()
                .all(|&c| matches!(c, '.' | '0' | '*' | '_' | '1'..='9'));
        let path = PathBuf::from(arg);
        if arg == "-" {
            Source::Stdin
        } else if !path.exists() && (sigh::is_sigh(arg) || fpuzzles::is_fpuzzles(arg)) {
            // A link or payload holds `/` but names no file.
            Source::Text(arg.to_string())
        } else if path.exists()
            || arg.contains('/')
            || (cells.len() < SHORTEST_PUZZLE && !small_board)
        {
            Source::File(path)
        } else {
            Source::Text(arg.to_string())
        }
    }

    /// Reads the whole source as text, refusing more than
    /// [`MAX_INPUT_BYTES`] and bytes that are not UTF-8.
    pub fn read_text(&self) -> Result<String, InputError> {
        let bytes = match self {
            Source::Text(text) => return Ok(text.clone()),
            Source::Stdin => read_bounded(std::io::stdin().lock())?,
            Source::File(path) => {
                if path.is_dir() {
                    return Err(InputError::Directory);
                }
                let file = std::fs::File::open(path).map_err(|e| InputError::Io(io_message(&e)))?;
                read_bounded(file)?
            }
        };
        String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let valid = String::from_utf8_lossy(valid);
            let line = valid.matches('\n').count() + 1;
            let column = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            InputError::NotUtf8 { line, column }
        })
    }

    /// Reads and parses the puzzle: a sigh string or link (see
    /// [`sigh`]), f-puzzles JSON (text that starts with `{`), an f-puzzles
    /// or SudokuPad link or bare compressed payload, with the rules they
    /// state; otherwise a grid in one of the text forms,
    /// followed by any rule lines (see [`rule_text`]), with the classic rules
    /// of its size and those.
    pub fn read_puzzle(&self, size: Option<Size>) -> Result<Puzzle, InputError> {
        self.read_puzzle_and_form(size).map(|(puzzle, _)| puzzle)
    }

    /// Reads and parses the puzzle as [`Source::read_puzzle`] does, and
    /// says whether it came as a grid of rows (`true`) rather than one line,
    /// so that an answer can take the same form.
    pub fn read_puzzle_and_form(&self, size: Option<Size>) -> Result<(Puzzle, bool), InputError> {
        let text = self.read_text()?;
        self.read_text_as_puzzle(&text, size)
            .map_err(|error| match self {
                // An argument that reads as a name was likely meant as a
                // file: say that none is there, besides what is wrong with
                // it as a puzzle.
                Source::Text(arg) if looks_like_a_name(arg) => InputError::NotAFileNorPuzzle {
                    arg: arg.clone(),
                    error: Box::new(error),
                },
                _ => error,
            })
    }

    fn read_text_as_puzzle(
        &self,
        text: &str,
        size: Option<Size>,
    ) -> Result<(Puzzle, bool), InputError> {
        // sigh's strings and links first: a link's query is no f-puzzles
        // payload, and neither form is a grid.
        let read = if sigh::is_sigh(text) {
            Some(sigh::parse(text).map_err(InputError::Sigh))
        } else if fpuzzles::is_fpuzzles(text) {
            Some(fpuzzles::parse(text).map_err(InputError::Fpuzzles))
        } else {
            None
        };
        if let Some(read) = read {
            let puzzle = read?;
            return match size {
                Some(size) if !size.same_dimensions(puzzle.size()) => {
                    Err(InputError::SizeMismatch {
                        asked: size,
                        found: puzzle.size(),
                    })
                }
                _ => Ok((puzzle, false)),
            };
        }
        let (grid, rule_lines) = rule_text::split(text);
        let rows = grid
            .lines()
            .filter(|l| !crate::puzzle::parse::is_skipped(l))
            .count();
        let givens = parse_puzzle(&grid, size).map_err(InputError::Parse)?;
        if rule_lines.is_empty() {
            return Ok((Puzzle::classic(givens), rows > 1));
        }
        // The cells outside the grid that rule lines declare, if any, make
        // the board larger before any rule names them.
        let (_, extra) = rule_text::extra_cells(&rule_lines).map_err(InputError::RuleText)?;
        let givens = match extra {
            0 => givens,
            extra => givens
                .size()
                .with_extra(extra)
                .and_then(|size| Grid::from_cells(size, givens.cells()))
                .ok_or_else(|| {
                    InputError::RuleText(RuleTextError {
                        line: rule_lines.first().map_or(1, |l| l.0),
                        column: None,
                        problem: format!(
                            "{extra} cells outside the grid, more than z3doku takes beside a {} \
                             grid",
                            givens.size()
                        ),
                    })
                })?,
        };
        let mut builder = Rules::builder(givens.size());
        rule_text::read_rules(&rule_lines, givens.size(), &mut builder)
            .map_err(InputError::RuleText)?;
        let rules = builder.build().map_err(InputError::Rule)?;
        Ok((Puzzle::new(givens, rules), rows > 1))
    }
}

impl fmt::Display for Source {
    /// How messages name the source: the path (quoted and escaped when it
    /// is empty or holds characters that would disturb a one-line message,
    /// see [`display_path`]), `standard input`, or `puzzle argument`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Stdin => f.write_str("standard input"),
            Source::File(path) => f.write_str(&display_path(path)),
            Source::Text(_) => f.write_str("puzzle argument"),
        }
    }
}

/// Why a puzzle could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// The operating system refused: the reason, e.g. `No such file or
    /// directory`.
    #[error("cannot read it: {0}")]
    Io(String),
    /// The path is a directory.
    #[error("is a directory, not a puzzle file")]
    Directory,
    /// Bytes that are not UTF-8, first at this place.
    #[error("line {line}, column {column}: bytes that are not UTF-8 text")]
    NotUtf8 {
        /// Line of the first bad byte.
        line: usize,
        /// Column (in characters) of the first bad byte.
        column: usize,
    },
    /// More than [`MAX_INPUT_BYTES`].
    #[error(
        "more than 1 MiB of input, far more than a puzzle; for a file of puzzles use `z3doku batch`"
    )]
    TooLarge,
    /// The text is not a puzzle.
    #[error("{0}")]
    Parse(ParseError),
    /// f-puzzles input that is not a puzzle z3doku can solve.
    #[error("{0}")]
    Fpuzzles(FpuzzlesError),
    /// A sigh string that is not a puzzle z3doku can solve.
    #[error("{0}")]
    Sigh(SighError),
    /// A rule line that is not a rule z3doku can read.
    #[error("{0}")]
    RuleText(RuleTextError),
    /// Rules that cannot go together on the board.
    #[error("{0}")]
    Rule(RuleError),
    /// The puzzle's own size differs from the one asked for.
    #[error("the puzzle is {found}, but {asked} was asked for")]
    SizeMismatch {
        /// The size asked for.
        asked: Size,
        /// The puzzle's.
        found: Size,
    },
    /// A command-line argument that is neither a file nor a puzzle.
    #[error("{error} (and no file named {arg:?} exists)")]
    NotAFileNorPuzzle {
        /// The argument.
        arg: String,
        /// What is wrong with it as a puzzle.
        error: Box<InputError>,
    },
}

/// A path as a one-line message may show it: as it is when it is plain
/// text, otherwise quoted with control characters escaped, so that a name
/// can neither split the message nor send escape sequences to a terminal,
/// and an empty name still shows (`""`).
pub fn display_path(path: &std::path::Path) -> String {
    let text = path.to_string_lossy();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| !c.is_control() && c != '"' && c != '\u{feff}')
        && !text.starts_with(char::is_whitespace)
        && !text.ends_with(char::is_whitespace);
    if plain {
        text.into_owned()
    } else {
        format!("\"{}\"", text.escape_debug())
    }
}

/// Whether a command-line argument reads as a file's name rather than a
/// puzzle: it has an extension (`notebook.txtx`), or it is one word (no
/// blanks, one line) of mostly letters (`notebooktxtx`). A puzzle's cells
/// are digits and blanks, with letters only for boards above 9x9 and never
/// most of a puzzle's cells; a payload is mostly letters too, so a mistyped
/// name that looks like one is caught as well. JSON and links are not
/// names.
fn looks_like_a_name(arg: &str) -> bool {
    let one_word = !arg.is_empty() && !arg.chars().any(char::is_whitespace);
    let letters = arg.chars().filter(char::is_ascii_alphabetic).count();
    !arg.starts_with('{')
        && !arg.contains("://")
        && !sigh::is_sigh(arg)
        && (has_extension(arg) || (one_word && 2 * letters > arg.chars().count()))
}

fn has_extension(arg: &str) -> bool {
    std::path::Path::new(arg)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| !e.is_empty() && e.chars().all(|c| c.is_ascii_alphabetic()))
}

fn read_bounded(reader: impl Read) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Io(io_message(&e)))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge);
    }
    Ok(bytes)
}

/// The OS's reason without Rust's `(os error N)` suffix.
pub fn io_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        assert_eq!(Source::from_arg("-"), Source::Stdin);
        assert_eq!(
            Source::from_arg("notebook.txt"),
            Source::File("notebook.txt".into())
        );
        assert_eq!(Source::from_arg("a/b"), Source::File("a/b".into()));
        let line = ".".repeat(81);
        assert_eq!(Source::from_arg(&line), Source::Text(line.clone()));
        assert_eq!(Source::from_arg("12.21"), Source::Text("12.21".into()));
        assert_eq!(Source::from_arg("abc"), Source::File("abc".into()));
    }

    #[test]
    fn a_mistyped_name_says_no_such_file_exists() {
        // Long enough to be a puzzle line, so it is read as one.
        let arg = "notebookxxxxxxxxtxtx";
        assert_eq!(Source::from_arg(arg), Source::Text(arg.into()));
        let error = Source::from_arg(arg).read_puzzle(None).err();
        let message = error.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.ends_with("(and no file named \"notebookxxxxxxxxtxtx\" exists)"),
            "{message}"
        );
        // A puzzle line with a wrong cell is a puzzle, not a name.
        let line = format!("x{}", ".".repeat(80));
        let message = Source::from_arg(&line)
            .read_puzzle(None)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(!message.contains("no file named"), "{message}");
        assert!(looks_like_a_name("notebook.txtx"));
        assert!(looks_like_a_name("MyPuzzleFileNameLong"));
        assert!(!looks_like_a_name(
            "https://f-puzzles.com/?load=abcdefghijklmnop"
        ));
        assert!(!looks_like_a_name("1...ABC.........DEFG..."));
    }

    #[test]
    fn names_are_quoted_when_they_are_not_plain() {
        assert_eq!(Source::from_arg("a b.txt").to_string(), "a b.txt");
        assert_eq!(Source::File("".into()).to_string(), "\"\"");
        assert_eq!(
            Source::File("x\u{1b}[31m\ny".into()).to_string(),
            "\"x\\u{1b}[31m\\ny\""
        );
    }

    #[test]
    fn missing_file_and_directory() {
        let missing = Source::from_arg("/no/such/puzzle.txt");
        assert_eq!(
            missing.read_text(),
            Err(InputError::Io("No such file or directory".into()))
        );
        assert_eq!(
            Source::from_arg("/").read_text(),
            Err(InputError::Directory)
        );
    }

    #[test]
    fn not_utf8_names_the_place() {
        let dir = std::env::temp_dir().join(format!("z3doku-input-{}", std::process::id()));
        std::fs::write(&dir, b"# ok\nab\xffcd\n").unwrap_or_else(|e| panic!("{e}"));
        let result = Source::File(dir.clone()).read_text();
        let _ = std::fs::remove_file(&dir);
        assert_eq!(result, Err(InputError::NotUtf8 { line: 2, column: 3 }));
    }
}
