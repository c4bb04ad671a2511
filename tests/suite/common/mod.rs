//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod shapes;

/// The built `z3doku` binary, with no `NO_COLOR` from the caller's
/// environment.
pub fn z3doku() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("z3doku").unwrap_or_else(|e| panic!("{e}"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs `z3doku` with `args`, checks its exit status is `code`, and gives
/// its standard output.
pub fn output_of<S: AsRef<std::ffi::OsStr>>(
    args: impl IntoIterator<Item = S>,
    code: i32,
) -> Vec<u8> {
    z3doku()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone()
}

/// Runs `z3doku` with each case's arguments and checks it refuses them
/// as a user should see it: exit status 2, nothing on standard output, and
/// one line on standard error that says the case's words.
pub fn refused_in_one_line<'a>(cases: impl IntoIterator<Item = (Vec<&'a str>, &'a str)>) {
    for (args, says) in cases {
        let out = z3doku().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A one-line puzzle read as classic Sudoku.
pub fn puzzle(line: &str) -> z3doku::puzzle::Puzzle {
    let givens =
        z3doku::puzzle::parse::parse_puzzle(line, None).unwrap_or_else(|e| panic!("{line}: {e}"));
    z3doku::puzzle::Puzzle::classic(givens)
}

/// Classic Sudoku with `givens`.
pub fn classic(givens: &z3doku::puzzle::grid::Grid) -> z3doku::puzzle::Puzzle {
    z3doku::puzzle::Puzzle::classic(givens.clone())
}

/// The notebook's puzzle and its solution.
pub const NOTEBOOK: &str =
    "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";
pub const NOTEBOOK_SOLUTION: &str =
    "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

/// A file or folder under `../shared/data`, or `None` (with a note on stderr) when
/// the shared material is not beside the repository.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: {} is missing; this test needs ../shared/data",
            path.display()
        );
        None
    }
}

/// A shared data folder, `../shared/data/NAME` beside the checkout (or
/// beside the folder holding it, for a worktree one level down); `None`,
/// said on standard error, when it is missing.
pub fn shared_dir(name: &str) -> Option<PathBuf> {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let found = ["../shared/data", "../../shared/data"]
        .iter()
        .map(|up| top.join(up).join(name))
        .find(|path| path.is_dir());
    if found.is_none() {
        eprintln!("SKIPPED: ../shared/data/{name} is missing; this test needs it");
    }
    found
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

/// The puzzle of `examples/puzzles/contradiction.txt` as one line: no
/// digits clash, yet box 1 has no room for a 5.
pub fn contradiction() -> String {
    std::fs::read_to_string(example("contradiction.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect()
}

/// The default regions' shape of a board of `side`, as f-puzzles draws
/// them, worked out here apart from z3doku's own rules: `(height, width)`,
/// the height the largest divisor of the side at most its square root, or
/// `None` when that is 1 (a Latin square).
pub fn region_shape(side: usize) -> Option<(usize, usize)> {
    let height = (2..=side)
        .filter(|h| h * h <= side && side.is_multiple_of(*h))
        .max()?;
    Some((height, side / height))
}

/// An independent solution counter for the tests: plain backtracking over
/// candidate bit masks, fewest candidates first, no Z3 and nothing from
/// z3doku but the grid type. Counts up to `limit`.
pub fn backtracking_count(puzzle: &z3doku::puzzle::grid::Grid, limit: usize) -> usize {
    let side = puzzle.size().side();
    let region = |r: usize, c: usize| region_shape(side).map(|(h, w)| (r / h, c / w));
    let mut cells: Vec<u8> = puzzle.cells().to_vec();
    let peers: Vec<Vec<usize>> = (0..cells.len())
        .map(|i| {
            let (r, c) = (i / side, i % side);
            (0..cells.len())
                .filter(|&j| {
                    let (r2, c2) = (j / side, j % side);
                    let same_region = region(r, c).is_some() && region(r, c) == region(r2, c2);
                    j != i && (r2 == r || c2 == c || same_region)
                })
                .collect()
        })
        .collect();
    // Clues that clash leave no solution.
    for (i, &d) in cells.iter().enumerate() {
        if d != 0 && peers[i].iter().any(|&j| cells[j] == d) {
            return 0;
        }
    }
    fn go(cells: &mut Vec<u8>, peers: &[Vec<usize>], side: usize, limit: usize, found: &mut usize) {
        let full: u32 = u32::MAX >> (32 - side);
        let mut best: Option<(usize, u32)> = None;
        for i in 0..cells.len() {
            if cells[i] != 0 {
                continue;
            }
            let used = peers[i].iter().fold(0u32, |m, &j| match cells[j] {
                0 => m,
                d => m | 1 << (d - 1),
            });
            let free = full & !used;
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((i, free));
            }
        }
        let Some((i, free)) = best else {
            *found += 1;
            return;
        };
        for d in 0..side {
            if free & 1 << d != 0 && *found < limit {
                cells[i] = d as u8 + 1;
                go(cells, peers, side, limit, found);
                cells[i] = 0;
            }
        }
    }
    let mut found = 0;
    go(&mut cells, &peers, side, limit, &mut found);
    found
}

/// A small deterministic pseudo-random sequence (xorshift), so generated
/// puzzles are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next number below `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Every key of the f-puzzles JSON `source` that `written` (the puzzle
/// written back) lost, named by where it was: top-level keys, each list
/// item (an item is kept when some written item of the same key has every
/// field it had, with the same value, but for the fields that place a
/// rule: `cells`, `lines`, `cell`, `cloneCells`, `direction`, which the writer may put
/// in another order or start, and which the caller checks by reading the
/// rules back), and each grid cell's keys (with the same value, but for
/// `region`, which the writer may number anew). `solution` is left out:
/// it is written anew from what is proven.
pub fn lost_keys(source: &serde_json::Value, written: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    let mut lost = Vec::new();
    let (Some(source), Some(written)) = (source.as_object(), written.as_object()) else {
        return vec!["not an object".into()];
    };
    const PLACES: [&str; 5] = ["cells", "lines", "cell", "cloneCells", "direction"];
    let covers = |w: &Value, s: &Value| match (w, s) {
        (Value::Object(w), Value::Object(s)) => s.iter().all(|(k, v)| {
            w.get(k) == Some(v) || (PLACES.contains(&k.as_str()) && w.contains_key(k))
        }),
        _ => w == s,
    };
    for (key, value) in source {
        if key == "solution" || key == "grid" {
            continue;
        }
        match (value, written.get(key)) {
            (_, None) => lost.push(format!("`{key}`")),
            (Value::Array(items), Some(Value::Array(kept))) => {
                for item in items {
                    if !kept.iter().any(|w| covers(w, item)) {
                        lost.push(format!("`{key}` item {item}"));
                    }
                }
            }
            (_, Some(kept)) if kept != value => lost.push(format!("`{key}` = {value}")),
            _ => {}
        }
    }
    let cells = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array)
            .map(|rows| {
                rows.iter()
                    .flat_map(|r| r.as_array().cloned().unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default()
    };
    let (before, after) = (cells(source.get("grid")), cells(written.get("grid")));
    for (index, cell) in before.iter().enumerate() {
        let Some(fields) = cell.as_object() else {
            continue;
        };
        for (key, value) in fields {
            let kept = after.get(index).and_then(|c| c.get(key));
            if kept != Some(value) && !(key == "region" && kept.is_some()) {
                lost.push(format!("grid cell {index} `{key}` = {value}"));
            }
        }
    }
    lost
}

/// The shared material beside the repository, or under `Z3DOKU_SHARED`
/// when it is set (a worktree kept elsewhere than beside `shared/`).
pub fn shared_root() -> PathBuf {
    std::env::var_os("Z3DOKU_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    )
}

/// sigh's runner (`peers/sigh/run.mjs`) in [`shared_root`]; `None`, said
/// on stderr, without it or without Node.
pub fn sigh_runner() -> Option<PathBuf> {
    let script = shared_root().join("peers/sigh/run.mjs");
    if !script.is_file() {
        eprintln!("SKIPPED: {} is missing", script.display());
        return None;
    }
    match std::process::Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => Some(script),
        _ => {
            eprintln!("SKIPPED: node is not installed; this test runs sigh's solver with it");
            None
        }
    }
}

/// What `node ARGS` prints, failing the test with node's error output
/// when it fails.
pub fn node<'a>(args: impl IntoIterator<Item = &'a std::ffi::OsStr>) -> String {
    let out = std::process::Command::new("node")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// sigh's solver over the `(name, sigh string)` puzzles, up to `limit`
/// solutions each, in one run over a file of them: each line it prints,
/// as its tab-separated fields (name, count, three times, first solution).
pub fn run_sigh(
    script: &std::path::Path,
    named: &[(String, String)],
    limit: usize,
) -> Vec<Vec<String>> {
    // The tests run side by side: each call its own file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("z3doku-sigh-{}-{call}.txt", std::process::id()));
    let text: String = named
        .iter()
        .map(|(name, string)| format!("{name}\t{string}\n"))
        .collect();
    std::fs::write(&file, text).unwrap();
    let limit = limit.to_string();
    let out = node([
        script.as_os_str(),
        "--max-solutions".as_ref(),
        limit.as_ref(),
        file.as_os_str(),
    ]);
    let _ = std::fs::remove_file(&file);
    out.lines()
        .map(|line| line.split('\t').map(str::to_string).collect())
        .collect()
}

/// sigh's solution count of each sigh string, up to `limit`, in order.
pub fn sigh_counts(script: &std::path::Path, strings: &[&str], limit: usize) -> Vec<usize> {
    let named: Vec<(String, String)> = strings
        .iter()
        .enumerate()
        .map(|(k, s)| (k.to_string(), s.to_string()))
        .collect();
    let rows = run_sigh(script, &named, limit);
    assert_eq!(rows.len(), strings.len(), "{rows:?}");
    rows.iter()
        .map(|row| {
            row.get(1)
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("sigh said {row:?}"))
        })
        .collect()
}

/// How many partings of the full `grid` into `puzzle`'s chaos regions its
/// clues accept, by the checker's own enumeration (none without chaos
/// construction).
pub fn chaos_partings(puzzle: &z3doku::puzzle::Puzzle, grid: &z3doku::puzzle::grid::Grid) -> usize {
    puzzle.rules().chaos().map_or(0, |chaos| {
        z3doku::puzzle::kinds::chaos::partings(grid, chaos.region_cells(), &chaos.clues, usize::MAX)
            .len()
    })
}

/// Every engine configuration: native, then Z3 in each encoding.
pub fn every_engine() -> Vec<z3doku::engine::Settings> {
    use z3doku::engine::{EncodingKind, EngineKind, Settings};
    let mut all = vec![Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    }];
    all.extend(EncodingKind::ALL.map(|encoding| Settings {
        engine: EngineKind::Z3,
        encoding,
        ..Settings::default()
    }));
    all
}
