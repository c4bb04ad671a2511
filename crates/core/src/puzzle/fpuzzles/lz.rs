//! lz-string's `decompressFromBase64`, bounded: the payloads f-puzzles and
//! SudokuPad put in links, read with a cap on what they decompress to.
//!
//! lz-string codes its text as a stream of dictionary indexes, each a few
//! bits wider than the last as the dictionary grows; each new dictionary
//! entry is the previous piece of output and the first character of the
//! next. A plain decoder keeps every entry as a string of its own, so a
//! small payload of long repeats costs memory that grows with the square of
//! its length. Here an entry is a (start, length) slice of the output
//! itself, as every entry is a run of what was already written, so memory
//! stays within the output and the dictionary's index, and the output is
//! refused once it passes the cap.

/// Why a payload was not decompressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LzError {
    /// Not lz-string's base64: a character outside its alphabet, or a
    /// stream that names an entry the dictionary does not have.
    Corrupt,
    /// It decompresses to more than the cap, in UTF-16 units.
    TooLong(usize),
}

/// The value of one character of lz-string's base64 alphabet.
fn sextet(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        // Padding reads as 64 in lz-string's alphabet, whose bits past the
        // sixth are never read.
        b'=' => Some(64),
        _ => None,
    }
}

/// Reads bits as lz-string writes them: each character's six bits from
/// the highest, gathered into numbers lowest bit first.
struct Bits<'a> {
    input: &'a [u8],
    next: usize,
    value: u32,
    /// The bit of `value` read next (32 down to 1).
    position: u32,
}

impl Bits<'_> {
    /// The next `width` bits as a number; `None` past the end of the input.
    fn read(&mut self, width: u32) -> Result<Option<u32>, LzError> {
        let mut number = 0;
        for bit in 0..width {
            if self.position == 0 {
                let Some(&c) = self.input.get(self.next) else {
                    return Ok(None);
                };
                self.value = sextet(c).ok_or(LzError::Corrupt)?;
                self.next += 1;
                self.position = 32;
            }
            if self.value & self.position != 0 {
                number |= 1 << bit;
            }
            self.position >>= 1;
        }
        Ok(Some(number))
    }
}

/// The UTF-16 text that the base64 payload `input` holds, refused once it
/// passes `cap` units. An empty or truncated payload gives what it holds
/// (lz-string's own decoder gives an empty text for a stream without its
/// end mark; a payload cut short then fails as JSON, which names where).
pub fn decompress_from_base64(input: &str, cap: usize) -> Result<Vec<u16>, LzError> {
    let mut bits = Bits {
        input: input.as_bytes(),
        next: 0,
        value: 0,
        position: 0,
    };
    let mut out: Vec<u16> = Vec::new();
    // Entries 0, 1 and 2 are the codes for "a new 8-bit character", "a new
    // 16-bit character" and "the end"; the others are (start, length)
    // runs of `out`.
    let mut entries: Vec<(u32, u32)> = vec![(0, 0); 3];
    // Runs are kept as 32-bit numbers (half the memory): the cap keeps
    // the output far below 4 Gi units.
    let cap = cap.min(u32::MAX as usize / 2);
    let mut width = 2;
    let mut enlarge_in: u64 = 4;
    // The first code is a character (2 bits say which width).
    let first = match bits.read(width)? {
        Some(0) => bits.read(8)?,
        Some(1) => bits.read(16)?,
        _ => return Ok(out),
    };
    let Some(first) = first else {
        return Ok(out);
    };
    entries.push((0, 1));
    out.push(first as u16);
    width = 3;
    // The last piece written, as a run of `out`.
    let mut last = (0u32, 1u32);
    loop {
        let Some(code) = bits.read(width)? else {
            return Ok(out);
        };
        let code = match code {
            0 | 1 => {
                let Some(c) = bits.read(if code == 0 { 8 } else { 16 })? else {
                    return Ok(out);
                };
                if out.len() >= cap {
                    return Err(LzError::TooLong(cap));
                }
                // The character is written next, at the end of `out`.
                entries.push((out.len() as u32, 1));
                out.push(c as u16);
                enlarge_in -= 1;
                if enlarge_in == 0 {
                    enlarge_in = 1 << width;
                    width += 1;
                }
                // Written already: only the dictionary's entry for the
                // last piece and its first character remains.
                let piece = (out.len() as u32 - 1, 1);
                entries.push((last.0, last.1 + 1));
                enlarge_in -= 1;
                last = piece;
                if enlarge_in == 0 {
                    enlarge_in = 1 << width;
                    width += 1;
                }
                continue;
            }
            2 => return Ok(out),
            code => code as usize,
        };
        let (start, length) = match entries.get(code) {
            Some(&(start, length)) => (start as usize, length as usize),
            // The entry being made (`code` is the next index): the last
            // piece and its own first character.
            None if code == entries.len() => (last.0 as usize, last.1 as usize + 1),
            None => return Err(LzError::Corrupt),
        };
        if out.len() + length > cap {
            return Err(LzError::TooLong(cap));
        }
        let at = out.len() as u32;
        if code == entries.len() {
            // Its last character is its first, which is the last piece's.
            let (from, to) = (last.0 as usize, (last.0 + last.1) as usize);
            out.extend_from_within(from..to);
            out.push(out[from]);
        } else {
            out.extend_from_within(start..start + length);
        }
        // The last piece followed by the first character of this one,
        // which sits just after it in `out`.
        entries.push((last.0, last.1 + 1));
        enlarge_in -= 1;
        last = (at, length as u32);
        if enlarge_in == 0 {
            enlarge_in = 1 << width;
            width += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn it_reads_what_lz_string_writes() {
        let mut texts: Vec<String> = vec![
            "".into(),
            "a".into(),
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into(),
            "abababababab the rain in spain falls mainly on the plain".into(),
            r#"{"size":9,"grid":[[{"value":1,"given":true},{},{}]],"title":"ü ß — 数独"}"#.into(),
        ];
        // Long, repetitive and not: JSON of a large drawn puzzle.
        let mut big = String::from("{\"line\":[");
        for k in 0..5000 {
            big += &format!(
                "{{\"lines\":[[\"R{}C{}\",\"R{}C{}\"]],\"width\":0.{k}}},",
                k % 9 + 1,
                k % 7 + 1,
                k % 5 + 1,
                k % 3 + 1
            );
        }
        big += "{}]}";
        texts.push(big);
        for text in texts {
            let payload = lz_str::compress_to_base64(&text);
            assert_eq!(
                decompress_from_base64(&payload, usize::MAX),
                Ok(utf16(&text)),
                "{text:.60}"
            );
            assert_eq!(
                lz_str::decompress_from_base64(&payload).unwrap_or_default(),
                utf16(&text)
            );
        }
    }

    #[test]
    fn the_cap_bounds_the_output() {
        let text = "x".repeat(100_000);
        let payload = lz_str::compress_to_base64(&text);
        // A few hundred characters that would grow to 100,000.
        assert!(payload.len() < 2_000, "{}", payload.len());
        assert_eq!(
            decompress_from_base64(&payload, 50_000),
            Err(LzError::TooLong(50_000))
        );
        assert_eq!(
            decompress_from_base64(&payload, 100_000).map(|o| o.len()),
            Ok(100_000)
        );
    }

    #[test]
    fn corrupt_payloads_are_refused() {
        // `A` starts a character, whose bits run into `*`.
        assert_eq!(decompress_from_base64("A*BC", 100), Err(LzError::Corrupt));
        // A character (2 bits 0, then 8 bits 0), then the 3-bit code 7,
        // past the dictionary's 4 entries: `A` `D` `g` are 000000 000011
        // 100000.
        assert_eq!(decompress_from_base64("ADg", 1000), Err(LzError::Corrupt));
    }
}
