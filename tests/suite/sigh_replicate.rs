//! sigh's `Replicate` composite: its children copied onto each target of
//! its bitset. Puzzles made unique by their copies, on every engine;
//! random replicates counted beside sigh's solver (`../shared/peers/sigh`,
//! run with Node; without it the tests that need it say `SKIPPED`), and
//! what sigh refuses refused alike.

use crate::common;

use common::shapes::count_on;
use z3doku::engine::Settings;
use z3doku::puzzle::sigh::{parse, to_sigh};

/// Solutions counted, at most.
const LIMIT: usize = 6;

/// Puzzles whose givens alone have many solutions and whose replicated
/// rules make them unique (each checked against sigh's solver when they
/// were made: 1 solution with the `Replicate`, 10 or more without):
/// twelve thermometers from one; an arrow copied by a `Replicate` inside
/// a `Replicate` (so each copy moves twice, and the origin is a target of
/// both); an `Or` of an X and a V copied from R2C2 onto twelve cells.
const UNIQUE: [&str; 3] = [
    ".~R2C5_5~R3C9_7~R4C3_7~R4C6_4~R4C8_8~R6C2_5~R6C4_1~R7C2_7~R7C9_8~R9C6_7\
     .Replicate~JBAkIBAJBIB.Thermo~R1C1~R1C2~R2C2.End",
    ".~R1C2_1~R1C3_2~R2C8_4~R4C3_1~R4C4_9~R5C7_8~R6C3_5~R7C7_9~R8C9_4~R9C3_8~R9C6_9~R9C7_3\
     .Replicate~BAAAIAAAAB.Replicate~R~R1C1.Arrow~R1C1~R1C2~R2C2.End.End",
    ".~R1C4_6~R1C7_7~R2C3_8~R2C5_9~R2C6_3~R3C3_3~R4C5_3~R4C9_6~R6C1_6~R6C7_9~R6C8_4~R7C6_5\
     ~R7C7_2~R7C9_9~R8C8_3.Replicate~VAAVAAVAAV~R2C2.Or.X~R2C2~R2C3.V~R2C2~R3C2.End.End",
];

/// The native engine's settings.
fn native() -> Settings {
    common::every_engine().swap_remove(0)
}

#[test]
fn replicated_rules_make_puzzles_unique_that_their_givens_alone_do_not() {
    for text in UNIQUE {
        let puzzle = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for settings in common::every_engine() {
            let (n, _) = count_on(&settings, &puzzle, 2, 60)
                .unwrap_or_else(|| panic!("{settings:?} gave up on {text}"));
            assert_eq!(n, 1, "{settings:?}: {text}");
        }
        let givens = &text[..text.find(".Replicate").unwrap()];
        let alone = parse(givens).unwrap();
        let (n, _) = count_on(&native(), &alone, 2, 60).unwrap();
        assert_eq!(n, 2, "{givens}");
        // Written back as the copies, it reads as the same puzzle.
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(!written.contains("Replicate"), "{written}");
        assert_eq!(parse(&written), Ok(puzzle), "{written}");
    }
}

/// A sigh cell id, 0-based.
fn id(r: usize, c: usize) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A target bitset for the offsets, as sigh writes one.
fn bitset(offsets: &[usize]) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let len = offsets.iter().max().map_or(0, |m| m / 6 + 1);
    let mut words = vec![0usize; len];
    for &o in offsets {
        words[o / 6] |= 1 << (o % 6);
    }
    words.iter().map(|&w| char::from(DIGITS[w])).collect()
}

/// A random child of a template whose origin is `(r, c)`: its cells lie
/// within two rows and two columns below and right of the origin (so a
/// copy moved by at most `6 - 2` stays on the board when the origin is
/// near the top left), and `depth` says how deep composites may nest.
fn child(random: &mut common::Rng, (r, c): (usize, usize), depth: usize) -> String {
    let at = |random: &mut common::Rng| (r + random.below(2), c + random.below(2));
    let neighbour = |random: &mut common::Rng, (a, b): (usize, usize)| {
        if random.below(2) == 0 {
            (a + 1, b)
        } else {
            (a, b + 1)
        }
    };
    let kinds = if depth == 0 { 8 } else { 10 };
    match random.below(kinds) {
        0 | 1 => {
            let a = at(random);
            let b = neighbour(random, a);
            let mut line = format!(".Thermo~{}~{}", id(a.0, a.1), id(b.0, b.1));
            if random.below(2) == 0 {
                let c3 = neighbour(random, b);
                line += &format!("~{}", id(c3.0, c3.1));
            }
            line
        }
        2 => {
            let a = at(random);
            let b = neighbour(random, a);
            let kind = ["X", "V", "WhiteDot", "BlackDot"][random.below(4)];
            format!(".{kind}~{}~{}", id(a.0, a.1), id(b.0, b.1))
        }
        3 => {
            let a = at(random);
            let b = neighbour(random, a);
            format!(
                ".Cage~{}~{}~{}",
                3 + random.below(15),
                id(a.0, a.1),
                id(b.0, b.1)
            )
        }
        4 => {
            let a = at(random);
            let b = neighbour(random, a);
            format!(".Whisper~5~{}~{}", id(a.0, a.1), id(b.0, b.1))
        }
        5 => {
            let a = at(random);
            format!(".~{}_{}", id(a.0, a.1), 1 + random.below(9))
        }
        6 => {
            let a = at(random);
            let (d1, d2) = (1 + random.below(9), 1 + random.below(9));
            format!(".Quad~{}~{d1}~{d2}", id(a.0, a.1))
        }
        7 => {
            let a = at(random);
            let b = neighbour(random, a);
            format!(".Arrow~{}~{}", id(a.0, a.1), id(b.0, b.1))
        }
        8 => format!(
            ".Or{}{}.End",
            child(random, (r, c), depth - 1),
            child(random, (r, c), depth - 1)
        ),
        _ => {
            // A Replicate inside: its own origin, targets a step or two on.
            let inner: Vec<usize> = (0..1 + random.below(2)).map(|_| random.below(3)).collect();
            format!(
                ".Replicate~{}~{}{}.End",
                bitset(&inner),
                id(r, c),
                child(random, (r, c), depth - 1)
            )
        }
    }
}

/// A random `Replicate`: an origin near the top left (R1C1 left unsaid
/// half the time), one or two children, and one to four targets, now and
/// then one whose copies leave the board (which sigh refuses, and so must
/// z3doku).
fn replicate(random: &mut common::Rng) -> String {
    let origin = if random.below(2) == 0 {
        (0, 0)
    } else {
        (random.below(3), random.below(3))
    };
    let children: String = (0..1 + random.below(2))
        .map(|_| child(random, origin, 1))
        .collect();
    let first = origin.0 * 9 + origin.1;
    let mut offsets = Vec::new();
    for _ in 0..1 + random.below(4) {
        let spread = if random.below(6) == 0 { 81 - first } else { 45 };
        let offset = random.below(spread);
        let (tr, tc) = ((first + offset) / 9, (first + offset) % 9);
        if spread == 45 && (tc + 4 > 8 + origin.1.min(tc) || tr > 4 + origin.0) {
            continue;
        }
        offsets.push(offset);
    }
    if offsets.is_empty() {
        offsets.push(0);
    }
    let header = if origin == (0, 0) {
        bitset(&offsets)
    } else {
        format!("{}~{}", bitset(&offsets), id(origin.0, origin.1))
    };
    format!(".Replicate~{header}{children}.End")
}

#[test]
fn random_replicates_count_as_sighs_solver_counts_them() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let mut random = common::Rng(0x7e91_1ca7);
    // (what, sigh string, z3doku's count, or `None` when it refused)
    let mut cases: Vec<(String, String, Option<usize>)> = Vec::new();
    let mut refused = 0;
    for _ in 0..40 {
        let rule = replicate(&mut random);
        let puzzle = match parse(&rule) {
            Ok(p) => p,
            // Two copies of givens that clash: z3doku refuses the givens
            // as input, sigh finds no solution; both say there is none.
            Err(e) if e.to_string().contains("its givens leave it no digit") => {
                cases.push((format!("{rule}: {e}"), rule, Some(0)));
                continue;
            }
            Err(e) => {
                refused += 1;
                cases.push((format!("{rule}: {e}"), rule, None));
                continue;
            }
        };
        // Its copies, written back, read as the same puzzle.
        let written = to_sigh(&puzzle).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert_eq!(
            parse(&written).as_ref(),
            Ok(&puzzle),
            "{rule} wrote {written}"
        );
        // Givens from a board that keeps the copies, when there is one,
        // added in a random order until fewer than `LIMIT` solutions are
        // left (or, now and then, stopping short of that), so that the
        // counts compared are small ones.
        let mut givens = String::new();
        if let Some(board) =
            count_on(&native(), &puzzle, 1, 10).and_then(|(_, f)| f.into_iter().next())
        {
            let mut cells: Vec<usize> = (0..81).collect();
            for k in (1..81).rev() {
                cells.swap(k, random.below(k + 1));
            }
            let most = if random.below(4) == 0 {
                20 + random.below(20)
            } else {
                81
            };
            for (k, &cell) in cells.iter().enumerate().take(most) {
                givens += &format!("~{}_{}", id(cell / 9, cell % 9), board.get(cell));
                if k >= 16 {
                    let p = parse(&format!(".{givens}{rule}")).unwrap();
                    if count_on(&native(), &p, LIMIT, 10).is_some_and(|(n, _)| n < LIMIT) {
                        break;
                    }
                }
            }
        }
        let text = format!(".{givens}{rule}");
        let puzzle = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let (n, _) = count_on(&native(), &puzzle, LIMIT, 60)
            .unwrap_or_else(|| panic!("native gave up on {text}"));
        cases.push((text.clone(), text, Some(n)));
    }
    let named: Vec<(String, String)> = cases
        .iter()
        .enumerate()
        .map(|(k, (_, s, _))| (k.to_string(), s.clone()))
        .collect();
    let rows = common::run_sigh(&script, &named, LIMIT);
    assert_eq!(rows.len(), cases.len(), "{rows:?}");
    let mut with_solutions = 0;
    for ((what, _, ours), row) in cases.iter().zip(&rows) {
        let theirs: Option<usize> = row.get(1).and_then(|n| n.parse().ok());
        assert_eq!(*ours, theirs, "{what}\nsigh: {row:?}");
        with_solutions += usize::from(ours.is_some_and(|n| n > 0));
    }
    // Both sides were exercised: refusals, and puzzles with solutions.
    assert!((1..cases.len() / 2).contains(&refused), "{refused} refused");
    assert!(
        with_solutions >= cases.len() / 2,
        "{with_solutions} with solutions"
    );
}

/// What sigh refuses in or about a `Replicate` or `Container`, z3doku
/// refuses too; what sigh takes, z3doku takes, and counts alike.
#[test]
fn sigh_and_z3doku_refuse_the_same_replicates() {
    let refused = [
        // An outside clue, a whole-board rule, a container in a Replicate.
        ".Replicate~C.Skyscraper~R1~3~.End",
        ".Replicate~C.AntiKnight.End",
        ".Replicate~C.Container.X~R1C1~R1C2.End.End",
        // A copy off the right edge, off the bottom, before the board.
        ".Replicate~C.Thermo~R1C8~R1C9.End",
        ".Replicate~AAAAAAAAAAAAAE.X~R1C1~R1C2.End",
        ".Replicate~AAAAAAAAAAAAAI.X~R1C1~R1C2.End",
        // A word that is not a cell where sigh shifts cells.
        ".Replicate~C.SumLine~10~R1C1~R1C2~R2C2~R2C1~LOOP.End",
        // A container inside an Or; a Replicate without its End.
        ".Or.Container.X~R1C1~R1C2.End.V~R1C1~R1C2.End",
        ".Replicate~C.X~R1C1~R1C2",
    ];
    let taken = [
        // The origin as its only target: the children as written.
        ".Replicate~B~R9C8.Thermo~R9C8~R9C9.End",
        // No targets, no children.
        ".Replicate.End.Replicate~C.End.X~R1C1~R1C2",
        // A container only groups; one inside another.
        ".Container.Thermo~R1C1~R1C2.Container.X~R3C3~R3C4.End.End",
        // An item of several rules is one branch of an Or (sigh: none
        // here, as neither branch holds).
        ".Or.~R1C1_1~R1C2_2.~R1C1_3.End.~R1C2_5.~R1C1_1",
        ".Or.WhiteDot~R1C1~R1C2~R1C3.~R1C1_9.End.~R1C2_4.~R1C3_6.~R1C1_5",
        // A key, a group name and a separator stay; the cells move.
        ".Replicate~C.Pair~_3_8H_wH8AHwAE~_a~R1C1~R1C2~~R2C1~R2C2.End",
    ];
    for text in refused {
        assert!(parse(text).is_err(), "{text} was taken");
    }
    for text in taken {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let named: Vec<(String, String)> = refused
        .iter()
        .chain(&taken)
        .map(|s| (s.to_string(), s.to_string()))
        .collect();
    let rows = common::run_sigh(&script, &named, LIMIT);
    assert_eq!(rows.len(), named.len(), "{rows:?}");
    for (row, text) in rows.iter().zip(refused.iter().chain(&taken)) {
        let error = row.last().is_some_and(|f| f.starts_with("ERROR"));
        assert_eq!(error, refused.contains(text), "{text}: sigh said {row:?}");
        if !error {
            let ours = count_on(&native(), &parse(text).unwrap(), LIMIT, 60)
                .unwrap()
                .0;
            assert_eq!(row[1], ours.to_string(), "{text}");
        }
    }
}

/// sigh's own `makeShifted`, run on an item of each type it allows in a
/// `Replicate`, moved one column right: its copies read as the same
/// puzzle as z3doku's copies of the same item (or both are refused).
const SHIFT_BY_SIGH: &str = r#"
import { pathToFileURL } from 'node:url';
globalThis.self = globalThis; globalThis.VERSION_PARAM = '';
const dir = process.argv[2];
const { SudokuParser } = await import(pathToFileURL(dir + '/js/sudoku_parser.js').href);
const { SudokuConstraint } = await import(pathToFileURL(dir + '/js/sudoku_constraint.js').href);
const slow = SudokuConstraint.Pair.fnToKey((a, b) => a <= b, 9);
const white = SudokuConstraint.Pair.fnToKey((a, b) => Math.abs(a - b) == 1, 9);
const regex = SudokuConstraint.Regex.encodePattern('1.*');
const nfa = SudokuConstraint.NFA.encodeSpec(
  { startState: 0, transition: (s, v) => (s + v <= 5 ? s + v : undefined), accept: s => s == 5 }, 9);
const items = [
  'Thermo~R1C1~R1C2~R1C3', 'Renban~R1C1~R1C2', 'Entropic~R1C1~R1C2~R1C3',
  'RegionSumLine~R1C1~R1C2', 'Between~R1C1~R1C2~R1C3', 'Palindrome~R1C1~R1C2',
  'Zipper~R1C1~R1C2~R1C3', 'WhiteDot~R1C1~R1C2', 'BlackDot~R1C1~R1C2', 'GreaterThan~R1C1~R1C2',
  'X~R1C1~R1C2', 'V~R1C1~R1C2', 'ValueIndexing~R1C1~R1C2~R1C3', 'Arrow~R1C1~R1C2~R1C3',
  'DoubleArrow~R1C1~R1C2~R1C3', 'EqualityCage~R1C1~R1C2', 'AllDifferent~R1C1~R1C2',
  'CountingCircles~R1C1~R1C2', 'CountDistinct~R1C1~R1C2~R1C3', 'Whisper~5~R1C1~R1C2',
  'Modular~3~R1C1~R1C2', 'Lockout~4~R1C1~R1C2~R1C3', 'SumLine~10~R1C1~R1C2~R2C2~R2C1',
  'PillArrow~2~R1C1~R1C2~R1C3', 'Cage~10~R1C1~R1C2', 'RellikCage~10~R1C1~R1C2',
  'Sum~10~R1C1~R1C2', 'Lunchbox~5~R1C1~R1C2~R1C3', 'ContainAtLeast~1_2~R1C1~R1C2',
  'ContainExact~1_2~R1C1~R1C2', 'LookAndSay~12~R1C1~R1C2', 'SameValues~2~R1C1~R1C2',
  'Indexing~R~R1C1', 'Quad~R1C1~1~2', `Pair~${slow}~_a~R1C1~R1C2~~R2C1~R2C2`,
  `PairX~${white}~_b~R1C1~R1C2`, `NFA~${nfa}~R1C1~R1C2`, 'EqualSum~R1C1~R1C2~-~R2C1~R2C2',
  `Regex~${regex}~R1C1~R1C2~~R2C1~R2C2`, '~R1C1_5~R2C2_3',
];
const right = id => 'R' + id[1] + 'C' + (parseInt(id[3], 17) + 1).toString(17);
for (const item of items) {
  const replicate = SudokuParser.parseText(`.Replicate~C.${item}.End`).constraints[0];
  const copies = replicate.constraints.map(c => c.makeShifted(right));
  console.log(item + '\t' + copies.map(c => c.constructor.serialize([c])).join(''));
}
"#;

#[test]
fn each_type_moves_as_sighs_make_shifted_moves_it() {
    let Some(script) = common::sigh_runner() else {
        return;
    };
    let dir = script.parent().unwrap();
    let file = std::env::temp_dir().join(format!("z3doku-shift-{}.mjs", std::process::id()));
    std::fs::write(&file, SHIFT_BY_SIGH).unwrap();
    let text = common::node([file.as_os_str(), dir.as_os_str()]);
    let _ = std::fs::remove_file(&file);
    let mut read = 0;
    for line in text.lines() {
        let (item, theirs) = line.split_once('\t').unwrap();
        let ours = parse(&format!(".Replicate~C.{item}.End"));
        let theirs = parse(theirs);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{item}");
                read += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{item}"),
            _ => panic!("{item}: ours {ours:?}, sigh's copy {theirs:?}"),
        }
    }
    assert_eq!(text.lines().count(), 40);
    assert!(read >= 38, "{read} read");
}
