//! Any bytes through the puzzle readers: the text forms (line and grid,
//! every size) and f-puzzles (JSON, compressed payloads, links). Neither
//! may panic; a grid the text reader accepts must read back from its line
//! form as the same grid, and an f-puzzles puzzle's givens must fit its
//! board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::parse::{parse_line, parse_puzzle};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_line(text, 1, None);
    if let Ok(grid) = parse_puzzle(text, None) {
        let again = parse_line(&grid.to_line(), 1, Some(grid.size()));
        assert_eq!(again.as_ref(), Ok(&grid), "{}", grid.to_line());
    }
    if let Ok(puzzle) = fpuzzles::parse(text) {
        let side = puzzle.size().side();
        assert!(puzzle.givens().cells().iter().all(|&d| usize::from(d) <= side));
    }
});
