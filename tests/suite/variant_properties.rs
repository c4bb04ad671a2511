//! Property tests for variant rules: random sets of rules on 4x4 and 6x6
//! boards, where the native engine and Z3 in every encoding must agree on
//! the number of solutions up to a limit, and every solution must pass
//! the independent checker.

use crate::common;

use proptest::prelude::*;
use std::time::Duration;
use z3doku::engine::{Budget, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::constraint::{Constraint, Outside};
use z3doku::puzzle::grid::{Cell, Grid, Size};
use z3doku::puzzle::kinds::{
    board::{AntiKing, NonConsecutive},
    cages::Cage,
    cells::{Odd, Quadruple},
    connected_values::ConnectedValues,
    count_distinct::CountDistinct,
    counting::CountingCircles,
    dots::{Difference, Ratio, Xv},
    either::Either,
    equal_sum::EqualSum,
    equality::EqualityCage,
    full_rank::FullRank,
    global::{
        AntiTaxicab, DiagonalNonConsecutive, DutchFlatmates, GlobalEntropy, GlobalMod, Knightmare,
        Leaper, Windoku,
    },
    lines::{Arrow, BetweenLine, ModularLine, Palindrome, Renban, Thermo},
    lockout::Lockout,
    look_and_say::LookAndSay,
    lunchbox::Lunchbox,
    outside::{Sandwich, Skyscraper, XSum},
    pairs::{Contains, GreaterThan, Pairwise},
    parity::ParityLine,
    regex::Regex,
    rellik::RellikCage,
    rooms::{HiddenSkyscraper, NumberedRoom},
    same_values::SameValues,
    state_machine::StateMachine,
    sum_line::SumLine,
    value_indexing::ValueIndexing,
};
use z3doku::puzzle::rules::{Diagonal, Rules};
use z3doku::solve::count_with;

/// Solutions counted, at most.
const LIMIT: usize = 12;

/// One rule drawn from `choice` numbers, on a board of `side`.
fn rule(side: usize, choice: &[usize]) -> Option<Constraint> {
    let size = Size::from_side(side).unwrap();
    let at = |k: usize| {
        let i = choice[k] % size.cells();
        size.cell(i / side, i % side)
    };
    // A cell and its right or lower neighbour.
    let neighbours = |k: usize| -> [Cell; 2] {
        let a = at(k);
        if choice[k + 1].is_multiple_of(2) && a.col() + 1 < side {
            [a, size.cell(a.row(), a.col() + 1)]
        } else if a.row() + 1 < side {
            [a, size.cell(a.row() + 1, a.col())]
        } else {
            [a, size.cell(a.row(), a.col() - 1)]
        }
    };
    let line = |k: usize, n: usize| -> Vec<Cell> {
        let mut cells: Vec<Cell> = Vec::new();
        for j in 0..n {
            let c = at(k + j);
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        cells
    };
    let outside = Outside {
        row: choice[1].is_multiple_of(2),
        number: choice[2] % side,
        reversed: choice[3].is_multiple_of(2),
    };
    let digit = |k: usize| 1 + (choice[k] % side) as u8;
    Some(match choice[0] % 48 {
        0 => Constraint::Cage(Cage {
            cells: neighbours(1).to_vec(),
            sum: Some(3 + (choice[3] % (2 * side - 3)) as u32),
        }),
        1 => Constraint::Thermo(Thermo { cells: line(1, 3) }),
        2 => Constraint::Difference(Difference {
            cells: neighbours(1),
            value: 1 + (choice[3] % 2) as u8,
        }),
        3 => Constraint::Ratio(Ratio {
            cells: neighbours(1),
            value: 2,
        }),
        4 => Constraint::Xv(Xv {
            cells: neighbours(1),
            sum: 5,
        }),
        5 => Constraint::AntiKing(AntiKing),
        6 => Constraint::NonConsecutive(NonConsecutive),
        7 => Constraint::Odd(Odd(at(1))),
        8 => Constraint::Sandwich(Sandwich {
            line: outside,
            sum: (choice[4] % 8) as u32,
        }),
        9 => Constraint::XSum(XSum {
            line: outside,
            sum: 1 + (choice[4] % 12) as u32,
        }),
        10 => Constraint::Skyscraper(Skyscraper {
            line: outside,
            count: 1 + choice[4] % side,
        }),
        11 => Constraint::Arrow(Arrow {
            circle: vec![at(1)],
            line: line(2, 2).into_iter().filter(|&c| c != at(1)).collect(),
        }),
        12 => Constraint::BetweenLine(BetweenLine(line(1, 3))),
        13 => Constraint::Renban(Renban(line(1, 3))),
        14 => Constraint::Quadruple(Quadruple {
            cells: line(1, 4),
            digits: vec![1 + (choice[5] % side) as u8],
        }),
        15 => Constraint::Palindrome(Palindrome(line(1, 4))),
        16 => Constraint::AntiTaxicab(AntiTaxicab),
        17 => Constraint::Leaper(Leaper {
            a: 1 + (choice[1] % 2) as u8,
            b: 3,
        }),
        18 => Constraint::DiagonalNonConsecutive(DiagonalNonConsecutive),
        19 => Constraint::Knightmare(Knightmare {
            sums: vec![(side + 1) as u8],
        }),
        20 => Constraint::Windoku(Windoku),
        21 => Constraint::DutchFlatmates(DutchFlatmates),
        22 => Constraint::GlobalEntropy(GlobalEntropy),
        23 => Constraint::GlobalMod(GlobalMod),
        24 => Constraint::GreaterThan(GreaterThan {
            cells: neighbours(1).to_vec(),
        }),
        25 => {
            // A random table of allowed pairs, about half of them.
            let mut allowed: Vec<(u8, u8)> = (1..=side as u8)
                .flat_map(|a| (1..=side as u8).map(move |b| (a, b)))
                .filter(|&(a, b)| (choice[5] >> ((a as usize * 7 + b as usize) % 60)) & 1 == 1)
                .collect();
            if allowed.is_empty() {
                allowed.push((1, 2));
            }
            Constraint::Pairwise(Pairwise {
                allowed,
                cells: line(1, 3),
            })
        }
        26 | 27 => {
            let mut digits = vec![digit(5), digit(6)];
            digits.sort_unstable();
            Constraint::Contains(Contains {
                digits,
                cells: line(1, 4),
                exact: choice[0] % 48 == 27,
            })
        }
        28 => Constraint::HiddenSkyscraper(HiddenSkyscraper {
            line: outside,
            digit: digit(4),
        }),
        29 => Constraint::NumberedRoom(NumberedRoom {
            line: outside,
            digit: digit(4),
        }),
        30 => Constraint::RellikCage(RellikCage {
            cells: line(1, 3),
            sum: 1 + (choice[5] % (2 * side)) as u32,
        }),
        31 => Constraint::EqualityCage(EqualityCage(line(1, 4))),
        32 => Constraint::Lunchbox(Lunchbox {
            cells: line(1, 4),
            sum: (choice[5] % (2 * side)) as u32,
        }),
        33 => Constraint::EqualSum(EqualSum(vec![line(1, 2), line(3, 1), line(4, 3)])),
        34 => Constraint::CountingCircles(CountingCircles(line(1, 5))),
        35 => Constraint::Lockout(Lockout {
            difference: (choice[5] % side) as u8,
            cells: line(1, 4),
        }),
        36 => Constraint::ParityLine(ParityLine(line(1, 4))),
        37 => Constraint::ModularLine(ModularLine {
            modulus: 1 + (choice[5] % (side + 1)) as u8,
            cells: line(1, 5),
        }),
        38 => Constraint::ValueIndexing(ValueIndexing(line(1, 5))),
        39 => {
            let cells = line(1, 5);
            Constraint::CountDistinct(CountDistinct {
                control: cells[0],
                counted: cells[1..].to_vec(),
            })
        }
        40 => {
            let (a, b) = (digit(5), digit(6));
            let pattern = match choice[7] % 3 {
                0 => format!("[1-{a}]*{b}.*"),
                1 => format!("({a}|{b})+.?"),
                _ => format!("(.)?[^{b}]{{2,}}"),
            };
            Constraint::Regex(Regex {
                pattern,
                cells: line(1, 4),
            })
        }
        41 => {
            // sigh's encodings of `(12|3)+` and `(1|2)*3(4|5)*`.
            let machines = ["RJVmykA", "QTHOMA"];
            Constraint::StateMachine(StateMachine {
                encoded: machines[choice[5] % 2].to_string(),
                cells: line(1, 3),
            })
        }
        42 => Constraint::SumLine(SumLine {
            sum: 1 + (choice[5] % (2 * side)) as u32,
            looped: choice[7].is_multiple_of(2),
            cells: line(1, 5),
        }),
        43 => Constraint::FullRank(FullRank {
            line: outside,
            rank: 1 + (choice[5] % (4 * side)) as u32,
            ties: choice[7].is_multiple_of(2),
        }),
        44 => {
            // Two or three branches of small rules, one of them a
            // branch of two.
            let branch = |k: usize| -> Constraint {
                match choice[k] % 4 {
                    0 => Constraint::Thermo(Thermo { cells: line(k, 2) }),
                    1 => Constraint::Xv(Xv {
                        cells: neighbours(k),
                        sum: 5,
                    }),
                    2 => Constraint::Odd(Odd(at(k))),
                    _ => Constraint::Skyscraper(Skyscraper {
                        line: outside,
                        count: 1 + choice[k] / 4 % side,
                    }),
                }
            };
            let mut branches = vec![vec![branch(1)], vec![branch(3), branch(5)]];
            if choice[7].is_multiple_of(2) {
                branches.push(vec![branch(6)]);
            }
            Constraint::Either(Either(branches))
        }
        45 => {
            // A run of half the digits or more (fewer seldom connect), with
            // the size they must have, one cell short, or none.
            let count = side / 2 + choice[5] % (side / 2);
            let digits = (0..count).fold(0u32, |m, j| m | 1 << ((choice[6] + j) % side));
            let cells = (count * side) as u32;
            Constraint::ConnectedValues(ConnectedValues {
                digits,
                size: match choice[7] % 4 {
                    0 => Some(cells),
                    1 => Some(cells - 1),
                    _ => None,
                },
            })
        }
        46 => {
            // Two sets of as many cells (shorter when a walk repeats one).
            let (a, b) = (line(1, 3), line(4, 3));
            let n = a.len().min(b.len());
            Constraint::SameValues(SameValues(vec![a[..n].to_vec(), b[..n].to_vec()]))
        }
        _ => {
            // One or two (count, digit) pairs, the count 0 to 2.
            let mut clue = vec![((choice[5] % 3) as u8, digit(6))];
            if choice[7].is_multiple_of(2) {
                clue.push(((choice[7] / 2 % 3) as u8, digit(4)));
            }
            Constraint::LookAndSay(LookAndSay {
                clue,
                cells: line(1, 4),
            })
        }
    })
}

/// A puzzle on a board of `side`: a few rules (those that fit) and a
/// given or two.
fn puzzle(side: usize) -> impl Strategy<Value = Puzzle> {
    (
        prop::collection::vec(prop::collection::vec(any::<usize>(), 8), 1..4),
        prop::collection::vec((any::<usize>(), any::<u8>()), 0..3),
        any::<bool>(),
    )
        .prop_map(move |(choices, givens, diagonal)| {
            let size = Size::from_side(side).unwrap();
            let mut builder = Rules::builder(size);
            if diagonal {
                builder.diagonal(Diagonal::Falling);
            }
            for choice in &choices {
                if let Some(rule) = rule(side, choice) {
                    // A rule that cannot hold on the board is refused, as
                    // input would be; the others make the puzzle.
                    let _ = builder.constraint(rule);
                }
            }
            let mut grid = Grid::empty(size);
            for (cell, digit) in givens {
                grid.set(cell % size.cells(), 1 + digit % side as u8);
            }
            Puzzle::new(grid, builder.build().unwrap())
        })
}

fn agree(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let budget = Budget::within(Some(Duration::from_secs(60)));
    let mut counts = Vec::new();
    let configs = common::every_engine();
    for settings in &configs {
        let mut engine = new_engine(settings);
        let mut bad = None;
        let count = count_with(engine.as_mut(), puzzle, LIMIT, &budget, &mut |grid| {
            if let Err(e) = verify_solution(puzzle, grid) {
                bad = Some(e);
            }
        })
        .unwrap();
        prop_assert_eq!(bad, None);
        prop_assert_eq!(
            &count.gave_up,
            &None,
            "{:?} gave up on {:?} with {:?}",
            settings,
            puzzle,
            puzzle
                .rules()
                .constraints()
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
        );
        counts.push(count.solutions);
    }
    prop_assert!(
        counts.iter().all(|&c| c == counts[0]),
        "counts {:?} (native, int, bool, pb) for {:?} with {:?}",
        counts,
        puzzle,
        puzzle
            .rules()
            .constraints()
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn engines_agree_on_random_rules_4x4(p in puzzle(4)) {
        agree(&p)?;
    }

    #[test]
    fn engines_agree_on_random_rules_6x6(p in puzzle(6)) {
        agree(&p)?;
    }
}

/// A 4x4 chaos construction (boxes kept or not) with up to two random
/// clues over its regions and up to three givens.
fn chaos_puzzle() -> impl Strategy<Value = (Puzzle, Puzzle)> {
    (
        any::<bool>(),
        prop::collection::vec(
            (
                any::<bool>(),
                any::<bool>(),
                prop::collection::vec(0..16usize, 3),
            ),
            0..3,
        ),
        prop::collection::vec((0..16usize, 1..=4u8), 0..4),
    )
        .prop_map(|(boxes, clues, givens)| {
            use z3doku::puzzle::kinds::chaos::{ChaosArrow, ChaosConstruction, ChaosCount};
            let size = Size::from_side(4).unwrap();
            let cell = |k: usize| size.cell_at(k % 16);
            let mut grid = Grid::empty(size);
            for (c, d) in givens {
                grid.set(c, d);
            }
            let build = |chaos: bool| {
                let mut builder = Rules::builder(size);
                if !boxes {
                    builder.regions(vec![None; 16]).unwrap();
                }
                if chaos {
                    builder.constraint(ChaosConstruction::default()).unwrap();
                    for (arrow, exclude_first, cells) in &clues {
                        let rule: Constraint = if *arrow {
                            // One arm along the row from the first cell.
                            let start = cell(cells[1]);
                            let arm = (start.col()..4)
                                .map(|c| size.cell(start.row(), c))
                                .collect();
                            ChaosArrow {
                                control: cell(cells[0]),
                                arms: vec![arm],
                                exclude_first: *exclude_first,
                            }
                            .into()
                        } else {
                            ChaosCount {
                                control: cell(cells[0]),
                                cells: cells[1..].iter().map(|&k| cell(k)).collect(),
                                exclude_first: *exclude_first,
                            }
                            .into()
                        };
                        let _ = builder.constraint(rule);
                    }
                }
                Puzzle::new(grid.clone(), builder.build().unwrap())
            };
            (build(true), build(false))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    /// Every engine agrees on a chaos construction's count, and the count
    /// (digits with regions) is the partings the clues accept summed over
    /// the Latin squares the givens leave.
    #[test]
    fn chaos_construction_counts_its_partings((chaos, plain) in chaos_puzzle()) {
        agree(&chaos)?;
        let budget = Budget::unbounded();
        let mut partings = 0;
        let mut native = new_engine(&common::every_engine()[0]);
        count_with(native.as_mut(), &plain, usize::MAX, &budget, &mut |grid| {
            partings += common::chaos_partings(&chaos, grid);
        })
        .unwrap();
        let count = count_with(native.as_mut(), &chaos, usize::MAX, &budget, &mut |_| {}).unwrap();
        prop_assert_eq!(count.solutions, partings);
    }
}
