//! sigh's puzzle strings against sigh's own solver.
//!
//! Each puzzle is written with `to_sigh`, read back (the same givens and
//! rules must come out), and handed to sigh's solver (`node
//! ../shared/peers/sigh/run.mjs`), whose solution count must be z3doku's
//! and whose first solution must pass z3doku's checker. The puzzles are
//! the shared variants, the shipped examples, and random instances of each
//! rule kind sigh can say, on 4x4, 6x6 and 9x9 boards. Without node or the
//! peer, the comparison with sigh is skipped with a note; the round trips
//! still run.

use crate::common;

use common::Rng;
use std::collections::HashMap;
use std::path::PathBuf;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::{Cell, Grid, Size};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::kinds::{
    Added, Constraint,
    board::{AntiKing, AntiKnight, NegativeRatio, NegativeXv, NonConsecutive},
    cages::{Cage, ExtraRegion},
    cells::{Allowed, Clones, Even, Indexer, Indexing, Odd, Quadruple},
    counting::CountingCircles,
    dots::{Difference, Ratio, Xv},
    equal_sum::EqualSum,
    equality::EqualityCage,
    lines::{
        Arrow, BetweenLine, DoubleArrow, EntropicLine, ModularLine, Palindrome, RegionSumLine,
        Renban, SlowThermo, Thermo, Whispers, ZipperLine,
    },
    lunchbox::Lunchbox,
    nabner::Nabner,
    outside::{LittleKiller, Outside, Sandwich, Skyscraper, XSum},
    rellik::RellikCage,
    same_values::SameValues,
    sums::WeightedSum,
};
use z3doku::puzzle::rules::{Diagonal, Rules};
use z3doku::puzzle::sigh::{parse, to_sigh};
use z3doku::solve::count_with;

/// How many solutions are counted, by both solvers.
const LIMIT: usize = 60;

/// sigh's count (up to `limit`) and first solution for each named string.
fn sigh_counts(
    script: &std::path::Path,
    puzzles: &[(String, String)],
    limit: usize,
) -> HashMap<String, (String, String)> {
    common::run_sigh(script, puzzles, limit)
        .into_iter()
        .map(|fields| (fields[0].clone(), (fields[1].clone(), fields[5].clone())))
        .collect()
}

/// z3doku's count (native engine, up to `limit`), every solution checked.
fn count(puzzle: &Puzzle, limit: usize) -> usize {
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    count_with(
        engine.as_mut(),
        puzzle,
        limit,
        &Budget::unbounded(),
        &mut |grid| {
            assert_eq!(verify_solution(puzzle, grid), Ok(()));
        },
    )
    .unwrap()
    .solutions
}

/// The rules as sorted names, and the givens: what a round trip keeps.
fn shape_of(puzzle: &Puzzle) -> (Vec<String>, Vec<String>, Grid) {
    let mut rules: Vec<String> = puzzle
        .rules()
        .constraints()
        .iter()
        .map(|c| c.to_string())
        .collect();
    rules.sort();
    let houses: Vec<String> = puzzle
        .rules()
        .houses()
        .iter()
        .map(|h| format!("{} {:?}", h, h.cells))
        .collect();
    (rules, houses, puzzle.givens().clone())
}

/// Writes each puzzle, reads it back, and compares both solvers' counts;
/// gives z3doku's counts (empty when sigh is not here).
fn compare(puzzles: &[(String, Puzzle)], limit: usize) -> Vec<usize> {
    let mut strings = Vec::new();
    for (name, puzzle) in puzzles {
        let string = to_sigh(puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = parse(&string).unwrap_or_else(|e| panic!("{name}: {string}: {e}"));
        assert_eq!(shape_of(&again), shape_of(puzzle), "{name}: {string}");
        strings.push((name.clone(), string));
    }
    let Some(script) = common::sigh_runner() else {
        return Vec::new();
    };
    let mut counts = Vec::new();
    let sigh = sigh_counts(&script, &strings, limit);
    let mut compared = 0;
    for ((name, puzzle), (_, string)) in puzzles.iter().zip(&strings) {
        let (theirs, solution) = &sigh[name];
        let ours = count(puzzle, limit);
        counts.push(ours);
        assert_eq!(theirs, &ours.to_string(), "{name}: {string}");
        if ours > 0 {
            let digits: Vec<u8> = if solution.contains(',') {
                solution.split(',').map(|d| d.parse().unwrap()).collect()
            } else {
                solution.bytes().map(|b| b - b'0').collect()
            };
            let grid = Grid::from_cells(puzzle.size(), &digits).unwrap();
            assert_eq!(
                verify_solution(puzzle, &grid),
                Ok(()),
                "{name}: sigh's {solution}"
            );
        }
        compared += 1;
    }
    eprintln!("{compared} puzzles: sigh's counts agree");
    counts
}

#[test]
fn shared_variants_and_examples_agree_with_sigh() {
    let mut puzzles = Vec::new();
    let dir = common::shared_root().join("data/variants");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_else(|_| {
            eprintln!("SKIPPED: {} is missing", dir.display());
            Vec::new()
        });
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/puzzles");
    files.extend(
        std::fs::read_dir(examples)
            .unwrap()
            .flatten()
            .map(|e| e.path()),
    );
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // A file of many puzzles, and the 25x25 board sigh does not have.
        if name.ends_with(".md") || name == "solutions.txt" || name == "batch.txt" {
            continue;
        }
        let puzzle = Source::File(path).read_puzzle(None).unwrap();
        if puzzle.size().side() > 16 {
            assert!(to_sigh(&puzzle).is_err());
            continue;
        }
        // A rule written as a formula is z3doku's alone: refused by name.
        if name == "formula.txt" {
            let refused = to_sigh(&puzzle).map_err(|e| e.to_string());
            assert!(
                refused.as_ref().is_err_and(|e| e.contains("formula")),
                "{refused:?}"
            );
            continue;
        }
        puzzles.push((name, puzzle));
    }
    assert!(puzzles.len() >= 15, "{}", puzzles.len());
    let counts = compare(&puzzles, 2);
    // The shared variants are unique; the examples hold a puzzle with
    // several solutions and two with none.
    assert!(counts.is_empty() || counts.iter().filter(|&&c| c == 1).count() >= 35);
}

/// A full board of `size`, as the native engine first fills it under no
/// rule but the houses, shuffled by relabelling its digits.
fn solution(size: Size, rng: &mut Rng) -> Grid {
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let mut first = None;
    count_with(
        engine.as_mut(),
        &Puzzle::classic(Grid::empty(size)),
        1,
        &Budget::unbounded(),
        &mut |g| first = Some(g.clone()),
    )
    .unwrap();
    let grid = first.unwrap();
    let side = size.side();
    let mut labels: Vec<u8> = (1..=side as u8).collect();
    for k in (1..side).rev() {
        labels.swap(k, rng.below(k + 1));
    }
    let cells: Vec<u8> = grid
        .cells()
        .iter()
        .map(|&d| labels[usize::from(d) - 1])
        .collect();
    Grid::from_cells(size, &cells).unwrap()
}

/// The rule of a board-wide kind, without the marks it may bring.
fn board_rule(kind: &str) -> Option<Vec<Added>> {
    let one = |c: Constraint| vec![Added::Constraint(c)];
    Some(match kind {
        "anti-knight" => one(AntiKnight.into()),
        "anti-king" => one(AntiKing.into()),
        "nonconsecutive" => one(NonConsecutive.into()),
        "strict kropki" => vec![
            Added::Constraint(NonConsecutive.into()),
            Added::Constraint(NegativeRatio.into()),
        ],
        "negative xv" => one(NegativeXv.into()),
        "diagonals" => vec![
            Added::Diagonal(Diagonal::Rising),
            Added::Diagonal(Diagonal::Falling),
        ],
        "disjoint groups" => vec![Added::DisjointGroups],
        _ => return None,
    })
}

/// The first board the native engine fills under `rules`, if any.
fn first_under(size: Size, rules: &[Added]) -> Option<Grid> {
    let mut builder = Rules::builder(size);
    for added in rules {
        builder.add(added.clone()).ok()?;
    }
    let puzzle = Puzzle::new(Grid::empty(size), builder.build().ok()?);
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let mut first = None;
    count_with(
        engine.as_mut(),
        &puzzle,
        1,
        &Budget::unbounded(),
        &mut |g| first = Some(g.clone()),
    )
    .ok()?;
    first
}

/// A path of up to `len` cells, each an orthogonal neighbour of the one
/// before, none twice.
fn walk(size: Size, rng: &mut Rng, len: usize) -> Vec<Cell> {
    let side = size.side();
    let mut cells = vec![size.cell(rng.below(side), rng.below(side))];
    while cells.len() < len {
        let last = cells[cells.len() - 1];
        let next: Vec<Cell> = [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)]
            .iter()
            .map(|(dr, dc)| (last.row() as isize + dr, last.col() as isize + dc))
            .filter(|&(r, c)| (0..side as isize).contains(&r) && (0..side as isize).contains(&c))
            .map(|(r, c)| size.cell(r as usize, c as usize))
            .filter(|c| !cells.contains(c))
            .collect();
        if next.is_empty() {
            break;
        }
        cells.push(next[rng.below(next.len())]);
    }
    cells
}

/// sigh's little killer diagonals, worked out here apart from z3doku's
/// writer: each run of two or more cells from the left edge down-right,
/// the right edge up-left, the top edge down-left and the bottom edge
/// up-right, named by its first cell.
fn diagonals(size: Size) -> Vec<Vec<Cell>> {
    let side = size.side() as isize;
    let mut starts = Vec::new();
    for r in 0..side - 1 {
        starts.push((r, 0, 1, 1));
    }
    for r in 1..side - 1 {
        starts.push((r, side - 1, -1, -1));
    }
    for c in 1..side {
        starts.push((0, c, 1, -1));
    }
    for c in 1..side - 1 {
        starts.push((side - 1, c, -1, 1));
    }
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for (mut r, mut c, dr, dc) in starts {
        let mut cells = Vec::new();
        while (0..side).contains(&r) && (0..side).contains(&c) {
            cells.push(size.cell(r as usize, c as usize));
            r += dr;
            c += dc;
        }
        let mut key = cells.clone();
        key.sort();
        if cells.len() > 1
            && !out.iter().any(|o| {
                let mut k = o.clone();
                k.sort();
                k == key
            })
        {
            out.push(cells);
        }
    }
    out
}

/// One random rule of `kind` that the board `sol` keeps, or `None` when
/// the kind does not fit the board or no try kept it.
fn random_rule(kind: &str, size: Size, sol: &Grid, rng: &mut Rng) -> Option<Vec<Added>> {
    let side = size.side();
    let digit = |c: Cell| sol.get(size.index(c));
    let total = |cells: &[Cell]| cells.iter().map(|&c| u32::from(digit(c))).sum::<u32>();
    let one = |c: Constraint| vec![Added::Constraint(c)];
    let neighbours = |rng: &mut Rng| {
        let w = walk(size, rng, 2);
        (w.len() == 2).then(|| [w[0], w[1]])
    };
    let line = |rng: &mut Rng| Outside {
        row: rng.below(2) == 0,
        number: rng.below(side),
        reversed: rng.below(2) == 0,
    };
    for _ in 0..200 {
        let len = 2 + rng.below(side.min(5) - 1);
        let path = walk(size, rng, len);
        let rule: Vec<Added> = match kind {
            "cage" => one(Cage {
                sum: (rng.below(3) > 0).then(|| total(&path)),
                cells: path.clone(),
            }
            .into()),
            "thermo" => {
                let mut cells = path.clone();
                cells.sort_by_key(|&c| digit(c));
                one(Thermo { cells }.into())
            }
            "slow thermo" => {
                let mut cells = path.clone();
                cells.sort_by_key(|&c| digit(c));
                one(SlowThermo { cells }.into())
            }
            "arrow" => one(Arrow {
                circle: vec![path[0]],
                line: path[1..].to_vec(),
            }
            .into()),
            "pill arrow" if side <= 9 => {
                // A pill across two cells reads 10a + b: cells picked at
                // random until their digits add up to it.
                let (r, c) = (rng.below(side), rng.below(side - 1));
                let pill = vec![size.cell(r, c), size.cell(r, c + 1)];
                let target = 10 * u32::from(digit(pill[0])) + u32::from(digit(pill[1]));
                let mut line = Vec::new();
                let mut sum = 0;
                while sum < target && line.len() < size.cells() - 2 {
                    let cell = size.cell(rng.below(side), rng.below(side));
                    if !pill.contains(&cell) && !line.contains(&cell) {
                        sum += u32::from(digit(cell));
                        line.push(cell);
                    }
                }
                if sum != target {
                    continue;
                }
                one(Arrow { circle: pill, line }.into())
            }
            "palindrome" => one(Palindrome(path.clone()).into()),
            "renban" => one(Renban(path.clone()).into()),
            "whispers" => one(Whispers {
                cells: path.clone(),
                difference: 1 + rng.below(side / 2) as u8,
            }
            .into()),
            "region sum line" => one(RegionSumLine(path.clone()).into()),
            "between line" if path.len() >= 3 => one(BetweenLine(path.clone()).into()),
            "entropic line" if side == 9 => one(EntropicLine(path.clone()).into()),
            "modular line" => one(ModularLine {
                modulus: 3,
                cells: path.clone(),
            }
            .into()),
            "zipper line" => one(ZipperLine(path.clone()).into()),
            "double arrow" if path.len() >= 3 => one(DoubleArrow(path.clone()).into()),
            "nabner" => one(Nabner(path.clone()).into()),
            "anti-knight" => one(AntiKnight.into()),
            "anti-king" => one(AntiKing.into()),
            "nonconsecutive" => one(NonConsecutive.into()),
            "strict kropki" => {
                let mut rule = one(NonConsecutive.into());
                rule.push(Added::Constraint(NegativeRatio.into()));
                for _ in 0..2 {
                    let cells = neighbours(rng)?;
                    let (a, b) = (digit(cells[0]), digit(cells[1]));
                    if a.abs_diff(b) == 1 {
                        rule.push(Added::Constraint(Difference { cells, value: 1 }.into()));
                    } else if a == 2 * b || b == 2 * a {
                        rule.push(Added::Constraint(Ratio { cells, value: 2 }.into()));
                    }
                }
                rule
            }
            "negative xv" => {
                let mut rule = one(NegativeXv.into());
                let cells = neighbours(rng)?;
                let s = digit(cells[0]) + digit(cells[1]);
                if s == 5 || s == 10 {
                    rule.push(Added::Constraint(Xv { cells, sum: s }.into()));
                }
                rule
            }
            "diagonals" => vec![
                Added::Diagonal(Diagonal::Rising),
                Added::Diagonal(if rng.below(2) == 0 {
                    Diagonal::Falling
                } else {
                    Diagonal::Rising
                }),
            ],
            "disjoint groups" if size.region_shape().is_some() => vec![Added::DisjointGroups],
            "allowed" => {
                let cell = path[0];
                let digits = (1..=side)
                    .filter(|&d| d == usize::from(digit(cell)) || rng.below(2) == 0)
                    .fold(0u32, |m, d| m | 1 << (d - 1));
                let odd = (1..=side).step_by(2).fold(0u32, |m, d| m | 1 << (d - 1));
                let all = (1u32 << side) - 1;
                if digits.count_ones() < 2 || digits == all || digits == odd || digits == all & !odd
                {
                    continue;
                }
                one(Allowed { cell, digits }.into())
            }
            "odd" => one(Odd(path[0]).into()),
            "even" => one(Even(path[0]).into()),
            "clone" => {
                let other = size.cell(rng.below(side), rng.below(side));
                if other == path[0] {
                    continue;
                }
                one(Clones {
                    cells: vec![path[0]],
                    clones: vec![other],
                }
                .into())
            }
            "quadruple" => {
                let (r, c) = (rng.below(side - 1), rng.below(side - 1));
                let cells = vec![
                    size.cell(r, c),
                    size.cell(r, c + 1),
                    size.cell(r + 1, c),
                    size.cell(r + 1, c + 1),
                ];
                let mut digits: Vec<u8> = cells.iter().map(|&c| digit(c)).collect();
                digits.truncate(1 + rng.below(4));
                digits.sort_unstable();
                one(Quadruple { cells, digits }.into())
            }
            "row indexer" => one(Indexer {
                kind: Indexing::Row,
                cell: path[0],
            }
            .into()),
            "column indexer" => one(Indexer {
                kind: Indexing::Column,
                cell: path[0],
            }
            .into()),
            "little killer" => {
                let all = diagonals(size);
                let cells = all[rng.below(all.len())].clone();
                one(LittleKiller {
                    sum: total(&cells),
                    cells,
                }
                .into())
            }
            "sandwich" => {
                let mut line = line(rng);
                line.reversed = false;
                let cells = line.cells(size);
                let at = |d: u8| cells.iter().position(|&c| digit(c) == d).unwrap_or(0);
                let (a, b) = (at(1), at(side as u8));
                let (a, b) = (a.min(b), a.max(b));
                one(Sandwich {
                    line,
                    sum: total(&cells[a + 1..b]),
                }
                .into())
            }
            "x-sum" => {
                let line = line(rng);
                let cells = line.cells(size);
                let x = usize::from(digit(cells[0]));
                one(XSum {
                    line,
                    sum: total(&cells[..x]),
                }
                .into())
            }
            "skyscraper" => {
                let line = line(rng);
                let (mut seen, mut top) = (0, 0);
                for c in line.cells(size) {
                    if digit(c) > top {
                        seen += 1;
                        top = digit(c);
                    }
                }
                one(Skyscraper { line, count: seen }.into())
            }
            "difference" => {
                let cells = neighbours(rng)?;
                let value = digit(cells[0]).abs_diff(digit(cells[1]));
                one(Difference { cells, value }.into())
            }
            "ratio" => {
                let cells = neighbours(rng)?;
                let (a, b) = (digit(cells[0]), digit(cells[1]));
                let (low, high) = (a.min(b), a.max(b));
                // A ratio k with 2k past the side joins only 1 and k, the
                // same relation as a difference of k - 1, which sigh's
                // key cannot tell apart (it reads back as the difference).
                if high % low != 0 || high == low || 2 * usize::from(high / low) > side {
                    continue;
                }
                one(Ratio {
                    cells,
                    value: high / low,
                }
                .into())
            }
            "xv" => {
                let cells = neighbours(rng)?;
                let sum = digit(cells[0]) + digit(cells[1]);
                if sum != 5 && sum != 10 {
                    continue;
                }
                one(Xv { cells, sum }.into())
            }
            "extra region" => one(ExtraRegion(path.clone()).into()),
            "weighted sum" => {
                let terms: Vec<(Cell, i32)> = path
                    .iter()
                    .map(|&c| (c, [-2, -1, 1, 1, 2, 3][rng.below(6)]))
                    .collect();
                let sum = terms.iter().map(|&(c, w)| w * i32::from(digit(c))).sum();
                one(WeightedSum { terms, sum }.into())
            }
            "rellik cage" => one(RellikCage {
                cells: path.clone(),
                sum: 1 + rng.below(3 * side) as u32,
            }
            .into()),
            "equality cage" => one(EqualityCage(path.clone()).into()),
            "lunchbox" => {
                let at = |pick: fn(u8, u8) -> bool| {
                    (0..path.len()).fold(0, |best, k| {
                        match pick(digit(path[k]), digit(path[best])) {
                            true => k,
                            false => best,
                        }
                    })
                };
                let (low, high) = (at(|a, b| a < b), at(|a, b| a > b));
                let sum = total(&path[low.min(high) + 1..low.max(high)]);
                one(Lunchbox {
                    cells: path.clone(),
                    sum,
                }
                .into())
            }
            "equal sum" => {
                let length = 1 + rng.below(3);
                let other = walk(size, rng, length);
                if total(&other) != total(&path) {
                    continue;
                }
                one(EqualSum(vec![path.clone(), other]).into())
            }
            "same values" => {
                // Another set of as many cells holding the path's digits,
                // each picked at random among the cells that hold it.
                let mut other: Vec<Cell> = Vec::new();
                for &c in &path {
                    let holding: Vec<Cell> = (0..size.cells())
                        .map(|i| size.cell_at(i))
                        .filter(|&o| digit(o) == digit(c) && !other.contains(&o))
                        .collect();
                    other.push(holding[rng.below(holding.len())]);
                }
                if other == path {
                    continue;
                }
                one(SameValues(vec![path.clone(), other]).into())
            }
            "counting circles" => {
                // `d` cells that hold `d`, for one or two digits `d`.
                let mut circles = Vec::new();
                for _ in 0..1 + rng.below(2) {
                    let d = 1 + rng.below(side.min(4)) as u8;
                    let holding: Vec<Cell> = (0..size.cells())
                        .map(|i| size.cell_at(i))
                        .filter(|&c| digit(c) == d && !circles.contains(&c))
                        .collect();
                    if holding.len() == side {
                        let start = rng.below(side);
                        circles.extend((0..usize::from(d)).map(|k| holding[(start + k) % side]));
                    }
                }
                one(CountingCircles(circles).into())
            }
            _ => return None,
        };
        let mut builder = Rules::builder(size);
        if rule.iter().any(|a| builder.add(a.clone()).is_err()) {
            continue;
        }
        let Ok(rules) = builder.build() else {
            continue;
        };
        if verify_solution(&Puzzle::new(Grid::empty(size), rules), sol).is_ok() {
            return Some(rule);
        }
    }
    None
}

/// Every kind the random instances cover.
const KINDS: &[&str] = &[
    "cage",
    "thermo",
    "slow thermo",
    "arrow",
    "pill arrow",
    "palindrome",
    "renban",
    "whispers",
    "region sum line",
    "between line",
    "entropic line",
    "modular line",
    "zipper line",
    "double arrow",
    "nabner",
    "anti-knight",
    "anti-king",
    "nonconsecutive",
    "strict kropki",
    "negative xv",
    "diagonals",
    "disjoint groups",
    "allowed",
    "odd",
    "even",
    "clone",
    "quadruple",
    "row indexer",
    "column indexer",
    "little killer",
    "sandwich",
    "x-sum",
    "skyscraper",
    "difference",
    "ratio",
    "xv",
    "extra region",
    "weighted sum",
    "rellik cage",
    "equality cage",
    "lunchbox",
    "equal sum",
    "counting circles",
    "same values",
];

#[test]
fn random_instances_of_every_kind_agree_with_sigh() {
    let mut rng = Rng(0x5167_9e37_79b9_7f4a);
    let mut puzzles = Vec::new();
    for (side, givens) in [(4, 0), (6, 16), (9, 40)] {
        let size = Size::from_side(side).unwrap();
        for kind in KINDS {
            for k in 0..3 {
                // A board-wide rule needs a board that keeps it: the first
                // the native engine finds under it, different givens
                // making the instances differ.
                let sol = match board_rule(kind) {
                    Some(base) => match first_under(size, &base) {
                        Some(sol) => sol,
                        None => continue,
                    },
                    None => solution(size, &mut rng),
                };
                let mut builder = Rules::builder(size);
                let mut found = false;
                for _ in 0..1 + rng.below(2) {
                    if let Some(rule) = random_rule(kind, size, &sol, &mut rng) {
                        for added in rule {
                            let _ = builder.add(added);
                        }
                        found = true;
                    }
                }
                if !found {
                    continue;
                }
                let Ok(rules) = builder.build() else {
                    continue;
                };
                // A given on a cell whose digits a rule limits makes that
                // rule say nothing, and sigh's string merges the two.
                let limited: Vec<usize> = rules
                    .constraints()
                    .iter()
                    .filter(|c| {
                        matches!(
                            c,
                            Constraint::Allowed(_) | Constraint::Odd(_) | Constraint::Even(_)
                        )
                    })
                    .flat_map(|c| c.cells())
                    .map(|c| size.index(c))
                    .collect();
                let mut grid = Grid::empty(size);
                for _ in 0..givens {
                    let i = rng.below(size.cells());
                    if !limited.contains(&i) {
                        grid.set(i, sol.get(i));
                    }
                }
                puzzles.push((
                    format!("{side}x{side}-{}-{k}", kind.replace(' ', "-")),
                    Puzzle::new(grid, rules),
                ));
            }
        }
    }
    // Every kind on some board.
    for kind in KINDS {
        let name = kind.replace(' ', "-");
        assert!(
            puzzles
                .iter()
                .any(|(n, _)| n.contains(&format!("-{name}-"))),
            "{kind}"
        );
    }
    let counts = compare(&puzzles, LIMIT);
    // Most instances are neither without a solution nor past the limit,
    // so the counts say something.
    let between = counts.iter().filter(|&&c| c > 0 && c < LIMIT).count();
    eprintln!(
        "counts: {between} between 1 and {}, {} none, {} at the limit",
        LIMIT - 1,
        counts.iter().filter(|&&c| c == 0).count(),
        counts.iter().filter(|&&c| c == LIMIT).count()
    );
    assert!(counts.is_empty() || 2 * between > counts.len(), "{between}");
}
