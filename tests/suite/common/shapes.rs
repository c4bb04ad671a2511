//! What the tests of board shapes (`value_ranges.rs`, `more_values.rs`,
//! `rectangles.rs`) share: counting on each engine with every solution checked, and sigh's
//! names for random cells and walks; random instances of a shape, and the
//! comparisons of every engine with each other and with sigh's solver on
//! them.

use proptest::prelude::*;
use rayon::prelude::*;
use std::time::Duration;
use z3doku::engine::{Budget, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::Grid;
use z3doku::puzzle::rule_text::read_rules;
use z3doku::puzzle::rules::Rules;
use z3doku::puzzle::sigh::{parse, to_sigh};
use z3doku::solve::count_with;

/// Up to `limit` solutions of `puzzle` on one engine within `seconds`,
/// every one passed by the checker; `None` when the engine gave up.
pub fn count_on(
    settings: &Settings,
    puzzle: &Puzzle,
    limit: usize,
    seconds: u64,
) -> Option<(usize, Vec<Grid>)> {
    let budget = Budget::within(Some(Duration::from_secs(seconds)));
    let mut engine = new_engine(settings);
    let mut found = Vec::new();
    let count = count_with(engine.as_mut(), puzzle, limit, &budget, &mut |grid| {
        verify_solution(puzzle, grid).unwrap_or_else(|e| panic!("{e}: {puzzle:?}"));
        found.push(grid.clone());
    })
    .unwrap();
    count.gave_up.is_none().then_some((count.solutions, found))
}

/// The same count on every engine, which it returns.
pub fn count_everywhere(puzzle: &Puzzle, limit: usize) -> usize {
    let counts: Vec<usize> = super::every_engine()
        .iter()
        .map(|settings| {
            count_on(settings, puzzle, limit, 120)
                .unwrap_or_else(|| panic!("{settings:?} gave up on {}", to_sigh(puzzle).unwrap()))
                .0
        })
        .collect();
    assert!(
        counts.iter().all(|&n| n == counts[0]),
        "engines disagree ({counts:?}) on {}",
        to_sigh(puzzle).unwrap()
    );
    counts[0]
}

/// sigh's id of a cell (0-based row and column; boards up to 9x9 here).
pub fn id((r, c): (usize, usize)) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A random cell of a board of `shape`.
pub fn cell(random: &mut super::Rng, shape: Shape) -> (usize, usize) {
    (random.below(shape.rows), random.below(shape.cols))
}

/// A walk of `len` distinct orthogonal neighbours on a board of `shape`.
pub fn walk(random: &mut super::Rng, shape: Shape, len: usize) -> Vec<(usize, usize)> {
    'again: loop {
        let mut cells = vec![cell(random, shape)];
        while cells.len() < len {
            let (r, c) = cells[cells.len() - 1];
            let next: Vec<(usize, usize)> = neighbours(shape, (r, c))
                .filter(|n| !cells.contains(n))
                .collect();
            if next.is_empty() {
                continue 'again;
            }
            cells.push(next[random.below(next.len())]);
        }
        return cells;
    }
}

/// The orthogonal neighbours of a cell on a board of `shape`.
pub fn neighbours(shape: Shape, (r, c): (usize, usize)) -> impl Iterator<Item = (usize, usize)> {
    [(0, 1), (2, 1), (1, 0), (1, 2)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let (r, c) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
            (r < shape.rows && c < shape.cols).then_some((r, c))
        })
}

/// sigh's ids of `cells`, each after a `~`.
pub fn ids(cells: &[(usize, usize)]) -> String {
    cells.iter().map(|&c| format!("~{}", id(c))).collect()
}

/// A board's shape: its rows and columns, its count of values and its
/// lowest value.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub values: usize,
    pub lowest: usize,
    /// sigh's `Raw` grid: no rows, columns or boxes.
    pub raw: bool,
}

impl Shape {
    /// A square board of `side` with `values` values from `lowest`.
    pub const fn square(side: usize, values: usize, lowest: usize) -> Shape {
        Shape {
            rows: side,
            cols: side,
            values,
            lowest,
            raw: false,
        }
    }

    /// A board of `rows` rows of `cols` cells, with as many values as its
    /// longer side, from `lowest`.
    pub const fn rectangle(rows: usize, cols: usize, lowest: usize) -> Shape {
        let values = if rows > cols { rows } else { cols };
        Shape {
            rows,
            cols,
            values,
            lowest,
            raw: false,
        }
    }

    /// sigh's `Raw` grid of `rows` rows of `cols` cells, with `values`
    /// values from `lowest`.
    pub const fn raw(rows: usize, cols: usize, values: usize, lowest: usize) -> Shape {
        Shape {
            rows,
            cols,
            values,
            lowest,
            raw: true,
        }
    }

    pub fn spec(self) -> String {
        let range = match self.lowest {
            0 => format!("0-{}", self.values - 1),
            _ => self.values.to_string(),
        };
        let raw = if self.raw { "~Raw" } else { "" };
        format!(".Shape~{}x{}~{range}{raw}", self.rows, self.cols)
    }

    pub fn is_square(self) -> bool {
        self.rows == self.cols
    }

    /// The longer side: the cells of a box, and of a full row or column.
    pub fn longer(self) -> usize {
        self.rows.max(self.cols)
    }

    pub fn highest(self) -> usize {
        self.lowest + self.values - 1
    }
}

/// One random rule z3doku keeps on a board of `shape`: rules that read how
/// values compare, sums (restated on the digits on a board from 0), black
/// dots (from 1) and, on square boards, diagonals and disjoint groups. The
/// anti-consecutive rule is never beside a white dot, which sigh's rule
/// does not exempt and z3doku's would.
pub fn rule(random: &mut super::Rng, shape: Shape, dots: &mut bool, anti: &mut bool) -> String {
    // No path longer than the values (a Raw grid may have few).
    let longest = shape.rows.min(shape.cols).min(4).min(shape.values);
    let path = |random: &mut super::Rng, least: usize| {
        // At least `least` cells, more than the values can hold on a Raw
        // grid of few: z3doku refuses that rule, and another is made.
        let len = least + random.below((longest + 1).saturating_sub(least).max(1));
        walk(random, shape, len)
    };
    let (low, high) = (shape.lowest, shape.highest());
    match random.below(20) {
        0 => format!(".Thermo{}", ids(&path(random, 2))),
        1 if !*anti => {
            *dots = true;
            format!(".WhiteDot{}", ids(&walk(random, shape, 2)))
        }
        2 => format!(
            ".Whisper~{}{}",
            1 + random.below(shape.values / 2),
            ids(&path(random, 2))
        ),
        3 => format!(".Renban{}", ids(&path(random, 2))),
        4 => format!(".Palindrome{}", ids(&path(random, 3))),
        5 => format!(".Between{}", ids(&path(random, 3))),
        6 => format!(
            ".Lockout~{}{}",
            1 + random.below(shape.values / 2),
            ids(&path(random, 3))
        ),
        7 => format!(".Modular~3{}", ids(&path(random, 3))),
        // sigh takes these on Sudoku grids only.
        8 if !shape.raw => ".AntiKnight".into(),
        9 if !shape.raw => ".AntiKing".into(),
        10 if !*dots => {
            *anti = true;
            ".AntiConsecutive".into()
        }
        11 if shape.is_square() && !shape.raw => {
            [".Diagonal~1", ".Diagonal~-1"][random.below(2)].into()
        }
        12 => {
            let mut cells = Vec::new();
            while cells.len() < 3 {
                let cell = cell(random, shape);
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
            }
            [
                format!(".Cage~0{}", ids(&cells)),
                format!(".AllDifferent{}", ids(&cells)),
            ][random.below(2)]
            .clone()
        }
        13 => {
            // A sum its cells can reach with different values (not 0,
            // which sigh reads as no sum).
            let cells = path(random, 2);
            let k = cells.len();
            let least = (k * low + k * (k - 1) / 2).max(1);
            let most = k * high - k * (k - 1) / 2;
            let sum = least + random.below(most - least + 1);
            format!(".Cage~{sum}{}", ids(&cells))
        }
        14 => format!(".Arrow{}", ids(&path(random, 2))),
        15 => {
            let kind = if high >= 6 && random.below(2) == 0 {
                "X"
            } else {
                "V"
            };
            format!(".{kind}{}", ids(&walk(random, shape, 2)))
        }
        16 => {
            let cells = path(random, 2);
            let k = cells.len();
            let sum = k * low + random.below(k * (high - low) + 1);
            format!(".Sum~{sum}{}", ids(&cells))
        }
        // Black dots read what the values are: on a board from 0 z3doku
        // refuses them, and the instance is made again.
        17 if !*anti && low == 1 => {
            *dots = true;
            format!(".BlackDot{}", ids(&walk(random, shape, 2)))
        }
        18 if shape.is_square() && shape.rows != 3 && !shape.raw => ".DisjointSets".into(),
        _ => format!(".Thermo{}", ids(&path(random, 2))),
    }
}

/// sigh's kinds kept on rectangles whose values run from 1 to the longer
/// side beside those of [`rule`]: those that read only the cells they
/// name, and whole-board rules that walk rows and columns apart.
pub const NAMED_KINDS: &[&str] = &[
    ".SumLine",
    ".CountDistinct",
    ".ValueIndexing",
    ".Regex",
    ".LookAndSay",
    ".RellikCage",
    ".EqualityCage",
    ".Lunchbox",
    ".EqualSum",
    ".CountingCircles",
    ".GreaterThan",
    ".ContainAtLeast",
    ".ContainExact",
    ".AntiTaxicab",
    ".DutchFlatmates",
    ".GlobalEntropy",
    ".GlobalMod",
];

/// One random rule of the kind `NAMED_KINDS[kind]` on a board of `shape`
/// (values from 1), with clues its cells can mostly meet.
pub fn named_cell_rule(random: &mut super::Rng, shape: Shape, kind: usize) -> String {
    let v = shape.values;
    let digit = |random: &mut super::Rng| 1 + random.below(v);
    let line = |random: &mut super::Rng, least: usize, more: usize| {
        let len = least + random.below(more + 1);
        ids(&walk(random, shape, len))
    };
    let scattered = |random: &mut super::Rng, least: usize, more: usize| {
        let n = least + random.below(more + 1);
        let mut cells = Vec::new();
        while cells.len() < n {
            let c = cell(random, shape);
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        cells
    };
    let name = NAMED_KINDS[kind];
    match kind {
        0 => {
            let sum = v / 2 + random.below(2 * v);
            let looped = ["", "", "~LOOP"][random.below(3)];
            format!("{name}~{sum}{}{looped}", line(random, 3, 3))
        }
        1 | 2 => format!("{name}{}", line(random, 3 + kind - 1, 2)),
        3 => {
            let (a, c) = (digit(random), digit(random));
            let b = a + random.below(v + 1 - a);
            let pattern = match random.below(3) {
                0 => format!("[{a}-{b}]*{c}.*"),
                1 => format!("(.)?[^{c}]{{2,}}"),
                _ => format!("({a}|{c}|[{b}-{v}])+.?"),
            };
            let escaped: String = pattern.bytes().map(|b| format!("%{b:02X}")).collect();
            format!("{name}~{escaped}{}", line(random, 3, 3))
        }
        4 => {
            let (a, mut b) = (digit(random), digit(random));
            while b == a {
                b = digit(random);
            }
            let clue = format!("{}{a}{}{b}", random.below(3), random.below(3));
            format!("{name}~{clue}{}", line(random, 4, 2))
        }
        5 => format!("{name}~{}{}", 3 + random.below(2 * v), line(random, 3, 0)),
        6 => format!("{name}{}", line(random, 2, 0) + &line(random, 2, 0)),
        7 => {
            // Three to five cells along a row or a column.
            let n = 3 + random.below(3).min(shape.cols.min(shape.rows) - 3);
            let (r, c) = (random.below(shape.rows), random.below(shape.cols + 1 - n));
            let mut cells: Vec<(usize, usize)> = (c..c + n).map(|k| (r, k)).collect();
            if random.below(2) == 0 && shape.rows >= n {
                let (r, c) = (random.below(shape.rows + 1 - n), random.below(shape.cols));
                cells = (r..r + n).map(|k| (k, c)).collect();
            }
            format!("{name}~{}{}", random.below(3 * v), ids(&cells))
        }
        8 => {
            let segments: Vec<String> = (0..2 + random.below(2))
                .map(|_| ids(&scattered(random, 1, 2))[1..].to_string())
                .collect();
            format!("{name}~{}", segments.join("~-~"))
        }
        9 => format!("{name}{}", ids(&scattered(random, 4, 4))),
        10 => format!("{name}{}", line(random, 2, 1)),
        // sigh takes the last three on boards of 9 values only.
        13.. if v == 9 || kind == 13 => name.to_string(),
        13.. => NAMED_KINDS[13].to_string(),
        _ => {
            let (a, b) = (digit(random), digit(random));
            let cells = if kind == 11 {
                ids(&scattered(random, 3, 2))
            } else {
                line(random, 3, 1)
            };
            format!("{name}~{}_{}{cells}", a.min(b), a.max(b))
        }
    }
}

/// A random puzzle of `shape`: a rule or three, and givens from a
/// solution of them; `None` when the rules allow none (or take long to
/// say).
pub fn instance(random: &mut super::Rng, shape: Shape) -> Option<String> {
    let (mut dots, mut anti) = (false, false);
    let rules: String = (0..1 + random.below(3))
        .map(|_| rule(random, shape, &mut dots, &mut anti))
        .collect();
    instance_of(random, shape, &rules)
}

/// A random puzzle of `shape` with `rules`: givens from a solution of
/// them; `None` when they allow none (or take long to say).
pub fn instance_of(random: &mut super::Rng, shape: Shape, rules: &str) -> Option<String> {
    let spec = shape.spec();
    let native = &super::every_engine()[0];
    // A few random values first, so that each instance has a board of
    // its own, each kept only when a solution stays.
    let mut seeds = String::new();
    for _ in 0..3 {
        let cell = cell(random, shape);
        let value = shape.lowest + random.below(shape.values);
        let try_seed = format!("{seeds}~{}_{value}", id(cell));
        let puzzle = parse(&format!("{spec}.{try_seed}{rules}")).ok()?;
        // Rules the search cannot settle on a board this empty within
        // the time make no instance: the next random rules are tried.
        if count_on(native, &puzzle, 1, 2)?.0 == 1 {
            seeds = try_seed;
        }
    }
    let puzzle = parse(&format!("{spec}.{seeds}{rules}")).ok()?;
    let (_, found) = count_on(native, &puzzle, 1, 5)?;
    let board = found.first()?;
    // With more values than a row has cells, a house pins little down:
    // such boards need more givens to be unique now and then; so do
    // rectangles, whose short lines are not full.
    let side = shape.longer();
    let cells = shape.rows * shape.cols;
    let wanted = match (side, shape.values > side) {
        // Without houses only the rules tie cells together: most cells
        // are given, so that some instances are unique.
        _ if shape.raw => cells - 1 - random.below(cells / 8),
        _ if !shape.is_square() => cells / 3 + random.below(side),
        (3, _) => 4 + random.below(3),
        (4, true) => 7 + random.below(4),
        (6, true) => 19 + random.below(8),
        (_, true) => 46 + random.below(10),
        (4, false) => 3 + random.below(4),
        (6, false) => 8 + random.below(8),
        (_, false) => 24 + random.below(10),
    };
    let mut givens = String::new();
    let mut taken = Vec::new();
    while taken.len() < wanted {
        let cell = random.below(shape.rows * shape.cols);
        if !taken.contains(&cell) {
            taken.push(cell);
            let value = usize::from(board.get(cell)) - 1 + shape.lowest;
            givens += &format!("~{}_{value}", id((cell / shape.cols, cell % shape.cols)));
        }
    }
    Some(format!("{spec}.{givens}{rules}"))
}

/// Random instances of each shape (as many as asked), counted up to
/// `limit` by every engine and by sigh's solver, which must agree, with at
/// least one unique; `None` (and a note) without node or sigh.
pub fn counts_agree_with_sigh(
    seed: u64,
    shapes: &[(Shape, usize)],
    limit: usize,
) -> Option<Vec<(String, usize)>> {
    counts_of_made_agree_with_sigh(seed, shapes, limit, instance)
}

/// As [`counts_agree_with_sigh`], with the instances `make` makes.
pub fn counts_of_made_agree_with_sigh(
    seed: u64,
    shapes: &[(Shape, usize)],
    limit: usize,
    mut make: impl FnMut(&mut super::Rng, Shape) -> Option<String>,
) -> Option<Vec<(String, usize)>> {
    let script = super::sigh_runner()?;
    let mut random = super::Rng(seed);
    let mut texts: Vec<String> = Vec::new();
    for &(shape, wanted) in shapes {
        let mut made = 0;
        let mut tries = 0;
        while made < wanted {
            tries += 1;
            assert!(tries < 20 * wanted, "{shape:?}: too few instances");
            if let Some(text) = make(&mut random, shape) {
                texts.push(text);
                made += 1;
            }
        }
    }
    // The instances are made in turn (one random stream), then counted on
    // every core, while sigh counts them beside.
    let strings: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (ours, theirs): (Vec<usize>, Vec<usize>) = rayon::join(
        || {
            strings
                .par_iter()
                .map(|text| {
                    let puzzle = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
                    count_everywhere(&puzzle, limit)
                })
                .collect()
        },
        || super::sigh_counts(&script, &strings, limit),
    );
    let cases: Vec<(String, usize)> = texts.into_iter().zip(ours).collect();
    let mut seen = vec![0usize; limit + 1];
    for &(_, n) in &cases {
        seen[n] += 1;
    }
    eprintln!(
        "{} instances; how many had 0, 1, ... {limit} solutions: {seen:?}",
        cases.len()
    );
    let mut unique = 0;
    for ((line, ours), theirs) in cases.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "{line}");
        unique += usize::from(*ours == 1);
    }
    // Not every instance is open: some pin one solution down.
    assert!(unique > 0, "no unique instance among {}", cases.len());
    Some(cases)
}

/// Reads the sigh string `text` and checks every engine finds it unique
/// with `solution` (its values in one line, as sigh writes them).
pub fn unique_everywhere(text: &str, solution: &str) -> Puzzle {
    let puzzle = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    for settings in super::every_engine() {
        let (n, found) = count_on(&settings, &puzzle, 2, 120).unwrap();
        assert_eq!(n, 1, "{settings:?} on {text}");
        assert_eq!(
            puzzle.rules().value_line(&found[0]),
            solution,
            "{settings:?} on {text}"
        );
    }
    puzzle
}

/// Checks each of `kinds` (a sigh item's start, such as `".Arrow"`) is in
/// at least one of the instances made, so none goes untested by chance.
pub fn each_kind_among(cases: &[(String, usize)], kinds: &[&str]) {
    for kind in kinds {
        let with = cases.iter().filter(|(line, _)| line.contains(kind)).count();
        eprintln!("{with} instances with {kind}");
        assert!(with > 0, "no instance with {kind}");
    }
}

/// A random instance of `shape` from `seed`, if one is made: every engine
/// finds the same solutions (up to `limit`), each passed by the checker,
/// and the sigh string written back reads as the same puzzle.
pub fn engines_agree(shape: Shape, seed: u64, limit: usize) -> Result<(), TestCaseError> {
    let mut random = super::Rng(seed);
    let Some(text) = instance(&mut random, shape) else {
        return Ok(());
    };
    let puzzle = parse(&text).unwrap();
    let written = to_sigh(&puzzle).unwrap();
    prop_assert_eq!(&parse(&written).unwrap(), &puzzle, "{}", written);
    let mut all: Option<Vec<Grid>> = None;
    for settings in super::every_engine() {
        let (_, mut found) = count_on(&settings, &puzzle, limit, 120).unwrap();
        found.sort_by_key(Grid::to_line);
        match &all {
            None => all = Some(found),
            Some(first) if found.len() < limit => prop_assert_eq!(first, &found, "{:?}", settings),
            Some(first) => prop_assert_eq!(first.len(), found.len()),
        }
    }
    Ok(())
}

/// sigh's outside clues and negative constraints kept on rectangles whose
/// values run from 1 to the longer side: clues beside a row or column
/// (read along lines of either length) or at the start of a diagonal,
/// and the whole-board rules that forbid pairs of orthogonal neighbours.
pub const OUTSIDE_KINDS: &[&str] = &[
    ".Sandwich",
    ".XSum",
    ".Skyscraper",
    ".HiddenSkyscraper",
    ".NumberedRoom",
    ".LittleKiller",
    ".StrictKropki",
    ".StrictXV",
];

/// sigh's little killer diagonals on a board of `shape`, each as its
/// first cell and its length (sigh's `LittleKiller.cellMap`: from the
/// left side down-right, the right side up-left, the top down-left, the
/// bottom up-right, each set of cells once, two cells or more).
pub fn sigh_diagonals(shape: Shape) -> Vec<((usize, usize), usize)> {
    let (rows, cols) = (shape.rows as isize, shape.cols as isize);
    let mut seen: Vec<Vec<(isize, isize)>> = Vec::new();
    let mut out = Vec::new();
    let mut add = |r: isize, c: isize, dr: isize, dc: isize| {
        let mut cells: Vec<(isize, isize)> = (0..)
            .map(|k| (r + k * dr, c + k * dc))
            .take_while(|&(r, c)| (0..rows).contains(&r) && (0..cols).contains(&c))
            .collect();
        let first = cells[0];
        let len = cells.len();
        cells.sort_unstable();
        if len > 1 && !seen.contains(&cells) {
            seen.push(cells);
            out.push(((first.0 as usize, first.1 as usize), len));
        }
    };
    for r in 0..rows - 1 {
        add(r, 0, 1, 1);
    }
    for r in 1..rows - 1 {
        add(r, cols - 1, -1, -1);
    }
    for c in 1..cols {
        add(0, c, 1, -1);
    }
    for c in 1..cols - 1 {
        add(rows - 1, c, -1, 1);
    }
    out
}

/// One random rule of the kind `OUTSIDE_KINDS[kind]` on a board of
/// `shape` (values from 1), with a clue its line can mostly meet: on a
/// row or a column, whichever is shorter or longer, at either end.
pub fn outside_rule(random: &mut super::Rng, shape: Shape, kind: usize) -> String {
    let v = shape.values;
    let row = random.below(2) == 0;
    let (count, len) = match row {
        true => (shape.rows, shape.cols),
        false => (shape.cols, shape.rows),
    };
    let line = format!("{}{}", if row { 'R' } else { 'C' }, 1 + random.below(count));
    let name = OUTSIDE_KINDS[kind];
    // A clue at the front (left or top) or at the back.
    let ends = |random: &mut super::Rng, clue: usize| match random.below(2) {
        0 => format!("{name}~{line}~{clue}~"),
        _ => format!("{name}~{line}~~{clue}"),
    };
    match kind {
        0 => format!("{name}~{}~{line}", random.below(3 * v)),
        1 => {
            let clue = 1 + random.below(len * (v + 1) / 2);
            ends(random, clue)
        }
        2 => {
            let clue = 1 + random.below(len.min(5));
            ends(random, clue)
        }
        // The highest value is never hidden.
        3 => {
            let clue = 1 + random.below(v - 1);
            ends(random, clue)
        }
        4 => {
            let clue = 1 + random.below(v);
            ends(random, clue)
        }
        5 => {
            let diagonals = sigh_diagonals(shape);
            let (start, n) = diagonals[random.below(diagonals.len())];
            let sum = n * (v + 1) / 2 + random.below(2 * n + 1) - n;
            format!("{name}~{}~{}", sum.max(n), id(start))
        }
        _ => name.to_string(),
    }
}

/// sigh's lines and quadruples kept on rectangles whose values run from 1
/// to the longer side: they read only the cells they name (region-sum
/// lines the boxes they pass through; entropic lines on 9 values only).
pub const LINE_KINDS: &[&str] = &[
    ".Zipper",
    ".DoubleArrow",
    ".Quad",
    ".RegionSumLine",
    ".Entropic",
];

/// One random rule of the kind `LINE_KINDS[kind]` on a board of `shape`
/// (values from 1); an entropic line only on 9 values, a zipper
/// otherwise.
pub fn line_rule(random: &mut super::Rng, shape: Shape, kind: usize) -> String {
    let v = shape.values;
    let line = |random: &mut super::Rng, least: usize, more: usize| {
        let len = least + random.below(more + 1);
        ids(&walk(random, shape, len))
    };
    let name = LINE_KINDS[kind];
    match kind {
        0 => format!("{name}{}", line(random, 3, 3)),
        1 => format!("{name}{}", line(random, 3, 2)),
        2 => {
            let (r, c) = (random.below(shape.rows - 1), random.below(shape.cols - 1));
            let a = 1 + random.below(v);
            let mut b = 1 + random.below(v);
            while b == a {
                b = 1 + random.below(v);
            }
            let digits = match random.below(2) {
                0 => format!("~{a}"),
                _ => format!("~{a}~{b}"),
            };
            format!("{name}~{}{digits}", id((r, c)))
        }
        3 => format!("{name}{}", line(random, 3, 3)),
        _ if v == 9 => format!("{name}{}", line(random, 3, 3)),
        _ => format!("{}{}", LINE_KINDS[0], line(random, 3, 3)),
    }
}

/// sigh's kinds kept on rectangles from 1 that join or compare groups of
/// cells: state machines, same value sets (sets of one cell are clones),
/// `or`s of rules (now and then with an `and` inside), connected values
/// and row and column indexing.
pub const SET_KINDS: &[&str] = &[
    ".NFA",
    ".SameValues",
    ".Or",
    ".ConnectedValues",
    ".Indexing",
];

/// One random rule of the kind `SET_KINDS[kind]` on a board of `shape`
/// (values from 1).
pub fn set_rule(random: &mut super::Rng, shape: Shape, kind: usize) -> String {
    let v = shape.values;
    match kind {
        0 => {
            // Machines sigh's serializer wrote: `([13579][2468])*[13579]?`,
            // `(1|2)*3(4|5)*`, and a running sum that ends at 10.
            let machines = [
                "BhaUCESUiky1DECCGKOA",
                "QTHOMA",
                "TgRf8jRWeJoAf80VniaF_orPE0J_VniaEfs8TQh94mhB8TQgeaEB0IBE",
            ];
            let machine = machines[random.below(machines.len())];
            let len = 2 + random.below(3);
            format!(".NFA~{machine}{}", ids(&walk(random, shape, len)))
        }
        1 => {
            let (sets, length) = (2 + random.below(2), 1 + random.below(3));
            let mut cells = Vec::new();
            while cells.len() < sets * length {
                let c = cell(random, shape);
                // Sets may share cells, but a set names each once.
                let set = &cells[cells.len() / length * length..];
                if !set.contains(&c) {
                    cells.push(c);
                }
            }
            format!(".SameValues~{sets}{}", ids(&cells))
        }
        3 => {
            // A run of half the values or more (fewer seldom connect),
            // now and then with the size each value's count gives it
            // (one per long line) or one cell fewer, which none can have.
            let count = v / 2 + random.below(v / 2);
            let first = random.below(v + 1 - count);
            let values: Vec<String> = (first + 1..=first + count).map(|d| d.to_string()).collect();
            let cells = count * shape.rows.min(shape.cols);
            let size = match random.below(6) {
                0 => format!("~{cells}"),
                1 => format!("~{}", cells - 1),
                _ => String::new(),
            };
            format!(".ConnectedValues~~{}{size}", values.join("_"))
        }
        4 => {
            // One to three cells, indexing their rows or their columns.
            let kind = ["R", "C"][random.below(2)];
            let cells: Vec<(usize, usize)> = (0..1 + random.below(3))
                .map(|_| cell(random, shape))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            format!(".Indexing~{kind}{}", ids(&cells))
        }
        _ => {
            // An X or V, a thermometer, a cage of a sum its cells can
            // reach, or a given value.
            let branch = |random: &mut super::Rng| match random.below(4) {
                0 => {
                    let mark = ["X", "V"][random.below(2)];
                    format!(".{mark}{}", ids(&walk(random, shape, 2)))
                }
                1 => {
                    let n = 2 + random.below(2);
                    format!(".Thermo{}", ids(&walk(random, shape, n)))
                }
                2 => {
                    let n = 2 + random.below(2);
                    let (least, most) = (n * (n + 1) / 2, n * (2 * v + 1 - n) / 2);
                    let sum = least + random.below(most + 1 - least);
                    format!(".Cage~{sum}{}", ids(&walk(random, shape, n)))
                }
                _ => format!(".~{}_{}", id(cell(random, shape)), 1 + random.below(v)),
            };
            let mut text = String::from(".Or");
            for _ in 0..2 + random.below(2) {
                text += &match random.below(3) {
                    0 => format!(".And{}{}.End", branch(random), branch(random)),
                    _ => branch(random),
                };
            }
            text + ".End"
        }
    }
}

/// One random chaos clue in sigh's tongue on a board of `shape`: a count
/// of 2 to 5 region cells or an arrow of one or two straight arms from a
/// shared cell, with a random offset.
pub fn chaos_clue(random: &mut super::Rng, shape: Shape) -> String {
    let cell = |random: &mut super::Rng| self::cell(random, shape);
    let region = |(r, c): (usize, usize)| format!("~CC{}", r * shape.cols + c + 1);
    let control = format!("{}~{}", id(cell(random)), random.below(2));
    if random.below(2) == 0 {
        let mut cells = Vec::new();
        while cells.len() < 2 + random.below(4) {
            let c = cell(random);
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        let cells: String = cells.into_iter().map(region).collect();
        return format!(".ChaosCount~{control}{cells}");
    }
    let start = cell(random);
    let first = random.below(4);
    let arms: Vec<String> = [first, (first + 1 + random.below(3)) % 4]
        .iter()
        .take(1 + random.below(2))
        .map(|&way| {
            let (dr, dc) = [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)][way];
            let (mut r, mut c) = (start.0 as isize, start.1 as isize);
            let mut arm = String::new();
            while (0..shape.rows as isize).contains(&r) && (0..shape.cols as isize).contains(&c) {
                arm += &region((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            arm
        })
        .collect();
    format!(".ChaosArrow~{control}{}", arms.join("~-"))
}

/// The rules of a random chaos construction on a board of `shape`: boxes
/// or not, and up to two clues over the regions on a board from 1 (a
/// clue reads its digit as a number, and z3doku refuses them on a board
/// from 0).
pub fn chaos_rules(random: &mut super::Rng, shape: Shape) -> String {
    let mut rules = String::new();
    if random.below(2) == 0 {
        rules += ".NoBoxes";
    }
    rules += ".ChaosConstruction";
    if shape.lowest == 1 {
        for _ in 0..random.below(3) {
            rules += &chaos_clue(random, shape);
        }
    }
    rules
}

/// A random chaos construction on a board of `shape` ([`chaos_rules`],
/// givens as [`instance_of`] makes them), narrowed towards one solution:
/// while its first two solutions differ in a digit, that digit is given;
/// while they differ only in their regions, a count clue true of the
/// first is added (a cell and its neighbours, counted in its region, its
/// control a cell holding the count), up to eight times. Boards from 0
/// take givens alone.
pub fn chaos_instance(random: &mut super::Rng, shape: Shape) -> Option<String> {
    let rules = chaos_rules(random, shape);
    chaos_instance_of(random, shape, &rules)
}

/// [`chaos_instance`] of the chaos construction `rules`.
pub fn chaos_instance_of(random: &mut super::Rng, shape: Shape, rules: &str) -> Option<String> {
    let mut text = instance_of(random, shape, rules)?;
    let native = &super::every_engine()[0];
    let cells = shape.rows * shape.cols;
    let at = |c: usize| (c / shape.cols, c % shape.cols);
    for _ in 0..8 {
        let (n, found) = count_on(native, &parse(&text).ok()?, 2, 5)?;
        if n < 2 {
            break;
        }
        let (a, b) = (&found[0], &found[1]);
        let differ: Vec<usize> = (0..cells).filter(|&c| a.get(c) != b.get(c)).collect();
        if let Some(&c) = differ.get(random.below(differ.len().max(1))) {
            let value = usize::from(a.get(c)) - 1 + shape.lowest;
            let given = format!("~{}_{value}", id(at(c)));
            // Into the givens' item, which `instance_of` always writes.
            let k = text.find(".~")?;
            text.insert_str(k + 1, &given);
            continue;
        }
        if shape.lowest != 1 {
            break;
        }
        let regions = a.regions()?;
        let first = random.below(cells);
        let around: Vec<usize> = std::iter::once(first)
            .chain(neighbours(shape, at(first)).map(|(r, c)| r * shape.cols + c))
            .collect();
        let count = around
            .iter()
            .filter(|&&c| regions[c] == regions[first])
            .count();
        let controls: Vec<usize> = (0..cells)
            .filter(|&c| usize::from(a.get(c)) == count)
            .collect();
        let Some(&control) = controls.get(random.below(controls.len().max(1))) else {
            continue;
        };
        let counted: String = around.iter().map(|&c| format!("~CC{}", c + 1)).collect();
        text += &format!(".ChaosCount~{}~0{counted}", id(at(control)));
    }
    Some(text)
}

/// Random instances on `shapes`, counted up to `limit` by every engine
/// and by sigh's solver, which must agree: each has a rule of the next of
/// `kinds` kinds in turn (made by `rule`), then one to `most` more of
/// random kinds, each kept when `fits(rules so far, it)`.
pub fn each_kind_beside_others(
    seed: u64,
    shapes: &[(Shape, usize)],
    limit: usize,
    (kinds, most): (usize, usize),
    rule: fn(&mut super::Rng, Shape, usize) -> String,
    fits: impl Fn(&str, &str) -> bool,
) -> Option<Vec<(String, usize)>> {
    let mut next = 0;
    counts_of_made_agree_with_sigh(seed, shapes, limit, |random, shape| {
        let mut rules = rule(random, shape, next % kinds);
        next += 1;
        for _ in 0..1 + random.below(most) {
            let other = random.below(kinds);
            let more = rule(random, shape, other);
            if fits(&rules, &more) {
                rules += &more;
            }
        }
        instance_of(random, shape, &rules)
    })
}

/// The sigh string written for `puzzle` reads as the same puzzle, and
/// each of its rules, written as its rule line, reads back as itself on
/// the puzzle's board.
pub fn written_and_read_back(puzzle: &z3doku::puzzle::Puzzle) {
    let written = to_sigh(puzzle).unwrap();
    assert_eq!(&parse(&written).unwrap(), puzzle, "{written}");
    let size = puzzle.size();
    for constraint in puzzle.rules().constraints() {
        let line = constraint.to_string();
        let mut builder = Rules::builder(size);
        if puzzle.rules().lowest_value() == 0 {
            builder.digits_from_zero();
        }
        read_rules(&[(1, &line)], size, &mut builder).unwrap_or_else(|e| panic!("{line}: {e}"));
        let rules = builder.build().unwrap();
        assert!(rules.constraints().contains(constraint), "{line}");
    }
}

/// sigh's solver finds each of `unique` (a sigh string, its solution as
/// sigh writes it, and a third field the caller keeps) unique, with that
/// solution; nothing (and a note) without node or sigh.
pub fn sigh_finds_the_solutions(unique: &[(&str, &str, &str)]) {
    let Some(script) = super::sigh_runner() else {
        return;
    };
    let named: Vec<(String, String)> = unique
        .iter()
        .enumerate()
        .map(|(k, (text, _, _))| (k.to_string(), text.to_string()))
        .collect();
    let rows = super::run_sigh(&script, &named, 2);
    for (row, (text, solution, _)) in rows.iter().zip(unique) {
        assert_eq!(row.get(1).map(String::as_str), Some("1"), "{text}: {row:?}");
        assert_eq!(row.get(5).map(String::as_str), Some(*solution), "{text}");
    }
}

/// The commands made for N x N Sudoku (`hint`, `steps`, `rate`,
/// `candidates`, `minimize`, `emit`, `draw`), each with `text`, and what
/// each must say refusing it: cases for `refused_in_one_line`.
pub fn refused_by_the_sudoku_commands<'a>(
    text: &'a str,
    says: &'a str,
) -> Vec<(Vec<&'a str>, &'a str)> {
    let commands = [
        "hint",
        "steps",
        "rate",
        "candidates",
        "minimize",
        "emit",
        "draw",
    ];
    commands
        .iter()
        .map(|&command| (vec![command, text], says))
        .collect()
}
