//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The notebook's puzzle and its solution.
pub const NOTEBOOK: &str =
    "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
pub const NOTEBOOK_SOLUTION: &str =
    "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

/// A path under `../shared/data`, or `None` (with a note on stderr) when
/// the shared material is not beside the repository.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: {} is missing; this test needs ../shared/data",
            path.display()
        );
        None
    }
}

/// The puzzles of a shared data set (comments and blank lines skipped),
/// every `step`-th one, or `None` when the set is missing.
pub fn shared_puzzles(name: &str, step: usize) -> Option<Vec<String>> {
    let path = shared_data(name)?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .step_by(step)
            .map(|l| l.trim().to_string())
            .collect(),
    )
}

/// The path of a shipped example puzzle.
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/puzzles")
        .join(name)
}
