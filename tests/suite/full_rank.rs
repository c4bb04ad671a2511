//! Full rank clues on sparse boards, where the native engine once stalled:
//! a clue is one rule over most of the board, and until it had a
//! propagator of its own (`puzzle::rank`) two givens and three clues kept
//! it searching for over ten minutes. Each puzzle here is counted by the
//! native engine and by Z3 (`int`, and `bool` on a few) under a generous
//! deadline: neither may give up, the counts must agree, and every
//! solution passes the independent checker. The deadline is far above
//! what either needs (milliseconds natively), so that only a stall, not
//! a loaded machine, fails the test.

use crate::common;

use std::time::{Duration, Instant};
use z3doku::engine::contract::EncodingKind;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::input::Source;
use z3doku::solve::count_with;

/// What a search may take before the test calls it a stall.
const DEADLINE: Duration = Duration::from_secs(60);

/// The three clues of `benches/data/more_kinds.txt`'s full rank puzzle.
const CLUES: &str =
    "full rank 6 (row 1)\nfull rank 29 (column 9 from the bottom)\nfull rank 17 (column 4)";

fn puzzle(text: &str) -> Puzzle {
    Source::Text(text.to_string())
        .read_puzzle(None)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Up to `limit` solutions on `engine`, each checked; panics when the
/// engine gives up.
fn count(puzzle: &Puzzle, limit: usize, engine: EngineKind, encoding: EncodingKind) -> usize {
    let budget = Budget::within(Some(DEADLINE));
    let mut solver = new_engine(&Settings {
        engine,
        encoding,
        ..Settings::default()
    });
    let start = Instant::now();
    let counted = count_with(solver.as_mut(), puzzle, limit, &budget, &mut |grid| {
        verify_solution(puzzle, grid).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    })
    .unwrap();
    assert!(
        counted.gave_up.is_none(),
        "{engine:?} {encoding:?} gave up after {:?} on\n{puzzle}",
        start.elapsed()
    );
    counted.solutions
}

fn native(puzzle: &Puzzle, limit: usize) -> usize {
    count(puzzle, limit, EngineKind::Native, EncodingKind::Int)
}

/// Two givens from the solution of `more_kinds.txt`'s full rank puzzle,
/// as `(index, digit)`: pairs on which the native engine, before its
/// propagator, gave up after 3 s (and on the first, ran over ten minutes).
const STALLED: [[(usize, u8); 2]; 5] = [
    [(19, b'8'), (29, b'5')],
    [(19, b'8'), (66, b'8')],
    [(3, b'5'), (38, b'8')],
    [(49, b'9'), (64, b'6')],
    [(68, b'4'), (74, b'1')],
];

#[test]
fn two_givens_and_three_clues_show_a_second_solution() {
    for pair in STALLED {
        let mut givens = vec![b'.'; 81];
        for (cell, digit) in pair {
            givens[cell] = digit;
        }
        let text = format!("{}\n{CLUES}\n", String::from_utf8(givens).unwrap());
        let p = puzzle(&text);
        assert_eq!(native(&p, 2), 2, "{p}");
        assert_eq!(count(&p, 2, EngineKind::Z3, EncodingKind::Int), 2, "{p}");
    }
    // With no givens at all, and with a given that leaves no solution (the
    // clued first cell r1c1 must hold 2, rank 6's digit).
    let empty = puzzle(&format!("{}\n{CLUES}\n", ".".repeat(81)));
    assert_eq!(native(&empty, 50), 50);
    let none = puzzle(&format!("1{}\n{CLUES}\n", ".".repeat(80)));
    assert_eq!(native(&none, 2), 0);
}

/// Three clues on different lines or ends, different ranks, all with
/// ties or all without (as sigh's option is the puzzle's).
fn clues(random: &mut common::Rng) -> String {
    let ties = if random.below(2) == 0 {
        " with ties"
    } else {
        ""
    };
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut ranks: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    while out.len() < 3 {
        let line = (random.below(4), random.below(9));
        let rank = 1 + random.below(36);
        if taken.contains(&line) || ranks.contains(&rank) {
            continue;
        }
        taken.push(line);
        ranks.push(rank);
        let (kind, end) = ["row|left", "row|right", "column|top", "column|bottom"][line.0]
            .split_once('|')
            .unwrap();
        out.push(format!(
            "full rank {rank}{ties} ({kind} {} from the {end})",
            line.1 + 1
        ));
    }
    out.join("\n")
}

#[test]
fn sparse_random_clues_agree_with_z3() {
    let mut random = common::Rng(0x0f01_1a2b);
    let mut solved = 0;
    for round in 0..24 {
        let rules = clues(&mut random);
        // A board that keeps the clues, when there is one, and a few of its
        // digits as givens (none to nine).
        let empty = puzzle(&format!("{}\n{rules}\n", ".".repeat(81)));
        let mut givens = vec![b'.'; 81];
        let budget = Budget::within(Some(DEADLINE));
        let mut engine = new_engine(&Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        });
        let mut board = None;
        let first = count_with(engine.as_mut(), &empty, 1, &budget, &mut |grid| {
            board = Some(grid.to_line());
        })
        .unwrap();
        assert!(first.gave_up.is_none(), "native gave up on\n{empty}");
        if let Some(board) = board {
            solved += 1;
            for _ in 0..random.below(10) {
                let cell = random.below(81);
                givens[cell] = board.as_bytes()[cell];
            }
        }
        let p = puzzle(&format!(
            "{}\n{rules}\n",
            String::from_utf8(givens).unwrap()
        ));
        let ours = native(&p, 3);
        assert_eq!(
            ours,
            count(&p, 3, EngineKind::Z3, EncodingKind::Int),
            "native and Z3 int differ on\n{p}"
        );
        if round % 6 == 0 {
            assert_eq!(
                ours,
                count(&p, 3, EngineKind::Z3, EncodingKind::Bool),
                "native and Z3 bool differ on\n{p}"
            );
        }
    }
    // Both kinds of puzzle came up: with solutions and without.
    assert!((1..24).contains(&solved), "{solved} of 24 had a solution");
}
