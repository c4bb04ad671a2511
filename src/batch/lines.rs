//! The lines of a puzzle file, read in bounded memory and time: a line
//! longer than any puzzle becomes an error as soon as it passes the limit
//! and is skipped to its end rather than held, and bytes that are not UTF-8
//! spoil only their own line. This is the one reader of puzzle files: `batch`
//! streams it and `bench` collects it.

use super::LineError;
use crate::puzzle::parse::is_skipped;
use std::io::{BufRead, ErrorKind};

/// The longest line that is read whole. The largest puzzle (625 cells) fits
/// many times over, even spaced out; anything longer is an error line.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How far past [`MAX_LINE_BYTES`] a line is skipped in search of its end.
/// A line longer than this is no puzzle file's (`/dev/zero`, a binary): the
/// reading stops there rather than run forever.
pub const MAX_SKIPPED_BYTES: usize = 16 * 1024 * 1024;

/// A line that may hold a puzzle: blank and comment lines never become one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLine {
    /// The 1-based line number in the input.
    pub number: usize,
    /// The text, trimmed, or why it cannot be read.
    pub text: Result<String, LineError>,
}

/// An iterator over the puzzle lines of a reader. It ends at the end of the
/// input, or after a line that reports a read failure or has no end.
pub struct Lines<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
    failed: bool,
}

/// How much of a line [`Lines::read_line`] kept.
enum Kept {
    /// The whole line.
    Whole,
    /// Its first [`MAX_LINE_BYTES`]; the rest was skipped to its end.
    Cut,
    /// Its first [`MAX_LINE_BYTES`]; no end came within
    /// [`MAX_SKIPPED_BYTES`] more.
    Endless,
}

impl<R: BufRead> Lines<R> {
    /// Reads lines from `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            buffer: Vec::new(),
            failed: false,
        }
    }

    /// The reader the lines come from.
    pub fn reader(&self) -> &R {
        &self.reader
    }

    /// Reads the next line, or its first [`MAX_LINE_BYTES`], into the
    /// buffer, and skips the rest of a longer line (as far as
    /// [`MAX_SKIPPED_BYTES`]). `None` at the end of the input.
    fn read_line(&mut self) -> std::io::Result<Option<Kept>> {
        self.buffer.clear();
        let mut any = false;
        let mut skipped = 0;
        loop {
            let available = match self.reader.fill_buf() {
                Ok([]) => break,
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            any = true;
            let (chunk, used, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            let room = MAX_LINE_BYTES - self.buffer.len();
            let kept = chunk.len().min(room);
            self.buffer.extend_from_slice(&chunk[..kept]);
            skipped += chunk.len() - kept;
            self.reader.consume(used);
            if ends {
                break;
            }
            if skipped > MAX_SKIPPED_BYTES {
                return Ok(Some(Kept::Endless));
            }
        }
        Ok(any.then_some(if skipped > 0 { Kept::Cut } else { Kept::Whole }))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = PuzzleLine;

    fn next(&mut self) -> Option<PuzzleLine> {
        while !self.failed {
            let kept = match self.read_line() {
                Ok(None) => return None,
                Ok(Some(kept)) => kept,
                Err(e) => {
                    self.failed = true;
                    return Some(PuzzleLine {
                        number: self.number + 1,
                        text: Err(LineError::Io {
                            line: self.number + 1,
                            message: crate::puzzle::input::io_message(&e),
                        }),
                    });
                }
            };
            self.number += 1;
            let line = self.number;
            let bytes = match self.buffer.as_slice() {
                [rest @ .., b'\r'] if matches!(kept, Kept::Whole) => rest,
                bytes => bytes,
            };
            // A byte-order mark, as some editors write, says nothing.
            let bytes = match bytes {
                [0xef, 0xbb, 0xbf, rest @ ..] if line == 1 => rest,
                bytes => bytes,
            };
            // A comment is skipped whatever it holds, however long.
            if bytes.trim_ascii_start().starts_with(b"#") && !matches!(kept, Kept::Endless) {
                continue;
            }
            let text = match kept {
                Kept::Endless => {
                    self.failed = true;
                    Err(LineError::Endless { line })
                }
                Kept::Cut => Err(LineError::TooLong { line }),
                Kept::Whole => match std::str::from_utf8(bytes) {
                    Ok(text) if is_skipped(text) => continue,
                    Ok(text) => Ok(text.trim().to_string()),
                    Err(e) => {
                        let valid = String::from_utf8_lossy(&bytes[..e.valid_up_to()]);
                        Err(LineError::NotUtf8 {
                            line,
                            column: valid.chars().count() + 1,
                        })
                    }
                },
            };
            return Some(PuzzleLine { number: line, text });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn lines(bytes: &[u8]) -> Vec<PuzzleLine> {
        // A tiny buffer, so lines span many reads.
        Lines::new(BufReader::with_capacity(7, bytes)).collect()
    }

    fn ok(number: usize, text: &str) -> PuzzleLine {
        PuzzleLine {
            number,
            text: Ok(text.to_string()),
        }
    }

    #[test]
    fn skips_comments_and_blanks_and_numbers_lines() {
        let got = lines(b"# head\n\n  abc  \r\n\t\n  # note\nxyz");
        assert_eq!(got, vec![ok(3, "abc"), ok(6, "xyz")]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"a\n\n"), vec![ok(1, "a")]);
    }

    #[test]
    fn a_long_line_is_cut_and_the_next_still_read() {
        let mut input = vec![b'1'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nnext\n#");
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES * 2));
        input.extend_from_slice(b"\nlast");
        let got = lines(&input);
        assert_eq!(
            got,
            vec![
                PuzzleLine {
                    number: 1,
                    text: Err(LineError::TooLong { line: 1 })
                },
                ok(2, "next"),
                ok(4, "last"),
            ]
        );
        // Exactly the limit is still a line.
        let exact = vec![b'2'; MAX_LINE_BYTES];
        assert_eq!(
            lines(&exact)[0].text.as_ref().map(String::len),
            Ok(MAX_LINE_BYTES)
        );
    }

    #[test]
    fn a_line_without_end_is_one_error_and_reading_stops() {
        // An endless line (as /dev/zero gives): one error for the line, once
        // MAX_SKIPPED_BYTES have gone by without an end, and no more lines.
        let mut reader = Lines::new(BufReader::new(std::io::repeat(0)));
        assert_eq!(
            reader.next().map(|l| l.text),
            Some(Err(LineError::Endless { line: 1 }))
        );
        assert_eq!(reader.next(), None);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(
            lines(b"\xef\xbb\xbfabc\r\n\xef\xbb\xbf"),
            vec![
                ok(1, "abc"),
                PuzzleLine {
                    number: 2,
                    text: Ok("\u{feff}".into())
                }
            ]
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_spoil_only_their_line() {
        let got = lines(b"ab\xffc\n\xc3\xa9\xfe\nok\n");
        assert_eq!(
            got,
            vec![
                PuzzleLine {
                    number: 1,
                    text: Err(LineError::NotUtf8 { line: 1, column: 3 })
                },
                PuzzleLine {
                    number: 2,
                    text: Err(LineError::NotUtf8 { line: 2, column: 2 })
                },
                ok(3, "ok"),
            ]
        );
    }

    struct Failing;

    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }

    #[test]
    fn a_read_failure_is_the_last_line() {
        let input = b"first\n".chain(Failing);
        let got: Vec<PuzzleLine> = Lines::new(BufReader::new(input)).collect();
        assert_eq!(
            got,
            vec![
                ok(1, "first"),
                PuzzleLine {
                    number: 2,
                    text: Err(LineError::Io {
                        line: 2,
                        message: "disk on fire".into()
                    })
                },
            ]
        );
    }
}
