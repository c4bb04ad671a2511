//! sigh's Interactive Sudoku Solver as a referee for the rule kinds z3doku
//! took from it: random 9x9 instances of each kind (the rule placed at
//! random, givens taken from a random board that keeps it), counted up to
//! a limit by the native engine and by sigh (`../shared/peers/sigh`, run
//! with Node). The counts must agree, and every solution z3doku finds
//! passes the independent checker. Without Node or sigh's sources beside
//! the repository (or under `Z3DOKU_SHARED`) the test says `SKIPPED` and
//! checks nothing. `Z3DOKU_SIGH_KINDS="connected values,either"` tries
//! only the kinds named.

use crate::common;

use std::time::Duration;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::check::verify_solution;
use z3doku::puzzle::grid::{Grid, Size};
use z3doku::puzzle::input::Source;
use z3doku::puzzle::sigh::{parse, to_sigh};
use z3doku::solve::count_with;

/// Solutions counted, at most.
const LIMIT: usize = 6;

/// Instances per kind.
const INSTANCES: usize = 5;

/// One rule in both tongues: z3doku's rule lines and sigh's constraint
/// string.
struct Both {
    z3doku: String,
    sigh: String,
}

fn cell_pair(random: &mut common::Rng) -> ((usize, usize), (usize, usize)) {
    let (r, c) = (random.below(9), random.below(9));
    if random.below(2) == 0 && c < 8 {
        ((r, c), (r, c + 1))
    } else if r < 8 {
        ((r, c), (r + 1, c))
    } else {
        ((r, c), (r - 1, c))
    }
}

fn name((r, c): (usize, usize)) -> (String, String) {
    (
        format!("r{}c{}", r + 1, c + 1),
        format!("R{}C{}", r + 1, c + 1),
    )
}

/// A 2x2 square's cells at a random place.
fn square(random: &mut common::Rng) -> Vec<(usize, usize)> {
    let (r, c) = (random.below(8), random.below(8));
    vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
}

/// `count` random outside clues of `z3doku_name` (`sigh_name` in sigh).
fn outside(random: &mut common::Rng, z3doku_name: &str, sigh_name: &str, count: usize) -> Both {
    let (mut z, mut s) = (Vec::new(), String::new());
    for _ in 0..count {
        let digit = 1 + random.below(8);
        let number = 1 + random.below(9);
        let row = random.below(2) == 0;
        let far = random.below(2) == 0;
        let end = match (row, far) {
            (true, false) => "left",
            (true, true) => "right",
            (false, false) => "top",
            (false, true) => "bottom",
        };
        let line = if row { "row" } else { "column" };
        z.push(format!(
            "{z3doku_name} {digit} ({line} {number} from the {end})"
        ));
        let id = format!("{}{number}", if row { 'R' } else { 'C' });
        s += &if far {
            format!(".{sigh_name}~{id}~~{digit}")
        } else {
            format!(".{sigh_name}~{id}~{digit}~")
        };
    }
    Both {
        z3doku: z.join("\n"),
        sigh: s,
    }
}

/// Two full rank clues on different lines or ends, ranks 1 to 36, with
/// sigh's tie option `any` half the time.
fn full_rank(random: &mut common::Rng) -> Both {
    let ties = random.below(2) == 0;
    let first = outside(random, "full rank", "FullRank", 1);
    let mut second = outside(random, "full rank", "FullRank", 1);
    while second.sigh.split('~').nth(1) == first.sigh.split('~').nth(1)
        && second.sigh.ends_with('~') == first.sigh.ends_with('~')
    {
        second = outside(random, "full rank", "FullRank", 1);
    }
    // The digit the helper drew becomes a rank of its own.
    let mut z = Vec::new();
    let mut s = String::new();
    for clue in [first, second] {
        let rank = 1 + random.below(36);
        let digit = clue
            .z3doku
            .split(' ')
            .nth(2)
            .unwrap_or_default()
            .to_string();
        let word = if ties { " with ties" } else { "" };
        z.push(clue.z3doku.replacen(
            &format!("full rank {digit} "),
            &format!("full rank {rank}{word} "),
            1,
        ));
        let parts: Vec<String> = clue
            .sigh
            .split('~')
            .map(|p| {
                if p == digit {
                    rank.to_string()
                } else {
                    p.to_string()
                }
            })
            .collect();
        s += &parts.join("~");
    }
    if ties {
        s += ".FullRankTies~any";
    }
    Both {
        z3doku: z.join("\n"),
        sigh: s,
    }
}

/// One random rule for a branch of an `either`: a thermometer, an X or V,
/// a cage, a whispers line or a given digit.
fn branch_rule(random: &mut common::Rng) -> Both {
    match random.below(5) {
        0 => {
            let n = 2 + random.below(3);
            line(random, n, "thermo", "Thermo")
        }
        1 => {
            let (a, b) = cell_pair(random);
            let (a, b) = (name(a), name(b));
            let (ours, theirs) = if random.below(2) == 0 {
                ("X", "X")
            } else {
                ("V", "V")
            };
            Both {
                z3doku: format!("{ours} ({} {})", a.0, b.0),
                sigh: format!(".{theirs}~{}~{}", a.1, b.1),
            }
        }
        2 => {
            let cells: Vec<(String, String)> = rellik_cells(random).into_iter().map(name).collect();
            // A sum the cells can reach (an `either` refuses a rule that
            // cannot hold, as a puzzle does).
            let n = cells.len();
            let least = n * (n + 1) / 2;
            let sum = least + random.below(n * (19 - n) / 2 - least + 1);
            let ours: Vec<String> = cells.iter().map(|n| n.0.clone()).collect();
            let theirs: String = cells.iter().map(|n| format!("~{}", n.1)).collect();
            Both {
                z3doku: format!("cage {sum} ({})", ours.join(" ")),
                sigh: format!(".Cage~{sum}{theirs}"),
            }
        }
        3 => {
            let n = 3 + random.below(3);
            line(random, n, "whispers", "Whisper")
        }
        _ => {
            let cell = name((random.below(9), random.below(9)));
            let digit = 1 + random.below(9);
            Both {
                z3doku: format!("{} is one of {digit}", cell.0),
                sigh: format!(".~{}_{digit}", cell.1),
            }
        }
    }
}

/// An `either` of two or three branches, a branch one rule or, now and
/// then, two joined by `and`.
fn either(random: &mut common::Rng) -> Both {
    let mut ours = Vec::new();
    let mut theirs = String::from(".Or");
    for _ in 0..2 + random.below(2) {
        let first = branch_rule(random);
        if random.below(3) == 0 {
            let second = branch_rule(random);
            ours.push(format!("{} && {}", first.z3doku, second.z3doku));
            theirs += &format!(".And{}{}.End", first.sigh, second.sigh);
        } else {
            ours.push(first.z3doku);
            theirs += &first.sigh;
        }
    }
    theirs += ".End";
    Both {
        z3doku: format!("either {}", ours.join(" || ")),
        sigh: theirs,
    }
}

/// A group that contains some digits (`exact`: exactly so many times).
fn contains(random: &mut common::Rng, exact: bool) -> Both {
    let cells = square(random);
    let mut digits = [1 + random.below(9), 1 + random.below(9)];
    digits.sort_unstable();
    let names: Vec<(String, String)> = cells.into_iter().map(name).collect();
    let how = if exact { "exactly" } else { "at least" };
    let list: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    Both {
        z3doku: format!(
            "contains {how} {} ({})",
            list.join(" "),
            names
                .iter()
                .map(|n| n.0.clone())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        sigh: format!(
            ".{}~{}{}",
            if exact {
                "ContainExact"
            } else {
                "ContainAtLeast"
            },
            list.join("_"),
            names
                .iter()
                .map(|n| format!("~{}", n.1))
                .collect::<String>()
        ),
    }
}

/// Cells for a random rellik cage: a 2x2 square, or three cells of a row.
fn rellik_cells(random: &mut common::Rng) -> Vec<(usize, usize)> {
    if random.below(2) == 0 {
        square(random)
    } else {
        let (r, c) = (random.below(9), random.below(7));
        vec![(r, c), (r, c + 1), (r, c + 2)]
    }
}

/// Cells for a random equality cage, which needs an even number: a 2x2
/// square, or two neighbours.
fn equality_cells(random: &mut common::Rng) -> Vec<(usize, usize)> {
    if random.below(2) == 0 {
        square(random)
    } else {
        let (a, b) = cell_pair(random);
        vec![a, b]
    }
}

/// Cells for a random lunchbox: three to five cells of a row or column,
/// in either direction.
fn lunchbox_cells(random: &mut common::Rng) -> Vec<(usize, usize)> {
    let n = 3 + random.below(3);
    let (line, start, row) = (random.below(9), random.below(10 - n), random.below(2) == 0);
    let mut cells: Vec<(usize, usize)> = (start..start + n)
        .map(|k| if row { (line, k) } else { (k, line) })
        .collect();
    if random.below(2) == 0 {
        cells.reverse();
    }
    cells
}

/// A random path of `n` orthogonal neighbours (shorter when it runs into
/// itself), as cells.
fn path(random: &mut common::Rng, n: usize) -> Vec<(usize, usize)> {
    let mut cells = vec![(random.below(9), random.below(9))];
    while cells.len() < n {
        let (r, c) = cells[cells.len() - 1];
        let next: Vec<(usize, usize)> = [(0, 1), (2, 1), (1, 0), (1, 2)]
            .iter()
            .map(|&(dr, dc)| ((r + dr).wrapping_sub(1), (c + dc).wrapping_sub(1)))
            .filter(|&(r, c)| r < 9 && c < 9 && !cells.contains(&(r, c)))
            .collect();
        if next.is_empty() {
            break;
        }
        cells.push(next[random.below(next.len())]);
    }
    cells
}

/// Two random cages of `z3doku_name` (`sigh_name` in sigh), with a clue
/// from `clue` when it gives one.
fn cages(
    random: &mut common::Rng,
    z3doku_name: &str,
    sigh_name: &str,
    shape: fn(&mut common::Rng) -> Vec<(usize, usize)>,
    clue: fn(&mut common::Rng) -> Option<usize>,
) -> Both {
    let (mut z, mut s) = (Vec::new(), String::new());
    for _ in 0..2 {
        let cells: Vec<(String, String)> = shape(random).into_iter().map(name).collect();
        let (word, arg) = match clue(random) {
            Some(n) => (format!(" {n}"), format!("~{n}")),
            None => (String::new(), String::new()),
        };
        let ours: Vec<String> = cells.iter().map(|n| n.0.clone()).collect();
        z.push(format!("{z3doku_name}{word} ({})", ours.join(" ")));
        s += &format!(
            ".{sigh_name}{arg}{}",
            cells
                .iter()
                .map(|n| format!("~{}", n.1))
                .collect::<String>()
        );
    }
    Both {
        z3doku: z.join("\n"),
        sigh: s,
    }
}

/// A line rule on a random path of `n` cells: z3doku's words before the
/// cells, sigh's type and arguments before them.
fn line(random: &mut common::Rng, n: usize, z3doku: &str, sigh: &str) -> Both {
    let names: Vec<(String, String)> = path(random, n).into_iter().map(name).collect();
    Both {
        z3doku: format!(
            "{z3doku} {}",
            names
                .iter()
                .map(|n| n.0.clone())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        sigh: format!(
            ".{sigh}{}",
            names
                .iter()
                .map(|n| format!("~{}", n.1))
                .collect::<String>()
        ),
    }
}

/// Makes a random instance of a kind.
type Maker = fn(&mut common::Rng) -> Both;

/// The kinds sigh has, each a maker of random instances.
/// One set of connected values: five to seven random digits (fewer seldom
/// connect on 9x9), with the size they must have now and then.
fn connected_set(random: &mut common::Rng) -> Both {
    let mut digits: Vec<usize> = (1..=9).collect();
    for k in (1..9).rev() {
        digits.swap(k, random.below(k + 1));
    }
    let mut digits = digits[..5 + random.below(3)].to_vec();
    digits.sort_unstable();
    let words: Vec<String> = digits.iter().map(usize::to_string).collect();
    let (ours, theirs) = if random.below(3) == 0 {
        let n = digits.len() * 9;
        (format!(" size {n}"), format!("~{n}"))
    } else {
        (String::new(), String::new())
    };
    Both {
        z3doku: format!("connected values {}{ours}", words.join(" ")),
        sigh: format!(".ConnectedValues~~{}{theirs}", words.join("_")),
    }
}

/// One set of connected values, or now and then two that overlap.
fn connected(random: &mut common::Rng) -> Both {
    let mut both = connected_set(random);
    if random.below(4) == 0 {
        let more = connected_set(random);
        both.z3doku += &format!("\n{}", more.z3doku);
        both.sigh += &more.sigh;
    }
    both
}

/// The kinds to try: all, or those `Z3DOKU_SIGH_KINDS` names (parted by
/// commas), to try one kind again without the rest.
fn chosen_kinds() -> Vec<(&'static str, Maker)> {
    let chosen = std::env::var("Z3DOKU_SIGH_KINDS").unwrap_or_default();
    let names: Vec<&str> = chosen.split(',').filter(|n| !n.is_empty()).collect();
    let all = kinds();
    if names.is_empty() {
        return all;
    }
    let some: Vec<_> = all.into_iter().filter(|(k, _)| names.contains(k)).collect();
    assert!(
        !some.is_empty(),
        "Z3DOKU_SIGH_KINDS names no kind: {chosen}"
    );
    some
}

fn kinds() -> Vec<(&'static str, Maker)> {
    fn flag(z3doku: &str, sigh: &str) -> Both {
        Both {
            z3doku: z3doku.into(),
            sigh: format!(".{sigh}"),
        }
    }
    vec![
        ("anti-taxicab", |_| flag("anti-taxicab", "AntiTaxicab")),
        ("windoku", |_| flag("windoku", "Windoku")),
        ("dutch flatmates", |_| {
            flag("dutch flatmates", "DutchFlatmates")
        }),
        ("global entropy", |_| {
            flag("global entropy", "GlobalEntropy")
        }),
        ("global mod", |_| flag("global mod", "GlobalMod")),
        ("greater than", |random| {
            let (mut z, mut s) = (Vec::new(), String::new());
            for _ in 0..4 {
                let (a, b) = cell_pair(random);
                let (a, b) = (name(a), name(b));
                z.push(format!("greater than ({} {})", a.0, b.0));
                s += &format!(".GreaterThan~{}~{}", a.1, b.1);
            }
            Both {
                z3doku: z.join("\n"),
                sigh: s,
            }
        }),
        ("contains at least", |random| contains(random, false)),
        ("contains exactly", |random| contains(random, true)),
        ("hidden skyscraper", |random| {
            outside(random, "hidden skyscraper", "HiddenSkyscraper", 2)
        }),
        ("numbered room", |random| {
            outside(random, "numbered room", "NumberedRoom", 2)
        }),
        ("rellik cage", |random| {
            cages(random, "rellik cage", "RellikCage", rellik_cells, |r| {
                Some(3 + r.below(18))
            })
        }),
        ("equality cage", |random| {
            cages(
                random,
                "equality cage",
                "EqualityCage",
                equality_cells,
                |_| None,
            )
        }),
        ("equal sum", |random| {
            // Two or three segments of one to three cells anywhere.
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            for _ in 0..2 + random.below(2) {
                let cells: Vec<(String, String)> = (0..1 + random.below(3))
                    .map(|_| name((random.below(9), random.below(9))))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                let z: Vec<String> = cells.iter().map(|n| n.0.clone()).collect();
                let s: Vec<String> = cells.iter().map(|n| n.1.clone()).collect();
                ours.push(format!("({})", z.join(" ")));
                theirs.push(s.join("~"));
            }
            Both {
                z3doku: format!("equal sum {}", ours.join(" ")),
                sigh: format!(".EqualSum~{}", theirs.join("~-~")),
            }
        }),
        ("same values", |random| {
            // Two or three sets of two or three cells anywhere.
            let length = 2 + random.below(2);
            let (mut ours, mut theirs) = (Vec::new(), String::new());
            let sets = 2 + random.below(2);
            for _ in 0..sets {
                let mut cells: Vec<(String, String)> = Vec::new();
                while cells.len() < length {
                    let cell = name((random.below(9), random.below(9)));
                    if !cells.contains(&cell) {
                        cells.push(cell);
                    }
                }
                let z: Vec<String> = cells.iter().map(|n| n.0.clone()).collect();
                ours.push(format!("({})", z.join(" ")));
                theirs.extend(cells.iter().map(|n| format!("~{}", n.1)));
            }
            Both {
                z3doku: format!("same values {}", ours.join(" ")),
                sigh: format!(".SameValues~{sets}{theirs}"),
            }
        }),
        ("counting circles", |random| {
            let cells: Vec<(String, String)> = (0..4 + random.below(5))
                .map(|_| name((random.below(9), random.below(9))))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let z: Vec<String> = cells.iter().map(|n| n.0.clone()).collect();
            let s: String = cells.iter().map(|n| format!("~{}", n.1)).collect();
            Both {
                z3doku: format!("counting circles ({})", z.join(" ")),
                sigh: format!(".CountingCircles{s}"),
            }
        }),
        ("lunchbox", |random| {
            cages(random, "lunchbox", "Lunchbox", lunchbox_cells, |r| {
                Some(r.below(16))
            })
        }),
        ("lockout", |random| {
            let d = random.below(6);
            let n = 3 + random.below(4);
            line(random, n, &format!("lockout {d}"), &format!("Lockout~{d}"))
        }),
        ("parity line", |random| {
            let key = z3doku::puzzle::sigh::relation_key(9, |a, b| (a + b) % 2 == 1);
            let n = 3 + random.below(5);
            line(random, n, "parity line", &format!("Pair~{key}"))
        }),
        ("modular line", |random| {
            let m = 2 + random.below(5);
            let n = 3 + random.below(6);
            line(
                random,
                n,
                &format!("modular line {m}"),
                &format!("Modular~{m}"),
            )
        }),
        ("value indexing", |random| {
            let n = 4 + random.below(4);
            line(random, n, "value indexing", "ValueIndexing")
        }),
        ("count distinct", |random| {
            let n = 4 + random.below(4);
            line(random, n, "count distinct", "CountDistinct")
        }),
        ("regex", |random| {
            let (a, b) = (1 + random.below(4), 5 + random.below(5));
            let c = 1 + random.below(9);
            let pattern = match random.below(4) {
                0 => format!("[{a}-{b}]*{c}.*"),
                1 => format!("([13579][2468])*[{a}{c}]?"),
                2 => format!("(.)?[^{c}]{{2,}}"),
                _ => format!("({a}|{c}|[{b}-9])+.?"),
            };
            // sigh reads a pattern with a `%` as %-escaped text.
            let escaped: String = pattern.bytes().map(|b| format!("%{b:02X}")).collect();
            let n = 3 + random.below(5);
            line(
                random,
                n,
                &format!("regex {pattern}"),
                &format!("Regex~{escaped}"),
            )
        }),
        ("state machine", |random| {
            // Machines sigh's serializer wrote: `([13579][2468])*[13579]?`,
            // `1[2-4]*9`, `(1|2)*3(4|5)*`, and a running sum that ends at 10.
            let machines = [
                "BhaUCESUiky1DECCGKOA",
                "RhQBgBDqkA",
                "QTHOMA",
                "TgRf8jRWeJoAf80VniaF_orPE0J_VniaEfs8TQh94mhB8TQgeaEB0IBE",
            ];
            let machine = machines[random.below(machines.len())];
            let n = 2 + random.below(3);
            line(
                random,
                n,
                &format!("state machine {machine}"),
                &format!("NFA~{machine}"),
            )
        }),
        ("sum line", |random| {
            let sum = 5 + random.below(16);
            let n = 3 + random.below(6);
            let looped = random.below(2) == 0;
            let mut both = line(
                random,
                n,
                &format!("sum line {sum}{}", if looped { " loop" } else { "" }),
                &format!("SumLine~{sum}"),
            );
            if looped {
                both.sigh += "~LOOP";
            }
            both
        }),
        ("full rank", full_rank),
        ("either", either),
        ("connected values", connected),
        ("look and say", |random| {
            let first = (random.below(3), 1 + random.below(9));
            let mut second = (random.below(3), 1 + random.below(9));
            while second.1 == first.1 {
                second.1 = 1 + random.below(9);
            }
            let clue = format!("{}{}{}{}", first.0, first.1, second.0, second.1);
            let n = 4 + random.below(3);
            line(
                random,
                n,
                &format!("look and say {clue}"),
                &format!("LookAndSay~{clue}"),
            )
        }),
    ]
}

/// `rules` after the givens of `grid`, read as text.
fn puzzle(grid: &Grid, rules: &str) -> Puzzle {
    Source::Text(format!("{}\n{rules}\n", grid.to_line()))
        .read_puzzle(None)
        .unwrap_or_else(|e| panic!("{rules}: {e}"))
}

/// Up to `limit` solutions, each checked by the checker.
fn count(puzzle: &Puzzle, limit: usize) -> (usize, Option<Grid>) {
    counted(puzzle, limit, Duration::from_secs(60)).unwrap_or_else(|| panic!("gave up on {puzzle}"))
}

/// Up to `limit` solutions within `time`, each checked by the checker;
/// `None` when the engine gave up.
fn counted(puzzle: &Puzzle, limit: usize, time: Duration) -> Option<(usize, Option<Grid>)> {
    let budget = Budget::within(Some(time));
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let mut first = None;
    let count = count_with(engine.as_mut(), puzzle, limit, &budget, &mut |grid| {
        verify_solution(puzzle, grid).unwrap_or_else(|e| panic!("{e}"));
        first.get_or_insert_with(|| grid.clone());
    })
    .unwrap();
    count.gave_up.is_none().then_some((count.solutions, first))
}

/// A random board that keeps `rules`, or `None` when they allow none.
fn board(random: &mut common::Rng, rules: &str) -> Option<Grid> {
    let mut givens = Grid::empty(z3doku::puzzle::grid::Size::NINE);
    let (_, mut found) = counted(&puzzle(&givens, rules), 1, Duration::from_secs(5))?;
    found.as_ref()?;
    // A few random givens that keep a solution, for a board of its own.
    let mut placed = 0;
    while placed < 4 {
        let (cell, digit) = (random.below(81), 1 + random.below(9) as u8);
        if givens.get(cell) != 0 {
            continue;
        }
        givens.set(cell, digit);
        // A given that leaves no solution can take long to refute: one
        // that is not settled in a third of a second is dropped too.
        match counted(&puzzle(&givens, rules), 1, Duration::from_millis(300)) {
            Some((1, board)) => {
                found = board;
                placed += 1;
            }
            _ => givens.set(cell, 0),
        }
    }
    found
}

/// Each kind's sigh string reads as the same rules as its rule lines, and
/// the puzzle of the rule lines is written by `--output sigh` as a string
/// that reads back the same: on every kind of the list, with no sigh
/// beside it needed.
#[test]
fn sigh_strings_read_as_the_rule_lines_and_back() {
    let mut random = common::Rng(0x51d4_2029);
    let mut differ = Vec::new();
    for (kind, make) in kinds() {
        for _ in 0..INSTANCES {
            let rule = make(&mut random);
            let ours = puzzle(&Grid::empty(Size::NINE), &rule.z3doku);
            let theirs = parse(&rule.sigh).unwrap_or_else(|e| panic!("{kind}: {}: {e}", rule.sigh));
            if theirs != ours {
                differ.push(format!(
                    "{kind}: {} read as {theirs}, not {ours}",
                    rule.sigh
                ));
            }
            let written = to_sigh(&ours).unwrap_or_else(|e| panic!("{kind}: {ours}: {e}"));
            let back = parse(&written).unwrap_or_else(|e| panic!("{kind}: {written}: {e}"));
            assert_eq!(back, ours, "{kind}: {written}");
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn solution_counts_agree_with_sigh() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let mut random = common::Rng(0x5eed_2026);
    // (kind, sigh's line, z3doku's count)
    let mut cases: Vec<(String, String, usize)> = Vec::new();
    for (kind, make) in chosen_kinds() {
        let mut made = 0;
        let mut tries = 0;
        while made < INSTANCES {
            tries += 1;
            assert!(tries < 50, "{kind}: no instance keeps a solution");
            let rule = make(&mut random);
            let Some(board) = board(&mut random, &rule.z3doku) else {
                continue;
            };
            let mut givens = Grid::empty(board.size());
            for _ in 0..24 + random.below(8) {
                let cell = random.below(81);
                givens.set(cell, board.get(cell));
            }
            let (n, _) = count(&puzzle(&givens, &rule.z3doku), LIMIT);
            let sigh_givens: String = givens
                .clues()
                .map(|(i, d)| format!("~R{}C{}_{d}", i / 9 + 1, i % 9 + 1))
                .collect();
            cases.push((
                format!("{kind}: {} | {}", givens.to_line(), rule.z3doku),
                format!(".{sigh_givens}{}", rule.sigh),
                n,
            ));
            made += 1;
        }
    }
    let strings: Vec<&str> = cases.iter().map(|(_, line, _)| line.as_str()).collect();
    let counts = common::sigh_counts(&script, &strings, LIMIT);
    let mut kinds_with_solutions = std::collections::HashSet::new();
    for ((what, line, ours), theirs) in cases.iter().zip(&counts) {
        assert_eq!(ours, theirs, "{what}\nsigh: {line}");
        if *ours > 0 {
            kinds_with_solutions.insert(what.split(':').next().unwrap_or_default());
        }
    }
    // Every kind was tried on puzzles with solutions, not only on ones
    // with none.
    assert_eq!(kinds_with_solutions.len(), chosen_kinds().len());
}

/// Three full rank clues on different lines or ends, with different ranks
/// (sigh refuses two clues of one rank), all with ties or all without.
fn three_full_rank_clues(random: &mut common::Rng) -> Both {
    let ties = random.below(2) == 0;
    let (mut z, mut s) = (Vec::new(), String::new());
    let mut taken: Vec<(usize, usize, usize)> = Vec::new();
    while z.len() < 3 {
        let (end, number, rank) = (random.below(4), 1 + random.below(9), 1 + random.below(36));
        if taken
            .iter()
            .any(|&(e, n, r)| (e, n) == (end, number) || r == rank)
        {
            continue;
        }
        taken.push((end, number, rank));
        let (line, from, id) = match end {
            0 => ("row", "left", 'R'),
            1 => ("row", "right", 'R'),
            2 => ("column", "top", 'C'),
            _ => ("column", "bottom", 'C'),
        };
        let word = if ties { " with ties" } else { "" };
        z.push(format!(
            "full rank {rank}{word} ({line} {number} from the {from})"
        ));
        s += &if end % 2 == 1 {
            format!(".FullRank~{id}{number}~~{rank}")
        } else {
            format!(".FullRank~{id}{number}~{rank}~")
        };
    }
    if ties {
        s += ".FullRankTies~any";
    }
    Both {
        z3doku: z.join("\n"),
        sigh: s,
    }
}

/// Full rank clues on sparse boards (none to nine givens), where the
/// native engine's search leans on the clues' propagator: the counts agree
/// with sigh's, on puzzles with solutions and without.
#[test]
fn sparse_full_rank_counts_agree_with_sigh() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let mut random = common::Rng(0xf011_4a2c);
    let mut cases: Vec<(String, String, usize)> = Vec::new();
    for _ in 0..30 {
        let rule = three_full_rank_clues(&mut random);
        let empty = Grid::empty(z3doku::puzzle::grid::Size::NINE);
        let mut givens = empty.clone();
        let first = counted(&puzzle(&empty, &rule.z3doku), 1, Duration::from_secs(60));
        let first = first.unwrap_or_else(|| panic!("gave up on\n{}", rule.z3doku));
        if let (_, Some(board)) = first {
            for _ in 0..random.below(10) {
                let cell = random.below(81);
                givens.set(cell, board.get(cell));
            }
        }
        let (n, _) = counted(
            &puzzle(&givens, &rule.z3doku),
            LIMIT,
            Duration::from_secs(60),
        )
        .unwrap_or_else(|| panic!("gave up on {}\n{}", givens.to_line(), rule.z3doku));
        let sigh_givens: String = givens
            .clues()
            .map(|(i, d)| format!("~R{}C{}_{d}", i / 9 + 1, i % 9 + 1))
            .collect();
        cases.push((
            format!("{} | {}", givens.to_line(), rule.z3doku),
            format!(".{sigh_givens}{}", rule.sigh),
            n,
        ));
    }
    let strings: Vec<&str> = cases.iter().map(|(_, line, _)| line.as_str()).collect();
    let counts = common::sigh_counts(&script, &strings, LIMIT);
    for ((what, line, ours), theirs) in cases.iter().zip(&counts) {
        assert_eq!(ours, theirs, "{what}\nsigh: {line}");
    }
    let with = cases.iter().filter(|c| c.2 > 0).count();
    assert!(
        (1..cases.len()).contains(&with),
        "{with} of {} had solutions",
        cases.len()
    );
}

/// One random chaos clue on a board of side `n`: a count of 2 to 5 cells
/// or an arrow of one or two straight arms from a shared cell, each with a
/// random offset, in both tongues.
fn chaos_clue(random: &mut common::Rng, n: usize) -> Both {
    let cell = |random: &mut common::Rng| (random.below(n), random.below(n));
    let exclude = random.below(2) == 1;
    let words = if exclude { " exclude first" } else { "" };
    let (cr, cc) = cell(random);
    let control = format!("(r{}c{})", cr + 1, cc + 1);
    let sigh_control = format!("R{}C{}~{}", cr + 1, cc + 1, u8::from(exclude));
    let z = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
    let s = |(r, c): (usize, usize)| format!("~CC{}", r * n + c + 1);
    if random.below(2) == 0 {
        let mut cells: Vec<(usize, usize)> = Vec::new();
        while cells.len() < 2 + random.below(4) {
            let c = cell(random);
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        let listed: Vec<String> = cells.iter().map(|&c| z(c)).collect();
        Both {
            z3doku: format!("chaos count{words} {control} {}", listed.join(" ")),
            sigh: format!(
                ".ChaosCount~{sigh_control}{}",
                cells.iter().map(|&c| s(c)).collect::<String>()
            ),
        }
    } else {
        let start = cell(random);
        let mut arms: Vec<Vec<(usize, usize)>> = Vec::new();
        let ways = [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)];
        let first = random.below(4);
        for way in [first, (first + 1 + random.below(3)) % 4]
            .iter()
            .take(1 + random.below(2))
        {
            let (dr, dc) = ways[*way];
            let mut arm = vec![start];
            let (mut r, mut c) = (start.0 as isize + dr, start.1 as isize + dc);
            while (0..n as isize).contains(&r) && (0..n as isize).contains(&c) && arm.len() < n {
                arm.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            arms.push(arm);
        }
        let z_arms: Vec<String> = arms
            .iter()
            .map(|arm| {
                format!(
                    "({})",
                    arm.iter().map(|&c| z(c)).collect::<Vec<_>>().join(" ")
                )
            })
            .collect();
        let s_arms: Vec<String> = arms
            .iter()
            .map(|arm| arm.iter().map(|&c| s(c)).collect::<String>())
            .collect();
        Both {
            z3doku: format!("chaos arrow{words} {control} {}", z_arms.join(" ")),
            sigh: format!(".ChaosArrow~{sigh_control}{}", s_arms.join("~-")),
        }
    }
}

/// The engine that finds a board for a chaos instance of side `n`.
fn engines_for(n: usize) -> Settings {
    Settings {
        engine: if n == 4 {
            EngineKind::Native
        } else {
            EngineKind::Z3
        },
        encoding: z3doku::engine::EncodingKind::Bool,
        ..Settings::default()
    }
}

/// Up to `limit` solutions by `settings` within 60 seconds.
fn counted_by(settings: &Settings, puzzle: &Puzzle, limit: usize) -> Option<(usize, Option<Grid>)> {
    let budget = Budget::within(Some(Duration::from_secs(60)));
    let mut engine = new_engine(settings);
    let mut first = None;
    let count = count_with(engine.as_mut(), puzzle, limit, &budget, &mut |grid| {
        first.get_or_insert_with(|| grid.clone());
    })
    .ok()?;
    count.gave_up.is_none().then_some((count.solutions, first))
}

/// Chaos construction on random 4x4 and 6x6 boards, with and without
/// boxes, with up to three random clues over the regions and givens from
/// a board that keeps them: every engine's count (digits with regions)
/// agrees with sigh's, and every solution passes the checker with the
/// regions it carries.
#[test]
fn chaos_construction_counts_agree_with_sigh() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let mut random = common::Rng(0xc4a0_5eed);
    let mut cases: Vec<(String, String, usize)> = Vec::new();
    let mut with_solutions = 0;
    for instance in 0..24 {
        let n = if instance % 3 == 2 { 6 } else { 4 };
        let size = z3doku::puzzle::grid::Size::from_side(n).unwrap();
        let no_boxes = random.below(2) == 0;
        let clues: Vec<Both> = (0..random.below(4))
            .map(|_| chaos_clue(&mut random, n))
            .collect();
        let mut rules = String::new();
        if no_boxes {
            rules += &format!("regions {}\n", ".".repeat(n * n));
        }
        rules += "chaos construction\n";
        for clue in &clues {
            rules += &clue.z3doku;
            rules.push('\n');
        }
        let read = |givens: &Grid| {
            let rows: Vec<String> = givens
                .to_line()
                .as_bytes()
                .chunks(n)
                .map(|r| String::from_utf8_lossy(r).into_owned())
                .collect();
            Source::Text(format!("{}\n{rules}", rows.join("\n")))
                .read_puzzle(None)
                .unwrap_or_else(|e| panic!("{rules}: {e}"))
        };
        // Givens off a board that keeps the rules, when one does.
        let mut givens = Grid::empty(size);
        if let Some((_, Some(board))) = counted_by(&engines_for(n), &read(&givens), 1) {
            for _ in 0..n + random.below(n) {
                let cell = random.below(n * n);
                givens.set(cell, board.get(cell));
            }
        }
        let puzzle = read(&givens);
        // Every engine on 4x4 boards; on 6x6 boards Z3's `bool` (the
        // others take much longer there) and the native engine, which
        // searches the regions with the digits, within 10 s so that a
        // slow search fails the test instead of stalling it.
        let engines = if n == 4 {
            common::every_engine()
        } else {
            vec![
                Settings {
                    engine: EngineKind::Z3,
                    encoding: z3doku::engine::EncodingKind::Bool,
                    ..Settings::default()
                },
                Settings {
                    engine: EngineKind::Native,
                    ..Settings::default()
                },
            ]
        };
        let mut counts = Vec::new();
        for settings in &engines {
            let seconds = match settings.engine {
                EngineKind::Native => 10,
                _ => 60,
            };
            let budget = Budget::within(Some(Duration::from_secs(seconds)));
            let mut engine = new_engine(settings);
            let count = count_with(engine.as_mut(), &puzzle, LIMIT, &budget, &mut |grid| {
                assert!(grid.regions().is_some());
                verify_solution(&puzzle, grid).unwrap_or_else(|e| panic!("{e}\n{rules}"));
            })
            .unwrap();
            assert!(count.gave_up.is_none(), "{settings:?} gave up on\n{puzzle}");
            counts.push(count.solutions);
        }
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "{counts:?}\n{puzzle}"
        );
        if counts[0] > 0 {
            with_solutions += 1;
        }
        let sigh_givens: String = givens
            .clues()
            .map(|(i, d)| format!("~R{}C{}_{d}", i / n + 1, i % n + 1))
            .collect();
        let boxes = if no_boxes { ".NoBoxes" } else { "" };
        let sigh_clues: String = clues.iter().map(|c| c.sigh.as_str()).collect();
        cases.push((
            format!("{}\n{rules}", givens.to_line()),
            format!(".Shape~{n}x{n}{boxes}.{sigh_givens}.ChaosConstruction{sigh_clues}"),
            counts[0],
        ));
    }
    let strings: Vec<&str> = cases.iter().map(|(_, line, _)| line.as_str()).collect();
    let theirs = common::sigh_counts(&script, &strings, LIMIT);
    for ((what, line, ours), theirs) in cases.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "{what}\nsigh: {line}");
    }
    assert!(
        with_solutions >= 8,
        "only {with_solutions} instances had solutions"
    );
}
