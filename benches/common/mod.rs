//! What the benches share: the public puzzle sets in `../shared/data`.

use std::path::PathBuf;
use z3doku::grid::Grid;
use z3doku::parse::{is_skipped, parse_line};

/// The first `count` puzzles of the set `name` in `../shared/data`, or
/// `None` (and a note on stderr) when the set is missing.
pub fn shared_puzzles(name: &str, count: usize) -> Option<Vec<Grid>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: ../shared/data/{name} is missing");
        return None;
    };
    Some(
        text.lines()
            .filter(|line| !is_skipped(line))
            .enumerate()
            .filter_map(|(i, line)| parse_line(line, i + 1, None).ok())
            .take(count)
            .collect(),
    )
}
