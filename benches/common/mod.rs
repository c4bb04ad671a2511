//! What the benches share: the public puzzle sets in `../shared/data`.

use std::path::PathBuf;
use z3doku::bench::read_puzzles;
use z3doku::puzzle::Puzzle;

/// The puzzles of the set `name` in `../shared/data` (the first `limit`,
/// when given), or `None`, with a note on stderr, when it cannot be read.
pub fn shared_puzzles(name: &str, limit: Option<usize>) -> Option<Vec<Puzzle>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    read_puzzles(&path, limit)
        .map_err(|e| eprintln!("SKIPPED: ../shared/data/{name}: {e}"))
        .ok()
}
